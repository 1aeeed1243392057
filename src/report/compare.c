// SPDX-License-Identifier: MIT
/*
 * The comparison: each verbs result next to the TCP result of the same
 * size, streams and window, and what the difference costs (docs/design.md,
 * "Comparison").  Pure: it only reads results.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "report_int.h"
#include "transports/transports.h"

enum { G_STACK, G_RS_TCP, G_VERBS_RS };

static const struct ig_pair_group groups[] = {
	[G_STACK] = { "verbs next to TCP on the same port: the cost of the IP "
		      "stack",
		      { "verbs", "tcp" },
		      { "v", "t" },
		      NULL },
	[G_RS_TCP] = { "rsockets next to TCP: what rsockets gives a socket "
		       "program",
		       { "rs", "tcp" },
		       { "r", "t" },
		       "rsockets vs tcp" },
	[G_VERBS_RS] = { "verbs next to rsockets: what rsockets leaves on the "
			 "table",
			 { "verbs", "rs" },
			 { "v", "r" },
			 "verbs vs rsockets" },
};

/*
 * (a, b, group): a result of test a pairs with the result of test b at
 * its size, streams and window.  rsockets moves a stream with RDMA writes
 * (with immediate) into the peer's receive ring, so rs_bw's verbs
 * counterpart is write_bw; its receiver learns of data from a completion,
 * as send_lat's does (write_lat polls a flag in memory, which rsockets
 * does not), so rs_lat's is send_lat.
 */
static const struct {
	enum ig_test a, b;
	unsigned int group;
} pairings[] = {
	{ IG_TEST_WRITE_BW, IG_TEST_TCP_BW, G_STACK },
	{ IG_TEST_SEND_BW, IG_TEST_TCP_BW, G_STACK },
	{ IG_TEST_SEND_LAT, IG_TEST_TCP_LAT, G_STACK },
	{ IG_TEST_WRITE_LAT, IG_TEST_TCP_LAT, G_STACK },
	{ IG_TEST_READ_BW, IG_TEST_TCP_BW, G_STACK },
	{ IG_TEST_UD_SEND_BW, IG_TEST_TCP_BW, G_STACK },
	{ IG_TEST_READ_LAT, IG_TEST_TCP_LAT, G_STACK },
	{ IG_TEST_UD_SEND_LAT, IG_TEST_TCP_LAT, G_STACK },
	{ IG_TEST_RS_BW, IG_TEST_TCP_BW, G_RS_TCP },
	{ IG_TEST_RS_LAT, IG_TEST_TCP_LAT, G_RS_TCP },
	{ IG_TEST_WRITE_BW, IG_TEST_RS_BW, G_VERBS_RS },
	{ IG_TEST_SEND_LAT, IG_TEST_RS_LAT, G_VERBS_RS },
};

#define NPAIRINGS (sizeof(pairings) / sizeof(*pairings))

static const double thresholds[] = { 0.5, 0.9 };

/* A result that ran, on its test's own transport (not --also's
 * tcp@ADDR, which is a column of its own). */
static bool pairable(const struct ig_result *r, enum ig_test t)
{
	return r->params.test == t && !r->failed &&
	       !strcmp(ig_rep_transport(r), ig_test_transport(IG_TESTS, t));
}

/* The result of test t at v's size, streams and window (a matrix runs
 * every test at every window, verbs ones too: each TCP figure has its
 * verbs pair of the same run). */
static const struct ig_result *find(const struct ig_result *res, size_t n,
				    enum ig_test t, const struct ig_result *v)
{
	for (size_t i = 0; i < n; i++)
		if (pairable(&res[i], t) &&
		    res[i].params.size == v->params.size &&
		    res[i].params.streams == v->params.streams &&
		    res[i].params.sock.window == v->params.sock.window)
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
	p->port_gbps = ig_facts_real(&p->r[IG_V]->facts, "rate_gbps", 0);
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
	       a->params.sock.window == b->params.sock.window;
}

