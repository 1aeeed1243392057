// SPDX-License-Identifier: MIT
/* A plan: every size x streams x window x test, each repeated as asked,
 * through the engine; the rest failed after a failure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/repeat.h"
#include "engine/engine.h"
#include "run.h"
#include "transports/transports.h"

struct plan {
	const struct ig_run_opts *o;
	struct ig_local_opts local; /* o's, zerocopy as this run wants */
	struct ig_ctrl *c;
	unsigned int done, total;
	bool tty;
	uint64_t t0; /* the plan's start (ns), for the progress line */
};

static bool stopped(const struct ig_run_opts *o)
{
	return o->local.interrupt && *o->local.interrupt;
}

/* A list's length: 1 for p's one value. */
static unsigned int len(const void *list, unsigned int n)
{
	return list ? n : 1;
}

/* --zerocopy both: tcp_bw runs twice, copying and then zero-copy. */
static unsigned int zc_runs(const struct ig_run_opts *o, enum ig_test t)
{
	return t == IG_TEST_TCP_BW && o->local.sock.zerocopy == IG_ZC_BOTH ? 2
									   : 1;
}

/* This run's --zerocopy, as its result records it: only tcp_bw's; both:
 * COPY (asked, this run copies), then ON. */
static enum ig_zc_mode zc_run_mode(const struct ig_run_opts *o, enum ig_test t,
				   unsigned int k)
{
	if (t != IG_TEST_TCP_BW || o->local.sock.zerocopy == IG_ZC_OFF)
		return IG_ZC_OFF;
	if (o->local.sock.zerocopy == IG_ZC_BOTH)
		return k ? IG_ZC_ON : IG_ZC_COPY;
	return IG_ZC_ON;
}

unsigned int ig_run_combos(const struct ig_run_opts *o)
{
	return len(o->sizes, o->nsizes) * len(o->streams, o->nstreams) *
	       len(o->windows, o->nwindows) * o->ntests;
}

unsigned int ig_run_count(const struct ig_run_opts *o)
{
	unsigned int n = 0;

	for (unsigned int t = 0; t < o->ntests; t++)
		n += zc_runs(o, o->tests[t]);
	return ig_run_combos(o) / (o->ntests ? o->ntests : 1) * n;
}

void ig_run_params(const struct ig_run_opts *o, unsigned int k,
		   struct ig_params *p)
{
	unsigned int nw = len(o->windows, o->nwindows);
	unsigned int ns = len(o->streams, o->nstreams);

	*p = o->p;
	/* drops -R and --bidir for a ping-pong */
	ig_params_set_test(IG_TESTS, p, o->tests[k % o->ntests]);
	k /= o->ntests;
	if (o->windows)
		p->sock.window = o->windows[k % nw];
	k /= nw;
	if (o->streams)
		p->streams = o->streams[k % ns];
	if (o->sizes)
		p->size = o->sizes[k / ns];
	if (ig_test_is_lat(p->test) && !o->size_given)
		p->size = IG_DEFAULT_LAT_SIZE;
	/* UD send at the path MTU, which its set-up finds */
	if (p->test == IG_TEST_UD_SEND_BW && !o->size_given)
		p->size = 0;
}

static unsigned int max_runs(const struct ig_run_opts *o)
{
	if (o->rep.runs)
		return o->rep.runs;
	return o->rep.level ? IG_CONF_MAX_DEFAULT : 1;
}

/* ns as M:SS, or H:MM:SS from an hour on. */
static void hms(uint64_t ns, char *buf, size_t len)
{
	unsigned long s = (unsigned long)(ns / IG_NSEC_PER_SEC);

	if (s >= 3600)
		snprintf(buf, len, "%lu:%02lu:%02lu", s / 3600, s / 60 % 60,
			 s % 60);
	else
		snprintf(buf, len, "%lu:%02lu", s / 60, s % 60);
}

/* What is left of the plan, in ns: the mean of the measurements done so
 * far times those left; before the first, warm-up and duration each (0:
 * unknown, with -n). */
static uint64_t left_ns(const struct plan *pl, const struct ig_params *p,
			uint64_t elapsed)
{
	unsigned int left = pl->total - pl->done;

	if (pl->done)
		return elapsed / pl->done * left;
	if (!p->duration_ns)
		return 0;
	return (p->warmup_ns + p->duration_ns) * left * max_runs(pl->o);
}

