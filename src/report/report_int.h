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

/* Microseconds; has[i] false means absent (never zero-filled). */
struct ig_rep_lat {
	bool has[LAT_N];
	double us[LAT_N];
};

/* The latency summary of r; a figure only where the samples support it. */
void ig_rep_lat_view(const struct ig_result *r, struct ig_rep_lat *lv);
/* r's test and transport names, and whether it has socket buffers. */
const char *ig_rep_test(const struct ig_result *r);
const char *ig_rep_transport(const struct ig_result *r);
bool ig_rep_has_window(const struct ig_result *r);
/* --bidir: the server->client direction's Gb/s, 0 when it did not run. */
double ig_rep_reverse_gbps(const struct ig_result *r);

/* report_matrix.c: the streams x window tables of the text report, one
 * per test and size measured at more than one (streams, window); and
 * whether the results' windows differ (the text table shows them then). */
void ig_rep_matrix_text(FILE *f, const struct ig_result *res, size_t n);
bool ig_rep_windows_vary(const struct ig_result *res, size_t n);

/* The three formats' writers (report_json.c, report_text.c,
 * report_csv.c), called by ig_report_write(). */
int ig_rep_json(FILE *f, const struct ig_report_env *env,
		const struct ig_result *res, size_t n);
int ig_rep_text(FILE *f, const struct ig_report_env *env,
		const struct ig_result *res, size_t n);
int ig_rep_csv(FILE *f, const struct ig_report_env *env,
	       const struct ig_result *res, size_t n);

#endif
