// SPDX-License-Identifier: MIT
/*
 * Unit tests for the run layer (src/run/): the plan's count and order
 * (sizes x streams x windows x tests, --zerocopy both's second tcp_bw),
 * the rest of a plan failed, and a small plan run against the in-process
 * server over loopback (repeats pooled, a refused connection failing
 * every result with its reason).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/run.h"
#include "wire/railmsg.h"
#include "testmain.h"
#include "transports/transports.h"

static const enum ig_test bw_lat[] = { IG_TEST_TCP_BW, IG_TEST_TCP_LAT };
static const uint64_t sizes[] = { 1024, 4096, 65536 };
static const uint32_t streams[] = { 1, 4 };
static const uint64_t windows[] = { 0, 262144 };

static struct ig_run_opts plan(void)
{
	struct ig_run_opts o = { .tests = bw_lat, .ntests = 2 };

	ig_params_default(&o.p);
	ig_local_opts_default(&o.local);
	return o;
}

/* No lists: one measurement per test, at p's values; latency at 2 bytes
 * without -s, ud_send_bw at the path MTU (0). */
START_TEST(test_plan_one)
{
	static const enum ig_test t[] = { IG_TEST_TCP_BW, IG_TEST_SEND_LAT,
					  IG_TEST_UD_SEND_BW };
	struct ig_run_opts o = plan();
	struct ig_params p;

	o.tests = t;
	o.ntests = 3;
	o.p.size = 8192;
	o.p.streams = 3;
	o.p.sock.window = 131072;
	ck_assert_uint_eq(ig_run_count(&o), 3);
	ck_assert_uint_eq(ig_run_combos(&o), 3);
	ig_run_params(&o, 0, &p);
	ck_assert(p.test == IG_TEST_TCP_BW && p.size == 8192 &&
		  p.streams == 3 && p.sock.window == 131072);
	ig_run_params(&o, 1, &p);
	ck_assert(p.test == IG_TEST_SEND_LAT && p.size == 2 && p.streams == 3);
	ig_run_params(&o, 2, &p);
	ck_assert(p.test == IG_TEST_UD_SEND_BW && p.size == 0);
	o.size_given = true;
	ig_run_params(&o, 1, &p);
	ck_assert_uint_eq(p.size, 8192);
	ig_run_params(&o, 2, &p);
	ck_assert_uint_eq(p.size, 8192);
}
END_TEST

/* Sizes outer, then streams, then windows, the tests innermost. */
START_TEST(test_plan_order)
{
	struct ig_run_opts o = plan();
	struct ig_params p;
	unsigned int k = 0;

	o.sizes = sizes;
	o.nsizes = 3;
	o.streams = streams;
	o.nstreams = 2;
	o.windows = windows;
	o.nwindows = 2;
	o.size_given = true;
	ck_assert_uint_eq(ig_run_count(&o), 3 * 2 * 2 * 2);
	for (unsigned int s = 0; s < 3; s++)
		for (unsigned int n = 0; n < 2; n++)
			for (unsigned int w = 0; w < 2; w++)
				for (unsigned int t = 0; t < 2; t++, k++) {
					ig_run_params(&o, k, &p);
					ck_assert_msg(
						p.test == bw_lat[t] &&
							p.size == sizes[s] &&
							p.streams ==
								streams[n] &&
							p.sock.window ==
								windows[w],
						"plan[%u]: %s %llu x%u "
						"window %llu",
						k,
						ig_test_name(IG_TESTS, p.test),
						(unsigned long long)p.size,
						p.streams,
						(unsigned long long)
							p.sock.window);
				}
}
END_TEST

/* --zerocopy both: tcp_bw twice per combination, the others once. */
START_TEST(test_plan_zerocopy_both)
{
	struct ig_run_opts o = plan();

	o.sizes = sizes;
	o.nsizes = 2;
	ck_assert_uint_eq(ig_run_count(&o), 4);
	o.local.sock.zerocopy = IG_ZC_BOTH;
	ck_assert_uint_eq(ig_run_count(&o), 6);
	ck_assert_uint_eq(ig_run_combos(&o), 4);
}
END_TEST

