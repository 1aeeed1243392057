// SPDX-License-Identifier: MIT
/* --baseline: this run against a saved "ibgap-fabric/1" document, pair by
 * pair (matched by host names and test) and node by node (by host). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fail.h"
#include "common/file.h"
#include "common/json.h"
#include "fab.h"
#include "transports/transports.h"

#define BASELINE_CAP (256u << 20)

struct cmp {
	const struct ig_fab_run *r;
	double tol; /* fraction */
	FILE *f;
	int nreg;
	unsigned int ncmp; /* figures compared */
	json_object *old_nodes;
};

/* old -> now worse by more than the tolerance? */
static bool worse(enum ig_test t, double old, double now, double tol)
{
	if (old <= 0)
		return false;
	if (ig_test_is_lat(t))
		return now > old * (1 + tol);
	return now < old * (1 - tol);
}

static const char *old_host(struct cmp *c, int rank)
{
	json_object *n = json_object_array_get_idx(c->old_nodes, (size_t)rank);
	const char *h = NULL;

	if (!n || ig_json_get_str(n, "host", &h))
		return NULL;
	return h;
}

static double figure(json_object *o, enum ig_test t)
{
	double v = 0;
	json_object *l;

	if (!ig_test_is_lat(t)) {
		ig_json_get_double(o, "bw_gbps", &v);
		return v;
	}
	if (json_object_object_get_ex(o, "lat_us", &l))
		ig_json_get_double(l, "p50", &v);
	return v;
}

static void report(struct cmp *c, const char *what, enum ig_test t, double old,
		   double now)
{
	bool lat = ig_test_is_lat(t);

	fprintf(c->f,
		"regression: %s %s: %.2f -> %.2f %s (%+.1f%%, tolerance "
		"%.1f%%)\n",
		what, ig_test_name(IG_TESTS, t), old, now,
		lat ? "us p50" : "Gb/s", (now / old - 1) * 100, c->tol * 100);
	c->nreg++;
}

/* This run's measurement of old pair o, if it was measured. */
/* --rails: whether old pair o ran on m's rails (the same devices at
 * both ends; a pair without rails matches one without). */
static bool same_rails(const struct ig_fab_run *r, json_object *o,
		       const struct ig_fab_meas *m)
{
	const char *da, *db;
	json_object *rl;

	if (!json_object_object_get_ex(o, "rails", &rl))
		return !m->railed;
	if (!m->railed || ig_json_get_str(rl, "a", &da) ||
	    ig_json_get_str(rl, "b", &db) ||
	    m->rail_a >= r->info[m->a].nrails ||
	    m->rail_b >= r->info[m->b].nrails)
		return false;
	return !strcmp(r->info[m->a].rails[m->rail_a].device, da) &&
	       !strcmp(r->info[m->b].rails[m->rail_b].device, db);
}

static void one_pair(struct cmp *c, json_object *o)
{
	const struct ig_fab_run *r = c->r;
	const char *ha, *hb, *name;
	int a = -1, b = -1, t, ok = 0;
	char what[300];

	if (ig_json_get_int(o, "a", &a) || ig_json_get_int(o, "b", &b) ||
	    ig_json_get_str(o, "test", &name) ||
	    (t = ig_test_parse(IG_TESTS, name)) < 0)
		return;
	json_object *jok;

	if (json_object_object_get_ex(o, "ok", &jok))
		ok = json_object_get_boolean(jok);
	ha = old_host(c, a);
	hb = old_host(c, b);
	if (!ok || !ha || !hb)
		return;
	for (size_t i = 0; i < r->k; i++) {
		const struct ig_fab_meas *m = &r->m[i];
		double now;

		char rails[160] = "";

		if (m->test != (enum ig_test)t ||
		    strcmp(r->info[m->a].host, ha) ||
		    strcmp(r->info[m->b].host, hb) || !same_rails(r, o, m))
			continue;
		if (m->railed)
			ig_fab_meas_rails_text(r, m, false, rails,
					       sizeof(rails));
		now = ig_fab_meas_x(m);
		if (!m->ok)
			now = 0;
		snprintf(what, sizeof(what), "pair %s -> %s%s", ha, hb, rails);
		c->ncmp++;
		if (!m->ok || worse(m->test, figure(o, m->test), now, c->tol))
			report(c, what, m->test, figure(o, m->test), now);
		return;
	}
}

/* Node medians: old node o against this run's node of the same host. */
static void one_node(struct cmp *c, json_object *o)
{
	const struct ig_fab_run *r = c->r;
	const char *h;
	char what[300];

	if (ig_json_get_str(o, "host", &h))
		return;
	for (unsigned int i = 0; i < r->n; i++) {
		if (strcmp(r->info[i].host, h))
			continue;
		snprintf(what, sizeof(what), "node %s", h);
		for (int t = 0; t < IG_TEST_COUNT; t++) {
			bool lat = ig_test_is_lat(t);
			json_object *g;
			double old = 0, now = lat ? r->nodes[i].lat_us[t]
						  : r->nodes[i].bw_gbps[t];

			if (!json_object_object_get_ex(
				    o, lat ? "lat_us" : "bw_gbps", &g) ||
			    ig_json_get_double(g, ig_test_name(IG_TESTS, t),
					       &old) ||
			    now <= 0)
				continue;
			c->ncmp++;
			if (worse(t, old, now, c->tol))
				report(c, what, t, old, now);
		}
		return;
	}
}

int ig_fab_baseline_load(const char *path, json_object **doc, char *err,
			 size_t errlen)
{
	const char *schema;
	char *buf;
	size_t len;
	int ret = ig_file_read(path, BASELINE_CAP, &buf, &len);

	if (ret)
		return ig_fail(-EINVAL, err, errlen,
			       "--baseline: cannot read '%s': %s", path,
			       strerror(-ret));
	*doc = json_tokener_parse(buf);
	free(buf);
	if (!*doc || ig_json_get_str(*doc, "schema", &schema) ||
	    strcmp(schema, "ibgap-fabric/1")) {
		json_object_put(*doc);
		return ig_fail(-EINVAL, err, errlen,
			       "--baseline: '%s' is not an ibgap-fabric/1 "
			       "document (save one with --save-baseline)",
			       path);
	}
	return 0;
}

int ig_fab_baseline_cmp(const struct ig_fab_run *r, json_object *doc,
			const char *path, double tol_pct, FILE *f)
{
	struct cmp c = { .r = r, .tol = tol_pct / 100, .f = f };
	json_object *pairs;

	c.old_nodes = ig_json_get_array(doc, "nodes");
	pairs = ig_json_get_array(doc, "pairs");
	for (size_t i = 0; pairs && i < json_object_array_length(pairs); i++)
		one_pair(&c, json_object_array_get_idx(pairs, i));
	for (size_t i = 0;
	     c.old_nodes && i < json_object_array_length(c.old_nodes); i++)
		one_node(&c, json_object_array_get_idx(c.old_nodes, i));
	if (!c.ncmp) {
		fprintf(f,
			"baseline %s: nothing compared: none of its pairs "
			"and nodes (by host names and test) was measured in "
			"this run\n",
			path);
		return -ENODATA;
	}
	fprintf(f,
		"baseline %s: %d regression(s) beyond %.1f%% in %u figures "
		"compared\n",
		path, c.nreg, tol_pct, c.ncmp);
	return c.nreg;
}
