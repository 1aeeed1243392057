// SPDX-License-Identifier: MIT
/*
 * Blame (blame.h): which nodes, links or switches explain the low pairs,
 * from each pair's path; without a topology, which groups of nodes.
 * Candidates are numbered nodes first (ranks), then links, then
 * vertices, so that the lowest number is also the preferred kind.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "blame.h"
#include "transports/transports.h"

/* ---- the measurements as pairs ---- */

static int cmp_pair(const void *pa, const void *pb)
{
	const struct ig_blame_pair *x = pa, *y = pb;

	if (x->a != y->a)
		return x->a < y->a ? -1 : 1;
	return (x->b > y->b) - (x->b < y->b);
}

/* One measurement's figure x its test's median; 0 failed, 1 none. */
static double meas_ratio(const struct ig_fab_meas *m, const double *medians)
{
	bool lat;
	double med, x;

	if (!m->ok)
		return 0;
	if ((unsigned int)m->test >= IG_TEST_COUNT || !(medians[m->test] > 0))
		return 1;
	lat = ig_test_is_lat(m->test);
	med = medians[m->test];
	x = ig_fab_meas_x(m);
	if (isnan(x))
		return 0;
	if (lat)
		return x > 0 ? med / x : 1;
	return x / med;
}

ssize_t ig_blame_pairs(const struct ig_fab_meas *m, size_t k,
		       const double medians[IG_TEST_COUNT],
		       struct ig_blame_pair **out)
{
	struct ig_blame_pair *p = malloc((k + 1) * sizeof(*p));
	size_t o = 0;

	*out = p;
	if (!p)
		return -ENOMEM;
	for (size_t i = 0; i < k; i++) {
		unsigned int a = m[i].a, b = m[i].b;

		p[i] = (struct ig_blame_pair){ .a = a < b ? a : b,
					       .b = a < b ? b : a,
					       .low = m[i].flagged,
					       .ratio = meas_ratio(&m[i],
								   medians) };
	}
	qsort(p, k, sizeof(*p), cmp_pair);
	for (size_t i = 0; i < k; i++) {
		if (o && !cmp_pair(&p[o - 1], &p[i])) {
			p[o - 1].low |= p[i].low;
			if (p[i].ratio < p[o - 1].ratio)
				p[o - 1].ratio = p[i].ratio;
			continue;
		}
		p[o++] = p[i];
	}
	return (ssize_t)o;
}

/* ---- candidates ---- */

struct cands {
	const struct ig_topo *t;
	const struct ig_blame_pair *p;
	size_t k;	    /* pairs */
	unsigned int n;	    /* ranks */
	size_t nc;	    /* candidates: n + nl + nv */
	size_t *pstart;	    /* k: pair i's candidates at pc[pstart[i]] */
	unsigned int *plen; /* k */
	unsigned int *pc;   /* every pair's candidates */
	size_t npc, cappc;
	int *inside;	   /* k: the switch both ends hang on, -1 */
	unsigned int *tot; /* nc: pairs across it */
	unsigned int *low; /* nc: of which low */
	unsigned int *kin; /* nc: a switch's pairs inside, low */
	unsigned int *nin; /* nc: a switch's pairs inside */
	size_t *coff;	   /* nc + 1: candidate c's pairs at cp[coff[c]] */
	size_t *cp;
	bool *elig; /* nc */
};

static int push(struct cands *c, unsigned int x)
{
	if (c->npc == c->cappc) {
		size_t cap = c->cappc ? 2 * c->cappc : 1024;
		unsigned int *np = realloc(c->pc, cap * sizeof(*np));

		if (!np)
			return -ENOMEM;
		c->pc = np;
		c->cappc = cap;
	}
	c->pc[c->npc++] = x;
	return 0;
}

static bool is_sw(const struct ig_topo *t, unsigned int v)
{
	return t->v[v].kind == IG_TOPO_SWITCH;
}

