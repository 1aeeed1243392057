/* SPDX-License-Identifier: MIT */
#ifndef IG_FAB_BLAME_H
#define IG_FAB_BLAME_H

/*
 * Blame (docs/fabric.md "Blame"): from the pairs, low or not, the
 * smallest set of nodes, links or switches that explains the low ones
 * (with a topology), or the groups of nodes fine among themselves whose
 * pairs between them are low (without).  Pure: the caller's arrays in,
 * allocated results out.
 */

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "common/params.h"
#include "topo.h"
#include "verdict.h"

/* One unordered pair of ranks as the blame sees it. */
struct ig_blame_pair {
	unsigned int a, b;
	bool low;     /* any of its measurements flagged */
	double ratio; /* its worst figure x its test's median (bandwidth:
		       * figure / median, latency: median / p50; 0 failed) */
};

/*
 * The measurements m[0..k) (judged: flagged set) as pairs, one per
 * unordered pair of ranks, sorted by (a, b), a < b, into *out (the
 * caller frees it).  Returns how many, or -ENOMEM.
 */
ssize_t ig_blame_pairs(const struct ig_fab_meas *m, size_t k,
		       const double medians[IG_TEST_COUNT],
		       struct ig_blame_pair **out);

enum ig_blame_kind {
	IG_BLAME_NODE,	 /* id: the rank */
	IG_BLAME_LINK,	 /* id: the link's index in the topology */
	IG_BLAME_SWITCH, /* id: the switch's vertex */
	IG_BLAME_GROUP,	 /* id: the group's number, from 1 */
};

struct ig_blame_ref {
	enum ig_blame_kind kind;
	unsigned int id;
};

#define IG_BLAME_ALSO 3

struct ig_blame_item {
	struct ig_blame_ref what;
	unsigned int k, n; /* k of the n pairs across it are low */
	double ratio;	   /* the median ratio of those n pairs */
	/* the pairs inside: a switch's (both ends on it), a link's leaf's
	 * (its end with hosts; leaf -1 when neither has), a group's */
	unsigned int kin, nin;
	int leaf;
	/* as many as this explain exactly the same low pairs: the pairs
	 * measured cannot tell them apart */
	unsigned int nalso;
	struct ig_blame_ref also[IG_BLAME_ALSO];
};

struct ig_blame {
	struct ig_blame_item *items; /* nodes, links, switches or groups */
	size_t nitems;
	unsigned int n;	     /* ranks */
	unsigned int *group; /* groups: a rank's group number, 0 none */
	bool *explained;     /* a rank whose low pairs are all explained by
			      * the links, switches or groups blamed */
	unsigned int nlow;   /* low pairs */
	unsigned int nexpl;  /* of which explained by an item */
};

/*
 * With a topology: place[rank] is the rank's host vertex (-1 unplaced:
 * its pairs can blame it alone).  The candidates: every node, every
 * switch-to-switch link and every switch on the pairs' paths.  One is
 * eligible when at least 2 and more than half of the pairs across it are
 * low, and:
 *  - a link: more than half of the nodes at the ends of its low pairs
 *    are fine on the paths that avoid it (most of their other pairs are
 *    not low);
 *  - a switch: most of the pairs inside it are low, or, with no pair
 *    inside it (a spine), two or more of its links have most of their
 *    pairs low.
 * Greedy: the eligible candidate with the most low pairs not yet
 * explained is blamed and explains them, until none explains 2; ties go
 * to a node before a link before a switch (a node's fault is never put on
 * its link), then to the lowest index.  0 or -ENOMEM; out is freed with
 * ig_blame_free.
 */
int ig_blame_topo(const struct ig_topo *t, const int *place, unsigned int n,
		  const struct ig_blame_pair *p, size_t k,
		  struct ig_blame *out);

/*
 * Without a topology: the connected components of the graph of the pairs
 * that are not low.  Each component of 2 or more nodes but the largest
 * (the rest; of equal ones, the one with the lowest rank) is a group when
 * at least 2 and more than half of the pairs between it and the nodes
 * outside it are low: a link they share.  0 or -ENOMEM.
 */
int ig_blame_groups(unsigned int n, const struct ig_blame_pair *p, size_t k,
		    struct ig_blame *out);

void ig_blame_free(struct ig_blame *b);

#endif
