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
#include "topo.h"

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

/* A list of pairs that grows (the planners' lists). */
struct ig_fab_plist {
	struct ig_fab_pair *p;
	size_t k, cap;
};

/* Appends (a, b) to l; 0 or -ENOMEM (l as it was).  Free l->p. */
int ig_fab_plist_add(struct ig_fab_plist *l, unsigned int a, unsigned int b);

/* Round r's pairs into out (room for n); returns how many (0 when r is
 * out of range). */
unsigned int ig_fab_rounds_get(const struct ig_fab_rounds *r, unsigned int rnd,
			       struct ig_fab_pair *out);

/* ---- --pattern leaves (leaves.c) ---- */

/*
 * The leaves pattern's pairs, in the order they are to be measured, into
 * *list (the caller frees it), *k of them.  place[rank] is the rank's host
 * vertex on t (-1 unplaced); a rank's leaf is the first switch its host
 * links to.  First the pairs inside each leaf: the circle method over
 * its ranks (sched.h's pairs), round r of every leaf together.  Then the
 * pairs between leaves: the circle method over the leaves gives rounds of
 * leaf pairs; for leaves L and M the x-th rank of L with the x-th of M,
 * x below the smaller size, from L to M for an even x and from M to L for
 * an odd one (each uplink carries both ways).  The pairs between leaves
 * go by hop distance (the switch-to-switch links between the leaves: 2
 * via one spine, 4 via two levels), the nearer first.  The unplaced ranks
 * are one leaf of their own, its distance to the others unknown: last.
 * So each switch-to-switch link on a leaf's path is crossed by the leaf's
 * size pairs in each of its leaf rounds.  0, -E2BIG with more than
 * IG_FAB_LEAVES_MAX leaves (the distances between them are a table of
 * their number squared), or -ENOMEM.
 */
#define IG_FAB_LEAVES_MAX 4096
int ig_fab_leaves(const struct ig_topo *t, const int *place, unsigned int n,
		  struct ig_fab_pair **list, size_t *k);

#endif
