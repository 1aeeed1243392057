/* SPDX-License-Identifier: MIT */
#ifndef IG_FAB_VERDICT_H
#define IG_FAB_VERDICT_H

/*
 * The fabric's verdicts: which pairs and which nodes are bad, and why.
 * Pure: works on arrays the caller owns (rank 0 holds one entry per
 * measured pair and per node), no I/O.
 */

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "common/params.h"
#include "common/repeat.h"

/* One measurement of one pair (a -> b) with one test. */
struct ig_fab_meas {
	unsigned int round;
	unsigned int a, b;
	enum ig_test test;
	/* -R: b (the server) sent a bandwidth test's data; a otherwise (with
	 * --bidir the figure is a's, a -> b, as without it) */
	bool reverse;
	/* --rails: the rail of a and of b (their indices in their
	 * announced rails), how they were paired (enum ig_rail_by) */
	bool railed;
	unsigned int rail_a, rail_b;
	int rail_by;
	/* with --topology: the pair's hop distance (ig_topo_pair_hops:
	 * 0 same leaf, 2 via one spine, ...), set by rank 0 */
	bool hops_known;
	unsigned int hops;
	bool ok;	   /* measured; false: the pair failed (why says) */
	char why[96];	   /* the failure, one line ("" when ok) */
	double bw_gbps;	   /* bandwidth tests */
	double lat_p50_us; /* latency tests */
	double lat_p99_us;
	/* --repeat, --confidence: the spread over the runs (rep.n > 1);
	 * rep.metric NULL (the test says which: bw_gbps or lat_us.p50) */
	struct ig_repeat rep;
	/* filled by ig_fab_judge_pairs */
	bool flagged;
	/* the retest of a flagged pair (filled by the caller) */
	bool retested;
	bool retest_ok;
	double retest_bw_gbps, retest_p50_us, retest_p99_us;
	/* filled by ig_fab_judge_pairs after a retest: the retest passed,
	 * so the first figure was a transient */
	bool transient;
};

struct ig_fab_tol {
	double bw;  /* a pair is low below bw x the median (0.9) */
	double lat; /* a pair is slow above lat x the median p50 (2.0) */
};

/*
 * Sets m[i].flagged and m[i].transient (both cleared first): for each
 * test, the median over the ok measurements of that test (bandwidth, or
 * p50 latency for the tests whose ig_test_pattern() is IG_PATTERN_LAT;
 * the mean of the middle two for an even count); a measurement is flagged
 * when it fails, or is below tol->bw x median (bandwidth), or above
 * tol->lat x median (latency); a NaN figure is flagged and out of the
 * median.  When a flagged measurement was retested (retested and
 * retest_ok) and the retest is within the tolerances, it is marked
 * transient and no longer flagged.  A measurement of an unknown test is
 * left unflagged.  tol NULL: the defaults above.  medians[t] gets the
 * median of test t (0 when none).  Returns the number flagged, or -ENOMEM
 * (nothing flagged then).  O(k log k) for k measurements; allocates k
 * doubles for the duration of the call.
 */
ssize_t ig_fab_judge_pairs(struct ig_fab_meas *m, size_t k,
			   const struct ig_fab_tol *tol,
			   double medians[IG_TEST_COUNT]);

/* Hop distances told apart by ig_fab_judge_pairs_hops (a farther pair
 * is held against its test's median), and the fewest ok measurements at
 * one distance that give it a reference of its own. */
#define IG_FAB_HOPS_MAX 8
#define IG_FAB_HOP_MIN 4

/* What each hop distance's pairs are held against, per test. */
struct ig_fab_hopref {
	unsigned int n[IG_TEST_COUNT][IG_FAB_HOPS_MAX]; /* ok measurements */
	double median[IG_TEST_COUNT][IG_FAB_HOPS_MAX];	/* their median */
	/* the reference: 0 for the test's median */
	double ref[IG_TEST_COUNT][IG_FAB_HOPS_MAX];
};

