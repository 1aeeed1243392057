/* SPDX-License-Identifier: MIT */
#ifndef IG_FAB_PLAN_H
#define IG_FAB_PLAN_H

/*
 * Rounds made from a list of pairs, for the patterns that rank 0 plans
 * from what it alone knows (the topology, the first verdicts): rank 0
 * packs the list into rounds of disjoint pairs and hands each round to
 * the others as it comes (mpi_run.c).  Pure: no I/O.
 */

#include <stddef.h>

#include "sched.h"

struct ig_fab_rounds {
	struct ig_fab_pair *p; /* every pair, round by round */
	size_t np;
	unsigned int *off; /* nrounds + 1: round r is p[off[r] .. off[r + 1]) */
	unsigned int nrounds;
};

/* Scanned for one round at most, from the first pair not yet placed: a
 * bound on the work per round (O(k) in all for a list made of rounds). */
#define IG_FAB_PACK_WINDOW(n) (8 * (size_t)(n) + 64)

/*
 * Packs list[0..k) into *out (cleared first), in the list's order: each
 * round takes, from the first pair not yet placed on (at most
 * IG_FAB_PACK_WINDOW(n) of them), every pair whose two ranks are free in
 * it, until every rank is busy.  So a list made of disjoint rounds keeps
 * them, and the pairs early in the list are measured early.  A pair
 * with a == b, or a rank >= n, is left out.  O(k) for a list made of
 * rounds, O(k x n) at worst.  0, or -ENOMEM (out empty then).  Free
 * with ig_fab_rounds_free.
 */
int ig_fab_pack(const struct ig_fab_pair *list, size_t k, unsigned int n,
		struct ig_fab_rounds *out);
void ig_fab_rounds_free(struct ig_fab_rounds *r);

/* Round r's pairs into out (room for n); returns how many (0 when r is
 * out of range). */
unsigned int ig_fab_rounds_get(const struct ig_fab_rounds *r, unsigned int rnd,
			       struct ig_fab_pair *out);

#endif