/* The links and switches on pair i's path, after its two nodes. */
static int path_cands(struct cands *c, size_t i, unsigned int src,
		      const unsigned int *links, unsigned int n)
{
	const struct ig_topo *t = c->t;
	unsigned int v = src, nsw = 0, last = 0;
	int ret = 0;

	for (unsigned int j = 0; !ret && j < n; j++) {
		const struct ig_topo_link *l = &t->l[links[j]];
		unsigned int w = l->a == v ? l->b : l->a;

		if (is_sw(t, l->a) && is_sw(t, l->b))
			ret = push(c, c->n + links[j]);
		if (!ret && is_sw(t, w)) {
			ret = push(c, c->n + t->nl + w);
			nsw++;
			last = w;
		}
		v = w;
	}
	c->inside[i] = nsw == 1 && n == 2 ? (int)last : -1;
	return ret;
}

static int pair_cands(void *ctx, size_t i, unsigned int src,
		      const unsigned int *links, int n)
{
	struct cands *c = ctx;
	const struct ig_blame_pair *p = &c->p[i];
	int ret = 0;

	c->pstart[i] = c->npc;
	c->inside[i] = -1;
	if (p->a < c->n)
		ret = push(c, p->a);
	if (!ret && p->b < c->n && p->b != p->a)
		ret = push(c, p->b);
	if (!ret && n > 0)
		ret = path_cands(c, i, src, links, (unsigned int)n);
	c->plen[i] = (unsigned int)(c->npc - c->pstart[i]);
	return ret;
}

/* The counts per candidate and the lists of their pairs. */
static int invert(struct cands *c)
{
	size_t *fill = calloc(c->nc + 1, sizeof(*fill));

	c->cp = malloc((c->npc + 1) * sizeof(*c->cp));
	if (!fill || !c->cp) {
		free(fill);
		return -ENOMEM;
	}
	for (size_t i = 0; i < c->k; i++) {
		for (unsigned int j = 0; j < c->plen[i]; j++) {
			unsigned int x = c->pc[c->pstart[i] + j];

			c->tot[x]++;
			c->low[x] += c->p[i].low;
			c->coff[x + 1]++;
		}
		if (c->inside[i] >= 0) {
			c->nin[c->n + c->t->nl + c->inside[i]]++;
			c->kin[c->n + c->t->nl + c->inside[i]] += c->p[i].low;
		}
	}
	for (size_t x = 0; x < c->nc; x++)
		c->coff[x + 1] += c->coff[x];
	for (size_t i = 0; i < c->k; i++)
		for (unsigned int j = 0; j < c->plen[i]; j++) {
			unsigned int x = c->pc[c->pstart[i] + j];

			c->cp[c->coff[x] + fill[x]++] = i;
		}
	free(fill);
	return 0;
}

static void cands_free(struct cands *c)
{
	free(c->pstart);
	free(c->plen);
	free(c->pc);
	free(c->inside);
	free(c->tot);
	free(c->low);
	free(c->kin);
	free(c->nin);
	free(c->coff);
	free(c->cp);
	free(c->elig);
}

static int cands_make(struct cands *c, const int *place)
{
	const struct ig_topo_pairs ps = { .t = c->t,
					  .place = place,
					  .a = &c->p->a,
					  .b = &c->p->b,
					  .stride = sizeof(*c->p),
					  .k = c->k };
	size_t k = c->k + 1, nc = c->nc + 1;

	c->pstart = malloc(k * sizeof(*c->pstart));
	c->plen = malloc(k * sizeof(*c->plen));
	c->inside = malloc(k * sizeof(*c->inside));
	c->tot = calloc(nc, sizeof(*c->tot));
	c->low = calloc(nc, sizeof(*c->low));
	c->kin = calloc(nc, sizeof(*c->kin));
	c->nin = calloc(nc, sizeof(*c->nin));
	c->coff = calloc(nc + 1, sizeof(*c->coff));
	c->elig = calloc(nc, sizeof(*c->elig));
	if (!c->pstart || !c->plen || !c->inside || !c->tot || !c->low ||
	    !c->kin || !c->nin || !c->coff || !c->elig)
		return -ENOMEM;
	if (ig_topo_pair_paths(&ps, pair_cands, c))
		return -ENOMEM;
	return invert(c);
}

