// SPDX-License-Identifier: MIT
/* A trial run: the baseline, each trial (apply, measure, put back), the
 * fixes that helped together, the verbs ceiling. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/hist.h"
#include "trial.h"

#define WINDOW_TRIAL (4ull << 20) /* run.window's --window */
#define STREAMS_TRIAL 4		  /* run.streams' -P */

static const enum ig_test tcp_tests[IG_TRY_NMETRIC] = {
	[IG_TRY_BW] = IG_TEST_TCP_BW,
	[IG_TRY_LAT] = IG_TEST_TCP_LAT,
};
static const enum ig_test verbs_tests[] = { IG_TEST_WRITE_BW };

static bool stopped(const struct ig_trial_env *e)
{
	return e->ro.local.interrupt && *e->ro.local.interrupt;
}

/* The result's figure: its spread over the runs, or its one value. */
static void figure(const struct ig_result *r, struct ig_repeat *m)
{
	double v = r->bw_gbps;

	if (r->rep.n >= 1) {
		*m = r->rep;
		return;
	}
	if (r->has_lat) {
		if (!ig_hist_percentile(&r->lat, 0.5, &v))
			v = r->lat.count ? ig_hist_mean(&r->lat) : 0;
		v /= 1000;
	}
	*m = (struct ig_repeat){ .n = 1, .mean = v, .ci_lo = v, .ci_hi = v };
}

/* The plan's options for trial t (NULL: the baseline). */
static void plan_of(const struct ig_trial_env *e, const struct ig_try_item *t,
		    struct ig_run_opts *ro)
{
	*ro = e->ro;
	ro->tests = tcp_tests;
	ro->ntests = IG_TRY_NMETRIC;
	/* -P and --window are tcp_bw's: a ping-pong has one stream and
	 * one message in flight */
	if (t && (t->kind == IG_TRY_STREAMS || t->kind == IG_TRY_WINDOW))
		ro->ntests = 1;
	if (t && t->kind == IG_TRY_STREAMS)
		ro->p.streams = STREAMS_TRIAL;
	if (t && t->kind == IG_TRY_WINDOW)
		ro->p.sock.window = WINDOW_TRIAL;
	if (t && t->kind == IG_TRY_NUMA && e->numa_cpus)
		ro->local.cpu = atoi(e->numa_cpus);
}

/* Runs ro into m (n figures).  0, -EINTR after the interrupt, or the
 * run's -errno with one line in err. */
static int measure(const struct ig_trial_env *e, const struct ig_run_opts *ro,
		   struct ig_repeat *m, bool *ok, char *err, size_t len)
{
	struct ig_result *res = calloc(ro->ntests, sizeof(*res));
	size_t done = 0;
	int ret;

	if (!res)
		return -ENOMEM;
	ret = ig_run_plan(ro, e->c, res, &done);
	for (size_t k = 0; k < ro->ntests; k++) {
		ok[k] = k < done && !res[k].failed && !res[k].partial;
		if (ok[k])
			figure(&res[k], &m[k]);
		else if (k < done && res[k].failed && !ret)
			ret = -EIO;
		if (k < done && res[k].failed && !err[0])
			snprintf(err, len, "%s: %s", res[k].test, res[k].error);
	}
	free(res);
	if (stopped(e))
		return -EINTR;
	if (ret && !err[0])
		snprintf(err, len, "the measurement failed: %s",
			 strerror(ret < 0 ? -ret : EIO));
	return ret;
}

static void not_allowed(struct ig_try_item *t, const char *why)
{
	snprintf(t->not_tried, sizeof(t->not_tried),
		 "not allowed by the server: %.200s", why);
}

/* The changes of this host come first in t->c: how many. */
static unsigned int here_count(const struct ig_try_item *t)
{
	unsigned int n = 0;

	while (n < t->n && t->cside[n] == IG_TRY_HERE)
		n++;
	return n;
}

/* Makes t's changes on their sides, all or none: 0 or -errno (t->error
 * says why, or t->not_tried when the server refused). */
static int apply(const struct ig_trial_env *e, struct ig_try_item *t)
{
	struct ig_trial_side *h = e->side[IG_TRY_HERE],
			     *th = e->side[IG_TRY_THERE];
	unsigned int nh = here_count(t);
	bool back[IG_TRY_MAX_CHANGES];
	char err[IG_TRY_WHY_LEN] = "";
	int ret = 0;

	/* a side that refused once is not asked again */
	if (t->n > nh && th->refused[0]) {
		not_allowed(t, th->refused);
		return -EPERM;
	}
	if (nh)
		ret = h->apply(h->ctx, t->c, nh, err, sizeof(err));
	if (!ret && t->n > nh) {
		ret = th->apply(th->ctx, t->c + nh, t->n - nh, err,
				sizeof(err));
		if (ret && nh)
			h->revert(h->ctx, false, back, err + strlen(err),
				  sizeof(err) - strlen(err));
	}
	if (ret && t->n > nh && th->refused[0])
		not_allowed(t, th->refused);
	else if (ret)
		snprintf(t->error, sizeof(t->error), "%s", err);
	t->ran = !ret;
	return ret;
}

/* Puts t's changes back (keep: leaves them made). */
static void put_back(const struct ig_trial_env *e, struct ig_try_item *t,
		     bool keep)
{
	struct ig_trial_side *h = e->side[IG_TRY_HERE],
			     *th = e->side[IG_TRY_THERE];
	unsigned int nh = here_count(t);
	char err[IG_TRY_WHY_LEN];

	if (nh && h->revert(h->ctx, keep, t->restored, err, sizeof(err)))
		fprintf(stderr, "ibgap doctor: %s: %s\n", t->id, err);
	if (t->n > nh &&
	    th->revert(th->ctx, keep, t->restored + nh, err, sizeof(err)))
		fprintf(stderr, "ibgap doctor: %s: %s\n", t->id, err);
	t->kept = keep;
}