/* The rest of a plan failed from an index on, each with its parameters
 * and the reason; the ones before it untouched. */
START_TEST(test_fail_rest)
{
	struct ig_run_opts o = plan();
	struct ig_result *res = calloc(8, sizeof(*res));
	static const struct {
		enum ig_test test;
		uint64_t size;
	} want[] = {
		{ IG_TEST_TCP_BW, 1024 },  { IG_TEST_TCP_BW, 1024 },
		{ IG_TEST_TCP_LAT, 1024 }, { IG_TEST_TCP_BW, 4096 },
		{ IG_TEST_TCP_BW, 4096 },  { IG_TEST_TCP_LAT, 4096 },
	};

	ck_assert_ptr_nonnull(res);
	o.sizes = sizes;
	o.nsizes = 2;
	o.size_given = true;
	o.local.sock.zerocopy = IG_ZC_BOTH;
	res[1].bw_gbps = 7;
	ig_run_fail(&o, res, 2, "peer gone");
	ck_assert(!res[0].failed && !res[1].failed && res[1].bw_gbps == 7);
	for (unsigned int i = 2; i < 6; i++)
		ck_assert_msg(
			res[i].failed && res[i].params.test == want[i].test &&
				res[i].params.size == want[i].size &&
				!strcmp(res[i].test,
					ig_test_name(IG_TESTS, want[i].test)) &&
				!strcmp(res[i].error, "peer gone"),
			"result %u: %s %llu failed %d '%s'", i,
			ig_test_name(IG_TESTS, res[i].params.test),
			(unsigned long long)res[i].params.size, res[i].failed,
			res[i].error);
	ck_assert(!res[6].failed);
	free(res);
}
END_TEST

/* A plan against the in-process server on loopback: tcp_lat, 3 runs
 * pooled (rep.n 3, 3 x 200 samples), then BYE; the server ends. */
START_TEST(test_run_at_local)
{
	static const enum ig_test lat[] = { IG_TEST_TCP_LAT };
	struct ig_server_opts so = { .bind = "127.0.0.1",
				     .port = "0",
				     .timeout_ms = 10000 };
	struct ig_run_opts o = plan();
	struct ig_run_server s;
	struct ig_result *res = calloc(1, sizeof(*res));
	char port[16], err[256];
	struct ig_run_peer peer = { .host = "127.0.0.1",
				    .port = port,
				    .timeout_ms = 10000 };
	size_t done = 0;

	ck_assert_ptr_nonnull(res);
	ck_assert_msg(!ig_run_server_start(&s, &so, err, sizeof(err)), "%s",
		      err);
	snprintf(port, sizeof(port), "%d", ig_run_server_port(&s));
	o.tests = lat;
	o.ntests = 1;
	o.p.iterations = 200;
	o.p.duration_ns = 0;
	o.p.warmup_ns = 0;
	o.rep.runs = 3;
	o.quiet = true;
	ck_assert_int_eq(ig_run_at(&o, &peer, NULL, NULL, res, &done), 0);
	ck_assert_uint_eq(done, 1);
	ck_assert_msg(!res[0].failed, "%s", res[0].error);
	ck_assert_uint_eq(res[0].rep.n, 3);
	ck_assert_str_eq(res[0].rep.metric, "lat_us.p50");
	ck_assert_uint_eq(res[0].lat.count, 600);
	ig_run_server_stop(&s);
	free(res);
}
END_TEST

