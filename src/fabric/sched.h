/* SPDX-License-Identifier: MIT */
#ifndef IG_FAB_SCHED_H
#define IG_FAB_SCHED_H

/*
 * The fabric's round scheduler: which ranks measure each other in each
 * round.  Pure: no I/O, no allocation; round r is computed on its own in
 * O(n), so nothing grows with n^2.
 */

#include <stdbool.h>

enum ig_fab_pattern {
	IG_FAB_PAIRS,	  /* every pair once, n/2 disjoint pairs a round */
	IG_FAB_RING,	  /* step k: rank i -> i+k (mod n), k = 1..n-1 */
	IG_FAB_BISECTION, /* first half -> second half, all at once */
	IG_FAB_INCAST,	  /* every rank -> root, all at once */
	IG_FAB_LEAVES,	  /* inside each leaf, then between (plan.h) */
	IG_FAB_SAMPLE,	  /* K random partners a node, then the suspects
			   * (planned by rank 0: sample.h) */
	IG_FAB_PATTERN_COUNT
};

/* One measurement: rank a is the client (it sends in a bandwidth test),
 * rank b the server. */
struct ig_fab_pair {
	unsigned int a, b;
};

/* "pairs", "ring", ... (NULL for a bad value) and back (-1 for an
 * unknown name). */
const char *ig_fab_pattern_name(enum ig_fab_pattern p);
int ig_fab_pattern_parse(const char *name);
/* Their names, by enum value, NULL-terminated. */
extern const char *const ig_fab_pattern_names[IG_FAB_PATTERN_COUNT + 1];

/*
 * Rounds of pattern p over n ranks (n >= 2; root < n for incast):
 * pairs n-1 (n even) or n (n odd: one rank rests each round), ring n-1,
 * bisection 1, incast 1.  0 when n < 2, for incast when root >= n, and
 * for an unknown pattern or one that rank 0 plans (leaves: plan.h;
 * sample: sample.h); root
 * matters to incast alone.
 */
unsigned int ig_fab_nrounds(enum ig_fab_pattern p, unsigned int n,
			    unsigned int root);

/*
 * The pairs of round r (0 <= r < ig_fab_nrounds) into out, which has room
 * for n entries; returns how many (0 when r is out of range, or out is
 * NULL).  Pairs: the circle method, every unordered pair of ranks exactly
 * once over all rounds (as a->b or b->a), a rank in at most one pair a
 * round, a != b always.  Ring: n pairs (i, i+r+1 mod n).  Bisection: n/2
 * pairs (i, i + n/2), i < n/2 (n odd: the last rank rests).  Incast: n-1
 * pairs (i, root), i != root.
 */
unsigned int ig_fab_round(enum ig_fab_pattern p, unsigned int n,
			  unsigned int root, unsigned int r,
			  struct ig_fab_pair *out);

/* The pair of round r that rank me takes part in as client (*peer = the
 * server, returns 1), as server (*peer = the client, returns 2), or 0
 * when it rests.  A ring rank is both, the incast root the server of
 * many: as_client picks the role looked for first, and the first such
 * pair in pairs[] wins.  O(npairs). */
int ig_fab_role(const struct ig_fab_pair *pairs, unsigned int npairs,
		unsigned int me, bool as_client, unsigned int *peer);

#endif
