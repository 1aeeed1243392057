/* SPDX-License-Identifier: MIT */
#ifndef IG_REPORT_H
#define IG_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <json-c/json.h>

#include "doctor/remote.h"
#include "engine/result.h"
#include "wire/codec.h"

struct ig_compare;
struct ig_rails_report;
struct ig_dr_finding;

struct ig_report_env {
	struct ig_sysinfo client;
	struct ig_sysinfo server;
	struct ig_fingerprint fp_client; /* of the device verbs used, if any */
	struct ig_fingerprint fp_server;
	bool has_fp;
	const struct ig_compare *cmp; /* the comparison, or NULL */
	const char *note;	      /* one line for the reader, or NULL */
	const struct ig_dr_finding *findings; /* the doctor's, for the run */
	size_t nfindings;
	const char *peer; /* the server as the client named it (openmetrics) */
	/* --baseline's verdict (openmetrics): baseline is the file's name,
	 * NULL when there was no check; regressed when a metric was worse;
	 * incomplete when none was, but the run lacked results or metrics of
	 * the baseline, or compared none (exit 3) */
	const char *baseline;
	bool regressed;
	bool incomplete;
	/* --rails: the rails' report (text: its blocks instead of the
	 * table; JSON: "rails"), or NULL */
	const struct ig_rails_report *rails;
};

enum ig_format {
	IG_FMT_TEXT,
	IG_FMT_JSON,
	IG_FMT_CSV,
	IG_FMT_OPENMETRICS,
};

/* Their names, by enum value, NULL-terminated. */
extern const char *const ig_format_names[];
/* "text", "json", "csv" or "openmetrics" -> enum value, else -EINVAL. */
int ig_format_parse(const char *s);

/*
 * Writes the results of one client run in the chosen format:
 *   text  a table for people (both sides' CPU shown)
 *   json  one document: {"schema": "ibgap/1", "env": {...}, "results": [...]}
 *   csv   a header row and one row per result
 *   openmetrics  OpenMetrics text: bandwidth, message rate, latency
 *         quantiles, CPU, and the baseline's verdict (report_om.c)
 * Returns 0 or a negative errno.
 */
int ig_report_write(FILE *f, enum ig_format fmt,
		    const struct ig_report_env *env,
		    const struct ig_result *res, size_t n);

/* A result's "repeat" object (runs, metric, mean, stdev, level, ci_low,
 * ci_high, and width_pct and met with --confidence). */
json_object *ig_report_repeat_json(const struct ig_repeat *p);

/* The JSON document --format json writes, as an object (new reference,
 * NULL when out of memory). */
json_object *ig_report_json(const struct ig_report_env *env,
			    const struct ig_result *res, size_t n);

/* One result as the report's JSON holds it (new reference, or NULL). */
json_object *ig_result_to_json(const struct ig_result *r);

/* doctor_out.c: the doctor's document, this host's report and, when rm
 * is not NULL, the server's (or why it is missing), as JSON or text.  0 or
 * a negative errno. */
int ig_report_doctor(FILE *f, bool json, const struct ig_dr_report *local,
		     const struct ig_dr_remote *rm, const char *host,
		     const char *port);

#endif
