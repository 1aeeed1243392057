// SPDX-License-Identifier: MIT
/*
 * What every report format takes from a result.  All three formats take
 * the latency summary from ig_rep_lat_view(), so a figure is present in
 * one format exactly when it is present in the others: a percentile only
 * when the histogram holds enough samples to support it, min/max/mean
 * from one sample, stdev from two.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report_int.h"
#include "transports/transports.h"

/* JSON keys inside "lat_us"; the CSV columns are "lat_<key>_us". */
const char *const ig_rep_lat_keys[LAT_N] = {
	"min", "p50", "p90", "p99", "p999", "p9999", "max", "mean", "stdev",
};

static const double lat_q[LAT_N] = {
	[LAT_P50] = 0.5,    [LAT_P90] = 0.9,	  [LAT_P99] = 0.99,
	[LAT_P999] = 0.999, [LAT_P9999] = 0.9999,
};

double ig_rep_lat_quantile(int i)
{
	if (i == LAT_MIN)
		return 0;
	if (i == LAT_MAX)
		return 1;
	return i >= 0 && i < LAT_N ? lat_q[i] : 0;
}

static void lat_set(struct ig_rep_lat *lv, int i, double ns)
{
	lv->has[i] = true;
	lv->us[i] = ns / 1000.0;
}

uint64_t ig_rep_stalls(const struct ig_result *r, double *from_us)
{
	double p50;

	*from_us = 0;
	if (!r->has_lat || !ig_hist_percentile(&r->lat, 0.5, &p50))
		return 0;
	*from_us = fmax(IG_REP_STALL_X * p50 / 1000.0, IG_REP_STALL_MIN_US);
	return ig_hist_count_from(&r->lat, (uint64_t)(*from_us * 1000.0));
}

void ig_rep_lat_view(const struct ig_result *r, struct ig_rep_lat *lv)
{
	const struct ig_hist *h = &r->lat;
	double ns;

	memset(lv, 0, sizeof(*lv));
	if (!r->has_lat)
		return;
	for (int i = LAT_P50; i <= LAT_P9999; i++)
		if (ig_hist_percentile(h, lat_q[i], &ns))
			lat_set(lv, i, ns);
	if (h->count >= 1) {
		lat_set(lv, LAT_MIN, (double)h->min);
		lat_set(lv, LAT_MAX, (double)h->max);
		lat_set(lv, LAT_MEAN, ig_hist_mean(h));
	}
	if (h->count >= 2)
		lat_set(lv, LAT_STDEV, ig_hist_stdev(h));
}

const char *ig_rep_test(const struct ig_result *r)
{
	return r->test ? r->test : ig_test_name(IG_TESTS, r->params.test);
}

const char *ig_rep_transport(const struct ig_result *r)
{
	return r->transport ? r->transport
			    : ig_test_transport(IG_TESTS, r->params.test);
}

const char *ig_rep_at(const struct ig_result *r)
{
	const char *at = strchr(ig_rep_transport(r), '@');

	return at ? at : "";
}

const char *ig_rep_row(const struct ig_result *r, char *buf, size_t len)
{
	char sz[24], win[24];
	int k;

	ig_size_str(r->params.size, sz, sizeof(sz));
	k = snprintf(buf, len, "%s%s %s streams %" PRIu32, ig_rep_test(r),
		     ig_rep_at(r), sz, r->params.streams);
	if (r->params.sock.window && k >= 0 && (size_t)k < len) {
		ig_size_str(r->params.sock.window, win, sizeof(win));
		snprintf(buf + k, len - (size_t)k, " window %s", win);
	}
	return buf;
}

bool ig_rep_has_window(const struct ig_result *r)
{
	return r->params.sock.window != 0 ||
	       ig_test_xport(IG_TESTS, r->params.test) == IG_XPORT_TCP;
}

bool ig_rep_has_device(const struct ig_facts *x)
{
	return ig_facts_get(x, IG_FACT_DEVICE) != NULL;
}

double ig_rep_reverse_gbps(const struct ig_result *r)
{
	return r->rev_seconds > 0
		       ? (double)r->rev_bytes * 8 / r->rev_seconds / 1e9
		       : 0;
}

double ig_rep_cpu_per_gb(const struct ig_cpu_usage *u, bool have)
{
	if (!have || u->us_per_kib < 0)
		return -1;
	return u->us_per_kib * (1e9 / 1024) / 1e6;
}

double ig_rep_demand(const struct ig_result *r, const struct ig_cpu_usage *u,
		     bool have, const char **key)
{
	*key = r->has_lat ? "us_per_tr" : "us_per_kib";
	if (!have)
		return -1.0;
	return r->has_lat ? ig_cpu_us_per_tr(u, r->bytes, r->iterations)
			  : u->us_per_kib;
}
