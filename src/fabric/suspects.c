// SPDX-License-Identifier: MIT
/*
 * --pattern sample's second phase (sample.h): the suspects measured
 * again against nodes known good, and the flagged ones of a leaf in a
 * ring (without a topology, all of them in two).  The good nodes are taken
 * round-robin from a shuffled list, so that each serves few suspects.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "blame.h"
#include "sample.h"

enum { UNMEASURED, GOOD, SUSPECT, FLAGGED };

struct susp {
	struct ig_fab_sample *s;
	const int *leaf;
	struct ig_blame_pair *bp; /* the pairs measured, by (a, b) */
	size_t nbp;
	unsigned char *state;	 /* n */
	unsigned int *used;	 /* n: suspects a good node serves */
	unsigned int *good;	 /* the good ranks, shuffled */
	unsigned int ngood, cur; /* round-robin */
	unsigned int avail;	 /* good ones that may serve one more */
	unsigned int *bygrp;	 /* the good ranks by leaf (a group) */
	unsigned int *goff;	 /* ngrp + 1 */
	unsigned int *gcur;	 /* ngrp */
	unsigned int *grp;	 /* n: a rank's group */
	unsigned int ngrp;
	unsigned int *nbr, *nnbr; /* n x 4, n: a rank's ring neighbours */
	struct ig_fab_plist pl;
};

static int cmp_bp(const void *pa, const void *pb)
{
	const struct ig_blame_pair *x = pa, *y = pb;

	if (x->a != y->a)
		return x->a < y->a ? -1 : 1;
	return (x->b > y->b) - (x->b < y->b);
}

static bool measured(const struct susp *x, unsigned int a, unsigned int b)
{
	struct ig_blame_pair key = { .a = a < b ? a : b, .b = a < b ? b : a };

	return bsearch(&key, x->bp, x->nbp, sizeof(key), cmp_bp) != NULL;
}

static int add(struct susp *x, unsigned int a, unsigned int b)
{
	return ig_fab_plist_add(&x->pl, a, b);
}

/* Each rank's state from the pairs and the verdicts. */
static void states(struct susp *x, const struct ig_fab_node *nodes)
{
	unsigned int n = x->s->n;

	for (size_t i = 0; i < x->nbp; i++) {
		const unsigned int e[2] = { x->bp[i].a, x->bp[i].b };

		for (int j = 0; j < 2; j++) {
			if (e[j] >= n)
				continue;
			if (x->bp[i].low)
				x->state[e[j]] = SUSPECT;
			else if (x->state[e[j]] == UNMEASURED)
				x->state[e[j]] = GOOD;
		}
	}
	for (unsigned int i = 0; i < n; i++)
		if (nodes[i].flagged)
			x->state[i] = FLAGGED;
}

/* The good ranks shuffled, and by group (each group's in that order). */
static int good_lists(struct susp *x)
{
	unsigned int n = x->s->n;

	x->good = malloc(((size_t)n + 1) * sizeof(*x->good));
	x->bygrp = malloc(((size_t)n + 1) * sizeof(*x->bygrp));
	x->goff = calloc((size_t)x->ngrp + 2, sizeof(*x->goff));
	x->gcur = calloc((size_t)x->ngrp + 1, sizeof(*x->gcur));
	if (!x->good || !x->bygrp || !x->goff || !x->gcur)
		return -ENOMEM;
	for (unsigned int i = 0; i < n; i++)
		if (x->state[i] == GOOD)
			x->good[x->ngood++] = i;
	ig_fab_rng_shuffle(&x->s->rng, x->good, x->ngood);
	for (unsigned int i = 0; i < x->ngood; i++)
		x->goff[x->grp[x->good[i]] + 1]++;
	for (unsigned int g = 0; g < x->ngrp; g++)
		x->goff[g + 1] += x->goff[g];
	memcpy(x->gcur, x->goff, x->ngrp * sizeof(*x->gcur));
	for (unsigned int i = 0; i < x->ngood; i++)
		x->bygrp[x->gcur[x->grp[x->good[i]]]++] = x->good[i];
	memcpy(x->gcur, x->goff, x->ngrp * sizeof(*x->gcur));
	x->avail = x->ngood;
	x->cur = x->ngood ? ig_fab_rng_below(&x->s->rng, x->ngood) : 0;
	return 0;
}

