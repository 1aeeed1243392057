/* SPDX-License-Identifier: MIT */
#ifndef IG_REPORT_H
#define IG_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include <json-c/json.h>

#include "engine/result.h"

enum ig_format {
	IG_FMT_TEXT,
	IG_FMT_JSON,
	IG_FMT_CSV,
};

/* "text", "json" or "csv" -> enum value, else -EINVAL. */
int ig_format_parse(const char *s);

/*
 * Writes the results of one client run in the chosen format:
 *   text  a table for people (both sides' CPU shown)
 *   json  one document: {"schema": "ibgap/1", "env": {...}, "results": [...]}
 *   csv   a header row and one row per result
 * Returns 0 or a negative errno.
 */
int ig_report_write(FILE *f, enum ig_format fmt,
		    const struct ig_report_env *env,
		    const struct ig_result *res, size_t n);

/* The JSON document --format json writes, as an object (new reference,
 * NULL when out of memory). */
json_object *ig_report_json(const struct ig_report_env *env,
			    const struct ig_result *res, size_t n);

/* JSON pieces, shared with the control channel (the server's CPU figures
 * travel back to the client as the object ig_cpu_usage_to_json makes). */
json_object *ig_cpu_usage_to_json(const struct ig_cpu_usage *u);
int ig_cpu_usage_from_json(json_object *o, struct ig_cpu_usage *u);
json_object *ig_result_to_json(const struct ig_result *r);
json_object *ig_sysinfo_to_json(const struct ig_sysinfo *si);
int ig_sysinfo_from_json(json_object *o, struct ig_sysinfo *si);
json_object *ig_xinfo_to_json(const struct ig_xinfo *x);
int ig_xinfo_from_json(json_object *o, struct ig_xinfo *x);

#endif