/* After a refused TRY that ended the session: a new one (0), or the
 * -errno that ends the run. */
static int lost(const struct ig_trial_env *e, struct ig_try_item *t)
{
	struct ig_trial_side *th = e->side[IG_TRY_THERE];
	int ret;

	if (!th || !th->lost)
		return 0;
	th->lost = false;
	ret = e->reconnect ? e->reconnect(e->reconnect_ctx, t->error,
					  sizeof(t->error))
			   : -ENOTCONN;
	if (ret && !t->error[0])
		snprintf(t->error, sizeof(t->error),
			 "the server ended the session");
	return ret;
}

/* One trial: 0, or the -errno of a measurement that failed (the run
 * ends: the control connection is not to be trusted any more). */
static int one(const struct ig_trial_env *e, struct ig_try_doc *d,
	       struct ig_try_item *t, bool keep)
{
	struct ig_run_opts ro;
	int ret;

	if (t->kind == IG_TRY_TUNE && apply(e, t))
		return lost(e, t);
	plan_of(e, t, &ro);
	ret = measure(e, &ro, t->after.m, t->after.ok, t->error,
		      sizeof(t->error));
	if (t->kind == IG_TRY_TUNE)
		put_back(e, t, keep && !ret);
	for (int k = 0; !ret && k < IG_TRY_NMETRIC; k++)
		ig_repeat_change(&d->base.m[k], &t->after.m[k], k == IG_TRY_BW,
				 &t->d[k]);
	return ret;
}

/* The fixes that helped, this host's first, into d->combined. */
static void gather(struct ig_try_doc *d)
{
	struct ig_try_item *c = &d->combined;

	memset(c, 0, sizeof(*c));
	snprintf(c->id, sizeof(c->id), "combined");
	for (int s = IG_TRY_HERE; s <= IG_TRY_THERE; s++)
		for (size_t i = 0; i < d->n; i++) {
			struct ig_try_item *t = &d->t[i];

			if (!ig_try_helped(t) || t->side != (enum ig_try_side)s)
				continue;
			for (unsigned int j = 0;
			     j < t->n && c->n < IG_TRY_MAX_CHANGES; j++) {
				c->cside[c->n] = t->side;
				c->c[c->n++] = t->c[j];
			}
		}
	c->side = c->n && c->cside[0] == IG_TRY_THERE ? IG_TRY_THERE
						      : IG_TRY_HERE;
}

static void ceiling(const struct ig_trial_env *e, struct ig_try_doc *d)
{
	struct ig_run_opts ro = e->ro;
	bool ok = false;

	if (!e->ceiling) {
		snprintf(d->ceiling_why, sizeof(d->ceiling_why), "%s",
			 e->no_ceiling);
		return;
	}
	ro.tests = verbs_tests;
	ro.ntests = 1;
	measure(e, &ro, &d->ceiling, &ok, d->ceiling_why,
		sizeof(d->ceiling_why));
	d->has_ceiling = ok;
}

/* ran first, by their tcp_bw change, largest first; the rest after in
 * the plan's order */
static int by_effect(const void *a, const void *b)
{
	const struct ig_try_item *x = a, *y = b;
	bool xr = x->after.ok[IG_TRY_BW] && !x->error[0],
	     yr = y->after.ok[IG_TRY_BW] && !y->error[0];

	if (xr != yr)
		return xr ? -1 : 1;
	if (!xr || x->d[IG_TRY_BW].pct == y->d[IG_TRY_BW].pct)
		return x->seq < y->seq ? -1 : x->seq > y->seq;
	return x->d[IG_TRY_BW].pct > y->d[IG_TRY_BW].pct ? -1 : 1;
}

static void refused(const struct ig_trial_env *e, struct ig_try_doc *d)
{
	const struct ig_trial_side *th = e->side[IG_TRY_THERE];

	for (size_t i = 0; i < d->n; i++) {
		struct ig_try_item *t = &d->t[i];

		if (t->side != IG_TRY_THERE || !t->n || t->not_tried[0])
			continue;
		if (!th || th->refused[0])
			not_allowed(t, th ? th->refused : "no server side");
	}
}

int ig_trial_run(const struct ig_trial_env *e, struct ig_try_doc *d)
{
	struct ig_run_opts ro;
	int ret;

	refused(e, d);
	plan_of(e, NULL, &ro);
	ret = measure(e, &ro, d->base.m, d->base.ok, d->note, sizeof(d->note));
	d->measured = !ret;
	for (size_t i = 0; !ret && i < d->n; i++)
		if (!d->t[i].not_tried[0] && !stopped(e) &&
		    (ret = one(e, d, &d->t[i], false)) && !stopped(e))
			snprintf(d->note, sizeof(d->note),
				 "the run ended at %s: %s", d->t[i].id,
				 d->t[i].error);
	gather(d);
	if (!ret && !stopped(e) && d->combined.n)
		ret = one(e, d, &d->combined, e->keep);
	if (!ret && !stopped(e))
		ceiling(e, d);
	else if (!d->has_ceiling)
		snprintf(d->ceiling_why, sizeof(d->ceiling_why),
			 "not measured: the run ended early");
	qsort(d->t, d->n, sizeof(*d->t), by_effect);
	if (stopped(e)) {
		snprintf(d->note, sizeof(d->note),
			 "interrupted (%s): the rest did not run; every change "
			 "was put back",
			 *e->ro.local.interrupt == SIGINT ? "SIGINT"
							  : "SIGTERM");
		return -EINTR;
	}
	return ret;
}
