// SPDX-License-Identifier: MIT
/*
 * The comparison: each verbs result next to the TCP result of the same
 * size, streams and window, and what the difference costs (docs/design.md,
 * "Comparison").  Pure: it only reads results.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "report_int.h"

static const struct {
	enum ig_test verbs, tcp;
} pairings[] = {
	{ IG_TEST_WRITE_BW, IG_TEST_TCP_BW },
	{ IG_TEST_SEND_BW, IG_TEST_TCP_BW },
	{ IG_TEST_SEND_LAT, IG_TEST_TCP_LAT },
	{ IG_TEST_WRITE_LAT, IG_TEST_TCP_LAT },
};

static const double thresholds[] = { 0.5, 0.9 };

/* The result of test t at v's size, streams and window (a matrix runs
 * every test at every window, verbs ones too: each TCP figure has its
 * verbs pair of the same run). */
static const struct ig_result *find(const struct ig_result *res, size_t n,
				    enum ig_test t, const struct ig_result *v)
{
	for (size_t i = 0; i < n; i++)
		if (res[i].params.test == t &&
		    res[i].params.size == v->params.size &&
		    res[i].params.streams == v->params.streams &&
		    res[i].params.window == v->params.window)
			return &res[i];
	return NULL;
}

static double ratio(double num, double den)
{
	return den > 0 ? num / den : 0;
}

static void fill_lat(struct ig_pair *p)
{
	double v[2][2];
	bool ok50 = true, ok99 = true;

	for (int t = 0; t < 2; t++) {
		ok50 &= ig_hist_percentile(&p->r[t]->lat, 0.5, &v[0][t]);
		ok99 &= ig_hist_percentile(&p->r[t]->lat, 0.99, &v[1][t]);
	}
	p->has_p50 = ok50;
	p->has_p99 = ok99;
	for (int t = 0; t < 2; t++) {
		p->p50[t] = ok50 ? v[0][t] / 1000 : 0;
		p->p99[t] = ok99 ? v[1][t] / 1000 : 0;
	}
}

static void fill_pair(struct ig_pair *p)
{
	for (int t = 0; t < 2; t++) {
		p->bw[t] = p->r[t]->bw_gbps;
		p->rate[t] = p->r[t]->msg_rate;
		p->cpu_gb[IG_CLI][t] =
			ig_rep_cpu_per_gb(&p->r[t]->cpu_client, true);
		p->cpu_gb[IG_SRV][t] = ig_rep_cpu_per_gb(
			&p->r[t]->cpu_server, p->r[t]->has_cpu_server);
	}
	p->bw_ratio = ratio(p->bw[IG_T], p->bw[IG_V]);
	p->rate_ratio = ratio(p->rate[IG_T], p->rate[IG_V]);
	p->port_gbps = p->r[IG_V]->xinfo.valid ? p->r[IG_V]->xinfo.rate_gbps
					       : 0;
	p->size = p->r[IG_V]->params.size;
	p->lat = p->r[IG_V]->has_lat;
	if (p->lat)
		fill_lat(p);
}

/* Same streams and window: one sweep over sizes of a -P/--window
 * matrix. */
static bool same_axes(const struct ig_result *a, const struct ig_result *b)
{
	return a->params.streams == b->params.streams &&
	       a->params.window == b->params.window;
}

/* r is of test t, at the streams and window of the first such result. */
static bool in_sweep(const struct ig_result *res, size_t n, size_t i,
		     enum ig_test t)
{
	size_t j = 0;

	if (res[i].params.test != t)
		return false;
	while (j < n && res[j].params.test != t)
		j++;
	return same_axes(&res[j], &res[i]);
}

static void nhalf(const struct ig_result *res, size_t n, struct ig_compare *c)
{
	for (int t = 0; t < IG_TEST_COUNT; t++) {
		struct ig_nhalf h = { .test = ig_test_name(t) };
		size_t count = 0;

		if (ig_test_pattern(t) != IG_PATTERN_BW)
			continue;
		for (size_t i = 0; i < n; i++) {
			if (!in_sweep(res, n, i, t))
				continue;
			count++;
			if (res[i].bw_gbps > h.peak_gbps) {
				h.peak_gbps = res[i].bw_gbps;
				h.peak_size = res[i].params.size;
			}
		}
		if (count < 2 || h.peak_gbps <= 0)
			continue;
		for (size_t i = 0; i < n; i++)
			if (in_sweep(res, n, i, t) &&
			    res[i].bw_gbps >= h.peak_gbps / 2 &&
			    (!h.size || res[i].params.size < h.size))
				h.size = res[i].params.size;
		c->nhalf[c->nnhalf++] = h;
	}
}

/* The pair is of verbs test vt, at the first such pair's streams and
 * window. */
static bool pair_in_sweep(const struct ig_compare *c, size_t i, enum ig_test vt)
{
	size_t j = 0;

	if (c->pairs[i].r[IG_V]->params.test != vt)
		return false;
	while (c->pairs[j].r[IG_V]->params.test != vt)
		j++;
	return same_axes(c->pairs[j].r[IG_V], c->pairs[i].r[IG_V]);
}

static void crossings(struct ig_compare *c)
{
	for (size_t k = 0; k < 2; k++) {
		enum ig_test vt = pairings[k].verbs;
		size_t seen = 0;

		for (size_t i = 0; i < c->npairs; i++)
			seen += pair_in_sweep(c, i, vt);
		if (seen < 2)
			continue;
		for (size_t j = 0; j < sizeof(thresholds) / sizeof(*thresholds);
		     j++) {
			struct ig_crossing x = { ig_test_name(vt),
						 thresholds[j], 0 };

			for (size_t i = 0; i < c->npairs; i++) {
				const struct ig_pair *p = &c->pairs[i];

				if (pair_in_sweep(c, i, vt) &&
				    p->bw_ratio >= x.threshold &&
				    (!x.size || p->size < x.size))
					x.size = p->size;
			}
			if (c->ncross < IG_MAX_CROSSINGS)
				c->cross[c->ncross++] = x;
		}
	}
}

int ig_compare_build(const struct ig_result *res, size_t n,
		     struct ig_compare *c)
{
	memset(c, 0, sizeof(*c));
	c->pairs = calloc(n ? n : 1, sizeof(*c->pairs));
	if (!c->pairs)
		return -ENOMEM;
	for (size_t k = 0; k < sizeof(pairings) / sizeof(*pairings); k++) {
		for (size_t i = 0; i < n; i++) {
			const struct ig_result *v = &res[i], *t;

			if (v->params.test != pairings[k].verbs)
				continue;
			t = find(res, n, pairings[k].tcp, v);
			if (!t)
				continue;
			c->pairs[c->npairs].r[IG_V] = v;
			c->pairs[c->npairs].r[IG_T] = t;
			fill_pair(&c->pairs[c->npairs++]);
		}
	}
	nhalf(res, n, c);
	crossings(c);
	return 0;
}

void ig_compare_free(struct ig_compare *c)
{
	free(c->pairs);
	c->pairs = NULL;
	c->npairs = 0;
}
