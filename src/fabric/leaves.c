// SPDX-License-Identifier: MIT
/*
 * --pattern leaves (plan.h): the pairs inside each leaf first, then the
 * pairs between leaves by hop distance.  The ranks are grouped by their
 * leaf switch; the hop distances between leaves come from one search
 * from each leaf switch (topo_path.c).
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"

#define NO_HOPS UCHAR_MAX /* not connected, or a leaf of unplaced ranks */

/* The ranks by leaf: members[start[l] .. start[l + 1]) are leaf l's, by
 * rank; sw[l] its switch; the unplaced ranks (if any) are the last leaf,
 * sw -1.  hops[l * nl + m]: the switch-to-switch links between l and m. */
struct leaves {
	unsigned int n, nl;
	unsigned int *start, *members;
	int *sw;
	unsigned char *hops;
	struct ig_fab_plist pl;
};

static void leaves_free(struct leaves *lv)
{
	free(lv->start);
	free(lv->members);
	free(lv->sw);
	free(lv->hops);
}

/* Each rank's leaf switch into sw_of[n]; lv->sw gets the distinct ones,
 * by vertex, then -1 when a rank has none. */
static int find_leaves(struct leaves *lv, const struct ig_topo *t,
		       const int *place, int *sw_of, int *leaf_of_v)
{
	bool unplaced = false;

	for (unsigned int v = 0; v < t->nv; v++)
		leaf_of_v[v] = -1;
	for (unsigned int i = 0; i < lv->n; i++) {
		sw_of[i] = ig_topo_leaf(t, place[i]);
		if (sw_of[i] < 0)
			unplaced = true;
		else
			leaf_of_v[sw_of[i]] = 0;
	}
	for (unsigned int v = 0; v < t->nv; v++)
		if (!leaf_of_v[v])
			leaf_of_v[v] = (int)lv->nl++;
	lv->nl += unplaced;
	if (lv->nl > IG_FAB_LEAVES_MAX)
		return -E2BIG;
	lv->sw = malloc(((size_t)lv->nl + 1) * sizeof(*lv->sw));
	lv->start = calloc((size_t)lv->nl + 2, sizeof(*lv->start));
	lv->members = malloc(((size_t)lv->n + 1) * sizeof(*lv->members));
	if (!lv->sw || !lv->start || !lv->members)
		return -ENOMEM;
	for (unsigned int v = 0; v < t->nv; v++)
		if (leaf_of_v[v] >= 0)
			lv->sw[leaf_of_v[v]] = (int)v;
	if (unplaced)
		lv->sw[lv->nl - 1] = -1;
	return 0;
}

/* The ranks into members[], by leaf (a counting sort, by rank within). */
static void group_ranks(struct leaves *lv, const int *sw_of,
			const int *leaf_of_v)
{
	unsigned int *at = lv->start + 1;

	for (unsigned int i = 0; i < lv->n; i++)
		at[sw_of[i] < 0 ? lv->nl - 1
				: (unsigned int)leaf_of_v[sw_of[i]]]++;
	for (unsigned int l = 0; l < lv->nl; l++)
		lv->start[l + 1] += lv->start[l];
	/* start[l + 1] now ends leaf l; fill from each leaf's start */
	for (unsigned int l = lv->nl; l > 0; l--)
		lv->start[l] = lv->start[l - 1];
	for (unsigned int i = 0; i < lv->n; i++) {
		unsigned int l = sw_of[i] < 0
					 ? lv->nl - 1
					 : (unsigned int)leaf_of_v[sw_of[i]];

		lv->members[lv->start[l + 1]++] = i;
	}
}

/* hops[] from one search from each leaf switch. */
static int leaf_hops(struct leaves *lv, const struct ig_topo *t)
{
	struct ig_topo_bfs bfs;
	size_t nl = lv->nl;

	lv->hops = malloc(nl * nl + 1);
	if (!lv->hops || ig_topo_bfs_init(&bfs, t))
		return -ENOMEM;
	for (unsigned int l = 0; l < lv->nl; l++) {
		if (lv->sw[l] >= 0)
			ig_topo_bfs_from(&bfs, (unsigned int)lv->sw[l]);
		for (unsigned int m = 0; m < lv->nl; m++) {
			unsigned int d = lv->sw[l] < 0 || lv->sw[m] < 0
						 ? UINT_MAX
						 : bfs.dist[lv->sw[m]];

			lv->hops[l * nl + m] = d >= NO_HOPS ? NO_HOPS
							    : (unsigned char)d;
		}
	}
	ig_topo_bfs_free(&bfs);
	return 0;
}

static int put(struct leaves *lv, unsigned int a, unsigned int b)
{
	return ig_fab_plist_add(&lv->pl, a, b);
}