/*
 * ig_fab_judge_pairs with a reference per hop distance (--pattern leaves):
 * h gets, for each test and each distance d below IG_FAB_HOPS_MAX, the
 * count and median of the ok measurements with hops_known and hops d.
 * For d > 0 with at least IG_FAB_HOP_MIN of them, the reference is the
 * median of their best quarter (the highest n/4 bandwidths; the lowest
 * n/4 p50s for latency) when that is worse than the test's median: an
 * uplink level that every pair at that distance crosses alike
 * (oversubscribed) slows them all, and is not a fault; one bad uplink
 * that fewer than three quarters of them cross still is, and one noisy
 * pair among those that avoid it does not hide it.  A measurement at such a
 * distance is held against the reference instead of the median; every other
 * against the median.
 */
ssize_t ig_fab_judge_pairs_hops(struct ig_fab_meas *m, size_t k,
				const struct ig_fab_tol *tol,
				double medians[IG_TEST_COUNT],
				struct ig_fab_hopref *h);

/* The rank that sent a measurement's data: a, or b when reverse; -1 for
 * a latency test (a ping-pong has no direction) or an unknown one. */
int ig_fab_sender(const struct ig_fab_meas *m);

/* Why a node is flagged: which transport is low. */
enum ig_fab_cause {
	IG_FAB_OK,
	IG_FAB_VERBS_LOW, /* verbs low too: link, HCA, PCIe, cable */
	IG_FAB_TCP_LOW,	  /* TCP low alone: the IP stack (run the doctor) */
	IG_FAB_FAILED,	  /* its pairs failed (dead or stalled peer) */
};

/* The sides of a node's bandwidth measurements (ig_fab_sender()). */
enum {
	IG_FAB_DIR_SEND = 1u << 0, /* it sent the data */
	IG_FAB_DIR_RECV = 1u << 1, /* it received it */
};

/* One side of a node: its test with the highest share flagged on that
 * side (ties: the most flagged, then the first test); test -1: none. */
struct ig_fab_dirc {
	int test;
	unsigned int n, nflagged;
};

struct ig_fab_node {
	unsigned int rank;
	/* filled by ig_fab_judge_nodes */
	unsigned int npairs;   /* measurements it took part in */
	unsigned int nflagged; /* of which flagged */
	bool flagged;	       /* most of one test's measurements flagged */
	enum ig_fab_cause cause;
	/* IG_FAB_DIR_* bits: the side(s) most of whose measurements of one
	 * test are flagged (at least IG_FAB_DIR_MIN of them); 0 when only
	 * the rule over all its measurements (or none) flags it */
	unsigned int dir;
	struct ig_fab_dirc send, recv;
	double bw_gbps[IG_TEST_COUNT]; /* median over its ok pairs, 0 none */
	double lat_us[IG_TEST_COUNT];  /* median p50 over its ok pairs */
	/* the lowest ratio of its median bandwidth to the fabric's median
	 * over the bandwidth tests it took part in (0 for one with no ok
	 * pair), -1 when it took part in none: the report prints it, the
	 * order below breaks ties of the flagged share with it */
	double bw_ratio;
	/* the highest ratio of its median p50 to the fabric's median over
	 * the latency tests it took part in (as bw_ratio), -1 for none */
	double lat_ratio;
	/* 1u << test for each test that flags it (the rules above) */
	unsigned int tests;
};

/* The fewest flagged measurements on one side that flag a node: one
 * alone may be its partner's fault as well as its own. */
#define IG_FAB_DIR_MIN 2

