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

static bool is_lat(enum ig_test t)
{
	return ig_test_pattern(IG_TESTS, t) == IG_PATTERN_LAT;
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
	if (is_lat(t))
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
			double x = is_lat(t) ? m[i].lat_p50_us : m[i].bw_gbps;

			if (m[i].ok && m[i].test == (enum ig_test)t &&
			    !isnan(x))
				v[nv++] = x;
		}
		medians[t] = ig_fab_median(v, nv);
	}
}

/* Flags one measurement, or marks it transient; returns whether flagged. */
static bool judge_one(struct ig_fab_meas *x, const double *medians,
		      const struct ig_fab_tol *tol)
{
	enum ig_test t = x->test;
	double med, first, again;

	x->flagged = x->transient = false;
	if (!test_known(t))
		return false;
	med = medians[t];
	first = is_lat(t) ? x->lat_p50_us : x->bw_gbps;
	again = is_lat(t) ? x->retest_p50_us : x->retest_bw_gbps;
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
	free(v);
	for (size_t i = 0; i < k; i++)
		nflagged += judge_one(&m[i], medians, tol);
	return (ssize_t)nflagged;
}

/* One node's side of one measurement. */
struct side {
	unsigned int node;
	unsigned int test;
	bool failed; /* !ok */
	bool ok;     /* ok, and its figure not NaN: in the medians */
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
			.x = is_lat(m[i].test) ? m[i].lat_p50_us : m[i].bw_gbps,
		};

		if (!test_known(m[i].test))
			continue;
		one.ok = m[i].ok && !isnan(one.x);
		if (m[i].a < n) {
			s[ns] = one;
			s[ns++].node = m[i].a;
		}
		if (m[i].b < n && m[i].b != m[i].a) {
			s[ns] = one;
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
};

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
	if (is_lat(t))
		nd->lat_us[t] = med;
	else
		nd->bw_gbps[t] = med;
	nd->npairs += c;
	nd->nflagged += nfl;
	ty->took |= 1u << t;
	if (2 * nfl > c)
		ty->flagging |= 1u << t;
}

/* The lowest bandwidth ratio of a node to the fabric; -1 for none. */
static double low_ratio(const struct ig_fab_node *nd, unsigned int took,
			const double *medians)
{
	double low = -1;

	for (int t = 0; t < IG_TEST_COUNT; t++) {
		double r;

		if (is_lat(t) || !(took & 1u << t) || !(medians[t] > 0))
			continue;
		r = nd->bw_gbps[t] / medians[t];
		if (low < 0 || r < low)
			low = r;
	}
	return low;
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

/* One node's sides s[0..c), sorted by test: the node's verdict. */
static void judge_node(struct ig_fab_node *nd, const struct side *s, size_t c,
		       const double *medians)
{
	struct tally ty = { 0 };

	for (size_t i = 0, e; i < c; i = e) {
		for (e = i + 1; e < c && s[e].test == s[i].test; e++)
			;
		node_test(nd, &ty, s + i, e - i);
	}
	nd->flagged = ty.flagging != 0;
	nd->cause = cause_of(nd, &ty);
	nd->bw_ratio = low_ratio(nd, ty.took, medians);
}

ssize_t ig_fab_judge_nodes(const struct ig_fab_meas *m, size_t k,
			   const double medians[IG_TEST_COUNT],
			   struct ig_fab_node *nodes, unsigned int n)
{
	struct side *s;
	size_t ns, nflagged = 0;

	for (unsigned int i = 0; i < n; i++) {
		memset(&nodes[i], 0, sizeof(nodes[i]));
		nodes[i].rank = i;
		nodes[i].cause = IG_FAB_OK;
		nodes[i].bw_ratio = -1;
	}
	if (k > SIZE_MAX / 2 / sizeof(*s))
		return -ENOMEM;
	s = malloc(k ? 2 * k * sizeof(*s) : 1);
	if (!s)
		return -ENOMEM;
	ns = make_sides(m, k, n, s);
	qsort(s, ns, sizeof(*s), cmp_side);
	for (size_t i = 0, e; i < ns; i = e) {
		for (e = i + 1; e < ns && s[e].node == s[i].node; e++)
			;
		judge_node(&nodes[s[i].node], s + i, e - i, medians);
		nflagged += nodes[s[i].node].flagged;
	}
	free(s);
	return (ssize_t)nflagged;
}

static double sort_ratio(const struct ig_fab_node *x)
{
	return x->bw_ratio < 0 ? 1 : x->bw_ratio;
}

/* Worst first: measured ones first, the flagged share down, the lowest
 * bandwidth ratio up, then rank up. */
static int cmp_worst(const void *pa, const void *pb, void *ctx)
{
	const struct ig_fab_node *nodes = ctx;
	const struct ig_fab_node *a = &nodes[*(const unsigned int *)pa];
	const struct ig_fab_node *b = &nodes[*(const unsigned int *)pb];
	uint64_t sa = (uint64_t)a->nflagged * b->npairs;
	uint64_t sb = (uint64_t)b->nflagged * a->npairs;

	if (!a->npairs != !b->npairs)
		return a->npairs ? -1 : 1;
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
