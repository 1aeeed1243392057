// SPDX-License-Identifier: MIT
/*
 * --pattern sample's two phases (sample.h): the random rounds, and the
 * suspects against nodes known good.  Nodes are laid out in groups, one
 * a leaf (all in one without a topology), the groups and the nodes in
 * each in a random order: then a node and the one half a layout away
 * are on two leaves unless a leaf holds more than half of the nodes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sample.h"

uint64_t ig_fab_rng_next(struct ig_fab_rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

unsigned int ig_fab_rng_below(struct ig_fab_rng *r, unsigned int n)
{
	return (unsigned int)(ig_fab_rng_next(r) % n);
}

void ig_fab_rng_shuffle(struct ig_fab_rng *r, unsigned int *v, unsigned int n)
{
	for (unsigned int i = n; i > 1; i--) {
		unsigned int j = ig_fab_rng_below(r, i), t = v[i - 1];

		v[i - 1] = v[j];
		v[j] = t;
	}
}

unsigned int ig_fab_per_node_max(unsigned int n)
{
	return n / 2;
}

unsigned int ig_fab_suspect_rounds_max(unsigned int n, bool topo)
{
	unsigned int d = IG_FAB_GOOD_PER_SUSPECT + 2 * (topo ? 1 : 2);

	if (d < IG_FAB_GOOD_USES)
		d = IG_FAB_GOOD_USES;
	if (n < 2)
		return 0;
	if (d > n - 1)
		d = n - 1;
	return 2 * d - 1;
}

/* ---- groups ---- */

unsigned int ig_fab_leaf_groups(const int *leaf, unsigned int n,
				unsigned int *grp)
{
	int top = -1;
	unsigned int *num, ng = 1;

	for (unsigned int i = 0; leaf && i < n; i++)
		top = leaf[i] > top ? leaf[i] : top;
	num = calloc((size_t)top + 2, sizeof(*num));
	if (!num)
		return 0;
	for (unsigned int i = 0; i < n; i++) {
		int l = leaf ? leaf[i] : -1;

		if (l >= 0 && !num[l + 1])
			num[l + 1] = ng++;
		grp[i] = l >= 0 ? num[l + 1] : 0;
	}
	free(num);
	return ng;
}

/* The ranks' groups (ig_fab_leaf_groups) for the layouts. */
struct groups {
	unsigned int ng;
	unsigned int *of;    /* n: a rank's group */
	unsigned int *order; /* ng: the groups in a random order */
	unsigned int *place; /* ng: a group's place in that order */
	unsigned int *cnt;   /* ng + 1: the counting sort's */
};

static int groups_make(struct groups *g, const struct ig_fab_sample *s)
{
	g->of = calloc((size_t)s->n + 1, sizeof(*g->of));
	if (!g->of)
		return -ENOMEM;
	g->ng = ig_fab_leaf_groups(s->leaf, s->n, g->of);
	if (!g->ng)
		return -ENOMEM;
	g->order = malloc(((size_t)g->ng + 1) * sizeof(*g->order));
	g->place = malloc(((size_t)g->ng + 1) * sizeof(*g->place));
	g->cnt = malloc(((size_t)g->ng + 2) * sizeof(*g->cnt));
	return g->order && g->place && g->cnt ? 0 : -ENOMEM;
}

static void groups_free(struct groups *g)
{
	free(g->of);
	free(g->order);
	free(g->place);
	free(g->cnt);
}

/* in[0..m) into out by group, the groups in a random order; a stable
 * counting sort, so that each group keeps in's order. */
static void layout(struct groups *g, struct ig_fab_rng *r,
		   const unsigned int *in, unsigned int m, unsigned int *out)
{
	for (unsigned int i = 0; i < g->ng; i++)
		g->order[i] = i;
	ig_fab_rng_shuffle(r, g->order, g->ng);
	for (unsigned int i = 0; i < g->ng; i++)
		g->place[g->order[i]] = i;
	memset(g->cnt, 0, ((size_t)g->ng + 2) * sizeof(*g->cnt));
	for (unsigned int i = 0; i < m; i++)
		g->cnt[g->place[g->of[in[i]]] + 1]++;
	for (unsigned int i = 0; i < g->ng; i++)
		g->cnt[i + 1] += g->cnt[i];
	for (unsigned int i = 0; i < m; i++)
		out[g->cnt[g->place[g->of[in[i]]]]++] = in[i];
}

/* ---- the sample ---- */

struct sampler {
	struct ig_fab_sample *s;
	struct groups g;
	unsigned int *perm, *arr; /* n: the ranks shuffled, laid out */
	unsigned int *met;	  /* n x K: each rank's partners so far */
	unsigned int *nmet;	  /* n */
	unsigned char *rested;	  /* n: rested in a round (n odd) */
	struct ig_fab_pair *list;
	size_t k;
};

static bool met(const struct sampler *x, unsigned int a, unsigned int b)
{
	const unsigned int *p = x->met + (size_t)a * x->s->per_node;

	for (unsigned int i = 0; i < x->nmet[a]; i++)
		if (p[i] == b)
			return true;
	return false;
}

static bool apart(const struct sampler *x, unsigned int a, unsigned int b)
{
	return x->g.of[a] != x->g.of[b];
}

