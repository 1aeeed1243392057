// SPDX-License-Identifier: MIT
/* ibgap doctor --try as JSON ("ibgap-try/1", docs/design.md,
 * "Trials"). */
#include <stdio.h>
#include <string.h>

#include "common/json.h"
#include "try.h"

static const char *const metric_names[IG_TRY_NMETRIC] = {
	[IG_TRY_BW] = "tcp_bw",
	[IG_TRY_LAT] = "tcp_lat",
};

static const char *const kind_names[] = {
	[IG_TRY_TUNE] = "settings",
	[IG_TRY_STREAMS] = "streams",
	[IG_TRY_WINDOW] = "window",
	[IG_TRY_NUMA] = "numa",
};

const char *ig_try_side_name(enum ig_try_side s)
{
	return s == IG_TRY_HERE ? "this host" : "server";
}

bool ig_try_helped(const struct ig_try_item *t)
{
	return t->kind == IG_TRY_TUNE && t->n && t->ran && !t->error[0] &&
	       t->after.ok[IG_TRY_BW] &&
	       t->d[IG_TRY_BW].verdict == IG_VERDICT_HELPS;
}

static json_object *interval(const struct ig_repeat *r)
{
	json_object *o = json_object_new_object();

	ig_json_add_double(o, "mean", r->mean);
	ig_json_add_double(o, "ci_low", r->ci_lo);
	ig_json_add_double(o, "ci_high", r->ci_hi);
	ig_json_add_int(o, "runs", (int)r->n);
	return o;
}

/* {"tcp_bw": {mean, ci_low, ci_high, runs}, "tcp_lat": ...} */
static json_object *meas_json(const struct ig_try_meas *m)
{
	json_object *o = json_object_new_object();

	for (int k = 0; k < IG_TRY_NMETRIC; k++)
		if (m->ok[k])
			ig_json_add(o, metric_names[k], interval(&m->m[k]));
	return o;
}

static json_object *change_json(const struct ig_try_item *t)
{
	json_object *o = json_object_new_object();

	for (int k = 0; k < IG_TRY_NMETRIC; k++) {
		json_object *c = json_object_new_object();

		if (!t->after.ok[k]) {
			json_object_put(c);
			continue;
		}
		ig_json_add_double(c, "pct", t->d[k].pct);
		ig_json_add_double(c, "ci_low", t->d[k].pct_lo);
		ig_json_add_double(c, "ci_high", t->d[k].pct_hi);
		ig_json_add_str(c, "verdict", ig_verdict_name(t->d[k].verdict));
		ig_json_add(o, metric_names[k], c);
	}
	return o;
}

static json_object *changes_json(const struct ig_try_item *t)
{
	json_object *a = json_object_new_array();

	for (unsigned int i = 0; i < t->n; i++) {
		json_object *c = ig_tune_to_json(&t->c[i]);

		if (!c)
			continue;
		if (t->ran) {
			json_object_object_add(
				c, "restored",
				json_object_new_boolean(t->restored[i]));
			json_object_object_add(
				c, "kept", json_object_new_boolean(t->kept));
		}
		json_object_array_add(a, c);
	}
	return a;
}

/* A trial that ran: before, after, change_pct, verdict. */
static void figures_json(json_object *o, const struct ig_try_doc *d,
			 const struct ig_try_item *t)
{
	ig_json_add(o, "before", meas_json(&d->base));
	ig_json_add(o, "after", meas_json(&t->after));
	ig_json_add(o, "change_pct", change_json(t));
	ig_json_add_str(o, "verdict", ig_verdict_name(t->d[IG_TRY_BW].verdict));
}

static json_object *item_json(const struct ig_try_doc *d,
			      const struct ig_try_item *t)
{
	json_object *o = json_object_new_object();

	ig_json_add_str(o, "id", t->id);
	ig_json_add_str(o, "side", t->side == IG_TRY_HERE ? "local" : "remote");
	ig_json_add_str(o, "kind", kind_names[t->kind]);
	ig_json_add(o, "changes", changes_json(t));
	if (t->error[0])
		ig_json_add_str(o, "error", t->error);
	if (t->after.ok[IG_TRY_BW] && !t->error[0])
		figures_json(o, d, t);
	return o;
}

static json_object *not_tried_json(const struct ig_try_item *t)
{
	json_object *o = json_object_new_object();

	ig_json_add_str(o, "id", t->id);
	ig_json_add_str(o, "side", t->side == IG_TRY_HERE ? "local" : "remote");
	ig_json_add_str(o, "reason", t->not_tried);
	return o;
}

static void ceiling_json(json_object *o, const struct ig_try_doc *d)
{
	json_object *c;

	if (!d->has_ceiling) {
		json_object_object_add(o, "ceiling", NULL);
		ig_json_add_str(o, "ceiling_absent", d->ceiling_why);
		return;
	}
	c = interval(&d->ceiling);
	ig_json_add_str(c, "test", "write_bw");
	ig_json_add(o, "ceiling", c);
}

static json_object *combined_json(const struct ig_try_doc *d)
{
	const struct ig_try_item *c = &d->combined;
	double gap = d->ceiling.mean - d->base.m[IG_TRY_BW].mean;
	json_object *o;

	if (!c->n)
		return NULL;
	o = item_json(d, c);
	if (c->ran && c->after.ok[IG_TRY_BW] && d->has_ceiling && gap > 0)
		ig_json_add_double(o, "gap_closed_pct",
				   (c->after.m[IG_TRY_BW].mean -
				    d->base.m[IG_TRY_BW].mean) /
					   gap * 100);
	return o;
}

json_object *ig_try_doc_to_json(const struct ig_try_doc *d)
{
	json_object *o = json_object_new_object(), *tr, *nt;

	if (!o)
		return NULL;
	ig_json_add_str(o, "schema", "ibgap-try/1");
	ig_json_add_str(o, "host", d->host);
	ig_json_add_str(o, "address", d->addr);
	json_object_object_add(o, "dry_run",
			       json_object_new_boolean(d->dry_run));
	ig_json_add_int(o, "repeat", (int)d->repeat);
	if (d->measured)
		ig_json_add(o, "baseline", meas_json(&d->base));
	ceiling_json(o, d);
	tr = json_object_new_array();
	nt = json_object_new_array();
	for (size_t i = 0; i < d->n; i++)
		json_object_array_add(d->t[i].not_tried[0] ? nt : tr,
				      d->t[i].not_tried[0]
					      ? not_tried_json(&d->t[i])
					      : item_json(d, &d->t[i]));
	ig_json_add(o, "trials", tr);
	ig_json_add(o, "not_tried", nt);
	json_object_object_add(o, "combined", combined_json(d));
	if (d->note[0])
		ig_json_add_str(o, "note", d->note);
	return o;
}
