// SPDX-License-Identifier: MIT
/*
 * The fabric's round scheduler.  Every round is computed on its own from
 * (pattern, n, root, r), so a rank needs neither the whole schedule nor
 * memory that grows with n^2.  Arithmetic is 64-bit: n + 1 and i + r + 1
 * cannot wrap.
 */
#include <stdint.h>
#include <string.h>

#include "sched.h"

const char *const ig_fab_pattern_names[IG_FAB_PATTERN_COUNT + 1] = {
	[IG_FAB_PAIRS] = "pairs",
	[IG_FAB_RING] = "ring",
	[IG_FAB_BISECTION] = "bisection",
	[IG_FAB_INCAST] = "incast",
	[IG_FAB_LEAVES] = "leaves", /* planned by rank 0 (plan.h) */
	[IG_FAB_SAMPLE] = "sample", /* planned by rank 0 (sample.h) */
	NULL,
};

const char *ig_fab_pattern_name(enum ig_fab_pattern p)
{
	if ((unsigned int)p >= IG_FAB_PATTERN_COUNT)
		return NULL;
	return ig_fab_pattern_names[p];
}

int ig_fab_pattern_parse(const char *name)
{
	for (int i = 0; name && ig_fab_pattern_names[i]; i++)
		if (!strcmp(name, ig_fab_pattern_names[i]))
			return i;
	return -1;
}

unsigned int ig_fab_nrounds(enum ig_fab_pattern p, unsigned int n,
			    unsigned int root)
{
	if (n < 2)
		return 0;
	switch (p) {
	case IG_FAB_PAIRS:
		return n % 2 ? n : n - 1;
	case IG_FAB_RING:
		return n - 1;
	case IG_FAB_BISECTION:
		return 1;
	case IG_FAB_INCAST:
		return root < n ? 1 : 0;
	default:
		return 0;
	}
}

static void put(struct ig_fab_pair *out, unsigned int *np, uint64_t a,
		uint64_t b)
{
	out[*np].a = (unsigned int)a;
	out[*np].b = (unsigned int)b;
	(*np)++;
}

/*
 * The circle method: m = n rounded up to even (rank n is the phantom of
 * an odd n), rank m - 1 stays put and ranks 0..m-2 turn one place a round.
 * Round r pairs m - 1 with r, and r + k with r - k (mod m - 1) for
 * k = 1..m/2-1.  The fixed pair alternates its direction; in the others
 * every rank is client as often as it is server.
 */
static unsigned int round_pairs(unsigned int n, unsigned int r,
				struct ig_fab_pair *out)
{
	uint64_t m = (uint64_t)n + n % 2, turn = m - 1;
	unsigned int np = 0;

	if (turn < n) {
		if (r % 2)
			put(out, &np, turn, r);
		else
			put(out, &np, r, turn);
	}
	for (uint64_t k = 1; k < m / 2; k++)
		put(out, &np, (r + k) % turn, (r + turn - k) % turn);
	return np;
}

unsigned int ig_fab_round(enum ig_fab_pattern p, unsigned int n,
			  unsigned int root, unsigned int r,
			  struct ig_fab_pair *out)
{
	unsigned int np = 0;

	if (!out || r >= ig_fab_nrounds(p, n, root))
		return 0;
	switch (p) {
	case IG_FAB_PAIRS:
		return round_pairs(n, r, out);
	case IG_FAB_RING:
		for (uint64_t i = 0; i < n; i++)
			put(out, &np, i, (i + r + 1) % n);
		return np;
	case IG_FAB_BISECTION:
		for (unsigned int i = 0; i < n / 2; i++)
			put(out, &np, i, i + n / 2);
		return np;
	case IG_FAB_INCAST:
		for (unsigned int i = 0; i < n; i++)
			if (i != root)
				put(out, &np, i, root);
		return np;
	default:
		return 0;
	}
}

/* The first pair where me is the client (as_client) or the server. */
static bool find_role(const struct ig_fab_pair *pairs, unsigned int npairs,
		      unsigned int me, bool as_client, unsigned int *peer)
{
	for (unsigned int i = 0; i < npairs; i++) {
		if (as_client && pairs[i].a == me) {
			*peer = pairs[i].b;
			return true;
		}
		if (!as_client && pairs[i].b == me) {
			*peer = pairs[i].a;
			return true;
		}
	}
	return false;
}

int ig_fab_role(const struct ig_fab_pair *pairs, unsigned int npairs,
		unsigned int me, bool as_client, unsigned int *peer)
{
	if (find_role(pairs, npairs, me, as_client, peer))
		return as_client ? 1 : 2;
	if (find_role(pairs, npairs, me, !as_client, peer))
		return as_client ? 2 : 1;
	return 0;
}
