/* SPDX-License-Identifier: MIT */
#ifndef IG_COMPARE_H
#define IG_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <json-c/json.h>

#include "engine/result.h"

/* A pair's two sides: [IG_V] the RDMA side (verbs, or rsockets against
 * TCP), [IG_T] the side measured against it (TCP, or rsockets against
 * verbs); every ratio is [IG_T] / [IG_V]. */
enum { IG_V = 0, IG_T = 1 };
enum { IG_CLI = 0, IG_SRV = 1 }; /* client, server */

/* What a group of pairs answers: its title and its sides' names. */
struct ig_pair_group {
	const char *title;   /* "verbs next to TCP on the same port: ..." */
	const char *side[2]; /* for the text's column heads: "verbs" */
	const char *abbr[2]; /* one letter each: "v", "t" */
	const char *label;   /* JSON "label"; NULL for verbs vs TCP */
};

/* One result next to its counterpart of the same size, streams and
 * window (docs/design.md, "Pairs and their figures"). */
struct ig_pair {
	const struct ig_result *r[2]; /* [IG_V], [IG_T] */
	const struct ig_pair_group *g;
	unsigned int kind; /* the pairing's index, in compare.c's table */
	uint64_t size;
	bool lat;
	/* bandwidth pairs */
	double bw[2], bw_ratio;	    /* Gb/s; tcp / verbs */
	double rate[2], rate_ratio; /* messages/s; tcp / verbs */
	double cpu_gb[2][2]; /* [side][transport] CPU s per GB, <0 unknown */
	double port_gbps;    /* port data rate, 0 unknown */
	/* latency pairs, microseconds */
	bool has_p50, has_p99;
	double p50[2], p99[2];
	/* datagram IPoIB only: [IG_T] is TCP over UD, and this is the pair
	 * whose verbs side is UD too */
	bool like_for_like;
};

/* NetPIPE's N1/2: the smallest size reaching half of the peak bandwidth. */
struct ig_nhalf {
	const char *test;
	uint64_t size;
	double peak_gbps;
	uint64_t peak_size;
};

/* The smallest size at which tcp/verbs bandwidth reaches a threshold. */
struct ig_crossing {
	const char *verbs_test;
	double threshold;
	uint64_t size; /* 0: not reached in the sweep */
};

#define IG_MAX_CROSSINGS 8

struct ig_compare {
	struct ig_pair *pairs;
	size_t npairs;
	struct ig_nhalf nhalf[IG_TEST_COUNT];
	size_t nnhalf;
	struct ig_crossing cross[IG_MAX_CROSSINGS];
	size_t ncross;
	/* the IPoIB mode of the path to the server, as the doctor found it:
	 * "datagram", "connected" or "" (not IPoIB, unknown) */
	char ipoib_mode[16];
};

/* Pairs every result with its counterparts.  0 or -ENOMEM. */
int ig_compare_build(const struct ig_result *res, size_t n,
		     struct ig_compare *c);
/* Tells the comparison the path's IPoIB mode (ig_compare_build leaves
 * it unknown): "datagram" marks the like-for-like pairs. */
void ig_compare_set_ipoib(struct ig_compare *c, const char *mode);
void ig_compare_free(struct ig_compare *c);
json_object *ig_compare_to_json(const struct ig_compare *c);
void ig_compare_text(FILE *f, const struct ig_compare *c);
void ig_compare_csv(FILE *f, const struct ig_compare *c);

#endif
