/* SPDX-License-Identifier: MIT */
#ifndef IG_REPORT_INT_H
#define IG_REPORT_INT_H

#include <stdbool.h>
#include <stdio.h>

#include "report.h"

/* report_view.c: what every format takes from a result. */
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
extern const char *const ig_rep_lat_keys[LAT_N];

/* The quantile of summary figure i: 0 min, 0.5 p50 ... 1 max; 0 for
 * mean and stdev (not quantiles: callers skip them). */
double ig_rep_lat_quantile(int i);

/* Microseconds; has[i] false means absent (never zero-filled). */
struct ig_rep_lat {
	bool has[LAT_N];
	double us[LAT_N];
};

/* The latency summary of r; a figure only where the samples support it. */
void ig_rep_lat_view(const struct ig_result *r, struct ig_rep_lat *lv);
/*
 * Stalls (docs/design.md, "Metric definitions"): samples of at least
 * IG_REP_STALL_X times the p50 and IG_REP_STALL_MIN_US, so far above the
 * rest that the thread or its (virtual) CPU did not run.  How many; 0
 * without a p50.  *from_us: the bound.
 */
#define IG_REP_STALL_X 20
#define IG_REP_STALL_MIN_US 1000.0
uint64_t ig_rep_stalls(const struct ig_result *r, double *from_us);
/* r's test and transport names, and whether it has socket buffers. */
const char *ig_rep_test(const struct ig_result *r);
const char *ig_rep_transport(const struct ig_result *r);
bool ig_rep_has_window(const struct ig_result *r);
/* The transport named the device a side used (verbs). */
bool ig_rep_has_device(const struct ig_facts *x);
/* --also's column: "@ADDR" of its transport "tcp@ADDR"; "" for others. */
const char *ig_rep_at(const struct ig_result *r);
/* The row a line is about: "tcp_bw 64K streams 4", then " window 256K"
 * when one was set ("tcp_bw@ADDR ..." for --also's column).  Returns buf. */
const char *ig_rep_row(const struct ig_result *r, char *buf, size_t len);
/*
 * The CPU service demand shown for one side (u, present when have):
 * us_per_kib for bandwidth tests, us_per_tr (CPU microseconds per round
 * trip) for latency tests, whose payload is a few bytes.  *key names it;
 * returns it, negative when unknown.
 */
double ig_rep_demand(const struct ig_result *r, const struct ig_cpu_usage *u,
		     bool have, const char **key);
/* --bidir: the server->client direction's Gb/s, 0 when it did not run. */
double ig_rep_reverse_gbps(const struct ig_result *r);

/* report_matrix.c: the streams x window tables of the text report, one
 * per test and size measured at more than one (streams, window); and
 * whether the results' windows differ (the text table shows them then). */
void ig_rep_matrix_text(FILE *f, const struct ig_result *res, size_t n);
bool ig_rep_windows_vary(const struct ig_result *res, size_t n);

/* us per KiB -> CPU seconds per GB (10^9 bytes); -1 when !have or no
 * payload moved. */
double ig_rep_cpu_per_gb(const struct ig_cpu_usage *u, bool have);

/* report_tcp.c: TCP_INFO and --zerocopy of TCP results. */
/* Either side reported TCP_INFO. */
bool ig_rep_has_tcpinfo(const struct ig_result *r);
/* --zerocopy was given for this result's test; its sender used it. */
bool ig_rep_zc_asked(const struct ig_result *r);
bool ig_rep_zerocopy(const struct ig_result *r);
/* Retransmissions of the measured interval, every stream, both sides. */
uint64_t ig_rep_retrans(const struct ig_result *r);
/* "tcp_info": {retrans, client: [per stream], server: [per stream]} */
json_object *ig_rep_tcpinfo_json(const struct ig_result *r);
/* "zerocopy_stats": {sends, copied, enobufs, fallback} */
json_object *ig_rep_zc_json(const struct ig_result *r);
/* The text lines: a warning per result whose streams retransmitted or
 * whose zero-copy sends the kernel copied or refused, and a zerocopy:
 * line per zero-copy run (beside its copying run with both). */
void ig_rep_tcp_text(FILE *f, const struct ig_result *res, size_t n);

/* The three formats' writers (report_json.c, report_text.c,
 * report_csv.c), called by ig_report_write(). */
int ig_rep_json(FILE *f, const struct ig_report_env *env,
		const struct ig_result *res, size_t n);
int ig_rep_text(FILE *f, const struct ig_report_env *env,
		const struct ig_result *res, size_t n);
/* report_om.c: OpenMetrics text */
int ig_rep_om(FILE *f, const struct ig_report_env *env,
	      const struct ig_result *res, size_t n);
int ig_rep_csv(FILE *f, const struct ig_report_env *env,
	       const struct ig_result *res, size_t n);

#endif
