// SPDX-License-Identifier: MIT
/*
 * Reports: a table for people, one JSON document, or CSV.
 *
 * All three formats take the latency summary from lat_view(), so a figure
 * is present in one format exactly when it is present in the others: a
 * percentile only when the histogram holds enough samples to support it,
 * min/max/mean from one sample, stdev from two.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/json.h"
#include "compare.h"
#include "doctor/doctor.h"
#include "report.h"

#define IG_SCHEMA "ibgap/1"

int ig_format_parse(const char *s)
{
	static const char *const names[] = {
		[IG_FMT_TEXT] = "text",
		[IG_FMT_JSON] = "json",
		[IG_FMT_CSV] = "csv",
	};

	for (size_t i = 0; s && i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(s, names[i]))
			return (int)i;
	return -EINVAL;
}

/* ---- latency summary, shared by every format ---- */

enum {
	LAT_MIN,
	LAT_P50,
	LAT_P90,
	LAT_P99,
	LAT_P999,
	LAT_P9999,
	LAT_MAX,
	LAT_MEAN,
	LAT_STDEV,
	LAT_N
};

/* JSON keys inside "lat_us"; the CSV columns are "lat_<key>_us". */
static const char *const lat_keys[LAT_N] = {
	"min", "p50", "p90", "p99", "p999", "p9999", "max", "mean", "stdev",
};

static const double lat_q[LAT_N] = {
	[LAT_P50] = 0.5,    [LAT_P90] = 0.9,	  [LAT_P99] = 0.99,
	[LAT_P999] = 0.999, [LAT_P9999] = 0.9999,
};

/* Microseconds; has[i] false means absent (never zero-filled). */
struct lat_view {
	bool has[LAT_N];
	double us[LAT_N];
};

static void lat_set(struct lat_view *lv, int i, double ns)
{
	lv->has[i] = true;
	lv->us[i] = ns / 1000.0;
}

static void lat_view(const struct ig_result *r, struct lat_view *lv)
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

static const char *res_test(const struct ig_result *r)
{
	return r->test ? r->test : ig_test_name(r->params.test);
}

static const char *res_transport(const struct ig_result *r)
{
	return r->transport ? r->transport : ig_test_transport(r->params.test);
}

static bool res_has_window(const struct ig_result *r)
{
	return r->params.window != 0 || !strcmp(res_transport(r), "tcp");
}

/* ---- JSON ---- */

static json_object *lat_to_json(const struct ig_result *r)
{
	json_object *o = json_object_new_object();
	struct lat_view lv;

	if (!o)
		return NULL;
	lat_view(r, &lv);
	for (int i = 0; i < LAT_N; i++) {
		if (lv.has[i] && ig_json_add_double(o, lat_keys[i], lv.us[i])) {
			json_object_put(o);
			return NULL;
		}
	}
	return o;
}

