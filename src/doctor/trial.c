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

/* The change as JSON; tune's own codec replaces this once it exists. */
static const char *const kind_names[IG_TUNE_KIND_MAX] = {
	[IG_TUNE_SYSCTL] = "sysctl",
	[IG_TUNE_FEATURE] = "feature",
	[IG_TUNE_RING] = "ring",
	[IG_TUNE_COALESCE] = "coalesce",
	[IG_TUNE_CHANNELS] = "channels",
	[IG_TUNE_RPS] = "rps",
	[IG_TUNE_XPS] = "xps",
	[IG_TUNE_IRQ] = "irq",
	[IG_TUNE_GOVERNOR] = "governor",
	[IG_TUNE_MTU] = "mtu",
	[IG_TUNE_IPOIB_MODE] = "ipoib_mode",
	[IG_TUNE_QDISC] = "qdisc",
};

static json_object *change_to_json(const struct ig_tune_change *c)
{
	json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	ig_json_add_str(o, "kind", kind_names[c->kind]);
	ig_json_add_str(o, "dev", c->dev);
	ig_json_add_str(o, "name", c->name);
	ig_json_add_str(o, "to", c->to);
	return o;
}

static int change_from_json(json_object *o, struct ig_tune_change *c)
{
	char kind[16];
	int k;

	memset(c, 0, sizeof(*c));
	if (ig_json_copy_str_opt(o, "kind", kind, sizeof(kind)) ||
	    ig_json_copy_str_opt(o, "dev", c->dev, sizeof(c->dev)) ||
	    ig_json_copy_str_opt(o, "name", c->name, sizeof(c->name)) ||
	    ig_json_copy_str_opt(o, "to", c->to, sizeof(c->to)))
		return -EINVAL;
	for (k = 0; k < IG_TUNE_KIND_MAX && strcmp(kind, kind_names[k]); k++)
		;
	if (k == IG_TUNE_KIND_MAX)
		return -EINVAL;
	c->kind = (enum ig_tune_kind)k;
	return 0;
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
		json_object_array_add(a, change_to_json(&t->c[i]));
	json_object_object_add(o, "changes", a);
	return o;
}

int ig_dr_trial_from_json(json_object *o, struct ig_dr_trial *t)
{
	json_object *a = ig_json_get_array(o, "changes");
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
		if (change_from_json(json_object_array_get_idx(a, t->n),
				     &t->c[t->n]))
			return -EINVAL;
	return 0;
}