/* Whether good rank w may partner suspect v (not yet among got[]). */
static bool fits(const struct susp *x, unsigned int v, unsigned int w,
		 const unsigned int *got, unsigned int ngot)
{
	if (x->used[w] >= IG_FAB_GOOD_USES || measured(x, v, w))
		return false;
	for (unsigned int i = 0; i < ngot; i++)
		if (got[i] == w)
			return false;
	return true;
}

static int partner(struct susp *x, unsigned int v, unsigned int w,
		   unsigned int *got, unsigned int *ngot)
{
	got[*ngot] = w;
	x->avail -= ++x->used[w] == IG_FAB_GOOD_USES;
	/* v sends to its first, third... partner, receives from the others */
	return (*ngot)++ % 2 ? add(x, w, v) : add(x, v, w);
}

/* A good rank on v's own leaf: a pair that crosses no uplink. */
static int same_leaf(struct susp *x, unsigned int v, unsigned int *got,
		     unsigned int *ngot)
{
	unsigned int g = x->grp[v], lo = x->goff[g], len = x->goff[g + 1] - lo;

	if (!x->leaf || !g)
		return 0;
	for (unsigned int t = 0; t < len; t++) {
		unsigned int w = x->bygrp[lo + (x->gcur[g] - lo + t) % len];

		if (fits(x, v, w, got, *ngot)) {
			x->gcur[g] = lo + (x->gcur[g] - lo + t + 1) % len;
			return partner(x, v, w, got, ngot);
		}
	}
	return 0;
}

/* Good partners of v from the shuffled list, round-robin; other_leaf:
 * not on v's leaf. */
static int from_list(struct susp *x, unsigned int v, bool other_leaf,
		     unsigned int *got, unsigned int *ngot)
{
	int ret = 0;

	for (unsigned int t = 0; !ret && t < x->ngood && x->avail &&
				 *ngot < IG_FAB_GOOD_PER_SUSPECT;
	     t++) {
		unsigned int w = x->good[x->cur];

		x->cur = (x->cur + 1) % x->ngood;
		if (other_leaf && x->grp[v] && x->grp[w] == x->grp[v])
			continue;
		if (fits(x, v, w, got, *ngot))
			ret = partner(x, v, w, got, ngot);
	}
	return ret;
}

/* v's good partners: one on its leaf, the others on other leaves (on
 * its own when there are too few elsewhere). */
static int good_partners(struct susp *x, unsigned int v)
{
	unsigned int got[IG_FAB_GOOD_PER_SUSPECT], ngot = 0;
	int ret = same_leaf(x, v, got, &ngot);

	if (!ret)
		ret = from_list(x, v, x->leaf != NULL, got, &ngot);
	if (!ret && x->leaf)
		ret = from_list(x, v, false, got, &ngot);
	x->s->short_good += ngot < IG_FAB_GOOD_PER_SUSPECT;
	return ret;
}

/* a and b not yet measured, nor neighbours in a ring */
static bool fresh(const struct susp *x, unsigned int a, unsigned int b)
{
	for (unsigned int i = 0; i < x->nnbr[a]; i++)
		if (x->nbr[4 * (size_t)a + i] == b)
			return false;
	return a != b && !measured(x, a, b);
}

static int ring_pair(struct susp *x, unsigned int a, unsigned int b)
{
	if (!fresh(x, a, b) || x->nnbr[a] >= 4 || x->nnbr[b] >= 4)
		return 0;
	x->nbr[4 * (size_t)a + x->nnbr[a]++] = b;
	x->nbr[4 * (size_t)b + x->nnbr[b]++] = a;
	return add(x, a, b);
}

/* The ranks ord[0..m) of each group (consecutive there) in a ring. */
static int rings(struct susp *x, const unsigned int *ord, unsigned int m)
{
	int ret = 0;

	for (unsigned int i = 0, e; !ret && i < m; i = e) {
		for (e = i + 1; e < m && x->grp[ord[e]] == x->grp[ord[i]]; e++)
			;
		for (unsigned int j = i; !ret && j + 1 < e; j++)
			ret = ring_pair(x, ord[j], ord[j + 1]);
		if (!ret && e - i >= 3)
			ret = ring_pair(x, ord[e - 1], ord[i]);
	}
	return ret;
}

/* ord[0..m) by group, each group in ord's order, into out. */
static void by_group(const struct susp *x, const unsigned int *ord,
		     unsigned int m, unsigned int *cnt, unsigned int *out)
{
	memset(cnt, 0, ((size_t)x->ngrp + 1) * sizeof(*cnt));
	for (unsigned int i = 0; i < m; i++)
		cnt[x->grp[ord[i]] + 1]++;
	for (unsigned int g = 0; g < x->ngrp; g++)
		cnt[g + 1] += cnt[g];
	for (unsigned int i = 0; i < m; i++)
		out[cnt[x->grp[ord[i]]]++] = ord[i];
}