static json_object *cpu_pair_to_json(const struct ig_result *r)
{
	json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	if (ig_json_add(o, "client", ig_cpu_usage_to_json(&r->cpu_client)) ||
	    (r->has_cpu_server &&
	     ig_json_add(o, "server", ig_cpu_usage_to_json(&r->cpu_server)))) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

static json_object *window_to_json(const struct ig_result *r)
{
	json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	if (ig_json_add_u64(o, "requested", r->window_requested) ||
	    ig_json_add_u64(o, "snd", r->window_snd) ||
	    ig_json_add_u64(o, "rcv", r->window_rcv)) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

static json_object *device_to_json(const struct ig_result *r)
{
	json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	if (r->xinfo.valid)
		ig_json_add(o, "client", ig_xinfo_to_json(&r->xinfo));
	if (r->xinfo_server.valid)
		ig_json_add(o, "server", ig_xinfo_to_json(&r->xinfo_server));
	return o;
}

static json_object *streams_json(const struct ig_result *r)
{
	json_object *a = json_object_new_array();

	for (unsigned int i = 0;
	     a && i < r->params.streams && i < IG_MAX_STREAMS; i++) {
		json_object *e = json_object_new_object();
		double secs = r->seconds > 0 ? r->seconds : 1;

		ig_json_add_u64(e, "stream", i);
		ig_json_add_u64(e, "iterations", r->stream_msgs[i]);
		ig_json_add_double(e, "bw_gbps",
				   (double)r->stream_msgs[i] *
					   (double)r->params.size * 8 / secs /
					   1e9);
		json_object_array_add(a, e);
	}
	return a;
}

/* --bidir: bw_gbps is the client->server direction; this adds the other
 * and the sum. */
static double reverse_gbps(const struct ig_result *r)
{
	return r->rev_seconds > 0
		       ? (double)r->rev_bytes * 8 / r->rev_seconds / 1e9
		       : 0;
}

static json_object *bidir_json(const struct ig_result *r)
{
	json_object *o = json_object_new_object();

	ig_json_add_double(o, "forward_gbps", r->bw_gbps);
	ig_json_add_double(o, "reverse_gbps", reverse_gbps(r));
	ig_json_add_double(o, "total_gbps", r->bw_gbps + reverse_gbps(r));
	ig_json_add_u64(o, "reverse_bytes", r->rev_bytes);
	ig_json_add_double(o, "reverse_seconds", r->rev_seconds);
	return o;
}

static json_object *repeat_json(const struct ig_repeat *p)
{
	json_object *o = json_object_new_object();

	ig_json_add_u64(o, "runs", p->n);
	ig_json_add_str(o, "metric", p->metric ? p->metric : "");
	ig_json_add_double(o, "mean", p->mean);
	ig_json_add_double(o, "stdev", p->stdev);
	ig_json_add_u64(o, "level", p->level);
	ig_json_add_double(o, "ci_low", p->ci_lo);
	ig_json_add_double(o, "ci_high", p->ci_hi);
	if (p->width_pct > 0) {
		ig_json_add_double(o, "width_pct", p->width_pct);
		ig_json_add(o, "met", json_object_new_boolean(p->met));
	}
	return o;
}

json_object *ig_result_to_json(const struct ig_result *r)
{
	json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	if (ig_json_add_str(o, "test", res_test(r)) ||
	    ig_json_add_str(o, "transport", res_transport(r)) ||
	    ig_json_add_u64(o, "size", r->params.size) ||
	    ig_json_add_u64(o, "streams", r->params.streams) ||
	    ig_json_add_u64(o, "iterations", r->iterations) ||
	    ig_json_add_double(o, "seconds", r->seconds) ||
	    ig_json_add_u64(o, "bytes", r->bytes) ||
	    ig_json_add_double(o, "bw_gbps", r->bw_gbps) ||
	    ig_json_add_double(o, "msg_rate", r->msg_rate) ||
	    (r->has_lat && ig_json_add(o, "lat_us", lat_to_json(r))) ||
	    ig_json_add(o, "cpu", cpu_pair_to_json(r)) ||
	    (res_has_window(r) &&
	     ig_json_add(o, "window", window_to_json(r))) ||
	    ((r->xinfo.valid || r->xinfo_server.valid) &&
	     ig_json_add(o, "device", device_to_json(r))) ||
	    (r->params.streams > 1 &&
	     ig_json_add(o, "per_stream", streams_json(r))) ||
	    (r->rep.n > 1 && ig_json_add(o, "repeat", repeat_json(&r->rep))) ||
	    (r->partial &&
	     ig_json_add(o, "partial", json_object_new_boolean(1))) ||
	    (r->has_bidir && ig_json_add(o, "bidir", bidir_json(r))) ||
	    (r->warning[0] && ig_json_add_str(o, "warning", r->warning))) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

static json_object *host_json(const struct ig_sysinfo *si,
			      const struct ig_fingerprint *fp)
{
	json_object *o = ig_sysinfo_to_json(si);

	if (o && fp &&
	    ig_json_add(o, "fingerprint", ig_fingerprint_to_json(fp))) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

static json_object *findings_json(const struct ig_report_env *env)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; a && i < env->nfindings; i++)
		json_object_array_add(a,
				      ig_dr_finding_to_json(&env->findings[i]));
	return a;
}

json_object *ig_report_json(const struct ig_report_env *env,
			    const struct ig_result *res, size_t n)
{
	json_object *root = json_object_new_object();
	json_object *jenv, *arr;

	if (!root)
		return NULL;
	/* ig_json_add() owns what it is given, even on failure: no leak below. */
	if (ig_json_add_str(root, "schema", IG_SCHEMA))
		goto err_root;
	jenv = json_object_new_object();
	if (ig_json_add(root, "env", jenv) ||
	    ig_json_add(jenv, "client",
			host_json(&env->client,
				  env->has_fp ? &env->fp_client : NULL)) ||
	    ig_json_add(jenv, "server",
			host_json(&env->server,
				  env->has_fp ? &env->fp_server : NULL)))
		goto err_root;
	if (env->note && ig_json_add_str(root, "note", env->note))
		goto err_root;
	arr = json_object_new_array();
	if (ig_json_add(root, "results", arr))
		goto err_root;
	if (env->nfindings && ig_json_add(root, "findings", findings_json(env)))
		goto err_root;
	if (env->cmp && (env->cmp->npairs || env->cmp->nnhalf) &&
	    ig_json_add(root, "comparison", ig_compare_to_json(env->cmp)))
		goto err_root;
	for (size_t i = 0; i < n; i++) {
		json_object *jr = ig_result_to_json(&res[i]);

		if (!jr)
			goto err_root;
		if (json_object_array_add(arr, jr) < 0) {
			json_object_put(jr);
			goto err_root;
		}
	}
	return root;

err_root:
	json_object_put(root);
	return NULL;
}

static int report_json(FILE *f, const struct ig_report_env *env,
		       const struct ig_result *res, size_t n)
{
	const int flags = JSON_C_TO_STRING_PRETTY |
			  JSON_C_TO_STRING_NOSLASHESCAPE;
	json_object *root = ig_report_json(env, res, n);
	const char *s;

	if (!root) {
		fprintf(stderr,
			"ibgap: report: out of memory building the JSON document of %zu results\n",
			n);
		return -ENOMEM;
	}
	s = json_object_to_json_string_ext(root, flags);
	if (!s) {
		json_object_put(root);
		fprintf(stderr,
			"ibgap: report: out of memory printing the JSON document\n");
		return -ENOMEM;
	}
	fputs(s, f);
	fputc('\n', f);
	json_object_put(root);
	return 0;
}

/* ---- text ---- */

enum {
	C_TEST,
	C_TRANSPORT,
	C_SIZE,
	C_STREAMS,
	C_SECONDS,
	C_GBPS,
	C_MMSG,
	C_P50,
	C_P99,
	C_P999,
	C_MAX,
	C_CPU_CL,
	C_CPU_SV,
	C_DEM_CL,
	C_DEM_SV,
	NCOL
};

/* Negative width: left-aligned. */
static const struct {
	const char *head;
	int width;
} cols[NCOL] = {
	[C_TEST] = { "test", -9 },	[C_TRANSPORT] = { "transport", -9 },
	[C_SIZE] = { "size", 6 },	[C_STREAMS] = { "streams", 7 },
	[C_SECONDS] = { "seconds", 7 }, [C_GBPS] = { "Gb/s", 8 },
	[C_MMSG] = { "Mmsg/s", 8 },	[C_P50] = { "p50", 8 },
	[C_P99] = { "p99", 8 },		[C_P999] = { "p99.9", 8 },
	[C_MAX] = { "max", 8 },		[C_CPU_CL] = { "client", 6 },
	[C_CPU_SV] = { "server", 6 },	[C_DEM_CL] = { "client", 7 },
	[C_DEM_SV] = { "server", 7 },
};

#define CELL_LEN 32

static const char *const units_line =
	"Gb/s = 10^9 bit/s; latency = half round trip, microseconds; "
	"CPU = % of all CPUs of that host; us/KiB = CPU microseconds per KiB "
	"of payload (netperf service demand)";

static int col_offset(int c)
{
	int off = 0;

	for (int i = 0; i < c; i++)
		off += abs(cols[i].width) + 1;
	return off;
}

static void print_cells(FILE *f, char cell[NCOL][CELL_LEN])
{
	for (int i = 0; i < NCOL; i++)
		fprintf(f, "%s%*s", i ? " " : "", cols[i].width, cell[i]);
	fputc('\n', f);
}

/* "---- label ----" over columns a..b; *pos is the current column. */
static void print_group(FILE *f, int *pos, int a, int b, const char *label)
{
	static const char dash[] = "----------------------------------------";
	int start = col_offset(a);
	int w = col_offset(b) + abs(cols[b].width) - start;
	int fill = w - (int)strlen(label) - 2;
	int left = fill > 0 ? fill / 2 : 0;
	int right = fill > 0 ? fill - left : 0;

	fprintf(f, "%*s%.*s %s %.*s", start - *pos, "", left, dash, label,
		right, dash);
	*pos = start + w;
}

static void text_head(FILE *f)
{
	char cell[NCOL][CELL_LEN];
	int pos = 0;

	print_group(f, &pos, C_P50, C_MAX, "latency, us");
	print_group(f, &pos, C_CPU_CL, C_CPU_SV, "CPU %");
	print_group(f, &pos, C_DEM_CL, C_DEM_SV, "us/KiB");
	fputc('\n', f);
	for (int i = 0; i < NCOL; i++)
		snprintf(cell[i], CELL_LEN, "%s", cols[i].head);
	print_cells(f, cell);
}

/* 64K, 1M, 2G when an exact multiple, else plain bytes. */
/* v with prec decimals, or "-" when absent. */
static void cell_num(char *cell, bool has, int prec, double v)
{
	if (has)
		snprintf(cell, CELL_LEN, "%.*f", prec, v);
	else
		snprintf(cell, CELL_LEN, "-");
}

static void text_row(FILE *f, const struct ig_result *r)
{
	const struct ig_cpu_usage *cc = &r->cpu_client, *cs = &r->cpu_server;
	bool sv = r->has_cpu_server;
	char cell[NCOL][CELL_LEN];
	struct lat_view lv;

	lat_view(r, &lv);
	snprintf(cell[C_TEST], CELL_LEN, "%s", res_test(r));
	snprintf(cell[C_TRANSPORT], CELL_LEN, "%s", res_transport(r));
	ig_size_str(r->params.size, cell[C_SIZE], CELL_LEN);
	snprintf(cell[C_STREAMS], CELL_LEN, "%" PRIu32, r->params.streams);
	cell_num(cell[C_SECONDS], true, 3, r->seconds);
	cell_num(cell[C_GBPS], true, 2, r->bw_gbps);
	cell_num(cell[C_MMSG], true, 3, r->msg_rate / 1e6);
	cell_num(cell[C_P50], lv.has[LAT_P50], 2, lv.us[LAT_P50]);
	cell_num(cell[C_P99], lv.has[LAT_P99], 2, lv.us[LAT_P99]);
	cell_num(cell[C_P999], lv.has[LAT_P999], 2, lv.us[LAT_P999]);
	cell_num(cell[C_MAX], lv.has[LAT_MAX], 2, lv.us[LAT_MAX]);
	cell_num(cell[C_CPU_CL], true, 1, cc->total_pct);
	cell_num(cell[C_CPU_SV], sv, 1, cs->total_pct);
	cell_num(cell[C_DEM_CL], cc->us_per_kib >= 0, 3, cc->us_per_kib);
	cell_num(cell[C_DEM_SV], sv && cs->us_per_kib >= 0, 3, cs->us_per_kib);
	print_cells(f, cell);
}

static const char *or_dash(const char *s)
{
	return s[0] ? s : "-";
}

static void text_env(FILE *f, const char *side, const struct ig_sysinfo *si)
{
	fprintf(f, "%s  %s  kernel %s  ibgap %s\n", side, or_dash(si->hostname),
		or_dash(si->kernel), or_dash(si->version));
}

static void text_xinfo(FILE *f, const char *side, const struct ig_xinfo *x)
{
	char cpu[16] = "not pinned";

	if (x->cpu >= 0)
		snprintf(cpu, sizeof(cpu), "cpu %d", x->cpu);
	fprintf(f,
		"%s  %s port %d  %s  MTU %d  GID[%d] %s  %.1f Gb/s  "
		"NUMA %d  %s\n",
		side, x->device, x->port, x->link_layer, x->mtu, x->gid_index,
		x->gid, x->rate_gbps, x->numa_node, cpu);
}

/* The device each side used, once, from the first verbs result. */
static void text_devices(FILE *f, const struct ig_result *res, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (!res[i].xinfo.valid && !res[i].xinfo_server.valid)
			continue;
		fputc('\n', f);
		if (res[i].xinfo.valid)
			text_xinfo(f, "client", &res[i].xinfo);
		if (res[i].xinfo_server.valid)
			text_xinfo(f, "server", &res[i].xinfo_server);
		return;
	}
}

static void text_repeats(FILE *f, const struct ig_result *res, size_t n)
{
	char sz[24];

	for (size_t i = 0; i < n; i++) {
		const struct ig_repeat *p = &res[i].rep;

		if (p->n < 2)
			continue;
		ig_size_str(res[i].params.size, sz, sizeof(sz));
		fprintf(f,
			"repeat: %s %s: %u runs, %s mean %.4g, %u%% "
			"interval [%.4g, %.4g]",
			res_test(&res[i]), sz, p->n, p->metric, p->mean,
			p->level, p->ci_lo, p->ci_hi);
		if (p->width_pct > 0)
			fprintf(f, ", +/-%.3g%% %s", p->width_pct / 2,
				p->met ? "met" : "NOT met");
		fputc('\n', f);
	}
}

static void text_findings(FILE *f, const struct ig_report_env *env)
{
	if (env->nfindings)
		fprintf(f, "\nfindings (see 'ibgap doctor HOST' for all):\n");
	for (size_t i = 0; i < env->nfindings; i++) {
		const struct ig_dr_finding *x = &env->findings[i];

		fprintf(f, "%-4s %s: %s\n", ig_dr_sev_name(x->sev), x->id,
			x->what);
		if (x->fix[0])
			fprintf(f, "     fix: %s\n", x->fix);
	}
}

static int report_text(FILE *f, const struct ig_report_env *env,
		       const struct ig_result *res, size_t n)
{
	if (env->note)
		fprintf(f, "note: %s\n", env->note);
	fprintf(f, "%s\n", units_line);
	text_env(f, "client", &env->client);
	text_env(f, "server", &env->server);
	fputc('\n', f);
	text_head(f);
	for (size_t i = 0; i < n; i++)
		text_row(f, &res[i]);
	for (size_t i = 0; i < n; i++)
		if (res[i].warning[0])
			fprintf(f, "warning: %s: %s\n", res_test(&res[i]),
				res[i].warning);
	for (size_t i = 0; i < n; i++)
		if (res[i].has_bidir)
			fprintf(f,
				"bidir: %s: client->server %.2f Gb/s, "
				"server->client %.2f Gb/s, total %.2f Gb/s\n",
				res_test(&res[i]), res[i].bw_gbps,
				reverse_gbps(&res[i]),
				res[i].bw_gbps + reverse_gbps(&res[i]));
	for (size_t i = 0; i < n; i++)
		if (res[i].partial)
			fprintf(f, "partial: %s: interrupted after %.3f s\n",
				res_test(&res[i]), res[i].seconds);
	text_devices(f, res, n);
	text_repeats(f, res, n);
	if (env->cmp)
		ig_compare_text(f, env->cmp);
	text_findings(f, env);
	return 0;
}

/* ---- CSV ---- */

static const char *const csv_head_pre =
	"test,transport,size,streams,iterations,seconds,bytes,bw_gbps,msg_rate";
static const char *const csv_head_post =
	"cpu_client_total_pct,cpu_client_us_per_kib,"
	"cpu_server_total_pct,cpu_server_us_per_kib,warning";

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

static void csv_row(FILE *f, const struct ig_result *r)
{
	const struct ig_cpu_usage *cc = &r->cpu_client, *cs = &r->cpu_server;
	bool sv = r->has_cpu_server;
	struct lat_view lv;

	lat_view(r, &lv);
	csv_str(f, res_test(r));
	fputc(',', f);
	csv_str(f, res_transport(r));
	fprintf(f, ",%" PRIu64 ",%" PRIu32 ",%" PRIu64, r->params.size,
		r->params.streams, r->iterations);
	csv_num(f, true, r->seconds);
	fprintf(f, ",%" PRIu64, r->bytes);
	csv_num(f, true, r->bw_gbps);
	csv_num(f, true, r->msg_rate);
	for (int i = 0; i < LAT_N; i++)
		csv_num(f, lv.has[i], lv.us[i]);
	csv_num(f, true, cc->total_pct);
	csv_num(f, cc->us_per_kib >= 0, cc->us_per_kib);
	csv_num(f, sv, cs->total_pct);
	csv_num(f, sv && cs->us_per_kib >= 0, cs->us_per_kib);
	fputc(',', f);
	csv_str(f, r->warning);
	fputc('\n', f);
}

static int report_csv(FILE *f, const struct ig_report_env *env,
		      const struct ig_result *res, size_t n)
{
	fputs(csv_head_pre, f);
	for (int i = 0; i < LAT_N; i++)
		fprintf(f, ",lat_%s_us", lat_keys[i]);
	fprintf(f, ",%s\n", csv_head_post);
	for (size_t i = 0; i < n; i++)
		csv_row(f, &res[i]);
	if (env->cmp)
		ig_compare_csv(f, env->cmp);
	return 0;
}

int ig_report_write(FILE *f, enum ig_format fmt,
		    const struct ig_report_env *env,
		    const struct ig_result *res, size_t n)
{
	int ret;

	if (!f || !env || (n && !res)) {
		fprintf(stderr, "ibgap: report: internal error: %s is NULL\n",
			!f     ? "the output stream"
			: !env ? "env"
			       : "res");
		return -EINVAL;
	}
	switch (fmt) {
	case IG_FMT_TEXT:
		ret = report_text(f, env, res, n);
		break;
	case IG_FMT_JSON:
		ret = report_json(f, env, res, n);
		break;
	case IG_FMT_CSV:
		ret = report_csv(f, env, res, n);
		break;
	default:
		fprintf(stderr,
			"ibgap: report: unknown format %d (text, json or csv)\n",
			(int)fmt);
		return -EINVAL;
	}
	if (ret)
		return ret;
	errno = 0;
	if (fflush(f) || ferror(f)) {
		ret = errno ? -errno : -EIO;
		fprintf(stderr,
			"ibgap: report: writing %zu results failed: %s\n", n,
			strerror(-ret));
		return ret;
	}
	return 0;
}
