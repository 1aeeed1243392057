// SPDX-License-Identifier: MIT
/* One pair's measurements: this rank is the client of the peer's
 * in-process server, through the same engine as "ibgap client". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "fab.h"
#include "transports/transports.h"
#include "wire/hello.h"
#include "wire/net.h"

static void fail_rest(struct ig_fab_meas *m, size_t k, const char *why)
{
	size_t l = strnlen(why, sizeof(m->why) - 1); /* cut if longer */

	for (size_t i = 0; i < k; i++) {
		m[i].ok = false;
		memcpy(m[i].why, why, l);
		m[i].why[l] = 0;
	}
}

static void fill(struct ig_fab_meas *m, const struct ig_result *r)
{
	m->ok = true;
	m->why[0] = 0;
	m->bw_gbps = r->bw_gbps;
	if (r->has_lat) {
		ig_hist_percentile(&r->lat, 0.50, &m->lat_p50_us);
		ig_hist_percentile(&r->lat, 0.99, &m->lat_p99_us);
		m->lat_p50_us /= 1000;
		m->lat_p99_us /= 1000;
	}
}

/* Runs m[0..k) on c; a failure ends the session (the peer's engine has
 * given up on it too). */
static void tests(struct ig_ctrl *c, const struct ig_params *p0,
		  uint64_t lat_size, const struct ig_local_opts *local,
		  struct ig_fab_meas *m, size_t k)
{
	struct ig_result *r = malloc(sizeof(*r));
	char err[512];

	if (!r) {
		fail_rest(m, k, "out of memory for a result");
		return;
	}
	for (size_t i = 0; i < k; i++) {
		struct ig_params p = *p0;

		ig_params_set_test(&p, m[i].test);
		if (ig_test_pattern(p.test) == IG_PATTERN_LAT)
			p.size = lat_size;
		memset(r, 0, sizeof(*r));
		if (ig_engine_client(&ig_transports, c, &p, local, r, err,
				     sizeof(err))) {
			fail_rest(m + i, k - i, err);
			break;
		}
		fill(&m[i], r);
	}
	free(r);
}

void ig_fab_pair_run(const char *addr, int port, const struct ig_params *p,
		     uint64_t lat_size, const struct ig_local_opts *local,
		     struct ig_fab_meas *m, size_t k)
{
	struct ig_sysinfo self, peer;
	struct ig_ctrl c;
	char err[512], ports[16];
	int fd;

	snprintf(ports, sizeof(ports), "%d", port);
	fd = ig_net_connect(addr, ports, (int)p->timeout_ms, err, sizeof(err));
	if (fd < 0) {
		fail_rest(m, k, err);
		return;
	}
	ig_ctrl_init(&c, fd, (int)p->timeout_ms);
	if (ig_hello(&c, &self, &peer, NULL)) {
		fail_rest(m, k, c.err);
	} else {
		tests(&c, p, lat_size, local, m, k);
		ig_ctrl_send(&c, IG_MSG_BYE, NULL);
	}
	ig_ctrl_close(&c);
}
