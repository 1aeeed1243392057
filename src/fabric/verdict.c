// SPDX-License-Identifier: MIT
/*
 * The fabric's verdicts: medians per test, the flagged pairs, the flagged
 * nodes and why, the worst-first order (the fingerprint outliers are in
 * outliers.c).
 * Works on the caller's arrays; the buffers a call sorts are its own and
 * freed before it returns.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "verdict.h"
#include "transports/transports.h"

static const struct ig_fab_tol tol_default = { .bw = 0.9, .lat = 2.0 };

double ig_fab_meas_x(const struct ig_fab_meas *m)
{
	return ig_test_is_lat(m->test) ? m->lat_p50_us : m->bw_gbps;
}

static bool test_known(enum ig_test t)
{
	return (unsigned int)t < IG_TEST_COUNT;
}

static int cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return (a > b) - (a < b);
}

/* The median of v[0..n), sorted; 0 when n is 0. */
static double median_sorted(const double *v, size_t n)
{
	if (!n)
		return 0;
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double ig_fab_median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return median_sorted(v, n);
}

/* Whether figure x of test t is within the tolerances of median med
 * (always, when there is no median). */
static bool within(enum ig_test t, double x, double med,
		   const struct ig_fab_tol *tol)
{
	if (!(med > 0))
		return true;
	if (ig_test_is_lat(t))
		return x <= tol->lat * med;
	return x >= tol->bw * med;
}

/* medians[t] over the ok, non-NaN measurements of t; v has room for k. */
static void test_medians(const struct ig_fab_meas *m, size_t k, double *v,
			 double medians[IG_TEST_COUNT])
{
	for (int t = 0; t < IG_TEST_COUNT; t++) {
		size_t nv = 0;

		for (size_t i = 0; i < k; i++) {
			double x = ig_fab_meas_x(&m[i]);

			if (m[i].ok && m[i].test == (enum ig_test)t &&
			    !isnan(x))
				v[nv++] = x;
		}
		medians[t] = ig_fab_median(v, nv);
	}
}

/* Whether m is an ok measurement of test t at hop distance d. */
static bool at_hops(const struct ig_fab_meas *m, int t, unsigned int d)
{
	return m->ok && m->test == (enum ig_test)t && m->hops_known &&
	       m->hops == d;
}

/* The median of the best quarter of v[0..n), sorted up: of its highest
 * n/4 (bandwidth), or its lowest (latency); one noisy figure among them
 * moves it less than it moves a quartile. */
static double best_quarter(const double *v, size_t n, bool low)
{
	size_t q = n / 4 ? n / 4 : 1;

	return median_sorted(low ? v : v + (n - q), q);
}

/* h from the measurements at each distance (ig_fab_judge_pairs_hops);
 * v has room for k. */
static void hop_refs(const struct ig_fab_meas *m, size_t k, double *v,
		     const double medians[IG_TEST_COUNT],
		     struct ig_fab_hopref *h)
{
	memset(h, 0, sizeof(*h));
	for (int t = 0; t < IG_TEST_COUNT; t++)
		for (unsigned int d = 0; d < IG_FAB_HOPS_MAX; d++) {
			size_t nv = 0;
			double q;

			for (size_t i = 0; i < k; i++) {
				double x = ig_fab_meas_x(&m[i]);

				if (at_hops(&m[i], t, d) && !isnan(x))
					v[nv++] = x;
			}
			h->n[t][d] = (unsigned int)nv;
			h->median[t][d] = ig_fab_median(v, nv);
			if (!d || nv < IG_FAB_HOP_MIN || !(medians[t] > 0))
				continue;
			q = best_quarter(v, nv, ig_test_is_lat(t));
			if (ig_test_is_lat(t) ? q > medians[t] : q < medians[t])
				h->ref[t][d] = q;
		}
}

/* What x is held against: its distance's reference, or its median. */
static double ref_of(const struct ig_fab_meas *x, const double *medians,
		     const struct ig_fab_hopref *h)
{
	if (h && x->hops_known && x->hops < IG_FAB_HOPS_MAX &&
	    h->ref[x->test][x->hops] > 0)
		return h->ref[x->test][x->hops];
	return medians[x->test];
}

/* Flags one measurement, or marks it transient; returns whether flagged. */
static bool judge_one(struct ig_fab_meas *x, const double *medians,
		      const struct ig_fab_hopref *h,
		      const struct ig_fab_tol *tol)
{
	enum ig_test t = x->test;
	double med, first, again;

	x->flagged = x->transient = false;
	if (!test_known(t))
		return false;
	med = ref_of(x, medians, h);
	first = ig_fab_meas_x(x);
	again = ig_test_is_lat(t) ? x->retest_p50_us : x->retest_bw_gbps;
	if (x->ok && within(t, first, med, tol))
		return false;
	if (x->retested && x->retest_ok && within(t, again, med, tol)) {
		x->transient = true;
		return false;
	}
	x->flagged = true;
	return true;
}