/* Nothing listens: every result failed with the connection's reason. */
START_TEST(test_run_at_refused)
{
	struct ig_server_opts so = { .bind = "127.0.0.1",
				     .port = "0",
				     .timeout_ms = 10000 };
	struct ig_run_opts o = plan();
	struct ig_run_server s;
	struct ig_result *res = calloc(2, sizeof(*res));
	char port[16], err[256];
	struct ig_run_peer peer = { .host = "127.0.0.1",
				    .port = port,
				    .timeout_ms = 2000 };
	size_t done = 0;

	ck_assert_ptr_nonnull(res);
	/* a port that was free a moment ago */
	ck_assert_msg(!ig_run_server_start(&s, &so, err, sizeof(err)), "%s",
		      err);
	snprintf(port, sizeof(port), "%d", ig_run_server_port(&s));
	ig_run_server_stop(&s);
	o.quiet = true;
	ck_assert_int_lt(ig_run_at(&o, &peer, NULL, NULL, res, &done), 0);
	ck_assert_uint_eq(done, 2);
	for (unsigned int i = 0; i < 2; i++)
		ck_assert_msg(res[i].failed && strstr(res[i].error, port) &&
				      res[i].params.test == bw_lat[i],
			      "result %u: failed %d '%s'", i, res[i].failed,
			      res[i].error);
	free(res);
}
END_TEST

/* --rails-mode together: HELLOs of one group run side by side; another
 * group, or none, is told BUSY until the group's sessions end; RAILS
 * answers with this host's rails (none here: no RDMA device needed). */
START_TEST(test_group_sessions)
{
	struct ig_server_opts so = { .bind = "127.0.0.1",
				     .port = "0",
				     .timeout_ms = 10000 };
	struct ig_run_server s;
	struct ig_ctrl c[3];
	struct ig_rails *rails = calloc(1, sizeof(*rails));
	char port[16], err[256];
	struct ig_run_peer g1 = { .host = "127.0.0.1",
				  .port = port,
				  .timeout_ms = 5000,
				  .group = "g1" };
	struct ig_run_peer g2 = g1, none = g1;
	struct ig_sysinfo me, srv;

	g2.group = "g2";
	none.group = NULL;
	ck_assert_ptr_nonnull(rails);
	ck_assert_msg(!ig_run_server_start(&s, &so, err, sizeof(err)), "%s",
		      err);
	snprintf(port, sizeof(port), "%d", ig_run_server_port(&s));
	ck_assert_msg(!ig_run_connect(&g1, &c[0], &me, &srv, err, sizeof(err)),
		      "%s", err);
	ck_assert_msg(!ig_run_connect(&g1, &c[1], &me, &srv, err, sizeof(err)),
		      "second of group g1: %s", err);
	ck_assert_int_ne(
		ig_run_connect(&g2, &c[2], &me, &srv, err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, "another session"), "%s", err);
	ck_assert_int_ne(
		ig_run_connect(&none, &c[2], &me, &srv, err, sizeof(err)), 0);
	ck_assert_int_eq(ig_rails_remote(&c[0], rails, err, sizeof(err)), 0);
	ig_run_bye(&c[0], true, true);
	ig_run_bye(&c[1], true, true);
	ck_assert_msg(!ig_run_connect(&g2, &c[2], &me, &srv, err, sizeof(err)),
		      "g2 after g1 ended: %s", err);
	ig_run_bye(&c[2], true, true);
	ig_run_server_stop(&s);
	free(rails);
}
END_TEST

static Suite *run_suite_make(void)
{
	Suite *s = suite_create("run");
	TCase *tc = tcase_create("plan");

	tcase_add_test(tc, test_plan_one);
	tcase_add_test(tc, test_plan_order);
	tcase_add_test(tc, test_plan_zerocopy_both);
	tcase_add_test(tc, test_fail_rest);
	suite_add_tcase(s, tc);
	tc = tcase_create("loopback");
	tcase_add_test(tc, test_run_at_local);
	tcase_add_test(tc, test_run_at_refused);
	tcase_add_test(tc, test_group_sessions);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(run_suite_make());
}
