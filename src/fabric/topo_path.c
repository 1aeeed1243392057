// SPDX-License-Identifier: MIT
/*
 * The path between two hosts of a topology (topo.h): a breadth-first
 * search through switches, deterministic (the lowest index wins a tie),
 * and its hop distance (the switch-to-switch links on it).
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "topo.h"

int ig_topo_leaf(const struct ig_topo *t, int v)
{
	if (!t || v < 0 || (unsigned int)v >= t->nv)
		return -1;
	for (unsigned int j = t->off[v]; j < t->off[v + 1]; j++) {
		const struct ig_topo_link *l = &t->l[t->adj[j]];
		unsigned int w = l->a == (unsigned int)v ? l->b : l->a;

		if (t->v[w].kind == IG_TOPO_SWITCH)
			return (int)w;
	}
	return -1;
}

int ig_topo_bfs_init(struct ig_topo_bfs *b, const struct ig_topo *t)
{
	size_t n = (size_t)t->nv + 1;

	*b = (struct ig_topo_bfs){ .t = t, .src = UINT_MAX };
	b->via = malloc(n * sizeof(*b->via));
	b->dist = malloc(n * sizeof(*b->dist));
	b->queue = malloc(n * sizeof(*b->queue));
	if (b->via && b->dist && b->queue)
		return 0;
	ig_topo_bfs_free(b);
	return -ENOMEM;
}

void ig_topo_bfs_free(struct ig_topo_bfs *b)
{
	free(b->via);
	free(b->dist);
	free(b->queue);
	memset(b, 0, sizeof(*b));
}

static unsigned int other(const struct ig_topo_link *l, unsigned int v)
{
	return l->a == v ? l->b : l->a;
}

void ig_topo_bfs_from(struct ig_topo_bfs *b, unsigned int src)
{
	const struct ig_topo *t = b->t;
	unsigned int head = 0, tail = 0;

	b->src = src;
	for (unsigned int i = 0; i < t->nv; i++)
		b->dist[i] = UINT_MAX;
	if (src >= t->nv)
		return;
	b->dist[src] = 0;
	b->queue[tail++] = src;
	while (head < tail) {
		unsigned int v = b->queue[head++];

		/* hosts end a path: none forwards between its HCAs */
		if (v != src && t->v[v].kind == IG_TOPO_HOST)
			continue;
		for (unsigned int j = t->off[v]; j < t->off[v + 1]; j++) {
			unsigned int li = t->adj[j], w = other(&t->l[li], v);

			if (b->dist[w] != UINT_MAX)
				continue;
			b->dist[w] = b->dist[v] + 1;
			b->via[w] = li;
			b->queue[tail++] = w;
		}
	}
}

int ig_topo_bfs_path(const struct ig_topo_bfs *b, unsigned int dst,
		     unsigned int *links, unsigned int max)
{
	unsigned int n, v = dst;

	if (dst >= b->t->nv || b->dist[dst] == UINT_MAX)
		return -1;
	n = b->dist[dst];
	for (unsigned int i = n; i > 0; i--) {
		unsigned int li = b->via[v];

		if (i - 1 < max)
			links[i - 1] = li;
		v = other(&b->t->l[li], v);
	}
	return (int)n;
}

unsigned int ig_topo_hops(const struct ig_topo *t, const unsigned int *links,
			  unsigned int n)
{
	unsigned int h = 0;

	for (unsigned int i = 0; i < n; i++)
		h += t->v[t->l[links[i]].a].kind == IG_TOPO_SWITCH &&
		     t->v[t->l[links[i]].b].kind == IG_TOPO_SWITCH;
	return h;
}

/* The pairs by their lower vertex, so that one search serves them all. */
struct by_src {
	unsigned int src, i;
};

static int cmp_src(const void *pa, const void *pb)
{
	const struct by_src *x = pa, *y = pb;

	if (x->src != y->src)
		return x->src < y->src ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

/* rank a or b of pair i (ends: its first element, stride apart) */
static unsigned int end_of(const unsigned int *ends, size_t stride, size_t i)
{
	return *(const unsigned int *)((const char *)ends + i * stride);
}

/* The pairs' lower vertices, UINT_MAX for an unplaced end. */
static void sources(const struct ig_topo_pairs *ps, struct by_src *o)
{
	for (size_t i = 0; i < ps->k; i++) {
		int x = ps->place[end_of(ps->a, ps->stride, i)];
		int y = ps->place[end_of(ps->b, ps->stride, i)];

		o[i] = (struct by_src){ .src = UINT_MAX, .i = (unsigned int)i };
		if (x >= 0 && y >= 0)
			o[i].src = (unsigned int)(x < y ? x : y);
	}
	qsort(o, ps->k, sizeof(*o), cmp_src);
}

int ig_topo_pair_paths(const struct ig_topo_pairs *ps, ig_topo_path_fn fn,
		       void *ctx)
{
	struct by_src *o = malloc((ps->k + 1) * sizeof(*o));
	struct ig_topo_bfs bfs;
	unsigned int links[IG_TOPO_PATH_MAX];
	int ret = 0;

	if (!o || ig_topo_bfs_init(&bfs, ps->t)) {
		free(o);
		return -ENOMEM;
	}
	sources(ps, o);
	for (size_t j = 0; !ret && j < ps->k; j++) {
		unsigned int i = o[j].i;
		int x = ps->place[end_of(ps->a, ps->stride, i)];
		int y = ps->place[end_of(ps->b, ps->stride, i)];
		int n = -1;

		if (o[j].src != UINT_MAX) {
			if (bfs.src != o[j].src)
				ig_topo_bfs_from(&bfs, o[j].src);
			n = ig_topo_bfs_path(&bfs,
					     (unsigned int)(x > y ? x : y),
					     links, IG_TOPO_PATH_MAX);
		}
		if (n > IG_TOPO_PATH_MAX)
			n = -1;
		ret = fn(ctx, i, o[j].src, links, n);
	}
	ig_topo_bfs_free(&bfs);
	free(o);
	return ret;
}

struct hops_ctx {
	const struct ig_topo *t;
	int *hops;
};

static int one_hops(void *ctx, size_t i, unsigned int src,
		    const unsigned int *links, int n)
{
	struct hops_ctx *h = ctx;

	(void)src;
	h->hops[i] = n < 0 ? -1
			   : (int)ig_topo_hops(h->t, links, (unsigned int)n);
	return 0;
}

int ig_topo_pair_hops(const struct ig_topo *t, const int *place,
		      const unsigned int *a, const unsigned int *b, size_t k,
		      int *hops)
{
	const struct ig_topo_pairs ps = { .t = t,
					  .place = place,
					  .a = a,
					  .b = b,
					  .stride = sizeof(*a),
					  .k = k };
	struct hops_ctx h = { .t = t, .hops = hops };

	return ig_topo_pair_paths(&ps, one_hops, &h);
}