/* ---- which candidates may be blamed ---- */

static bool most_low(const struct cands *c, size_t x)
{
	return c->low[x] >= 2 && 2 * c->low[x] > c->tot[x];
}

static bool pair_has(const struct cands *c, size_t i, size_t x)
{
	for (unsigned int j = 0; j < c->plen[i]; j++)
		if (c->pc[c->pstart[i] + j] == x)
			return true;
	return false;
}

/* Node u is fine on the paths that avoid candidate x: most of its pairs
 * that do not cross x are not low (and there is one). */
static bool fine_off(const struct cands *c, unsigned int u, size_t x)
{
	unsigned int tot = 0, fine = 0;

	for (size_t j = c->coff[u]; j < c->coff[u + 1]; j++) {
		size_t i = c->cp[j];

		if (pair_has(c, i, x))
			continue;
		tot++;
		fine += !c->p[i].low;
	}
	return tot && 2 * fine > tot;
}

/* Link x: more than half of the nodes at the ends of its low pairs are
 * fine on the paths that avoid it; seen[n] is scratch. */
static bool link_ok(const struct cands *c, size_t x, unsigned int *seen)
{
	unsigned int ends = 0, fine = 0, stamp = (unsigned int)x + 1;

	for (size_t j = c->coff[x]; j < c->coff[x + 1]; j++) {
		const struct ig_blame_pair *p = &c->p[c->cp[j]];
		const unsigned int e[2] = { p->a, p->b };

		if (!p->low)
			continue;
		for (int s = 0; s < 2; s++) {
			if (e[s] >= c->n || seen[e[s]] == stamp)
				continue;
			seen[e[s]] = stamp;
			ends++;
			fine += fine_off(c, e[s], x);
		}
	}
	return 2 * fine > ends;
}

/* Most of candidate x's pairs that do not cross candidate y are low, or
 * none avoids y (the pairs cannot tell x from y). */
static bool most_low_off(const struct cands *c, size_t x, size_t y)
{
	unsigned int low = 0, tot = 0;

	for (size_t j = c->coff[x]; j < c->coff[x + 1]; j++) {
		if (pair_has(c, c->cp[j], y))
			continue;
		tot++;
		low += c->p[c->cp[j]].low ? 1u : 0u;
	}
	return !tot || (low >= 2 && 2 * low > tot);
}

/* Switch vertex v (candidate x): most of its pairs inside low, or with
 * none inside, two or more of its switch links with most pairs low and
 * most of its pairs off the worst of them low too: one slow link makes
 * each other link of its switch look half bad, and one pair low by
 * chance then tips them (docs/fabric.md, "Blame"). */
static bool switch_ok(const struct cands *c, size_t x, unsigned int v)
{
	const struct ig_topo *t = c->t;
	unsigned int nbad = 0;
	size_t worst = 0;

	if (c->nin[x])
		return 2 * c->kin[x] > c->nin[x];
	for (unsigned int j = t->off[v]; j < t->off[v + 1]; j++) {
		unsigned int li = t->adj[j];
		size_t y = c->n + li;

		if (!is_sw(t, t->l[li].a) || !is_sw(t, t->l[li].b) ||
		    !most_low(c, y))
			continue;
		if (!nbad++ || c->low[y] > c->low[worst])
			worst = y;
	}
	return nbad >= 2 && most_low_off(c, x, worst);
}

