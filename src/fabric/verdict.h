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

#include "common/params.h"

/* One measurement of one pair (a -> b) with one test. */
struct ig_fab_meas {
	unsigned int round;
	unsigned int a, b;
	enum ig_test test;
	bool ok;	  /* measured; false: the pair failed (why says) */
	char why[96];	  /* the failure, one line ("" when ok) */
	double bw_gbps;	  /* bandwidth tests */
	double lat_p50_us; /* latency tests */
	double lat_p99_us;
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
 * Sets m[i].flagged: for each test, the median over the ok measurements
 * of that test (bandwidth, or p50 latency); a measurement is flagged when
 * it fails, or is below tol->bw x median (bandwidth), or above tol->lat x
 * median (latency).  When a flagged measurement was retested and the
 * retest is within the tolerances, it is marked transient and no longer
 * flagged.  medians[t] gets the median of test t (0 when none).  Returns
 * the number flagged.  O(k log k) for k measurements.
 */
size_t ig_fab_judge_pairs(struct ig_fab_meas *m, size_t k,
			  const struct ig_fab_tol *tol,
			  double medians[IG_TEST_COUNT]);

/* Why a node is flagged: which transport is low. */
enum ig_fab_cause {
	IG_FAB_OK,
	IG_FAB_VERBS_LOW, /* verbs low too: link, HCA, PCIe, cable */
	IG_FAB_TCP_LOW,	  /* TCP low alone: the IP stack (run the doctor) */
	IG_FAB_FAILED,	  /* its pairs failed (dead or stalled peer) */
};

struct ig_fab_node {
	unsigned int rank;
	/* filled by ig_fab_judge_nodes */
	unsigned int npairs;   /* measurements it took part in */
	unsigned int nflagged; /* of which flagged */
	bool flagged;	       /* most of its measurements flagged */
	enum ig_fab_cause cause;
	double bw_gbps[IG_TEST_COUNT];	/* median over its ok pairs, 0 none */
	double lat_us[IG_TEST_COUNT];	/* median p50 over its ok pairs */
	double badness; /* for ranking worst-first: flagged share, then
			   the lowest bandwidth ratio to the fabric */
};

/*
 * After ig_fab_judge_pairs: per node (nodes[i].rank == i, n nodes), the
 * counts, the medians, flagged when more than half of its measurements
 * are flagged, and the cause: FAILED when most of its flagged ones
 * failed, VERBS_LOW when any of its flagged ones is a verbs test, else
 * TCP_LOW.  A flagged pair between two unflagged nodes stays a pair
 * (link or switch) finding.  Returns the number of flagged nodes.
 */
size_t ig_fab_judge_nodes(const struct ig_fab_meas *m, size_t k,
			  const double medians[IG_TEST_COUNT],
			  struct ig_fab_node *nodes, unsigned int n);

/* Node indices sorted worst first (badness, then rank) into order[n]. */
void ig_fab_rank_nodes(const struct ig_fab_node *nodes, unsigned int n,
		       unsigned int *order);

/*
 * Fingerprint outliers: values[i * nkeys + j] is node i's value of key j
 * (a string, NULL when unknown).  For each key the majority value among
 * known values; out[i] gets a bitmask of the keys (j < 32) where node i
 * differs from its key's majority.  Returns the number of nodes with a
 * non-zero mask.  Ties: the value of the lowest rank among the tied.
 */
unsigned int ig_fab_outliers(const char *const *values, unsigned int n,
			     unsigned int nkeys, unsigned int *out);

const char *ig_fab_cause_text(enum ig_fab_cause c);

#endif
