// SPDX-License-Identifier: MIT
/*
 * Comparing a run with a saved one: results matched by (test, size,
 * streams, window), four metrics judged against a tolerance, fingerprint
 * changes listed.  Works on any pair of documents ig_baseline_parse() accepted;
 * a metric that is absent, null or not finite is simply not compared.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "baseline.h"
#include "baseline_int.h"
#include "common/json.h"
#include "host/fingerprint.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const struct metric {
	const char *name; /* as printed */
	const char *obj;  /* enclosing object, NULL: the result itself */
	const char *key;
	bool higher_is_worse;
	int prec; /* decimals printed */
} metrics[] = {
	{ "bw_gbps", NULL, "bw_gbps", false, 2 },
	{ "msg_rate", NULL, "msg_rate", false, 0 },
	{ "lat_us.p50", "lat_us", "p50", true, 2 },
	{ "lat_us.p99", "lat_us", "p99", true, 2 },
};

struct tally {
	FILE *out;
	double tol;
	unsigned int compared, regressions, changes, only_old, only_new;
	unsigned int lost; /* metrics of the old run the new one lacks */
};

static bool get_metric(json_object *r, const struct metric *m, double *v)
{
	json_object *o = r;

	if (m->obj && !json_object_object_get_ex(r, m->obj, &o))
		return false;
	if (!json_object_is_type(o, json_type_object) ||
	    ig_json_get_double(o, m->key, v))
		return false;
	return isfinite(*v);
}

/* prec decimals; under 1 (a latency test's Gb/s) 3 significant digits. */
static const char *num(double v, int prec, char *buf, size_t len)
{
	if (prec && v != 0 && fabs(v) < 1)
		snprintf(buf, len, "%.3g", v);
	else
		snprintf(buf, len, "%.*f", prec, v);
	return buf;
}

static void compare_metric(struct tally *t, const char *lbl,
			   const struct metric *m, json_object *ro,
			   json_object *rn)
{
	double a, b, change, worse;
	bool ha = get_metric(ro, m, &a), hb = get_metric(rn, m, &b);
	char na[32], nb[32];
	bool bad;

	if (!ha && !hb)
		return;
	if (!ha || !hb) {
		fprintf(t->out, "%s %s not compared: only in the %s run\n", lbl,
			m->name, ha ? "old" : "new");
		t->lost += ha;
		return;
	}
	if (a <= 0) {
		fprintf(t->out,
			"%s %s %s -> %s not compared: old value not "
			"positive\n",
			lbl, m->name, num(a, m->prec, na, sizeof(na)),
			num(b, m->prec, nb, sizeof(nb)));
		return;
	}
	change = (b - a) / a * 100.0;
	worse = m->higher_is_worse ? change : -change;
	bad = worse > t->tol;
	t->compared++;
	t->regressions += bad;
	fprintf(t->out, "%s %s %s -> %s (%+.1f%%) %s\n", lbl, m->name,
		num(a, m->prec, na, sizeof(na)),
		num(b, m->prec, nb, sizeof(nb)), change,
		bad ? "REGRESSION" : "ok");
}

/* env.<host>.fingerprint into fp; false when absent or not valid. */
static bool get_fp(json_object *doc, const char *host,
		   struct ig_fingerprint *fp)
{
	json_object *env, *h, *f;

	return json_object_object_get_ex(doc, "env", &env) &&
	       json_object_object_get_ex(env, host, &h) &&
	       json_object_object_get_ex(h, "fingerprint", &f) &&
	       !ig_fingerprint_from_json(f, fp);
}

static void compare_env(struct tally *t, json_object *od, json_object *nd)
{
	static const char *const hosts[] = { "client", "server" };
	struct ig_fingerprint a, b;
	char va[128], vb[128];
	const char *name, *x;

	for (size_t h = 0; h < ARRAY_SIZE(hosts); h++) {
		bool ha = get_fp(od, hosts[h], &a),
		     hb = get_fp(nd, hosts[h], &b);

		if (ha != hb)
			fprintf(t->out,
				"%s fingerprint only in the %s run: "
				"environment not compared\n",
				hosts[h], ha ? "old" : "new");
		if (!ha || !hb)
			continue;
		for (unsigned int i = 0;
		     (x = ig_fingerprint_field(&a, i, &name)); i++) {
			const char *y = ig_fingerprint_field(&b, i, NULL);

			if (!strcmp(x, y))
				continue;
			t->changes++;
			fprintf(t->out, "%s %s %s -> %s\n", hosts[h], name,
				x[0] ? ig_bl_clean(x, va, sizeof(va))
				     : "(none)",
				y[0] ? ig_bl_clean(y, vb, sizeof(vb))
				     : "(none)");
		}
	}
}

