// SPDX-License-Identifier: MIT
/* The client: connects, says HELLO, runs each test, writes the report. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wire/auth.h"
#include "client.h"
#include "report/baseline.h"
#include "report/compare.h"
#include "plot/plot.h"
#include "wire/ctrl.h"
#include "engine/engine.h"
#include "engine/fault.h"
#include "report/report.h"
#include "host/rdma_inv.h"
#include "host/sysinfo.h"

static int write_report(FILE *f, const struct ig_client_opts *o,
			const struct ig_report_env *env,
			const struct ig_result *res, size_t n)
{
	int ret = ig_report_write(f, o->format, env, res, n);

	if (!ret && fflush(f))
		ret = -errno;
	if (ret)
		fprintf(stderr, "ibgap: writing the report%s%s failed: %s\n",
			o->outfile ? " to " : "", o->outfile ? o->outfile : "",
			strerror(-ret));
	return ret;
}

static struct ig_run_peer peer_of(const struct ig_client_opts *o,
				  const struct ig_auth_key *key)
{
	return (struct ig_run_peer){ .host = o->host,
				     .port = o->port,
				     .key = key,
				     .timeout_ms = (int)o->p.timeout_ms,
				     .fault = o->column ? NULL
							: o->local.fault };
}

/* Connects, runs every test, says BYE; fills env and res. */
static int session(const struct ig_client_opts *o, struct ig_report_env *env,
		   struct ig_result *res, size_t *done,
		   struct ig_client_diag *diag, const struct ig_auth_key *key)
{
	struct ig_run_peer peer = peer_of(o, key);
	struct ig_run_opts ro;
	struct ig_ctrl c;
	char err[512];
	int ret = ig_run_connect(&peer, &c, &env->client, &env->server, err,
				 sizeof(err));

	if (ret) {
		fprintf(stderr, "ibgap: %s\n", err);
		return ret;
	}
	ig_client_run_opts(o, &ro);
	ig_client_diag_begin(diag, c.fd);
	ret = ig_run_plan(&ro, &c, res, done);
	ig_client_diag_end(diag);
	/* --also: its session opens once the server has ended this one */
	ig_run_bye(&c, !ret, o->also);
	return ret;
}

/* --also ADDR: the plan a (ig_client_also_opts) on a second control
 * connection, to ADDR.  Fills *n results, each of the column a->column
 * (a failure fails this column only, each result saying why); 0, or -1
 * when some failed. */
static int also_session(const struct ig_client_opts *a, struct ig_result *res,
			size_t *n, const struct ig_auth_key *key)
{
	struct ig_run_peer peer = peer_of(a, key);
	struct ig_run_opts ro;
	int ret;

	ig_client_run_opts(a, &ro);
	ret = ig_run_at(&ro, &peer, NULL, NULL, res, n);
	for (size_t i = 0; i < *n; i++)
		res[i].transport = a->column;
	return ret ? -1 : 0;
}

static size_t plan_count(const struct ig_client_opts *o)
{
	struct ig_run_opts ro;

	ig_client_run_opts(o, &ro);
	return ig_run_count(&ro);
}

static bool stopped(const struct ig_client_opts *o)
{
	return o->local.interrupt && *o->local.interrupt;
}

/* The signal that stopped the run (the flag holds its number). */
static int stop_sig(const struct ig_client_opts *o)
{
	return *o->local.interrupt == SIGTERM ? SIGTERM : SIGINT;
}

/* The report's note of a run that a signal stopped. */
static const char *stop_note(const struct ig_client_opts *o)
{
	if (stop_sig(o) == SIGTERM)
		return "interrupted (SIGTERM): the last result is partial and "
		       "the rest did not run";
	return "interrupted (SIGINT): the last result is partial and the "
	       "rest did not run";
}

/* Without -t: the comparison where this host has an RDMA device, TCP
 * alone (said once: in the text report on stdout, else also on stderr)
 * where it has none. */
static void default_tests(struct ig_client_opts *o, const char **note)
{
	static const enum ig_test cmp[] = {
		IG_TEST_WRITE_BW, IG_TEST_SEND_BW,   IG_TEST_TCP_BW,
		IG_TEST_SEND_LAT, IG_TEST_WRITE_LAT, IG_TEST_TCP_LAT,
	};
	struct ig_inv *inv = NULL;
	char err[256];
	size_t n = 0;

	if (o->tests_given)
		return;
	/* an unreadable inventory is no RDMA device */
	if (!ig_inv_load("/", 0, &inv, err, sizeof(err)))
		n = inv->ndevs;
	ig_inv_free(inv);
	if (n > 0) {
		memcpy(o->tests, cmp, sizeof(cmp));
		o->ntests = sizeof(cmp) / sizeof(*cmp);
		return;
	}
	*note = "no RDMA device on this host: TCP alone (create a Soft-RoCE "
		"device to compare: rdma link add rxe0 type rxe netdev IFACE)";
	if (o->format != IG_FMT_TEXT || o->outfile)
		fprintf(stderr, "ibgap: %s\n", *note);
}

/* The comparison and the doctor's findings for the report. */
static int prepare(const struct ig_client_opts *o, struct ig_report_env *env,
		   struct ig_result *res, size_t n, struct ig_client_diag *diag,
		   struct ig_compare *cmp)
{
	/* --rails: each rail pairs its own results (the rails' report) */
	int ret = ig_compare_build(res, env->rails ? 0 : n, cmp);

	if (ret) {
		fprintf(stderr, "ibgap: out of memory comparing results\n");
		return ret;
	}
	ig_client_diag_ipoib(diag, cmp);
	ig_client_diag_top(diag, cmp, o->p.sock.window);
	env->findings = diag->f;
	env->nfindings = diag->nf;
	return 0;
}