static int eligible(struct cands *c)
{
	unsigned int *seen = calloc((size_t)c->n + 1, sizeof(*seen));
	size_t nl = c->t->nl;

	if (!seen)
		return -ENOMEM;
	for (size_t x = 0; x < c->nc; x++) {
		if (!most_low(c, x))
			continue;
		if (x < c->n)
			c->elig[x] = true;
		else if (x < c->n + nl)
			c->elig[x] = link_ok(c, x, seen);
		else
			c->elig[x] =
				switch_ok(c, x, (unsigned int)(x - c->n - nl));
	}
	free(seen);
	return 0;
}

/* ---- the greedy choice ---- */

static struct ig_blame_ref ref_of(const struct cands *c, size_t x)
{
	if (x < c->n)
		return (struct ig_blame_ref){ IG_BLAME_NODE, (unsigned int)x };
	if (x < c->n + c->t->nl)
		return (struct ig_blame_ref){ IG_BLAME_LINK,
					      (unsigned int)(x - c->n) };
	return (struct ig_blame_ref){ IG_BLAME_SWITCH,
				      (unsigned int)(x - c->n - c->t->nl) };
}

static int item_add(struct ig_blame *b, const struct ig_blame_item *it)
{
	struct ig_blame_item *np;

	np = realloc(b->items, (b->nitems + 1) * sizeof(*np));
	if (!np)
		return -ENOMEM;
	b->items = np;
	b->items[b->nitems++] = *it;
	return 0;
}

/* The median ratio of the pairs p[idx[0..n)] (v: scratch of n). */
static double median_ratio(const struct ig_blame_pair *p, const size_t *idx,
			   size_t n, double *v)
{
	for (size_t i = 0; i < n; i++)
		v[i] = p[idx[i]].ratio;
	return ig_fab_median(v, n);
}

/* A link's leaf: its end with the most pairs inside, -1 for none. */
static int link_leaf(const struct cands *c, unsigned int li)
{
	size_t xa = c->n + c->t->nl + c->t->l[li].a;
	size_t xb = c->n + c->t->nl + c->t->l[li].b;

	if (!c->nin[xa] && !c->nin[xb])
		return -1;
	return (int)(c->nin[xb] > c->nin[xa] ? c->t->l[li].b : c->t->l[li].a);
}

/* The evidence of candidate x. */
static void evidence(const struct cands *c, size_t x, double *scratch,
		     struct ig_blame_item *it)
{
	size_t nx = c->coff[x + 1] - c->coff[x];

	it->what = ref_of(c, x);
	it->k = c->low[x];
	it->n = c->tot[x];
	it->ratio = median_ratio(c->p, c->cp + c->coff[x], nx, scratch);
	it->leaf = -1;
	if (it->what.kind == IG_BLAME_SWITCH)
		it->leaf = (int)it->what.id;
	if (it->what.kind == IG_BLAME_LINK)
		it->leaf = link_leaf(c, it->what.id);
	if (it->leaf >= 0) {
		it->kin = c->kin[c->n + c->t->nl + (unsigned int)it->leaf];
		it->nin = c->nin[c->n + c->t->nl + (unsigned int)it->leaf];
	}
}

/* Blames x: its low pairs not yet explained are now (cnt down for every
 * candidate of theirs); the candidates that lost the same pairs and no
 * other are its "also". */
static void explain(const struct cands *c, size_t x, unsigned int *cnt,
		    const unsigned int *before, bool *expl, bool *bynode,
		    struct ig_blame_item *it)
{
	for (size_t j = c->coff[x]; j < c->coff[x + 1]; j++) {
		size_t i = c->cp[j];

		if (!c->p[i].low || expl[i])
			continue;
		expl[i] = true;
		bynode[i] = x < c->n;
		for (unsigned int q = 0; q < c->plen[i]; q++)
			cnt[c->pc[c->pstart[i] + q]]--;
	}
	for (size_t y = 0; y < c->nc; y++) {
		if (y == x || !c->elig[y] || before[y] != before[x] || cnt[y])
			continue;
		if (it->nalso < IG_BLAME_ALSO)
			it->also[it->nalso] = ref_of(c, y);
		it->nalso++;
	}
}