static unsigned int size_of(const struct leaves *lv, unsigned int l)
{
	return lv->start[l + 1] - lv->start[l];
}

/* Round r of the circle method inside every leaf that is placed (or
 * only the unplaced one); pairs is scratch for n. */
static int inside_round(struct leaves *lv, unsigned int r, bool unplaced,
			struct ig_fab_pair *pairs)
{
	for (unsigned int l = 0; l < lv->nl; l++) {
		const unsigned int *mb = lv->members + lv->start[l];
		unsigned int np;

		if ((lv->sw[l] < 0) != unplaced)
			continue;
		np = ig_fab_round(IG_FAB_PAIRS, size_of(lv, l), 0, r, pairs);
		for (unsigned int i = 0; i < np; i++)
			if (put(lv, mb[pairs[i].a], mb[pairs[i].b]))
				return -ENOMEM;
	}
	return 0;
}

static int inside(struct leaves *lv, bool unplaced, struct ig_fab_pair *pairs)
{
	unsigned int most = 0;

	for (unsigned int l = 0; l < lv->nl; l++)
		if ((lv->sw[l] < 0) == unplaced) {
			unsigned int r =
				ig_fab_nrounds(IG_FAB_PAIRS, size_of(lv, l), 0);

			most = r > most ? r : most;
		}
	for (unsigned int r = 0; r < most; r++)
		if (inside_round(lv, r, unplaced, pairs))
			return -ENOMEM;
	return 0;
}

/* Leaves l and m: the x-th rank of each, directions alternating. */
static int between_two(struct leaves *lv, unsigned int l, unsigned int m)
{
	const unsigned int *ml = lv->members + lv->start[l];
	const unsigned int *mm = lv->members + lv->start[m];
	unsigned int sl = size_of(lv, l), sm = size_of(lv, m);

	for (unsigned int x = 0; x < sl && x < sm; x++)
		if (x % 2 ? put(lv, mm[x], ml[x]) : put(lv, ml[x], mm[x]))
			return -ENOMEM;
	return 0;
}

/* The pairs between leaves at hop distance h, by leaf round; pairs is
 * scratch for nl. */
static int between(struct leaves *lv, unsigned char h,
		   struct ig_fab_pair *pairs)
{
	unsigned int nr = ig_fab_nrounds(IG_FAB_PAIRS, lv->nl, 0);

	for (unsigned int r = 0; r < nr; r++) {
		unsigned int np =
			ig_fab_round(IG_FAB_PAIRS, lv->nl, 0, r, pairs);

		for (unsigned int i = 0; i < np; i++) {
			unsigned int l = pairs[i].a, m = pairs[i].b;

			if (lv->hops[(size_t)l * lv->nl + m] == h &&
			    between_two(lv, l, m))
				return -ENOMEM;
		}
	}
	return 0;
}

/* Every pair of the pattern, in its order, into lv->pl. */
static int make_list(struct leaves *lv, struct ig_fab_pair *pairs)
{
	bool seen[NO_HOPS + 1] = { false };
	size_t nl = lv->nl;

	for (size_t i = 0; i < nl * nl; i++)
		if (i / nl != i % nl)
			seen[lv->hops[i]] = true;
	if (inside(lv, false, pairs))
		return -ENOMEM;
	for (unsigned int h = 0; h < NO_HOPS; h++)
		if (seen[h] && between(lv, (unsigned char)h, pairs))
			return -ENOMEM;
	if (inside(lv, true, pairs))
		return -ENOMEM;
	if (seen[NO_HOPS] && between(lv, NO_HOPS, pairs))
		return -ENOMEM;
	return 0;
}

int ig_fab_leaves(const struct ig_topo *t, const int *place, unsigned int n,
		  struct ig_fab_pair **list, size_t *k)
{
	struct leaves lv = { .n = n };
	int *sw_of = malloc(((size_t)n + 1) * sizeof(*sw_of));
	int *leaf_of_v = malloc(((size_t)t->nv + 1) * sizeof(*leaf_of_v));
	struct ig_fab_pair *pairs = malloc(((size_t)n + 1) * sizeof(*pairs));
	int ret = -ENOMEM;

	*list = NULL;
	*k = 0;
	if (!sw_of || !leaf_of_v || !pairs)
		goto out;
	ret = find_leaves(&lv, t, place, sw_of, leaf_of_v);
	if (ret)
		goto out;
	group_ranks(&lv, sw_of, leaf_of_v);
	ret = -ENOMEM;
	if (leaf_hops(&lv, t) || make_list(&lv, pairs))
		goto out;
	*list = lv.pl.p;
	*k = lv.pl.k;
	lv.pl.p = NULL;
	ret = 0;
out:
	free(lv.pl.p);
	leaves_free(&lv);
	free(sw_of);
	free(leaf_of_v);
	free(pairs);
	return ret;
}