ssize_t ig_fab_judge_pairs(struct ig_fab_meas *m, size_t k,
			   const struct ig_fab_tol *tol,
			   double medians[IG_TEST_COUNT])
{
	return ig_fab_judge_pairs_hops(m, k, tol, medians, NULL);
}

ssize_t ig_fab_judge_pairs_hops(struct ig_fab_meas *m, size_t k,
				const struct ig_fab_tol *tol,
				double medians[IG_TEST_COUNT],
				struct ig_fab_hopref *h)
{
	double *v;
	size_t nflagged = 0;

	if (!tol)
		tol = &tol_default;
	for (size_t i = 0; i < k; i++)
		m[i].flagged = m[i].transient = false;
	if (k > SIZE_MAX / sizeof(*v))
		return -ENOMEM;
	v = malloc(k ? k * sizeof(*v) : 1);
	if (!v)
		return -ENOMEM;
	test_medians(m, k, v, medians);
	if (h)
		hop_refs(m, k, v, medians, h);
	free(v);
	for (size_t i = 0; i < k; i++)
		nflagged += judge_one(&m[i], medians, h, tol);
	return (ssize_t)nflagged;
}

int ig_fab_sender(const struct ig_fab_meas *m)
{
	if (!test_known(m->test) || ig_test_is_lat(m->test))
		return -1;
	return (int)(m->reverse ? m->b : m->a);
}

/* Which side of m node is on: IG_FAB_DIR_*, 0 for no direction. */
static unsigned int dir_of(const struct ig_fab_meas *m, unsigned int node)
{
	int snd = ig_fab_sender(m);

	if (snd < 0)
		return 0;
	return (unsigned int)snd == node ? IG_FAB_DIR_SEND : IG_FAB_DIR_RECV;
}

/* One node's side of one measurement. */
struct side {
	unsigned int node;
	unsigned int test;
	unsigned int dir;     /* IG_FAB_DIR_*, 0 for a latency test */
	unsigned int partner; /* the other end (n: none) */
	bool partner_bad;     /* flagged over all its measurements of test */
	bool failed;	      /* !ok */
	bool ok;	      /* ok, and its figure not NaN: in the medians */
	bool flagged;
	double x; /* bandwidth or p50 latency */
};

/* By node, test, ok ones first, figure. */
static int cmp_side(const void *pa, const void *pb)
{
	const struct side *a = pa, *b = pb;

	if (a->node != b->node)
		return a->node < b->node ? -1 : 1;
	if (a->test != b->test)
		return a->test < b->test ? -1 : 1;
	if (a->ok != b->ok)
		return a->ok ? -1 : 1;
	return a->ok ? cmp_double(&a->x, &b->x) : 0;
}

/* The sides of m[] whose node is below n, into s; returns how many. */
static size_t make_sides(const struct ig_fab_meas *m, size_t k, unsigned int n,
			 struct side *s)
{
	size_t ns = 0;

	for (size_t i = 0; i < k; i++) {
		struct side one = {
			.test = m[i].test,
			.failed = !m[i].ok,
			.flagged = m[i].flagged,
			.x = ig_fab_meas_x(&m[i]),
		};

		if (!test_known(m[i].test))
			continue;
		one.ok = m[i].ok && !isnan(one.x);
		if (m[i].a < n) {
			s[ns] = one;
			s[ns].dir = dir_of(&m[i], m[i].a);
			s[ns].partner = m[i].b < n ? m[i].b : n;
			s[ns++].node = m[i].a;
		}
		if (m[i].b < n && m[i].b != m[i].a) {
			s[ns] = one;
			s[ns].dir = dir_of(&m[i], m[i].b);
			s[ns].partner = m[i].a < n ? m[i].a : n;
			s[ns++].node = m[i].b;
		}
	}
	return ns;
}

/* What one node's sides say, before the verdict. */
struct tally {
	unsigned int nfailed;  /* flagged ones that failed */
	unsigned int flagging; /* bitmask of the tests that flag it */
	unsigned int took;     /* bitmask of the tests it took part in */
	bool dirs;	       /* the second pass: the sides too */
};

/* Keeps test t's count of one side in d when its share flagged is the
 * highest so far (ties: the most flagged, then the first test). */