/* The best eligible candidate (2 low pairs unexplained at least), or
 * -1. */
static ssize_t best(const struct cands *c, const unsigned int *cnt)
{
	ssize_t b = -1;

	for (size_t x = 0; x < c->nc; x++)
		if (c->elig[x] && cnt[x] >= 2 && (b < 0 || cnt[x] > cnt[b]))
			b = (ssize_t)x;
	return b;
}

/* Which ranks' low pairs are all explained (expl) by the items that are
 * not nodes (bynode: explained by a node). */
static void ranks_explained(struct ig_blame *b, const struct ig_blame_pair *p,
			    size_t k, const bool *expl, const bool *bynode)
{
	bool *some = calloc((size_t)b->n + 1, sizeof(*some));

	for (unsigned int r = 0; r < b->n; r++)
		b->explained[r] = true;
	for (size_t i = 0; i < k; i++) {
		const unsigned int e[2] = { p[i].a, p[i].b };

		if (!p[i].low)
			continue;
		b->nlow++;
		b->nexpl += expl[i];
		for (int s = 0; s < 2; s++) {
			if (e[s] >= b->n)
				continue;
			if (some)
				some[e[s]] = true;
			if (!expl[i] || bynode[i])
				b->explained[e[s]] = false;
		}
	}
	for (unsigned int r = 0; r < b->n; r++)
		b->explained[r] = some && some[r] && b->explained[r];
	free(some);
}

static int greedy(const struct cands *c, struct ig_blame *b)
{
	unsigned int *cnt = malloc((c->nc + 1) * sizeof(*cnt));
	unsigned int *before = malloc((c->nc + 1) * sizeof(*before));
	bool *expl = calloc(c->k + 1, sizeof(*expl));
	bool *bynode = calloc(c->k + 1, sizeof(*bynode));
	double *scratch = malloc((c->k + 1) * sizeof(*scratch));
	int ret = cnt && before && expl && bynode && scratch ? 0 : -ENOMEM;
	ssize_t x;

	if (!ret)
		memcpy(cnt, c->low, c->nc * sizeof(*cnt));
	while (!ret && (x = best(c, cnt)) >= 0) {
		struct ig_blame_item it = { 0 };

		memcpy(before, cnt, c->nc * sizeof(*cnt));
		explain(c, (size_t)x, cnt, before, expl, bynode, &it);
		evidence(c, (size_t)x, scratch, &it);
		ret = item_add(b, &it);
	}
	if (!ret)
		ranks_explained(b, c->p, c->k, expl, bynode);
	free(cnt);
	free(before);
	free(expl);
	free(bynode);
	free(scratch);
	return ret;
}

static int blame_init(struct ig_blame *out, unsigned int n,
		      const struct ig_blame_pair *p, size_t k)
{
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < k; i++)
		if (p[i].a >= n || p[i].b >= n)
			return -EINVAL;
	out->n = n;
	out->group = calloc((size_t)n + 1, sizeof(*out->group));
	out->explained = calloc((size_t)n + 1, sizeof(*out->explained));
	return out->group && out->explained ? 0 : -ENOMEM;
}

int ig_blame_topo(const struct ig_topo *t, const int *place, unsigned int n,
		  const struct ig_blame_pair *p, size_t k, struct ig_blame *out)
{
	struct cands c = {
		.t = t, .p = p, .k = k, .n = n, .nc = (size_t)n + t->nl + t->nv
	};
	int ret = blame_init(out, n, p, k);

	if (!ret)
		ret = cands_make(&c, place);
	if (!ret)
		ret = eligible(&c);
	if (!ret)
		ret = greedy(&c, out);
	cands_free(&c);
	if (ret)
		ig_blame_free(out);
	return ret;
}

/* ---- without a topology: groups ---- */

static unsigned int root(unsigned int *up, unsigned int x)
{
	while (up[x] != x) {
		up[x] = up[up[x]];
		x = up[x];
	}
	return x;
}

