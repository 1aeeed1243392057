/* SPDX-License-Identifier: MIT */
#ifndef IG_COMPARE_H
#define IG_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <json-c/json.h>

#include "engine/result.h"

enum { IG_V = 0, IG_T = 1 };	 /* verbs, tcp */
enum { IG_CLI = 0, IG_SRV = 1 }; /* client, server */

/* One verbs result next to the TCP result of the same size and streams. */
struct ig_pair {
	const struct ig_result *r[2]; /* [IG_V], [IG_T] */
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
};

/* Pairs every verbs result with its TCP counterpart.  0 or -ENOMEM. */
int ig_compare_build(const struct ig_result *res, size_t n,
		     struct ig_compare *c);
void ig_compare_free(struct ig_compare *c);
json_object *ig_compare_to_json(const struct ig_compare *c);
void ig_compare_text(FILE *f, const struct ig_compare *c);
void ig_compare_csv(FILE *f, const struct ig_compare *c);

#endif
