/* SPDX-License-Identifier: MIT */
#ifndef IG_BASELINE_H
#define IG_BASELINE_H

#include <stddef.h>
#include <stdio.h>

#include <json-c/json.h>

/* Saved reports larger than this are refused before they are parsed. */
#define IG_BASELINE_MAX_BYTES (16u * 1024 * 1024)
#define IG_BASELINE_DEFAULT_TOL 5.0 /* percent */
#define IG_BASELINE_MAX_TOL 1000.0

/* Exit status of "ibgap diff" (and of the client's --baseline). */
enum {
	IG_DIFF_OK = 0,		/* no metric worse than the tolerance */
	IG_DIFF_REGRESSION = 1, /* at least one metric is */
	IG_DIFF_USAGE = 2,	/* bad option or value */
	IG_DIFF_BADFILE = 3,	/* unreadable file, or not an ibgap report */
	/* the comparison could not be made: nothing compared, or results
	 * (or metrics) of the old run missing from the new */
	IG_DIFF_INCOMPLETE = 3,
};

/*
 * Loads a saved report (what --format json or --save-baseline wrote):
 * schema "ibgap/1", results an array of objects each with test (string),
 * size (integer >= 1) and, when present, streams (integer >= 1); env and
 * its fingerprints, when present, of the right types.  Returns 0 and a
 * new reference in *doc, or a negative errno with one line in err naming
 * the file and what is wrong.  Files over IG_BASELINE_MAX_BYTES are
 * refused (-EFBIG).  Safe on any input: its checks are those of
 * ig_baseline_parse(), which the fuzzer calls.
 */
int ig_baseline_load(const char *path, json_object **doc, char *err,
		     size_t errlen);

/* How many of doc's results are marked "partial" (an interrupted run's
 * last test, cut short): a baseline with any is no whole run. */
unsigned int ig_baseline_partial(json_object *doc);

/* The same checks on a buffer of len bytes (need not be NUL-terminated);
 * err does not name a file. */
int ig_baseline_parse(const char *buf, size_t len, json_object **doc, char *err,
		      size_t errlen);

/*
 * Compares new_doc against old_doc (both as ig_baseline_parse accepts):
 * results matched by (test, size, streams); bw_gbps and msg_rate are worse
 * when lower, lat_us.p50 and lat_us.p99 when higher (compared only when
 * both results have them).  A regression is a metric worse by more than
 * tol_pct percent.  Prints to out one line per changed fingerprint field
 * per host, one per compared metric, one per result present in only one
 * document, and a summary line.  Returns IG_DIFF_OK (every result and
 * metric of the old run compared, no regression), IG_DIFF_REGRESSION,
 * IG_DIFF_INCOMPLETE (no regression, but nothing compared or part of the
 * old run missing from the new: a "not ok" line says which), or a
 * negative errno (one line on stderr).
 */
int ig_baseline_compare(json_object *old_doc, json_object *new_doc,
			double tol_pct, FILE *out);

/* "5", "2.5", "5%" -> percent in [0, IG_BASELINE_MAX_TOL]; else -EINVAL. */
int ig_baseline_tolerance_parse(const char *s, double *pct);

#endif