/* The flagged suspects first, then the others, each in a random order,
 * their good partners; the rings of the flagged ones. */
static int plan(struct susp *x)
{
	size_t n = x->s->n;
	unsigned int *ord = malloc((n + 1) * sizeof(*ord));
	unsigned int *ring = malloc((n + 1) * sizeof(*ring));
	unsigned int *cnt = malloc(((size_t)x->ngrp + 1) * sizeof(*cnt));
	unsigned int m = 0, nf;
	int ret = ord && ring && cnt ? 0 : -ENOMEM;

	for (unsigned int i = 0; !ret && i < n; i++)
		if (x->state[i] == FLAGGED)
			ord[m++] = i;
	nf = m;
	for (unsigned int i = 0; !ret && i < n; i++)
		if (x->state[i] == SUSPECT)
			ord[m++] = i;
	x->s->nflagged = nf;
	x->s->nsuspects = m;
	if (!ret) {
		ig_fab_rng_shuffle(&x->s->rng, ord, nf);
		ig_fab_rng_shuffle(&x->s->rng, ord + nf, m - nf);
	}
	for (unsigned int i = 0; !ret && i < m; i++)
		ret = good_partners(x, ord[i]);
	if (!ret) {
		by_group(x, ord, nf, cnt, ring);
		ret = rings(x, ring, nf);
	}
	/* without a topology, a second ring in another order: the nodes
	 * behind one link, cut apart in the first by others, joined */
	if (!ret && !x->leaf) {
		ig_fab_rng_shuffle(&x->s->rng, ord, nf);
		ret = rings(x, ord, nf);
	}
	free(ord);
	free(ring);
	free(cnt);
	return ret;
}

static void susp_free(struct susp *x)
{
	free(x->bp);
	free(x->state);
	free(x->used);
	free(x->good);
	free(x->bygrp);
	free(x->goff);
	free(x->gcur);
	free(x->grp);
	free(x->nbr);
	free(x->nnbr);
	free(x->pl.p);
}

/* The rounds packed; no more than the bound (which the packing keeps:
 * the tail is cut only should it not). */
static int pack(struct susp *x, struct ig_fab_rounds *out)
{
	unsigned int max = ig_fab_suspect_rounds_max(x->s->n, x->leaf);
	int ret = ig_fab_pack(x->pl.p, x->pl.k, x->s->n, out);

	if (!ret && out->nrounds > max) {
		out->nrounds = max;
		out->np = out->off[max];
	}
	return ret;
}

int ig_fab_sample_suspects(struct ig_fab_sample *s, const struct ig_fab_meas *m,
			   size_t k, const double medians[IG_TEST_COUNT],
			   const struct ig_fab_node *nodes,
			   struct ig_fab_rounds *out)
{
	struct susp x = { .s = s, .leaf = s->leaf };
	ssize_t np = ig_blame_pairs(m, k, medians, &x.bp);
	int ret = np < 0 ? -ENOMEM : 0;

	*out = (struct ig_fab_rounds){ 0 };
	s->nsuspects = s->nflagged = s->ngood = s->short_good = 0;
	x.nbp = np < 0 ? 0 : (size_t)np;
	x.state = calloc((size_t)s->n + 1, 1);
	x.used = calloc((size_t)s->n + 1, sizeof(*x.used));
	x.grp = calloc((size_t)s->n + 1, sizeof(*x.grp));
	x.nbr = malloc(((size_t)s->n + 1) * 4 * sizeof(*x.nbr));
	x.nnbr = calloc((size_t)s->n + 1, sizeof(*x.nnbr));
	if (!x.state || !x.used || !x.grp || !x.nbr || !x.nnbr)
		ret = -ENOMEM;
	if (!ret) {
		x.ngrp = ig_fab_leaf_groups(s->leaf, s->n, x.grp);
		ret = x.ngrp ? 0 : -ENOMEM;
	}
	if (!ret) {
		states(&x, nodes);
		ret = good_lists(&x);
	}
	if (!ret) {
		s->ngood = x.ngood;
		ret = plan(&x);
	}
	if (!ret)
		ret = pack(&x, out);
	susp_free(&x);
	return ret;
}