static void on_pair(void *ctx, const struct ig_bl_key *k, json_object *ro,
		    json_object *rn)
{
	struct tally *t = ctx;
	char lbl[IG_BL_LABEL_LEN];

	ig_bl_label(k, lbl, sizeof(lbl));
	for (size_t i = 0; i < ARRAY_SIZE(metrics); i++)
		compare_metric(t, lbl, &metrics[i], ro, rn);
}

static void on_single(void *ctx, const struct ig_bl_key *k, bool in_old)
{
	struct tally *t = ctx;
	char lbl[IG_BL_LABEL_LEN];

	ig_bl_label(k, lbl, sizeof(lbl));
	fprintf(t->out, "%s only in the %s run\n", lbl, in_old ? "old" : "new");
	if (in_old)
		t->only_old++;
	else
		t->only_new++;
}

static const struct ig_bl_match_ops match_ops = {
	.pair = on_pair,
	.single = on_single,
};

static json_object *results_of(json_object *doc)
{
	json_object *r;

	if (!json_object_is_type(doc, json_type_object) ||
	    !json_object_object_get_ex(doc, "results", &r) ||
	    !json_object_is_type(r, json_type_array))
		return NULL;
	return r;
}

/*
 * The summary line and the exit status: a regression is 1; a gate that
 * compared nothing, or lost results or metrics of the old run, checked
 * less than the baseline holds: 3, never "ok".
 */
static int verdict(const struct tally *t, double tol_pct)
{
	const char *v = "ok";
	int ret = IG_DIFF_OK;

	if (t->regressions) {
		v = "REGRESSION";
		ret = IG_DIFF_REGRESSION;
	} else if (!t->compared) {
		v = "NOTHING COMPARED";
		ret = IG_DIFF_INCOMPLETE;
	} else if (t->only_old || t->lost) {
		v = "INCOMPLETE";
		ret = IG_DIFF_INCOMPLETE;
	}
	fprintf(t->out,
		"summary: %u metrics compared, %u worse than %g%%, %u "
		"environment changes, %u results only in the old run, %u "
		"only in the new: %s\n",
		t->compared, t->regressions, tol_pct, t->changes, t->only_old,
		t->only_new, v);
	if (!t->compared)
		fprintf(t->out,
			"not ok: no metric of the old run was compared (no "
			"result matches by test, size, streams and window)\n");
	else if (ret == IG_DIFF_INCOMPLETE)
		fprintf(t->out,
			"not ok: the new run lacks %u result%s and %u "
			"metric%s of the old one\n",
			t->only_old, t->only_old == 1 ? "" : "s", t->lost,
			t->lost == 1 ? "" : "s");
	return ret;
}

int ig_baseline_compare(json_object *old_doc, json_object *new_doc,
			double tol_pct, FILE *out)
{
	json_object *ores = results_of(old_doc), *nres = results_of(new_doc);
	struct tally t = { .out = out, .tol = tol_pct };
	int ret;

	if (!ores || !nres || !out || !isfinite(tol_pct) || tol_pct < 0) {
		fprintf(stderr, "ibgap: compare: internal error: %s\n",
			!ores	? "the old report has no results array"
			: !nres ? "the new report has no results array"
			: !out	? "no output stream"
				: "the tolerance is not a number >= 0");
		return -EINVAL;
	}
	compare_env(&t, old_doc, new_doc);
	ret = ig_bl_match(ores, nres, &match_ops, &t);
	if (ret) {
		fprintf(stderr,
			"ibgap: compare: out of memory matching %zu "
			"and %zu results\n",
			json_object_array_length(ores),
			json_object_array_length(nres));
		return ret;
	}
	ret = verdict(&t, tol_pct);
	if (fflush(out) || ferror(out)) {
		fprintf(stderr, "ibgap: compare: writing the comparison "
				"failed\n");
		return -EIO;
	}
	return ret;
}