/* The components of the pairs that are not low: up[] (union-find, the
 * lowest rank the root), size[] of each root. */
static void components(unsigned int n, const struct ig_blame_pair *p, size_t k,
		       unsigned int *up, unsigned int *size)
{
	for (unsigned int r = 0; r < n; r++)
		up[r] = r;
	for (size_t i = 0; i < k; i++) {
		unsigned int x, y;

		if (p[i].low)
			continue;
		x = root(up, p[i].a);
		y = root(up, p[i].b);
		if (x != y)
			up[x > y ? x : y] = x < y ? x : y;
	}
	memset(size, 0, n * sizeof(*size));
	for (unsigned int r = 0; r < n; r++)
		size[root(up, r)]++;
}

/* The largest component's root (of equal ones, the lowest). */
static unsigned int largest(unsigned int n, const unsigned int *size)
{
	unsigned int big = 0;

	for (unsigned int r = 1; r < n; r++)
		if (size[r] > size[big])
			big = r;
	return big;
}

/* The evidence of the component of root g: pairs between it and the
 * rest, pairs inside it (v: scratch of k). */
static void group_evidence(unsigned int *up, unsigned int g,
			   const struct ig_blame_pair *p, size_t k, double *v,
			   struct ig_blame_item *it)
{
	size_t nv = 0;

	for (size_t i = 0; i < k; i++) {
		bool ia = root(up, p[i].a) == g, ib = root(up, p[i].b) == g;

		if (ia && ib) {
			it->nin++;
			it->kin += p[i].low;
		} else if (ia || ib) {
			it->n++;
			it->k += p[i].low;
			v[nv++] = p[i].ratio;
		}
	}
	it->ratio = ig_fab_median(v, nv);
	it->leaf = -1;
}

static int groups(struct ig_blame *b, const struct ig_blame_pair *p, size_t k,
		  unsigned int *up, unsigned int *size, double *v)
{
	unsigned int n = b->n, big, ng = 0;

	components(n, p, k, up, size);
	big = largest(n, size);
	for (unsigned int g = 0; g < n; g++) {
		struct ig_blame_item it = { 0 };

		if (g == big || size[g] < 2)
			continue;
		group_evidence(up, g, p, k, v, &it);
		if (it.k < 2 || 2 * it.k <= it.n)
			continue;
		it.what = (struct ig_blame_ref){ IG_BLAME_GROUP, ++ng };
		for (unsigned int r = 0; r < n; r++)
			if (root(up, r) == g)
				b->group[r] = ng;
		if (item_add(b, &it))
			return -ENOMEM;
	}
	return 0;
}

int ig_blame_groups(unsigned int n, const struct ig_blame_pair *p, size_t k,
		    struct ig_blame *out)
{
	unsigned int *up = malloc(((size_t)n + 1) * sizeof(*up));
	unsigned int *size = malloc(((size_t)n + 1) * sizeof(*size));
	double *v = malloc((k + 1) * sizeof(*v));
	bool *expl = calloc(k + 1, sizeof(*expl));
	bool *bynode = calloc(k + 1, sizeof(*bynode));
	int ret = blame_init(out, n, p, k);

	if (!ret && (!up || !size || !v || !expl || !bynode))
		ret = -ENOMEM;
	if (!ret && n)
		ret = groups(out, p, k, up, size, v);
	for (size_t i = 0; !ret && i < k; i++)
		expl[i] = p[i].low && out->group[p[i].a] != out->group[p[i].b];
	if (!ret)
		ranks_explained(out, p, k, expl, bynode);
	free(up);
	free(size);
	free(v);
	free(expl);
	free(bynode);
	if (ret)
		ig_blame_free(out);
	return ret;
}

void ig_blame_free(struct ig_blame *b)
{
	free(b->items);
	free(b->group);
	free(b->explained);
	memset(b, 0, sizeof(*b));
}
