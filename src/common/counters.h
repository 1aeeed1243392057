/* SPDX-License-Identifier: MIT */
#ifndef IG_COUNTERS_H
#define IG_COUNTERS_H

#include <stdbool.h>
#include <stdint.h>

#include "params.h"

/*
 * Named per-stream values a transport reports about itself (TCP: TCP_INFO
 * and the MSG_ZEROCOPY counts), carried by the engine, the wire and the
 * result without being read (docs/design.md, "The transport contract").
 * A transport declares them once in a table of struct ig_ctr_def; a
 * snapshot holds one stream's values, by the table's index.
 */
#define IG_CTR_MAX 16

/* What a value over the measured interval is. */
enum ig_ctr_rule {
	IG_CTR_COUNTER, /* end minus start (modulo 2^bits) */
	IG_CTR_GAUGE,	/* the value at the end */
};

/* How values pool across streams and across repeated runs. */
enum ig_ctr_pool {
	IG_POOL_SUM,
	IG_POOL_MAX,
	IG_POOL_MEAN,
	IG_POOL_LAST,
};

struct ig_ctr_def {
	const char *group; /* the key the wire and the report file it under */
	const char *name;  /* the member's name in the group */
	const char *unit;  /* "segments", "us", "bytes", "sends" */
	enum ig_ctr_rule rule;
	unsigned int bits; /* a counter's width (it wraps); 0: 64 */
	enum ig_ctr_pool pool;
};

/* One stream's values; bit i of have: v[i] was read. */
struct ig_ctr_snap {
	uint32_t have;
	uint64_t v[IG_CTR_MAX];
};

/* Every stream's values of one side, and the table that names them. */
struct ig_ctrs {
	const struct ig_ctr_def *def;
	unsigned int n;	       /* entries in def, at most IG_CTR_MAX */
	unsigned int nstreams; /* snapshots in st */
	struct ig_ctr_snap st[IG_MAX_STREAMS];
};

/* An empty set of nstreams streams of the table def[0..n). */
void ig_ctrs_init(struct ig_ctrs *c, const struct ig_ctr_def *def,
		  unsigned int n, unsigned int nstreams);
/* True when some stream has a value of group. */
bool ig_ctrs_has_group(const struct ig_ctrs *c, const char *group);
/* The index of group's name in the table, or -1. */
int ig_ctrs_find(const struct ig_ctrs *c, const char *group, const char *name);
/*
 * end becomes the measured interval from start to end by each value's
 * rule; a counter is kept only when both snapshots have it.  Pure.
 */
void ig_ctr_interval(const struct ig_ctr_def *def, unsigned int n,
		     struct ig_ctr_snap *end, const struct ig_ctr_snap *start);
/*
 * Value i pooled over the streams that have it, by its rule (MEAN: the
 * integer mean); false when none has it (*out untouched).
 */
bool ig_ctrs_streams(const struct ig_ctrs *c, int i, uint64_t *out);
/*
 * Repeated runs: r pooled into acc by each value's rule (MEAN adds up
 * until ig_ctrs_pool_end divides by the k runs); a value stays only when
 * both have it.  Tables that differ: acc keeps nothing.
 */
void ig_ctrs_pool(struct ig_ctrs *acc, const struct ig_ctrs *r);
void ig_ctrs_pool_end(struct ig_ctrs *acc, unsigned int k);

#endif