static int write_all(const struct ig_client_opts *o, FILE *f,
		     struct ig_report_env *env, struct ig_result *res, size_t n,
		     struct ig_compare *cmp)
{
	int ret;

	env->cmp = cmp;
	ret = write_report(f, o, env, res, n);
	if (!ret && o->plot) {
		char err[512];

		ret = ig_plot_write(o->plot, res, n, err, sizeof(err));
		if (ret)
			fprintf(stderr, "ibgap: %s\n", err);
	}
	env->cmp = NULL;
	return ret;
}

/* The baseline first (its verdict is in an openmetrics report), then the
 * report and the plot; *written when the report is whole.  Returns the
 * exit status (1 also for a regression, with the report written). */
static int finish(const struct ig_client_opts *o, FILE *f,
		  struct ig_report_env *env, struct ig_result *res, size_t n,
		  struct ig_client_diag *diag, json_object *old, bool *written)
{
	struct ig_compare cmp;
	int ret = prepare(o, env, res, n, diag, &cmp), verdict;

	if (ret)
		return 1;
	verdict = ig_client_baseline(o, env, res, n, old);
	if (old) {
		env->baseline = o->baseline;
		env->regressed = verdict == IG_DIFF_REGRESSION;
		env->incomplete = verdict == IG_DIFF_INCOMPLETE;
	}
	ret = write_all(o, f, env, res, n, &cmp);
	ig_compare_free(&cmp);
	*written = !ret;
	return ret ? 1 : verdict;
}

/* The results' count: the plan's, or --rails' (which asks the server for
 * its rails: env's hosts filled); 0, or the exit status. */
static int count(const struct ig_client_opts *o, const struct ig_auth_key *key,
		 struct ig_client_rails **cr, struct ig_report_env *env,
		 size_t *n)
{
	if (!o->rails) {
		*n = plan_count(o);
		return 0;
	}
	*cr = calloc(1, sizeof(**cr));
	if (!*cr) {
		fprintf(stderr, "ibgap: --rails: out of memory\n");
		return 1;
	}
	env->rails = &(*cr)->rep;
	return ig_client_rails_plan(o, key, *cr, env, n);
}

/* The run's own sessions: one, or one per rail (whose failure leaves the
 * report standing: *failed). */
static int sessions(const struct ig_client_opts *o, struct ig_report_env *env,
		    struct ig_result *res, size_t *n,
		    struct ig_client_diag *diag, const struct ig_auth_key *key,
		    struct ig_client_rails *cr, int *failed)
{
	if (!cr)
		return session(o, env, res, n, diag, key);
	*failed = ig_client_rails_run(o, key, cr, res, n);
	return 0;
}

static int run(const struct ig_client_opts *opts, const struct ig_auth_key *key)
{
	struct ig_client_rails *cr = NULL;
	struct ig_client_opts o = *opts, a;
	struct ig_report_env env = { .peer = opts->host };
	struct ig_fault_env fault_env;
	struct ig_client_diag diag = { 0 };
	struct ig_client_out out;
	struct ig_result *res;
	json_object *old;
	bool written = false;
	size_t n, na = 0;
	int ret, also = 0;

	/* test builds: IBGAP_FAULT (engine/fault.h) */
	o.local.fault = ig_fault_env(&fault_env);
	/* fail on a bad --baseline or -o before spending time on tests */
	ret = ig_client_load_baseline(&o, &old);
	if (ret)
		return ret;
	if (ig_client_out_open(&out, o.outfile)) {
		json_object_put(old);
		return 1;
	}
	default_tests(&o, &env.note);
	ret = count(&o, key, &cr, &env, &n);
	if (ret) {
		ig_client_out_close(&out, false);
		json_object_put(old);
		free(cr);
		return ret;
	}
	if (o.also) {
		ig_client_also_opts(&o, &a);
		na = plan_count(&a);
	}
	res = calloc(n + na, sizeof(*res));
	ret = res ? sessions(&o, &env, res, &n, &diag, key, cr, &also)
		  : -ENOMEM;
	if (!res)
		fprintf(stderr, "ibgap: out of memory for %zu results\n",
			n + na);
	if (!ret && o.also && !stopped(&o)) {
		also = also_session(&a, res + n, &na, key);
		n += na;
	}
	if (!ret) {
		if (stopped(&o))
			env.note = stop_note(&o);
		ig_client_fingerprints(&env, res, n);
		ret = finish(&o, out.f, &env, res, n, &diag, old, &written);
	} else {
		/* a value the link cannot carry, found at set-up */
		ret = ret == -IG_EBADVALUE ? 2 : 1;
	}
	if (ig_client_out_close(&out, written) && !ret)
		ret = 1;
	if (!ret && stopped(&o))
		ret = 128 + stop_sig(&o); /* as a shell reports the signal */
	else if (!ret && also)
		ret = 1; /* a test failed, as without --also (its report
			    stands, with the reason) */
	json_object_put(old);
	free(res);
	free(cr);
	return ret;
}

int ig_client_run(const struct ig_client_opts *o)
{
	struct ig_auth_key key;
	char err[512];
	int ret;

	if (!o->auth_file)
		return run(o, NULL);
	/* a bad --auth-file is a bad option value, found before connecting */
	if (ig_auth_load(o->auth_file, &key, err, sizeof(err))) {
		fprintf(stderr, "ibgap: %s\n", err);
		return 2;
	}
	ret = run(o, &key);
	ig_auth_wipe(&key);
	return ret;
}