/* On a terminal: "[3/16] tcp_bw 64K  0:42 elapsed, about 2:10 left" on
 * stderr, rewritten in place; ig_run_plan clears it at the end. */
static void progress(struct plan *pl, const struct ig_params *p,
		     unsigned int run)
{
	uint64_t elapsed = ig_now_ns() - pl->t0, left;
	char sz[24], el[24], lt[24];

	if (!pl->tty)
		return;
	if (p->size)
		ig_size_str(p->size, sz, sizeof(sz));
	else
		snprintf(sz, sizeof(sz), "MTU"); /* ud_send_bw without -s */
	fprintf(stderr, "\r\033[K[%u/%u] %s %s", pl->done + 1, pl->total,
		ig_test_name(IG_TESTS, p->test), sz);
	if (run)
		fprintf(stderr, " (run %u)", run + 1);
	hms(elapsed, el, sizeof(el));
	fprintf(stderr, "  %s elapsed", el);
	left = left_ns(pl, p, elapsed);
	hms(left, lt, sizeof(lt));
	if (left)
		fprintf(stderr, ", about %s left", lt);
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

/* 0, or the engine's -errno (-IG_EBADVALUE: a bad option value). */
static int one_run(struct plan *pl, const struct ig_params *p,
		   struct ig_result *r)
{
	const struct ig_run_opts *o = pl->o;
	char err[512];
	int ret = ig_engine_client(&ig_transports, pl->c, p, &pl->local, r, err,
				   sizeof(err));

	if (!ret)
		return 0;
	if (pl->tty)
		fputs("\r\033[K", stderr);
	if (!o->quiet)
		fprintf(stderr, "ibgap: %s%s%s\n", o->column ? o->column : "",
			o->column ? ": " : "", err);
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
	const struct ig_run_opts *o = pl->o;
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
		if (o->rep.level && k + 1 >= IG_CONF_MIN) {
			ig_repeat_stats(vals, k + 1, o->rep.level, o->rep.width,
					&r->rep);
			if (r->rep.met) {
				k++;
				break;
			}
		}
	}
	free(tmp);
	ig_result_pool_end(r, k);
	if (k > 1 || o->rep.level)
		ig_repeat_stats(vals, k, o->rep.level ? o->rep.level : 95,
				o->rep.width, &r->rep);
	r->rep.metric = name;
	return 0;
}

/* One combination of the plan: once, or copying then zero-copy. */
static int measure_runs(struct plan *pl, const struct ig_params *p,
			struct ig_result *res)
{
	const struct ig_run_opts *o = pl->o;
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

void ig_run_fail(const struct ig_run_opts *o, struct ig_result *res,
		 size_t from, const char *why)
{
	size_t i = 0;

	for (unsigned int k = 0; k < ig_run_combos(o); k++) {
		struct ig_params p;

		ig_run_params(o, k, &p);
		for (unsigned int z = 0; z < zc_runs(o, p.test); z++, i++) {
			struct ig_result *r = &res[i];

			if (i < from)
				continue;
			memset(r, 0, sizeof(*r));
			r->params = p;
			r->test = ig_test_name(IG_TESTS, p.test);
			r->failed = true;
			snprintf(r->error, sizeof(r->error), "%.*s",
				 (int)sizeof(r->error) - 1, why);
		}
	}
}

int ig_run_plan(const struct ig_run_opts *o, struct ig_ctrl *c,
		struct ig_result *res, size_t *done)
{
	struct plan pl = { .o = o,
			   .local = o->local,
			   .c = c,
			   .total = ig_run_count(o),
			   .tty = !o->quiet && isatty(STDERR_FILENO),
			   .t0 = ig_now_ns() };
	int ret = 0;

	for (unsigned int k = 0; k < ig_run_combos(o) && !ret && !stopped(o);
	     k++) {
		struct ig_params p;

		ig_run_params(o, k, &p);
		ret = measure_runs(&pl, &p, res);
	}
	if (ret) {
		ig_run_fail(o, res, pl.done,
			    "not run: an earlier test on this connection "
			    "failed");
		pl.done = pl.total;
	}
	if (pl.tty)
		fputs("\r\033[K", stderr);
	*done = pl.done;
	return ret;
}