/* Pair i (arr[i], arr[i + h]) and pair j trade their second ranks when
 * both new pairs are new (and, strict, both on two leaves). */
static bool try_swap(struct sampler *x, unsigned int i, unsigned int j,
		     unsigned int h, bool strict)
{
	unsigned int *v = x->arr, a = v[i], b = v[i + h], c = v[j],
		     d = v[j + h];

	if (i == j || met(x, a, d) || met(x, c, b))
		return false;
	if (strict && x->s->leaf && (!apart(x, a, d) || !apart(x, c, b)))
		return false;
	v[i + h] = d;
	v[j + h] = b;
	return true;
}

/* Pair i met before: a swap with another pair, random ones first. */
static void fix(struct sampler *x, unsigned int i, unsigned int h)
{
	for (unsigned int t = 0; t < 32; t++)
		if (try_swap(x, i, ig_fab_rng_below(&x->s->rng, h), h, true))
			return;
	for (unsigned int j = 0; j < h; j++)
		if (try_swap(x, i, j, h, false))
			return;
}

/* n odd: a rank that has not rested yet leaves the layout arr[0..n - 1)
 * for its end, arr[n - 1]. */
static void rest(struct sampler *x, unsigned int n)
{
	unsigned int p = n, v;

	for (unsigned int t = 0; t < 64 && p == n; t++) {
		unsigned int q = ig_fab_rng_below(&x->s->rng, n);

		if (!x->rested[x->arr[q]])
			p = q;
	}
	for (unsigned int q = 0; q < n && p == n; q++)
		if (!x->rested[x->arr[q]])
			p = q;
	if (p == n)
		p = n - 1;
	v = x->arr[p];
	x->rested[v] = 1;
	memmove(x->arr + p, x->arr + p + 1, (n - 1 - p) * sizeof(*x->arr));
	x->arr[n - 1] = v;
}

static void take(struct sampler *x, unsigned int a, unsigned int b)
{
	struct ig_fab_sample *s = x->s;

	s->repeats += met(x, a, b);
	s->same_leaf += s->leaf && !apart(x, a, b);
	x->met[(size_t)a * s->per_node + x->nmet[a]++] = b;
	x->met[(size_t)b * s->per_node + x->nmet[b]++] = a;
	x->list[x->k++] = (struct ig_fab_pair){ a, b };
}

/* A layout of the ranks (arr; n odd: one rests) whose pairs are all
 * new, as far as the swaps reach; returns whether they are. */
static bool arrange(struct sampler *x, unsigned int h)
{
	unsigned int n = x->s->n;
	bool ok = true;

	ig_fab_rng_shuffle(&x->s->rng, x->perm, n);
	layout(&x->g, &x->s->rng, x->perm, n, x->arr);
	if (n % 2)
		rest(x, n);
	for (unsigned int i = 0; i < h; i++) {
		if (met(x, x->arr[i], x->arr[i + h]))
			fix(x, i, h);
		ok = ok && !met(x, x->arr[i], x->arr[i + h]);
	}
	return ok;
}

/* Tries for a round whose pairs are all new: the swaps of one layout
 * fail now and then when K is near n / 2 (0.5 % of the samples of 2 to
 * 40 ranks with one try; none with these). */
#define ARRANGE_TRIES 64

static void sample_round(struct sampler *x, unsigned int r)
{
	unsigned int n = x->s->n, h = n / 2;

	for (unsigned int t = 0; t < ARRANGE_TRIES; t++) {
		if (n % 2 && t)
			x->rested[x->arr[n - 1]] = 0; /* undo the last rest */
		if (arrange(x, h))
			break;
	}
	/* the senders: every other pair's first rank, turning each round */
	for (unsigned int i = 0; i < h; i++) {
		unsigned int a = x->arr[i], b = x->arr[i + h];

		if ((i + r) % 2)
			take(x, b, a);
		else
			take(x, a, b);
	}
}

static void sampler_free(struct sampler *x)
{
	groups_free(&x->g);
	free(x->perm);
	free(x->arr);
	free(x->met);
	free(x->nmet);
	free(x->rested);
	free(x->list);
}

int ig_fab_sample_plan(struct ig_fab_sample *s, struct ig_fab_rounds *out)
{
	struct sampler x = { .s = s };
	size_t n = s->n, kk = s->per_node;
	int ret = -ENOMEM;

	*out = (struct ig_fab_rounds){ 0 };
	s->repeats = s->same_leaf = 0;
	if (!kk || kk > ig_fab_per_node_max(s->n))
		return -EINVAL;
	x.perm = malloc(n * sizeof(*x.perm));
	x.arr = malloc(n * sizeof(*x.arr));
	x.met = malloc(n * kk * sizeof(*x.met));
	x.nmet = calloc(n, sizeof(*x.nmet));
	x.rested = calloc(n, 1);
	x.list = malloc((n / 2 * kk + 1) * sizeof(*x.list));
	if (!x.perm || !x.arr || !x.met || !x.nmet || !x.rested || !x.list ||
	    groups_make(&x.g, s))
		goto out;
	for (unsigned int i = 0; i < s->n; i++)
		x.perm[i] = i;
	for (unsigned int r = 0; r < s->per_node; r++)
		sample_round(&x, r);
	ret = ig_fab_pack(x.list, x.k, s->n, out);
out:
	sampler_free(&x);
	return ret;
}
