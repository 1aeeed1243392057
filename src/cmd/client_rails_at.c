// SPDX-License-Identifier: MIT
/* --rails-mode together: every rail at once, one thread and one session
 * per rail, each test started on every rail together (a barrier), the
 * sessions one HELLO group so that the server runs them side by side. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "client.h"

/* The threads start their sessions once all of them exist (go 1), or
 * end at once when one could not be made (go -1): every thread must
 * meet every barrier. */
struct gate {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int go;
};

struct rail_thread {
	struct gate *gate;
	const struct ig_client_opts *ro; /* the rail's plan */
	/* the client's tests: every thread meets one barrier per test, a
	 * rail's plan may lack some (no TCP without an address) */
	const enum ig_test *tests;
	unsigned int ntests;
	const struct ig_auth_key *key;
	const char *group;
	pthread_barrier_t *bar;
	struct ig_result *res; /* the rail's count of results */
	size_t n;
	int ret;
	bool connected;
	bool started;
	char err[256];
	pthread_t tid;
};

static bool in_plan(const struct ig_client_opts *ro, enum ig_test test)
{
	for (unsigned int k = 0; k < ro->ntests; k++)
		if (ro->tests[k] == test)
			return true;
	return false;
}

/* One test of the client's after the barrier, if the rail's plan has it;
 * failed once the session failed (every thread meets every barrier). */
static void one_test(struct rail_thread *t, struct ig_ctrl *c,
		     enum ig_test test)
{
	struct ig_client_opts one = *t->ro;
	struct ig_run_opts plan;
	size_t done = 0;

	one.tests[0] = test;
	one.ntests = 1;
	ig_client_run_opts(&one, &plan);
	plan.column = t->ro->local.verbs.device;
	pthread_barrier_wait(t->bar);
	if (!in_plan(t->ro, test))
		return;
	if (t->ret) {
		ig_run_fail(&plan, t->res + t->n, 0, t->err);
		t->n += ig_run_count(&plan);
		return;
	}
	t->ret = ig_run_plan(&plan, c, t->res + t->n, &done);
	if (t->ret && done)
		snprintf(t->err, sizeof(t->err), "%s",
			 t->res[t->n + done - 1].error);
	t->n += done;
}

static void *rail_main(void *arg)
{
	struct rail_thread *t = arg;
	struct ig_run_peer peer = { .host = t->ro->host,
				    .port = t->ro->port,
				    .key = t->key,
				    .timeout_ms = (int)t->ro->p.timeout_ms,
				    .group = t->group,
				    .src = t->ro->local.src_addr[0]
						   ? t->ro->local.src_addr
						   : NULL };
	struct ig_sysinfo self, srv;
	struct ig_ctrl c;
	int go;

	pthread_mutex_lock(&t->gate->mu);
	while (!t->gate->go)
		pthread_cond_wait(&t->gate->cv, &t->gate->mu);
	go = t->gate->go;
	pthread_mutex_unlock(&t->gate->mu);
	if (go < 0)
		return NULL;
	t->ret = ig_run_connect(&peer, &c, &self, &srv, t->err, sizeof(t->err));
	if (t->ret)
		fprintf(stderr, "ibgap: rail %s (together): %s\n",
			t->ro->local.verbs.device, t->err);
	else
		t->connected = true;
	for (unsigned int k = 0; k < t->ntests; k++)
		one_test(t, &c, t->tests[k]);
	if (t->connected)
		ig_run_bye(&c, !t->ret, true);
	return NULL;
}

/* The best figures of each rail's together results, and the sums. */
static void together_figures(struct ig_client_rails *cr, size_t i,
			     const struct rail_thread *t)
{
	struct ig_rail_run at = { .res = t->res, .n = t->n };

	ig_rails_figures(&at);
	cr->verbs_together[i] = at.verbs_gbps;
	cr->tcp_together[i] = at.tcp_gbps;
	cr->rep.verbs.each += cr->run[i].verbs_gbps;
	cr->rep.tcp.each += cr->run[i].tcp_gbps;
	cr->rep.verbs.together += at.verbs_gbps;
	cr->rep.tcp.together += at.tcp_gbps;
}

/* Starts every thread, opens the gate (or closes it when one did not
 * start) and joins them.  0 or -EAGAIN. */
static int run_all(struct rail_thread *t, size_t n, struct gate *g)
{
	size_t started = 0;

	for (size_t i = 0; i < n; i++) {
		t[i].started =
			!pthread_create(&t[i].tid, NULL, rail_main, &t[i]);
		started += t[i].started;
	}
	pthread_mutex_lock(&g->mu);
	g->go = started == n ? 1 : -1;
	pthread_cond_broadcast(&g->cv);
	pthread_mutex_unlock(&g->mu);
	for (size_t i = 0; i < n; i++)
		if (t[i].started)
			pthread_join(t[i].tid, NULL);
	if (started < n)
		fprintf(stderr, "ibgap: --rails-mode together: cannot start "
				"a thread per rail\n");
	return started == n ? 0 : -EAGAIN;
}

int ig_client_rails_together(const struct ig_client_opts *o,
			     const struct ig_auth_key *key,
			     struct ig_client_rails *cr)
{
	struct rail_thread t[IG_RAILS_MAX] = { 0 };
	struct gate gate = { .mu = PTHREAD_MUTEX_INITIALIZER,
			     .cv = PTHREAD_COND_INITIALIZER };
	unsigned char rnd[16];
	char group[2 * sizeof(rnd) + 1];
	pthread_barrier_t bar;
	size_t m = 0, idx[IG_RAILS_MAX];
	int failed = 0;

	if (getrandom(rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd))
		return -1;
	for (size_t i = 0; i < sizeof(rnd); i++)
		snprintf(group + 2 * i, 3, "%02x", rnd[i]);
	for (size_t i = 0; i < cr->rep.n; i++)
		if (cr->run[i].by != IG_RAIL_NONE)
			idx[m++] = i;
	cr->rep.together = true;
	cr->rep.verbs_together = cr->verbs_together;
	cr->rep.tcp_together = cr->tcp_together;
	if (!m || pthread_barrier_init(&bar, NULL, (unsigned int)m))
		return m ? -1 : 0;
	for (size_t j = 0; j < m; j++) {
		t[j] = (struct rail_thread){ .gate = &gate,
					     .ro = &cr->ro[idx[j]],
					     .tests = o->tests,
					     .ntests = o->ntests,
					     .key = key,
					     .group = group,
					     .bar = &bar };
		t[j].res = calloc(cr->count[idx[j]] ? cr->count[idx[j]] : 1,
				  sizeof(*t[j].res));
		if (!t[j].res)
			failed = -1;
	}
	if (!failed)
		failed = run_all(t, m, &gate) ? -1 : 0;
	for (size_t j = 0; !failed && j < m; j++) {
		struct ig_rail_run *r = &cr->run[idx[j]];

		together_figures(cr, idx[j], &t[j]);
		if (t[j].ret && !r->error[0])
			snprintf(r->error, sizeof(r->error), "together: %.200s",
				 t[j].err);
		failed |= t[j].ret ? -1 : 0;
	}
	for (size_t j = 0; j < m; j++)
		free(t[j].res);
	pthread_barrier_destroy(&bar);
	return failed;
}
