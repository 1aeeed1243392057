// SPDX-License-Identifier: MIT
/*
 * The report as OpenMetrics text (--format openmetrics), for Prometheus'
 * node_exporter textfile collector: a family per metric, every sample of
 * a family together, labels that tell results apart, "# EOF" at the end.
 * Gauges are in the units of their names (Gb/s, messages per second,
 * percent); latency is a summary in microseconds.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "report_int.h"
#include "transports/transports.h"

struct om_family {
	const char *name, *type, *help;
	/* writes r's samples of this family; false when r has none */
	bool (*has)(const struct ig_result *r);
	void (*emit)(FILE *f, const struct ig_report_env *env,
		     const struct ig_result *r, const char *name);
};

/* A label value with \, " and newline escaped. */
static void om_str(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '\\' || *s == '"')
			fputc('\\', f);
		if (*s == '\n')
			fputs("\\n", f);
		else
			fputc(*s, f);
	}
}

static void om_label(FILE *f, const char *key, const char *val)
{
	fprintf(f, ",%s=\"", key);
	om_str(f, val);
	fputc('"', f);
}

/* The labels that tell r apart from the other results of one run. */
static void om_labels(FILE *f, const struct ig_report_env *env,
		      const struct ig_result *r)
{
	const char *dir = ig_params_direction(IG_TESTS, &r->params);
	char num[32];

	fputs("{test=\"", f);
	om_str(f, ig_rep_test(r));
	fputc('"', f);
	om_label(f, "transport", ig_rep_transport(r));
	snprintf(num, sizeof(num), "%" PRIu64, r->params.size);
	om_label(f, "size", num);
	snprintf(num, sizeof(num), "%" PRIu32, r->params.streams);
	om_label(f, "streams", num);
	if (r->params.sock.window)
		snprintf(num, sizeof(num), "%" PRIu64, r->params.sock.window);
	else
		snprintf(num, sizeof(num), "default");
	om_label(f, "window", num);
	if (dir)
		om_label(f, "direction", dir);
	if (ig_rep_zc_asked(r))
		om_label(f, "zerocopy", ig_rep_zerocopy(r) ? "true" : "false");
	om_label(f, "peer", env->peer ? env->peer : "");
}

static bool is_bw(const struct ig_result *r)
{
	return !r->has_lat;
}

static bool is_lat(const struct ig_result *r)
{
	return r->has_lat && r->lat.count > 0;
}

static bool always(const struct ig_result *r)
{
	return true;
}

/* One sample: name{labels of r[,extra]} v. */
static void om_sample(FILE *f, const struct ig_report_env *env,
		      const struct ig_result *r, const char *name,
		      const char *extra, double v)
{
	fputs(name, f);
	om_labels(f, env, r);
	fprintf(f, "%s} %.9g\n", extra, v);
}

static void emit_bw(FILE *f, const struct ig_report_env *env,
		    const struct ig_result *r, const char *name)
{
	om_sample(f, env, r, name, "", r->bw_gbps);
}

static void emit_rate(FILE *f, const struct ig_report_env *env,
		      const struct ig_result *r, const char *name)
{
	om_sample(f, env, r, name, "", r->msg_rate);
}

static void emit_lat(FILE *f, const struct ig_report_env *env,
		     const struct ig_result *r, const char *name)
{
	struct ig_rep_lat lv;

	ig_rep_lat_view(r, &lv);
	for (int i = 0; i < LAT_N; i++) {
		if (!lv.has[i] || i == LAT_MEAN || i == LAT_STDEV)
			continue;
		fputs(name, f);
		om_labels(f, env, r);
		fprintf(f, ",quantile=\"%g\"} %.9g\n", ig_rep_lat_quantile(i),
			lv.us[i]);
	}
	fprintf(f, "%s_sum", name);
	om_labels(f, env, r);
	fprintf(f, "} %.9g\n", ig_hist_mean(&r->lat) / 1000.0 * r->lat.count);
	fprintf(f, "%s_count", name);
	om_labels(f, env, r);
	fprintf(f, "} %" PRIu64 "\n", r->lat.count);
}

static void emit_cpu(FILE *f, const struct ig_report_env *env,
		     const struct ig_result *r, const char *name)
{
	om_sample(f, env, r, name, ",side=\"client\"", r->cpu_client.total_pct);
	if (r->has_cpu_server)
		om_sample(f, env, r, name, ",side=\"server\"",
			  r->cpu_server.total_pct);
}

static const struct om_family families[] = {
	{ "ibgap_bandwidth_gbps", "gauge",
	  "Bandwidth of a bandwidth test, Gb/s (10^9 bit/s).", is_bw, emit_bw },
	{ "ibgap_message_rate", "gauge",
	  "Messages (bandwidth tests) or round trips (latency tests) per "
	  "second.",
	  always, emit_rate },
	{ "ibgap_latency_us", "summary",
	  "Latency of a latency test, microseconds: half a round trip "
	  "(read_lat: the whole read); quantile 0 is the minimum, 1 the "
	  "maximum.",
	  is_lat, emit_lat },
	{ "ibgap_cpu_percent", "gauge",
	  "CPU busy during the measured interval, percent of all CPUs "
	  "of the side's host (100: every CPU busy), by side.",
	  always, emit_cpu },
};

static void om_family(FILE *f, const struct om_family *fam,
		      const struct ig_report_env *env,
		      const struct ig_result *res, size_t n)
{
	bool head = false;

	for (size_t i = 0; i < n; i++) {
		if (!fam->has(&res[i]))
			continue;
		if (!head)
			fprintf(f, "# TYPE %s %s\n# HELP %s %s\n", fam->name,
				fam->type, fam->name, fam->help);
		head = true;
		fam->emit(f, env, &res[i], fam->name);
	}
}

/* One of --baseline's verdicts: a gauge of one sample, 1 or 0. */
static void om_verdict(FILE *f, const struct ig_report_env *env,
		       const char *name, const char *help, bool on)
{
	fprintf(f, "# TYPE %s gauge\n# HELP %s %s\n%s{baseline=\"", name, name,
		help, name);
	om_str(f, env->baseline);
	fprintf(f, "\",peer=\"");
	om_str(f, env->peer ? env->peer : "");
	fprintf(f, "\"} %d\n", on ? 1 : 0);
}

int ig_rep_om(FILE *f, const struct ig_report_env *env,
	      const struct ig_result *res, size_t n)
{
	for (size_t i = 0; i < sizeof(families) / sizeof(*families); i++)
		om_family(f, &families[i], env, res, n);
	if (env->baseline) {
		om_verdict(
			f, env, "ibgap_regression",
			"1 when a metric was worse than the baseline by more "
			"than the tolerance, else 0.",
			env->regressed);
		om_verdict(f, env, "ibgap_baseline_incomplete",
			   "1 when no metric was worse than the baseline but "
			   "the run lacked results or metrics of it, or "
			   "compared none (exit 3): ibgap_regression's 0 does "
			   "not clear the baseline then; else 0.",
			   env->incomplete);
	}
	fputs("# EOF\n", f);
	return 0;
}
