/* SPDX-License-Identifier: MIT */
/* Shared by baseline*.c only. */
#ifndef IG_BASELINE_INT_H
#define IG_BASELINE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#define IG_BL_LABEL_LEN 128

/* What identifies a result; idx is its place in its results array. */
struct ig_bl_key {
	const char *test;
	const char *at;	  /* --also's column: "@ADDR" of "tcp@ADDR", else "" */
	const char *rail; /* --rails: the client's device, else "" */
	uint64_t size;
	uint64_t streams; /* 1 when absent */
	uint64_t window;  /* window.requested; 0 (the default) when absent */
	size_t idx;
};

/* s with control characters as '?', cut to fit buf. */
const char *ig_bl_clean(const char *s, char *buf, size_t len);

/* "write_bw 64K streams 1", then " window 256K" when one was set;
 * --also's column: "tcp_bw@192.0.2.7 64K streams 1" */
void ig_bl_label(const struct ig_bl_key *k, char *buf, size_t len);

struct ig_bl_match_ops {
	/* a result of each run with the same key (old's key in k) */
	void (*pair)(void *ctx, const struct ig_bl_key *k, json_object *o,
		     json_object *n);
	/* a result with no partner, in the old run or the new */
	void (*single)(void *ctx, const struct ig_bl_key *k, bool in_old);
};

/*
 * Pairs the results of two arrays by key; results with the same key pair
 * up in file order.  Calls pair or single for each old result in order,
 * then single for the new results left, in order.  0 or -ENOMEM.
 */
int ig_bl_match(json_object *ores, json_object *nres,
		const struct ig_bl_match_ops *ops, void *ctx);

#endif