/*
 * After ig_fab_judge_pairs: fills nodes[0..n) (rank = i; a measurement's
 * side with a or b >= n is left out): the counts, the medians, and
 * flagged when, for some test, more than half of its measurements of that
 * test are flagged (per test, so that a node low in TCP alone, a third of
 * its measurements, is still found); or when more than half, and at least
 * IG_FAB_DIR_MIN, of those of one test in which it sent (or of those in
 * which it received) are flagged: a one-way fault, such as a node whose
 * inbound is bad, low in the pairs where it receives alone.  The sides
 * leave out the pairs with a partner flagged by the first rule for that
 * test (its fault, not this node's); dir says which side(s) flag it.  A
 * healthy node's measurements with one bad partner are one of each
 * side's: not most, and never IG_FAB_DIR_MIN.  The cause: FAILED when
 * more than half of its flagged ones failed, else VERBS_LOW when a verbs
 * test (ig_test_xport() IG_XPORT_VERBS) is among the tests that flag it,
 * else TCP_LOW; OK when not flagged.  A flagged pair between two
 * unflagged nodes stays a pair (link or switch) finding.  Returns the
 * number of flagged nodes, or -ENOMEM (nodes[] cleared then).
 * O(k log k + n); allocates 2k entries and n masks for the duration of
 * the call.
 */
ssize_t ig_fab_judge_nodes(const struct ig_fab_meas *m, size_t k,
			   const double medians[IG_TEST_COUNT],
			   struct ig_fab_node *nodes, unsigned int n);

/* The fewest ok measurements of a test on one rail that give that rail
 * a median of its own (ig_fab_judge_rails). */
#define IG_FAB_RAIL_MIN 4

/*
 * --rails: the fabric's rule per rail.  After ig_fab_judge_pairs (its
 * medians, over every rail's measurements, in medians): the railed
 * measurements are grouped by the client's rail index (rail_a; ngroups
 * groups, those with rail_a >= ngroups left out).  A test with at least
 * IG_FAB_RAIL_MIN ok measurements in a group is judged again within the
 * group (ig_fab_judge_pairs on the group alone: its flagged and transient
 * replaced), so that a rail is held against the same rail of the other
 * nodes and a slower rail of every node (storage) is no fault; with fewer
 * the fabric's flags stand (two nodes: each rail against the median of
 * every rail).  Then each group is judged as ig_fab_judge_nodes judges a
 * fabric: nodes[g * n + i] is node i on its rail of group g, rail[g * n +
 * i] that rail's index on node i (rail_a where i is the client, else
 * rail_b; -1 when i took no part in g).  Returns the number of (node,
 * rail) flagged, or -ENOMEM.
 */
ssize_t ig_fab_judge_rails(struct ig_fab_meas *m, size_t k,
			   const struct ig_fab_tol *tol,
			   const double medians[IG_TEST_COUNT], unsigned int n,
			   unsigned int ngroups, struct ig_fab_node *nodes,
			   int *rail);

/* Node indices sorted worst first into order[n]: the nodes measured
 * (npairs > 0) before the others, then the flagged share nflagged/npairs
 * down (exact), then bw_ratio up (-1, none, counts as 1), then rank. */
void ig_fab_rank_nodes(const struct ig_fab_node *nodes, unsigned int n,
		       unsigned int *order);

/*
 * Fingerprint outliers: values[i * nkeys + j] is node i's value of key j
 * (a string, NULL when unknown).  For each key the majority value: the
 * most common among known values (a plurality); ties: the value of the
 * lowest rank among the tied.  out[i] gets a bitmask of the keys where
 * node i's known value differs from its key's majority (an unknown value
 * never differs).  Keys j >= 32 have no bit and are not looked at.
 * Returns the number of nodes with a non-zero mask.  No allocation: out[]
 * is the scratch of the sort; O(n log n) string compares per key.
 */
unsigned int ig_fab_outliers(const char *const *values, unsigned int n,
			     unsigned int nkeys, unsigned int *out);

/* One line for people ("unknown" for a bad value). */
const char *ig_fab_cause_text(enum ig_fab_cause c);

/* m's figure for its test: the p50 latency in us for a latency test,
 * else its bandwidth in Gb/s (NaN or 0 where it has none). */
double ig_fab_meas_x(const struct ig_fab_meas *m);

/* The median of v[0..n), which it sorts (the mean of the middle two for
 * an even n; 0 when n is 0): the verdicts' medians, and the report's
 * round overhead. */
double ig_fab_median(double *v, size_t n);

#endif