static void dir_keep(struct ig_fab_dirc *d, unsigned int t, unsigned int n,
		     unsigned int nfl)
{
	uint64_t mine = (uint64_t)nfl * d->n, best = (uint64_t)d->nflagged * n;

	if (!n)
		return;
	if (d->test < 0 || mine > best || (mine == best && nfl > d->nflagged)) {
		d->test = (int)t;
		d->n = n;
		d->nflagged = nfl;
	}
}

/* One test's sides s[0..c) of one node by direction: most of those in
 * which it sent (or received) flagged, and at least IG_FAB_DIR_MIN. */
static void node_dirs(struct ig_fab_node *nd, struct tally *ty,
		      const struct side *s, size_t c)
{
	static const unsigned int bit[2] = { IG_FAB_DIR_SEND, IG_FAB_DIR_RECV };
	unsigned int t = s[0].test, n[2] = { 0 }, nfl[2] = { 0 };

	for (size_t i = 0; i < c; i++) {
		unsigned int j = s[i].dir == IG_FAB_DIR_RECV;

		/* a pair with a node bad over all its pairs says nothing
		 * about this one's side */
		if (!s[i].dir || s[i].partner_bad)
			continue;
		n[j]++;
		nfl[j] += s[i].flagged;
	}
	for (unsigned int j = 0; j < 2; j++) {
		dir_keep(j ? &nd->recv : &nd->send, t, n[j], nfl[j]);
		if (2 * nfl[j] > n[j] && nfl[j] >= IG_FAB_DIR_MIN) {
			nd->dir |= bit[j];
			ty->flagging |= 1u << t;
		}
	}
}

/* One test's sides s[0..c) of one node: counts and median. */
static void node_test(struct ig_fab_node *nd, struct tally *ty,
		      const struct side *s, size_t c)
{
	unsigned int t = s[0].test;
	size_t nok = 0, nfl = 0;
	double med;

	for (size_t i = 0; i < c; i++) {
		nok += s[i].ok;
		nfl += s[i].flagged;
		ty->nfailed += s[i].flagged && s[i].failed;
	}
	/* the ok ones come first, sorted */
	med = 0;
	if (nok)
		med = nok % 2 ? s[nok / 2].x
			      : (s[nok / 2 - 1].x + s[nok / 2].x) / 2;
	if (ig_test_is_lat(t))
		nd->lat_us[t] = med;
	else
		nd->bw_gbps[t] = med;
	nd->npairs += c;
	nd->nflagged += nfl;
	ty->took |= 1u << t;
	if (2 * nfl > c)
		ty->flagging |= 1u << t;
	if (ty->dirs)
		node_dirs(nd, ty, s, c);
}

/* The worst ratio of a node's medians to the fabric's over the tests of
 * mask of one kind: the lowest bandwidth, or the highest p50 latency
 * (lat); -1 for none. */
static double worst_ratio(const struct ig_fab_node *nd, unsigned int mask,
			  const double *medians, bool lat)
{
	double worst = -1;

	for (int t = 0; t < IG_TEST_COUNT; t++) {
		double r;

		if (ig_test_is_lat(t) != lat || !(mask & 1u << t) ||
		    !(medians[t] > 0))
			continue;
		r = (lat ? nd->lat_us[t] : nd->bw_gbps[t]) / medians[t];
		if (worst < 0 || (lat ? r > worst : r < worst))
			worst = r;
	}
	return worst;
}

static enum ig_fab_cause cause_of(const struct ig_fab_node *nd,
				  const struct tally *ty)
{
	if (!nd->flagged)
		return IG_FAB_OK;
	if (2 * ty->nfailed > nd->nflagged)
		return IG_FAB_FAILED;
	for (int t = 0; t < IG_TEST_COUNT; t++)
		if (ty->flagging & 1u << t &&
		    ig_test_xport(IG_TESTS, t) == IG_XPORT_VERBS)
			return IG_FAB_VERBS_LOW;
	return IG_FAB_TCP_LOW;
}

static void node_reset(struct ig_fab_node *nd, unsigned int rank)
{
	*nd = (struct ig_fab_node){ .rank = rank,
				    .cause = IG_FAB_OK,
				    .bw_ratio = -1,
				    .lat_ratio = -1,
				    .send.test = -1,
				    .recv.test = -1 };
}

/* One node's sides s[0..c), sorted by test: the node's verdict; dirs:
 * by its sides too. */
