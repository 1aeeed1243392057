/* SPDX-License-Identifier: MIT */
#ifndef IG_FAB_SAMPLE_H
#define IG_FAB_SAMPLE_H

/*
 * Bounded time for big fabrics (docs/fabric.md "Big fabrics: sampling
 * and budget"): --pattern sample's two phases, planned by rank 0 from
 * what it alone knows (sample.c), and the run's estimate (fab_est.c).
 * Pure: no I/O.
 *
 * 1. The sample: K rounds of random disjoint pairs, every node meets K
 *    partners, none twice, on another leaf where the topology is known.
 * 2. The suspects (the nodes flagged and both ends of every low pair,
 *    after the verdicts of the sample) each measured against
 *    IG_FAB_GOOD_PER_SUSPECT nodes known good (no low pair), one of
 *    them on its own leaf where the topology has one there: a bad node
 *    is low with all of them, a node behind a bad link only across it;
 *    and the flagged suspects in rings (one per leaf with a topology;
 *    two over all of them in random orders without), so that the nodes
 *    behind one bad link show fine among themselves.  A good node
 *    serves at most IG_FAB_GOOD_USES suspects: no node is in more than
 *    d = max(IG_FAB_GOOD_PER_SUSPECT + 2 x rings, IG_FAB_GOOD_USES)
 *    pairs of the phase, and ig_fab_pack() puts them in at most
 *    2d - 1 rounds (a pair waits only for the other pairs of its two
 *    ends, 2d - 2 at most), whatever the number of nodes: 9 rounds with
 *    a topology, 13 without.
 */

#include <stdbool.h>
#include <stdint.h>

#include "fab.h"
#include "plan.h"
#include "topo.h"

#define IG_FAB_GOOD_PER_SUSPECT 3
#define IG_FAB_GOOD_USES 5
/* the default --per-node */
#define IG_FAB_PER_NODE_DEFAULT 3

/* splitmix64: small, seeded, the same sequence everywhere */
struct ig_fab_rng {
	uint64_t s;
};

uint64_t ig_fab_rng_next(struct ig_fab_rng *r);
/* uniform in [0, n), n > 0 */
unsigned int ig_fab_rng_below(struct ig_fab_rng *r, unsigned int n);
void ig_fab_rng_shuffle(struct ig_fab_rng *r, unsigned int *v, unsigned int n);

struct ig_fab_sample {
	unsigned int n;	       /* ranks */
	unsigned int per_node; /* K, 1 to n / 2 */
	/* n: each rank's leaf (a switch vertex; -1 unplaced), or NULL
	 * without a topology */
	const int *leaf;
	struct ig_fab_rng rng;
	/* filled by the planners */
	unsigned int repeats;	/* sample pairs that met before (none unless
				 * K is near n / 2 and the swaps ran out) */
	unsigned int same_leaf; /* sample pairs on one leaf */
	unsigned int nsuspects, nflagged, ngood;
	unsigned int short_good; /* suspects with fewer good partners than
				  * asked: too few good nodes */
};

/* The largest --per-node for n ranks (n / 2). */
unsigned int ig_fab_per_node_max(unsigned int n);
/* The suspects' rounds for n ranks, at most (topo: with leaves). */
unsigned int ig_fab_suspect_rounds_max(unsigned int n, bool topo);

/* The sample's K rounds into *out (ig_fab_rounds_free).  0, -EINVAL
 * (K out of range), or -ENOMEM. */
int ig_fab_sample_plan(struct ig_fab_sample *s, struct ig_fab_rounds *out);

/*
 * The suspects' rounds into *out from the measurements m[0..k) judged
 * (flagged set, medians) and the nodes' verdicts (nodes[0..n)): no pair
 * already measured, no more rounds than ig_fab_suspect_rounds_max().
 * Sets nsuspects, nflagged, ngood, short_good.  0 or -ENOMEM.
 */
int ig_fab_sample_suspects(struct ig_fab_sample *s, const struct ig_fab_meas *m,
			   size_t k, const double medians[IG_TEST_COUNT],
			   const struct ig_fab_node *nodes,
			   struct ig_fab_rounds *out);

/* Each rank's group into grp[0..n): 0 for an unplaced rank (leaf -1;
 * every rank when leaf is NULL), else its leaf's number from 1, in the
 * order of first sight.  Returns the number of groups (0 included), or
 * 0 when out of memory. */
unsigned int ig_fab_leaf_groups(const int *leaf, unsigned int n,
				unsigned int *grp);

/* ---- the estimate (fab_est.c) ---- */

/* A round's cost beyond its tests' measured time, s: the control
 * session of each pair, each test's set-up, the barrier and the gather
 * (measured: 0.08-0.13 s on 6 namespaces of a 2-CPU machine). */
#define IG_FAB_ROUND_OVERHEAD_S 0.1

struct ig_fab_est {
	unsigned int tests;  /* a pair's tests */
	unsigned int back;   /* --both-directions: tests of the reverse */
	unsigned int runs;   /* each test's runs, at most (--repeat...) */
	bool timed;	     /* -D (else -n: the tests' time unknown) */
	double round_s;	     /* one round, and its reverse */
	unsigned int rounds; /* the run's rounds (a sample's: at most) */
	unsigned int pairs;  /* in a round */
	double total_s;
};

/* One round's figures for options o, verbs tests counted when rdma
 * (two ranks or more have an RDMA port); rounds and total left 0. */
void ig_fab_est_round(const struct ig_fab_opts *o, bool rdma,
		      struct ig_fab_est *e);
/* The largest K from 1 to kmax whose K + extra rounds of round_s fit
 * in budget_s; 1 when none does (*fits false then). */
unsigned int ig_fab_budget_k(double budget_s, double round_s,
			     unsigned int extra, unsigned int kmax, bool *fits);
/* "45 s", "1 min 10 s", "2 h 5 min" */
void ig_fab_dur_text(double s, char *buf, size_t len);

#endif
