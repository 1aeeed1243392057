// SPDX-License-Identifier: MIT
/* The client's plan: every size x streams x window x test, each repeated
 * as asked. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "client.h"
#include "engine/engine.h"
#include "transports/transports.h"

struct plan {
	const struct ig_client_opts *o;
	struct ig_local_opts local; /* o's, zerocopy as this run wants */
	struct ig_ctrl *c;
	unsigned int done, total;
	bool tty;
};

static bool stopped(const struct ig_client_opts *o)
{
	return o->local.interrupt && *o->local.interrupt;
}

/* --zerocopy both: tcp_bw runs twice, copying and then zero-copy. */
static unsigned int zc_runs(const struct ig_client_opts *o, enum ig_test t)
{
	return t == IG_TEST_TCP_BW && o->local.sock.zerocopy == IG_ZC_BOTH ? 2
									   : 1;
}

/* This run's --zerocopy, as its result records it: only tcp_bw's; both:
 * COPY (asked, this run copies), then ON. */
static enum ig_zc_mode zc_run_mode(const struct ig_client_opts *o,
				   enum ig_test t, unsigned int k)
{
	if (t != IG_TEST_TCP_BW || o->local.sock.zerocopy == IG_ZC_OFF)
		return IG_ZC_OFF;
	if (o->local.sock.zerocopy == IG_ZC_BOTH)
		return k ? IG_ZC_ON : IG_ZC_COPY;
	return IG_ZC_ON;
}

unsigned int ig_client_plan_count(const struct ig_client_opts *o)
{
	unsigned int n = 0;

	for (unsigned int t = 0; t < o->ntests; t++)
		n += zc_runs(o, o->tests[t]);
	return o->nsizes * o->lists.nstreams * o->lists.nwindows * n;
}

void ig_client_also_opts(const struct ig_client_opts *o,
			 struct ig_client_opts *a)
{
	*a = *o;
	a->host = o->also;
	a->also = NULL;
	a->column = o->also_label;
	a->ntests = 0;
	for (unsigned int t = 0; t < o->ntests; t++)
		if (ig_test_xport(o->tests[t]) == IG_XPORT_TCP)
			a->tests[a->ntests++] = o->tests[t];
}

/* The combinations of the plan, each one test's parameters (with
 * --zerocopy both, tcp_bw's gives two results). */
static unsigned int plan_combos(const struct ig_client_opts *o)
{
	return o->nsizes * o->lists.nstreams * o->lists.nwindows * o->ntests;
}

/* Sizes outer, then streams, then windows, the tests innermost. */
void ig_client_plan_params(const struct ig_client_opts *o, unsigned int k,
			   struct ig_params *p)
{
	const struct ig_testopt_lists *l = &o->lists;

	*p = o->p;
	ig_params_set_test(p, o->tests[k % o->ntests]); /* drops -R, --bidir
							   for a ping-pong */
	k /= o->ntests;
	p->sock.window = l->windows[k % l->nwindows];
	k /= l->nwindows;
	p->streams = l->streams[k % l->nstreams];
	p->size = o->sizes[k / l->nstreams];
	if (ig_test_pattern(p->test) == IG_PATTERN_LAT && !o->size_given)
		p->size = IG_DEFAULT_LAT_SIZE;
	/* UD send at the path MTU, which its set-up finds */
	if (p->test == IG_TEST_UD_SEND_BW && !o->size_given)
		p->size = 0;
}

static void progress(struct plan *pl, const struct ig_params *p,
		     unsigned int run)
{
	char sz[24];

	if (!pl->tty)
		return;
	if (p->size)
		ig_size_str(p->size, sz, sizeof(sz));
	else
		snprintf(sz, sizeof(sz), "MTU"); /* ud_send_bw without -s */
	fprintf(stderr, "\r\033[K[%u/%u] %s %s", pl->done + 1, pl->total,
		ig_test_name(p->test), sz);
	if (run)
		fprintf(stderr, " (run %u)", run + 1);
	fflush(stderr);
}

/* The metric whose spread --repeat/--confidence reports. */
static double metric(const struct ig_result *r, const char **name)
{
	double v = 0;

	if (!r->has_lat) {
		*name = "bw_gbps";
		return r->bw_gbps;
	}
	*name = "lat_us.p50";
	if (ig_hist_percentile(&r->lat, 0.5, &v))
		return v / 1000;
	return r->lat.count ? ig_hist_mean(&r->lat) / 1000 : 0;
}

static unsigned int max_runs(const struct ig_client_opts *o)
{
	if (o->repeat)
		return o->repeat;
	return o->conf_level ? IG_CONF_MAX_DEFAULT : 1;
}

