// SPDX-License-Identifier: MIT
/* The plan of ibgap doctor --try: the chosen findings' trials per side,
 * and the trials that touch no setting. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common/fail.h"
#include "trial.h"

#define DOWN_UP_WHY                                                           \
	"the control connection runs over the interface being changed (give " \
	"--ctrl ADDR)"

/* The trials that change no setting, by id. */
static const struct {
	const char *id;
	enum ig_try_kind kind;
} runs[] = {
	{ "run.streams", IG_TRY_STREAMS },
	{ "run.window", IG_TRY_WINDOW },
	{ "run.numa", IG_TRY_NUMA },
};

/* id is in the comma-separated list ids ("all": every id). */
static bool chosen(const char *ids, const char *id)
{
	size_t n = strlen(id);

	if (!strcmp(ids, "all"))
		return true;
	for (const char *p = ids;;) {
		size_t k = strcspn(p, ",");

		if (k == n && !strncmp(p, id, n))
			return true;
		if (!p[k])
			return false;
		p += k + 1;
	}
}

static bool down_up(const struct ig_dr_trial *tr)
{
	for (unsigned int i = 0; i < tr->n; i++)
		if (ig_tune_down_up(&tr->c[i]))
			return true;
	return false;
}

/* A change of tr takes dev down and up. */
static bool cuts(const struct ig_dr_trial *tr, const char *dev)
{
	for (unsigned int i = 0; i < tr->n; i++)
		if (ig_tune_down_up(&tr->c[i]) && !strcmp(tr->c[i].dev, dev))
			return true;
	return false;
}

/* A finding's trial into the plan. */
static void add_finding(struct ig_try_doc *d, const struct ig_dr_finding *f,
			enum ig_try_side side, const char *ctrl_dev)
{
	struct ig_try_item *t = &d->t[d->n++];

	memset(t, 0, sizeof(*t));
	t->seq = (unsigned int)d->n - 1;
	snprintf(t->id, sizeof(t->id), "%s", f->id);
	t->side = side;
	t->kind = IG_TRY_TUNE;
	t->n = f->trial.n;
	for (unsigned int i = 0; i < t->n; i++) {
		t->c[i] = f->trial.c[i];
		t->cside[i] = side;
	}
	if (!t->n)
		snprintf(t->not_tried, sizeof(t->not_tried), "%s",
			 f->trial.not_tried[0] ? f->trial.not_tried
					       : "the finding has no fix");
	else if (!ctrl_dev && down_up(&f->trial))
		snprintf(t->not_tried, sizeof(t->not_tried), "%s", DOWN_UP_WHY);
	else if (side == IG_TRY_HERE && ctrl_dev && cuts(&f->trial, ctrl_dev))
		snprintf(t->not_tried, sizeof(t->not_tried),
			 "the control connection (--ctrl) runs over %s too, "
			 "the interface being changed",
			 ctrl_dev);
}

/* Every finding of r chosen by ids; "all" leaves out findings without a
 * fix. */
static void add_side(struct ig_try_doc *d, const char *ids,
		     const struct ig_dr_report *r, enum ig_try_side side,
		     const char *ctrl_dev)
{
	bool all = !strcmp(ids, "all");

	for (size_t i = 0; r && i < r->n && d->n < IG_TRY_MAX_ITEMS - 3; i++) {
		const struct ig_dr_finding *f = &r->f[i];

		if (!chosen(ids, f->id) ||
		    (all && !f->trial.n && !f->trial.not_tried[0]))
			continue;
		add_finding(d, f, side, ctrl_dev);
	}
}

static bool known(const struct ig_try_doc *d, const char *id, size_t n)
{
	for (size_t i = 0; i < d->n; i++)
		if (strlen(d->t[i].id) == n && !strncmp(d->t[i].id, id, n))
			return true;
	return false;
}

/* The ids the findings and the runs offer, for the error line. */
static void ids_found(const struct ig_dr_report *a,
		      const struct ig_dr_report *b, char *buf, size_t len)
{
	const struct ig_dr_report *r[2] = { a, b };
	size_t o = 0;

	buf[0] = 0;
	for (int k = 0; k < 2; k++)
		for (size_t i = 0; r[k] && i < r[k]->n && o < len; i++)
			o += snprintf(buf + o, len - o, "%s%s", o ? "," : "",
				      r[k]->f[i].id);
	for (size_t i = 0; i < sizeof(runs) / sizeof(*runs) && o < len; i++)
		o += snprintf(buf + o, len - o, "%s%s", o ? "," : "",
			      runs[i].id);
}

/* Each id of the list is in the plan: 0, or -EINVAL naming the first
 * that is not. */
static int check_ids(const struct ig_try_doc *d, const char *ids,
		     const struct ig_dr_report *here,
		     const struct ig_dr_report *there, char *err, size_t len)
{
	char found[1024];

	if (!strcmp(ids, "all"))
		return 0;
	for (const char *p = ids;; p += strcspn(p, ",") + 1) {
		size_t n = strcspn(p, ",");

		if (!n || !known(d, p, n)) {
			ids_found(here, there, found, sizeof(found));
			return ig_fail(-EINVAL, err, len,
				       "--try: '%.*s' is no finding of either "
				       "host: allowed all or ids of %s",
				       (int)n, p, found);
		}
		if (!p[n])
			return 0;
	}
}

int ig_trial_plan(struct ig_try_doc *d, const char *ids,
		  const struct ig_dr_report *here,
		  const struct ig_dr_report *there, const char *ctrl_dev,
		  bool numa, char *err, size_t len)
{
	d->n = 0;
	add_side(d, ids, here, IG_TRY_HERE, ctrl_dev);
	for (size_t i = 0; i < sizeof(runs) / sizeof(*runs); i++) {
		struct ig_try_item *t = &d->t[d->n];

		if (!chosen(ids, runs[i].id))
			continue;
		memset(t, 0, sizeof(*t));
		t->seq = (unsigned int)d->n;
		snprintf(t->id, sizeof(t->id), "%s", runs[i].id);
		t->kind = runs[i].kind;
		if (t->kind == IG_TRY_NUMA && !numa)
			snprintf(t->not_tried, sizeof(t->not_tried),
				 "the path has no HCA with a NUMA node");
		d->n++;
	}
	/* the server's last: a server that does not know TRY ends the
	 * session */
	add_side(d, ids, there, IG_TRY_THERE, ctrl_dev);
	return check_ids(d, ids, here, there, err, len);
}

bool ig_trial_has_changes(const struct ig_try_doc *d, enum ig_try_side s)
{
	for (size_t i = 0; i < d->n; i++)
		if (d->t[i].side == s && d->t[i].n && !d->t[i].not_tried[0])
			return true;
	return false;
}

int ig_trial_allowed(const struct ig_try_doc *d, char *err, size_t len)
{
	char cmd[IG_TUNE_CMD_LEN];

	for (size_t i = 0; i < d->n; i++) {
		const struct ig_try_item *t = &d->t[i];

		for (unsigned int j = 0; j < t->n; j++) {
			if (t->side != IG_TRY_HERE || t->not_tried[0] ||
			    !ig_tune_allowed(&t->c[j]))
				continue;
			ig_tune_cmd(&t->c[j], false, cmd, sizeof(cmd));
			return ig_fail(-EPERM, err, len,
				       "--try: this host needs root or "
				       "CAP_NET_ADMIN to make %s's change "
				       "'%s'",
				       t->id, cmd);
		}
	}
	return 0;
}
