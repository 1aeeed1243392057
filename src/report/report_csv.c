// SPDX-License-Identifier: MIT
/* The report as CSV (--format csv): one row per result. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "report_int.h"
#include "transports/transports.h"

static const char *const csv_head_pre =
	"test,transport,size,streams,direction,window_requested,window_snd,"
	"window_rcv,iterations,seconds,bytes,bw_gbps,msg_rate,reverse_bytes,"
	"reverse_seconds,reverse_gbps";
static const char *const csv_head_post =
	"cpu_client_total_pct,cpu_client_us_per_kib,cpu_client_us_per_tr,"
	"cpu_server_total_pct,cpu_server_us_per_kib,cpu_server_us_per_tr,"
	"warning";

/* RFC 4180: quoted, with quotes doubled, when it holds , " CR or LF. */
static void csv_str(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* ",value" or "," when absent. */
static void csv_num(FILE *f, bool has, double v)
{
	if (has)
		fprintf(f, ",%.12g", v);
	else
		fputc(',', f);
}

/* us_per_kib and us_per_tr: the one that fits the test, the other empty. */
static void csv_demand(FILE *f, const struct ig_result *r,
		       const struct ig_cpu_usage *u, bool have)
{
	const char *key;
	double d = ig_rep_demand(r, u, have, &key);

	csv_num(f, !r->has_lat && d >= 0, d);
	csv_num(f, r->has_lat && d >= 0, d);
}

static size_t commas(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += *s == ',';
	return n;
}

/* --also's column, a measurement that did not run or finish: test,
 * transport, size, streams, every figure empty, and "failed: why" in
 * the warning column. */
static void csv_failed(FILE *f, const struct ig_result *r)
{
	/* a comma before each column after streams, the warning too */
	size_t empty = commas(csv_head_pre) - 2 + LAT_N + commas(csv_head_post);
	char why[sizeof(r->error) + 16];

	for (size_t i = 0; i < empty; i++)
		fputc(',', f);
	snprintf(why, sizeof(why), "failed: %s", r->error);
	csv_str(f, why);
	fputc('\n', f);
}

static void csv_row(FILE *f, const struct ig_result *r)
{
	const struct ig_cpu_usage *cc = &r->cpu_client, *cs = &r->cpu_server;
	bool sv = r->has_cpu_server;
	struct ig_rep_lat lv;

	ig_rep_lat_view(r, &lv);
	csv_str(f, ig_rep_test(r));
	fputc(',', f);
	csv_str(f, ig_rep_transport(r));
	fprintf(f, ",%" PRIu64 ",%" PRIu32, r->params.size, r->params.streams);
	if (r->failed) {
		csv_failed(f, r);
		return;
	}
	fputc(',', f);
	if (ig_params_direction(IG_TESTS, &r->params))
		csv_str(f, ig_params_direction(IG_TESTS, &r->params));
	if (ig_rep_has_window(r))
		fprintf(f, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64,
			r->window_requested, r->window_snd, r->window_rcv);
	else
		fputs(",,,", f);
	fprintf(f, ",%" PRIu64, r->iterations);
	csv_num(f, true, r->seconds);
	fprintf(f, ",%" PRIu64, r->bytes);
	csv_num(f, true, r->bw_gbps);
	csv_num(f, true, r->msg_rate);
	if (r->has_bidir)
		fprintf(f, ",%" PRIu64, r->rev_bytes);
	else
		fputc(',', f);
	csv_num(f, r->has_bidir, r->rev_seconds);
	csv_num(f, r->has_bidir, ig_rep_reverse_gbps(r));
	for (int i = 0; i < LAT_N; i++)
		csv_num(f, lv.has[i], lv.us[i]);
	csv_num(f, true, cc->total_pct);
	csv_demand(f, r, cc, true);
	csv_num(f, sv, cs->total_pct);
	csv_demand(f, r, cs, sv);
	fputc(',', f);
	csv_str(f, r->warning);
	fputc('\n', f);
}

int ig_rep_csv(FILE *f, const struct ig_report_env *env,
	       const struct ig_result *res, size_t n)
{
	fputs(csv_head_pre, f);
	for (int i = 0; i < LAT_N; i++)
		fprintf(f, ",lat_%s_us", ig_rep_lat_keys[i]);
	fprintf(f, ",%s\n", csv_head_post);
	for (size_t i = 0; i < n; i++)
		csv_row(f, &res[i]);
	if (env->cmp)
		ig_compare_csv(f, env->cmp);
	return 0;
}