/* 0, or the engine's -errno (-IG_EBADVALUE: a bad option value). */
static int one_run(struct plan *pl, const struct ig_params *p,
		   struct ig_result *r)
{
	char err[512];
	int ret = ig_engine_client(&ig_transports, pl->c, p, &pl->local, r, err,
				   sizeof(err));

	if (!ret)
		return 0;
	if (pl->tty)
		fputs("\r\033[K", stderr);
	fprintf(stderr, "ibgap: %s%s%s\n", pl->o->column ? pl->o->column : "",
		pl->o->column ? ": " : "", err);
	r->failed = true;
	snprintf(r->error, sizeof(r->error), "%.*s", (int)sizeof(r->error) - 1,
		 err);
	return ret;
}

/* One measurement: repeated until --repeat runs are done or, with
 * --confidence, until the interval is narrow enough. */
static int measure(struct plan *pl, const struct ig_params *p,
		   struct ig_result *r)
{
	const struct ig_client_opts *o = pl->o;
	unsigned int max = max_runs(o), k;
	double vals[IG_MAX_REPEAT];
	struct ig_result *tmp = NULL;
	const char *name = "";

	for (k = 0; k < max && !(k && stopped(o)); k++) {
		struct ig_result *dst = r;

		progress(pl, p, k);
		if (k == 1 && !(tmp = malloc(sizeof(*tmp))))
			return -1;
		if (k)
			dst = tmp;
		int ret = one_run(pl, p, dst);

		if (ret) {
			free(tmp);
			return ret;
		}
		vals[k] = metric(dst, &name);
		if (k)
			ig_result_pool(r, tmp);
		if (o->conf_level && k + 1 >= IG_CONF_MIN) {
			ig_repeat_stats(vals, k + 1, o->conf_level,
					o->conf_width, &r->rep);
			if (r->rep.met) {
				k++;
				break;
			}
		}
	}
	free(tmp);
	ig_result_pool_end(r, k);
	if (k > 1 || o->conf_level)
		ig_repeat_stats(vals, k, o->conf_level ? o->conf_level : 95,
				o->conf_width, &r->rep);
	r->rep.metric = name;
	return 0;
}

/* One combination of the plan: once, or copying then zero-copy. */
static int measure_runs(struct plan *pl, const struct ig_params *p,
			struct ig_result *res)
{
	const struct ig_client_opts *o = pl->o;
	unsigned int runs = zc_runs(o, p->test);
	int ret = 0;

	for (unsigned int k = 0; k < runs && !ret && !stopped(o); k++) {
		pl->local.sock.zerocopy = zc_run_mode(o, p->test, k);
		ret = measure(pl, p, &res[pl->done]);
		pl->done++;
	}
	pl->local.sock.zerocopy = o->local.sock.zerocopy;
	return ret;
}

/* The plan's results from pl->done on did not run: failed, why. */
static void fail_rest(struct plan *pl, struct ig_result *res, const char *why)
{
	unsigned int i = 0;

	for (unsigned int k = 0; k < plan_combos(pl->o); k++) {
		struct ig_params p;

		ig_client_plan_params(pl->o, k, &p);
		for (unsigned int z = 0; z < zc_runs(pl->o, p.test); z++, i++) {
			struct ig_result *r = &res[i];

			if (i < pl->done)
				continue;
			memset(r, 0, sizeof(*r));
			r->params = p;
			r->test = ig_test_name(p.test);
			r->failed = true;
			snprintf(r->error, sizeof(r->error), "%.*s",
				 (int)sizeof(r->error) - 1, why);
		}
	}
	pl->done = i;
}

void ig_client_plan_fail(const struct ig_client_opts *o, struct ig_result *res,
			 const char *why)
{
	struct plan pl = { .o = o };

	fail_rest(&pl, res, why);
}

int ig_client_run_plan(const struct ig_client_opts *o, struct ig_ctrl *c,
		       struct ig_result *res, size_t *done)
{
	struct plan pl = { .o = o,
			   .local = o->local,
			   .c = c,
			   .total = ig_client_plan_count(o),
			   .tty = isatty(STDERR_FILENO) };
	int ret = 0;

	for (unsigned int k = 0; k < plan_combos(o) && !ret && !stopped(o);
	     k++) {
		struct ig_params p;

		ig_client_plan_params(o, k, &p);
		ret = measure_runs(&pl, &p, res);
	}
	if (ret)
		fail_rest(&pl, res,
			  "not run: an earlier test on this connection failed");
	if (pl.tty)
		fputs("\r\033[K", stderr);
	*done = pl.done;
	return ret;
}