static unsigned int judge_node(struct ig_fab_node *nd, const struct side *s,
			       size_t c, const double *medians, bool dirs)
{
	struct tally ty = { .dirs = dirs };

	for (size_t i = 0, e; i < c; i = e) {
		for (e = i + 1; e < c && s[e].test == s[i].test; e++)
			;
		node_test(nd, &ty, s + i, e - i);
	}
	nd->flagged = ty.flagging != 0;
	nd->cause = cause_of(nd, &ty);
	nd->tests = ty.flagging;
	nd->bw_ratio = worst_ratio(nd, ty.took, medians, false);
	nd->lat_ratio = worst_ratio(nd, ty.took, medians, true);
	return ty.flagging;
}

/* Every node's verdict from the sorted sides s[0..ns); mask[node] (when
 * not NULL) gets the tests that flag it.  Returns the number flagged. */
static size_t judge_all(const struct side *s, size_t ns, const double *medians,
			struct ig_fab_node *nodes, bool dirs,
			unsigned int *mask)
{
	unsigned int fl;

	size_t nflagged = 0;

	for (size_t i = 0, e; i < ns; i = e) {
		struct ig_fab_node *nd = &nodes[s[i].node];

		for (e = i + 1; e < ns && s[e].node == s[i].node; e++)
			;
		node_reset(nd, s[i].node);
		fl = judge_node(nd, s + i, e - i, medians, dirs);
		if (mask)
			mask[s[i].node] = fl;
		nflagged += nd->flagged;
	}
	return nflagged;
}

ssize_t ig_fab_judge_nodes(const struct ig_fab_meas *m, size_t k,
			   const double medians[IG_TEST_COUNT],
			   struct ig_fab_node *nodes, unsigned int n)
{
	struct side *s;
	unsigned int *mask;
	size_t ns, nflagged = 0;

	for (unsigned int i = 0; i < n; i++)
		node_reset(&nodes[i], i);
	if (k > SIZE_MAX / 2 / sizeof(*s))
		return -ENOMEM;
	s = malloc(k ? 2 * k * sizeof(*s) : 1);
	mask = calloc(n ? n : 1, sizeof(*mask));
	if (!s || !mask) {
		free(s);
		free(mask);
		return -ENOMEM;
	}
	ns = make_sides(m, k, n, s);
	qsort(s, ns, sizeof(*s), cmp_side);
	/* first over all its measurements, then by side too, leaving out
	 * the pairs whose partner the first pass flagged for that test */
	judge_all(s, ns, medians, nodes, false, mask);
	for (size_t i = 0; i < ns; i++)
		s[i].partner_bad = s[i].partner < n &&
				   mask[s[i].partner] & 1u << s[i].test;
	nflagged = judge_all(s, ns, medians, nodes, true, NULL);
	free(s);
	free(mask);
	return (ssize_t)nflagged;
}

static double sort_ratio(const struct ig_fab_node *x)
{
	return x->bw_ratio < 0 ? 1 : x->bw_ratio;
}

/* Worst first: measured ones first, flagged ones first (a node flagged
 * on one side may have a smaller share of all its measurements flagged
 * than an unflagged one with a stray low pair), the flagged share down,
 * the lowest bandwidth ratio up, then rank up. */
static int cmp_worst(const void *pa, const void *pb, void *ctx)
{
	const struct ig_fab_node *nodes = ctx;
	const struct ig_fab_node *a = &nodes[*(const unsigned int *)pa];
	const struct ig_fab_node *b = &nodes[*(const unsigned int *)pb];
	uint64_t sa = (uint64_t)a->nflagged * b->npairs;
	uint64_t sb = (uint64_t)b->nflagged * a->npairs;

	if (!a->npairs != !b->npairs)
		return a->npairs ? -1 : 1;
	if (a->flagged != b->flagged)
		return a->flagged ? -1 : 1;
	if (sa != sb)
		return sa > sb ? -1 : 1;
	if (sort_ratio(a) != sort_ratio(b))
		return sort_ratio(a) < sort_ratio(b) ? -1 : 1;
	return (a->rank > b->rank) - (a->rank < b->rank);
}

void ig_fab_rank_nodes(const struct ig_fab_node *nodes, unsigned int n,
		       unsigned int *order)
{
	for (unsigned int i = 0; i < n; i++)
		order[i] = i;
	qsort_r(order, n, sizeof(*order), cmp_worst, (void *)nodes);
}

const char *ig_fab_cause_text(enum ig_fab_cause c)
{
	switch (c) {
	case IG_FAB_OK:
		return "ok";
	case IG_FAB_VERBS_LOW:
		return "verbs low too: link, HCA, PCIe or cable";
	case IG_FAB_TCP_LOW:
		return "TCP low alone: the IP stack (run ibgap doctor)";
	case IG_FAB_FAILED:
		return "its pairs failed: a dead or stalled node";
	default:
		return "unknown";
	}
}
