// SPDX-License-Identifier: MIT
/* The client's fingerprints, --save-baseline and --baseline. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "report/baseline.h"
#include "client.h"
#include "report/report.h"

/* The transport named the device it used (verbs). */
static bool has_device(const struct ig_result *r)
{
	return ig_facts_get(&r->facts, IG_FACT_DEVICE) != NULL;
}

/* Both hosts' fingerprints, for the device the first verbs test used. */
void ig_client_fingerprints(struct ig_report_env *env,
			    const struct ig_result *res, size_t n)
{
	const struct ig_result *v = NULL, *srv = NULL;

	for (size_t i = 0; i < n; i++) {
		bool dev = has_device(&res[i]);

		if (!v && dev)
			v = &res[i];
		if (res[i].has_fp_server && (!srv || (!has_device(srv) && dev)))
			srv = &res[i];
	}
	ig_fingerprint_collect(
		"/", v ? ig_facts_str(&v->facts, IG_FACT_DEVICE) : "",
		v ? (int)ig_facts_int(&v->facts, IG_FACT_PORT, 0) : 0,
		&env->fp_client);
	if (srv)
		env->fp_server = srv->fp_server;
	env->has_fp = true;
}

int ig_client_load_baseline(const struct ig_client_opts *o, json_object **old)
{
	char err[512];

	*old = NULL;
	if (!o->baseline)
		return 0;
	if (ig_baseline_load(o->baseline, old, err, sizeof(err))) {
		fprintf(stderr, "ibgap: --baseline: %s\n", err);
		return IG_DIFF_BADFILE;
	}
	if (ig_baseline_partial(*old))
		fprintf(stderr,
			"ibgap: --baseline: warning: '%s' is of an interrupted "
			"run (results marked partial): what it cut short or "
			"never ran is no fair reference\n",
			o->baseline);
	return 0;
}

/* The run was interrupted: its last result partial, the rest not run. */
static bool interrupted(const struct ig_client_opts *o,
			const struct ig_result *res, size_t n)
{
	if (o->local.interrupt && *o->local.interrupt)
		return true;
	for (size_t i = 0; i < n; i++)
		if (res[i].partial)
			return true;
	return false;
}

static int save(const char *path, json_object *doc)
{
	const int flags = JSON_C_TO_STRING_PRETTY |
			  JSON_C_TO_STRING_NOSLASHESCAPE;
	FILE *f = fopen(path, "w");
	int ok;

	if (!f) {
		fprintf(stderr,
			"ibgap: --save-baseline: cannot write '%s': "
			"%s\n",
			path, strerror(errno));
		return 1;
	}
	ok = fprintf(f, "%s\n", json_object_to_json_string_ext(doc, flags)) > 0;
	ok &= fclose(f) == 0;
	if (ok)
		return 0;
	fprintf(stderr, "ibgap: --save-baseline: writing '%s' failed\n", path);
	return 1;
}

/* Returns the exit status: 0, 1 (regression or failure), 3 (bad file, or
 * a comparison that checked less than the baseline holds) */
int ig_client_baseline(const struct ig_client_opts *o,
		       const struct ig_report_env *env,
		       const struct ig_result *res, size_t n, json_object *old)
{
	json_object *doc;
	int ret = 0;

	if (!o->save_baseline && !old)
		return 0;
	doc = ig_report_json(env, res, n);
	if (!doc) {
		fprintf(stderr, "ibgap: out of memory for the baseline\n");
		return 1;
	}
	if (o->save_baseline && interrupted(o, res, n))
		fprintf(stderr,
			"ibgap: --save-baseline: the run was interrupted: "
			"'%s' is not written (a baseline of part of a run would "
			"judge the next one by what was not measured)\n",
			o->save_baseline);
	else if (o->save_baseline)
		ret = save(o->save_baseline, doc);
	if (!ret && old) {
		fprintf(stderr,
			"ibgap: against baseline %s (tolerance %g%%):\n",
			o->baseline, o->tolerance);
		ret = ig_baseline_compare(old, doc, o->tolerance, stderr);
		if (ret < 0)
			ret = IG_DIFF_BADFILE;
	}
	json_object_put(doc);
	return ret;
}
