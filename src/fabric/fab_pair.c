// SPDX-License-Identifier: MIT
/* One pair's measurements: this rank is the client of the peer's
 * in-process server, through the run layer as "ibgap client". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fab.h"
#include "run/run.h"

static void fill(struct ig_fab_meas *m, const struct ig_result *r)
{
	size_t l;

	if (r->failed) {
		l = strnlen(r->error, sizeof(m->why) - 1); /* cut if longer */
		m->ok = false;
		memcpy(m->why, r->error, l);
		m->why[l] = 0;
		return;
	}
	m->ok = true;
	m->why[0] = 0;
	m->bw_gbps = r->bw_gbps;
	m->rep = r->rep;
	m->rep.metric = NULL; /* a pointer, and m goes to rank 0 as bytes */
	if (r->has_lat) {
		ig_hist_percentile(&r->lat, 0.50, &m->lat_p50_us);
		ig_hist_percentile(&r->lat, 0.99, &m->lat_p99_us);
		m->lat_p50_us /= 1000;
		m->lat_p99_us /= 1000;
	}
}

void ig_fab_pair_run_on(const char *addr, int port, const struct ig_fab_opts *o,
			const struct ig_local_opts *local,
			struct ig_fab_meas *m, size_t k)
{
	enum ig_test tests[IG_FAB_PAIR_MAX];
	struct ig_run_opts ro = { .p = o->p,
				  .local = *local,
				  .tests = tests,
				  .size_given = o->size_given,
				  .rep = o->rep,
				  .quiet = true };
	char ports[16];
	struct ig_run_peer peer = { .host = addr,
				    .port = ports,
				    .timeout_ms = (int)o->p.timeout_ms,
				    .src = local->src_addr[0] ? local->src_addr
							      : NULL };
	struct ig_result *res;
	size_t done = 0;

	k = k < IG_FAB_PAIR_MAX ? k : IG_FAB_PAIR_MAX;
	res = calloc(k, sizeof(*res));
	for (size_t i = 0; i < k; i++) {
		tests[ro.ntests++] = m[i].test;
		if (!res)
			snprintf(m[i].why, sizeof(m[i].why),
				 "out of memory for %zu results", k);
		m[i].ok = false;
	}
	if (!res)
		return;
	snprintf(ports, sizeof(ports), "%d", port);
	ig_run_at(&ro, &peer, NULL, NULL, res, &done);
	for (size_t i = 0; i < k; i++)
		fill(&m[i], &res[i]);
	free(res);
}

void ig_fab_pair_run(const char *addr, int port, const struct ig_fab_opts *o,
		     struct ig_fab_meas *m, size_t k)
{
	ig_fab_pair_run_on(addr, port, o, &o->local, m, k);
}