/* r is of test t, at the streams and window of the first such result. */
static bool in_sweep(const struct ig_result *res, size_t n, size_t i,
		     enum ig_test t)
{
	size_t j = 0;

	if (!pairable(&res[i], t))
		return false;
	while (j < n && !pairable(&res[j], t))
		j++;
	return same_axes(&res[j], &res[i]);
}

static void nhalf(const struct ig_result *res, size_t n, struct ig_compare *c)
{
	for (int t = 0; t < IG_TEST_COUNT; t++) {
		struct ig_nhalf h = { .test = ig_test_name(IG_TESTS, t) };
		size_t count = 0;

		if (ig_test_pattern(IG_TESTS, t) != IG_PATTERN_BW)
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

/* The pair is of pairing k, at the first such pair's streams and
 * window. */
static bool pair_in_sweep(const struct ig_compare *c, size_t i, size_t k)
{
	size_t j = 0;

	if (c->pairs[i].kind != k)
		return false;
	while (c->pairs[j].kind != k)
		j++;
	return same_axes(c->pairs[j].r[IG_V], c->pairs[i].r[IG_V]);
}

/* Where tcp_bw reaches a share of each verbs bandwidth test. */
static void crossings(struct ig_compare *c)
{
	for (size_t k = 0; k < NPAIRINGS; k++) {
		enum ig_test vt = pairings[k].a;
		size_t seen = 0;

		if (pairings[k].b != IG_TEST_TCP_BW ||
		    ig_test_xport(IG_TESTS, vt) != IG_XPORT_VERBS)
			continue;
		for (size_t i = 0; i < c->npairs; i++)
			seen += pair_in_sweep(c, i, k);
		if (seen < 2)
			continue;
		for (size_t j = 0; j < sizeof(thresholds) / sizeof(*thresholds);
		     j++) {
			struct ig_crossing x = { ig_test_name(IG_TESTS, vt),
						 thresholds[j], 0 };

			for (size_t i = 0; i < c->npairs; i++) {
				const struct ig_pair *p = &c->pairs[i];

				if (pair_in_sweep(c, i, k) &&
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
	/* a result is side a of at most two pairings (write_bw: tcp_bw and
	 * rs_bw) */
	c->pairs = calloc(n ? 2 * n : 1, sizeof(*c->pairs));
	if (!c->pairs)
		return -ENOMEM;
	for (size_t k = 0; k < NPAIRINGS; k++) {
		for (size_t i = 0; i < n; i++) {
			struct ig_pair *p = &c->pairs[c->npairs];
			const struct ig_result *v = &res[i], *t;

			if (!pairable(v, pairings[k].a))
				continue;
			t = find(res, n, pairings[k].b, v);
			if (!t)
				continue;
			p->r[IG_V] = v;
			p->r[IG_T] = t;
			p->kind = (unsigned int)k;
			p->g = &groups[pairings[k].group];
			fill_pair(p);
			c->npairs++;
		}
	}
	nhalf(res, n, c);
	crossings(c);
	return 0;
}

/* In datagram mode IPoIB carries TCP in UD datagrams of the path MTU:
 * the UD pairs are the like-for-like ones, the RC ones show what a
 * reliable connection would give. */
void ig_compare_set_ipoib(struct ig_compare *c, const char *mode)
{
	bool dgram = mode && !strcmp(mode, "datagram");

	snprintf(c->ipoib_mode, sizeof(c->ipoib_mode), "%s", mode ? mode : "");
	for (size_t i = 0; i < c->npairs; i++) {
		struct ig_pair *p = &c->pairs[i];
		enum ig_test a = p->r[IG_V]->params.test;

		p->like_for_like =
			dgram && p->g == &groups[G_STACK] &&
			(a == IG_TEST_UD_SEND_BW || a == IG_TEST_UD_SEND_LAT);
	}
}

void ig_compare_free(struct ig_compare *c)
{
	free(c->pairs);
	c->pairs = NULL;
	c->npairs = 0;
}
