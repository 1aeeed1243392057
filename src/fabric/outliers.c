// SPDX-License-Identifier: MIT
/*
 * Fingerprint outliers: per key, the majority value among the nodes, and
 * which nodes differ from it.  No allocation: the caller's out[] is the
 * scratch of each key's sort, then gets the masks.
 */
#include <stdlib.h>
#include <string.h>

#include "verdict.h"

/* One key of the fingerprints. */
struct key {
	const char *const *values;
	unsigned int nkeys, j;
};

static const char *key_value(const struct key *key, unsigned int i)
{
	return key->values[(size_t)i * key->nkeys + key->j];
}

/* By value, then rank. */
static int cmp_value(const void *pa, const void *pb, void *ctx)
{
	unsigned int a = *(const unsigned int *)pa;
	unsigned int b = *(const unsigned int *)pb;
	int c = strcmp(key_value(ctx, a), key_value(ctx, b));

	return c ? c : (a > b) - (a < b);
}

/* The majority value of one key (NULL when none is known); idx[n] is the
 * scratch of the sort. */
static const char *majority(const struct key *key, unsigned int n,
			    unsigned int *idx)
{
	unsigned int m = 0, best = 0, bestc = 0;

	for (unsigned int i = 0; i < n; i++)
		if (key_value(key, i))
			idx[m++] = i;
	qsort_r(idx, m, sizeof(*idx), cmp_value, (void *)key);
	for (unsigned int i = 0, e; i < m; i = e) {
		const char *v = key_value(key, idx[i]);

		for (e = i + 1; e < m && !strcmp(v, key_value(key, idx[e]));
		     e++)
			;
		/* idx[i] is the lowest rank of its value */
		if (e - i > bestc || (e - i == bestc && idx[i] < idx[best])) {
			best = i;
			bestc = e - i;
		}
	}
	return bestc ? key_value(key, idx[best]) : NULL;
}

unsigned int ig_fab_outliers(const char *const *values, unsigned int n,
			     unsigned int nkeys, unsigned int *out)
{
	const char *maj[32];
	unsigned int nk = nkeys < 32 ? nkeys : 32, nout = 0;

	for (unsigned int j = 0; j < nk; j++) {
		struct key key = { .values = values, .nkeys = nkeys, .j = j };

		maj[j] = majority(&key, n, out);
	}
	for (unsigned int i = 0; i < n; i++) {
		out[i] = 0;
		for (unsigned int j = 0; j < nk; j++) {
			const char *v = values[(size_t)i * nkeys + j];

			if (v && maj[j] && strcmp(v, maj[j]))
				out[i] |= 1u << j;
		}
		nout += out[i] != 0;
	}
	return nout;
}
