// SPDX-License-Identifier: MIT
/*
 * A finding's trial: the tune changes that `ibgap doctor --try` makes to
 * test its fix on the side where it was found, or why none is tried
 * (docs/design.md, "Doctor").  The checks only propose; the tune layer
 * reads, applies and puts back.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common/json.h"
#include "doctor_int.h"

int ig_dr_try(struct ig_dr_finding *f, enum ig_tune_kind k, const char *dev,
	      const char *name, const char *fmt, ...)
{
	struct ig_tune_change *c;
	va_list ap;

	if (!f)
		return -EINVAL;
	if (f->trial.n >= IG_DR_MAX_CHANGES)
		return -ENOSPC;
	c = &f->trial.c[f->trial.n++];
	memset(c, 0, sizeof(*c));
	c->kind = k;
	snprintf(c->dev, sizeof(c->dev), "%s", dev);
	snprintf(c->name, sizeof(c->name), "%s", name);
	va_start(ap, fmt);
	vsnprintf(c->to, sizeof(c->to), fmt, ap);
	va_end(ap);
	f->trial.not_tried[0] = 0;
	return 0;
}

void ig_dr_not_tried(struct ig_dr_finding *f, const char *fmt, ...)
{
	va_list ap;

	if (!f)
		return;
	f->trial.n = 0;
	va_start(ap, fmt);
	vsnprintf(f->trial.not_tried, sizeof(f->trial.not_tried), fmt, ap);
	va_end(ap);
}

/* A finding with a fix that no check gave a trial or a reason: the
 * reason by its kind. */
void ig_dr_trials_default(struct ig_dr_report *r)
{
	static const struct {
		const char *prefix, *why;
	} why[] = {
		{ "port.", IG_DR_HARDWARE },
		{ "link.", IG_DR_HARDWARE },
		{ "pcie.", IG_DR_HARDWARE },
		{ "rdma.", IG_DR_HARDWARE },
		{ "route.", "the path is the address chosen, not a setting: "
			    "run against the peer's IPoIB or RoCE address" },
		{ "", "no setting of this host tests this fix" },
	};

	for (size_t i = 0; i < r->n; i++) {
		struct ig_dr_finding *f = &r->f[i];
		size_t k = 0;

		if (!f->fix[0] || f->trial.n || f->trial.not_tried[0])
			continue;
		while (strncmp(f->id, why[k].prefix, strlen(why[k].prefix)))
			k++;
		ig_dr_not_tried(f, "%s", why[k].why);
	}
}

json_object *ig_dr_trial_to_json(const struct ig_dr_trial *t)
{
	json_object *o = json_object_new_object(), *a;

	if (!o)
		return NULL;
	if (!t->n) {
		ig_json_add_str(o, "not_tried", t->not_tried);
		return o;
	}
	a = json_object_new_array();
	for (unsigned int i = 0; a && i < t->n; i++)
		json_object_array_add(a, ig_tune_to_json(&t->c[i]));
	json_object_object_add(o, "changes", a);
	return o;
}

/* Each change is checked (ig_tune_check): a remote host's trial names
 * only knobs this layer knows. */
int ig_dr_trial_from_json(json_object *o, struct ig_dr_trial *t)
{
	json_object *a = ig_json_get_array(o, "changes");
	char err[256];
	size_t n = a ? json_object_array_length(a) : 0;

	memset(t, 0, sizeof(*t));
	if (!a)
		return ig_json_copy_str_opt(o, "not_tried", t->not_tried,
					    sizeof(t->not_tried))
			       ? -EINVAL
			       : 0;
	if (n > IG_DR_MAX_CHANGES)
		return -EINVAL;
	for (; t->n < n; t->n++)
		if (ig_tune_from_json(json_object_array_get_idx(a, t->n),
				      &t->c[t->n], err, sizeof(err)))
			return -EINVAL;
	return 0;
}
