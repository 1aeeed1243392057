// SPDX-License-Identifier: MIT
/*
 * Unit tests of the transports' table (src/transports): every transport
 * id has its ops, with every operation the engine calls, under the name
 * the tests of that id report, and every test's transport is registered.
 */
#include <check.h>
#include <errno.h>
#include <string.h>

#include "common/params.h"
#include "common/testopt.h"
#include "sockets/tcp.h"
#include "transports/transports.h"
#include "verbs/verbs.h"
#include "testmain.h"

START_TEST(t_every_id_registered)
{
	const struct ig_xport_ops *ops = ig_transports.ops[_i];

#ifndef IBGAP_HAVE_RSOCKETS
	/* built without <rdma/rsocket.h>: absent, the engine says so */
	if (_i == IG_XPORT_RSOCKETS && !ops)
		return;
#endif
	ck_assert_msg(ops, "transport id %d has no ops in ig_transports", _i);
	ck_assert_msg(ops->setup && ops->stop && ops->cleanup && ops->bw_send &&
			      ops->bw_flush && ops->bw_recv && ops->lat_ping &&
			      ops->lat_pong,
		      "transport %s lacks an operation", ops->name);
}
END_TEST

START_TEST(t_every_test_has_its_transport)
{
	enum ig_xport_id x = ig_test_xport(IG_TESTS, _i);

	ck_assert_int_lt(x, IG_XPORT_COUNT);
#ifndef IBGAP_HAVE_RSOCKETS
	if (x == IG_XPORT_RSOCKETS)
		return;
#endif
	ck_assert_ptr_nonnull(ig_transports.ops[x]);
	ck_assert_str_eq(ig_transports.ops[x]->name,
			 ig_test_transport(IG_TESTS, _i));
}
END_TEST

START_TEST(t_rx_confirms)
{
	/* TCP's flush means "the kernel copied it"; an RC completion means
	 * the peer acknowledged it (docs/design.md, "Metric definitions") */
	ck_assert(ig_transports.ops[IG_XPORT_TCP]->rx_confirms);
	ck_assert(!ig_transports.ops[IG_XPORT_VERBS]->rx_confirms);
#ifdef IBGAP_HAVE_RSOCKETS
	/* rsend() returning: rsockets copied the data, the peer may not
	 * have it yet */
	ck_assert(ig_transports.ops[IG_XPORT_RSOCKETS]->rx_confirms);
#endif
}
END_TEST

/* TCP_INFO is the kernel's TCP: nothing of the kind over rsockets; the
 * device facts are verbs', under READY's member older peers read. */
START_TEST(t_counters_tcp_facts_verbs)
{
	ck_assert_ptr_nonnull(ig_transports.ops[IG_XPORT_TCP]->stream_ctrs);
	ck_assert_ptr_null(ig_transports.ops[IG_XPORT_TCP]->facts_key);
	ck_assert_str_eq(ig_transports.ops[IG_XPORT_VERBS]->facts_key, "xinfo");
#ifdef IBGAP_HAVE_RSOCKETS
	ck_assert_ptr_null(ig_transports.ops[IG_XPORT_RSOCKETS]->stream_ctrs);
#endif
	/* a snapshot holds every transport's table */
	for (unsigned int i = 0; i < IG_XPORT_COUNT; i++)
		ck_assert_uint_le(ig_transports.ops[i]->nctrs, IG_CTR_MAX);
}
END_TEST

START_TEST(t_no_test_no_transport)
{
	ck_assert_int_eq(ig_test_xport(IG_TESTS, IG_TEST_COUNT),
			 IG_XPORT_COUNT);
	ck_assert_str_eq(ig_test_transport(IG_TESTS, IG_TEST_COUNT), "unknown");
}
END_TEST

/* Each test's row, as its transport's folder declares it: the rules the
 * checks, the engine and the report read from it. */
static const struct {
	enum ig_test id;
	enum ig_xport_id xport;
	const char *name;
	enum ig_pattern pattern;
	bool lossy, one_sided, one_buffer;
	unsigned int lat_div;
	enum ig_test_wait wait;
} want[] = {
	{ IG_TEST_TCP_BW, IG_XPORT_TCP, "tcp_bw", IG_PATTERN_BW, false, false,
	  true, 2, IG_WAIT_BLOCK },
	{ IG_TEST_TCP_LAT, IG_XPORT_TCP, "tcp_lat", IG_PATTERN_LAT, false,
	  false, true, 2, IG_WAIT_BLOCK },
	{ IG_TEST_SEND_BW, IG_XPORT_VERBS, "send_bw", IG_PATTERN_BW, false,
	  false, false, 2, IG_WAIT_EVENTS },
	{ IG_TEST_WRITE_BW, IG_XPORT_VERBS, "write_bw", IG_PATTERN_BW, false,
	  true, false, 2, IG_WAIT_EVENTS },
	{ IG_TEST_SEND_LAT, IG_XPORT_VERBS, "send_lat", IG_PATTERN_LAT, false,
	  false, false, 2, IG_WAIT_EVENTS },
	{ IG_TEST_WRITE_LAT, IG_XPORT_VERBS, "write_lat", IG_PATTERN_LAT, false,
	  false, false, 2, IG_WAIT_POLL },
	{ IG_TEST_READ_BW, IG_XPORT_VERBS, "read_bw", IG_PATTERN_BW, false,
	  true, false, 2, IG_WAIT_EVENTS },
	{ IG_TEST_READ_LAT, IG_XPORT_VERBS, "read_lat", IG_PATTERN_LAT, false,
	  false, false, 1, IG_WAIT_EVENTS },
	{ IG_TEST_UD_SEND_BW, IG_XPORT_VERBS, "ud_send_bw", IG_PATTERN_BW, true,
	  false, false, 2, IG_WAIT_EVENTS },
	{ IG_TEST_UD_SEND_LAT, IG_XPORT_VERBS, "ud_send_lat", IG_PATTERN_LAT,
	  false, false, false, 2, IG_WAIT_EVENTS },
	{ IG_TEST_RS_BW, IG_XPORT_RSOCKETS, "rs_bw", IG_PATTERN_BW, false,
	  false, false, 2, IG_WAIT_BLOCK },
	{ IG_TEST_RS_LAT, IG_XPORT_RSOCKETS, "rs_lat", IG_PATTERN_LAT, false,
	  false, false, 2, IG_WAIT_BLOCK },
};

/* The assembled table is each folder's rows: tcp and rsockets from
 * src/sockets, verbs from src/verbs, also rsockets' without its ops. */
START_TEST(t_tests_from_their_folders)
{
	const struct ig_tests *tt = &ig_transports.tests;

	ck_assert_ptr_eq(tt->xp[IG_XPORT_TCP], &ig_tcp_tests);
	ck_assert_ptr_eq(tt->xp[IG_XPORT_VERBS], &ig_vb_tests);
	ck_assert_ptr_eq(tt->xp[IG_XPORT_RSOCKETS], &ig_rs_tests);
	ck_assert_uint_eq(ig_tcp_tests.n + ig_vb_tests.n + ig_rs_tests.n,
			  IG_TEST_COUNT);
}
END_TEST

/* Test _i has one row, in its transport's set, with its rules. */
START_TEST(t_test_row)
{
	const struct ig_tests *tt = &ig_transports.tests;
	const struct ig_xport_tests *xt = tt->xp[want[_i].xport];
	const struct ig_test_def *d = NULL;
	unsigned int found = 0;

	for (unsigned int x = 0; x < IG_XPORT_COUNT; x++)
		for (unsigned int j = 0; j < tt->xp[x]->n; j++)
			if (tt->xp[x]->rows[j].id == want[_i].id) {
				found++;
				d = &tt->xp[x]->rows[j];
			}
	ck_assert_uint_eq(found, 1);
	ck_assert_msg(d >= xt->rows && d < xt->rows + xt->n,
		      "%s is not among %s's tests", want[_i].name, xt->name);
	ck_assert_str_eq(d->name, want[_i].name);
	ck_assert_int_eq(d->pattern, want[_i].pattern);
	ck_assert_int_eq(d->lossy, want[_i].lossy);
	ck_assert_int_eq(d->one_sided, want[_i].one_sided);
	ck_assert_int_eq(d->one_buffer, want[_i].one_buffer);
	ck_assert_uint_eq(d->lat_div, want[_i].lat_div);
	ck_assert_int_eq(d->wait, want[_i].wait);
	ck_assert_ptr_eq(ig_test_row(tt, want[_i].id), d);
}
END_TEST

/* The lookups read the table they are handed: without the verbs line,
 * its tests are unknown to -t, to SETUP and to the checks. */
START_TEST(t_lookups_read_the_table)
{
	const struct ig_tests no_verbs = {
		.xp = { [IG_XPORT_TCP] = &ig_tcp_tests,
			[IG_XPORT_RSOCKETS] = &ig_rs_tests },
	};
	struct ig_params p;
	char err[256], names[256];

	ck_assert_int_eq(ig_test_parse(&no_verbs, "send_bw"), -EINVAL);
	ck_assert_int_eq(ig_test_parse(&no_verbs, "rs_lat"), IG_TEST_RS_LAT);
	ck_assert_int_eq(ig_test_xport(&no_verbs, IG_TEST_SEND_BW),
			 IG_XPORT_COUNT);
	ig_params_default(&p);
	p.test = IG_TEST_SEND_BW;
	ck_assert_int_eq(ig_params_check(&no_verbs, &p, err, sizeof(err)),
			 -EINVAL);
	ck_assert_str_eq(err, "test 2 is unknown: allowed 0 to 11");
	ck_assert_int_eq(ig_params_check(IG_TESTS, &p, err, sizeof(err)), 0);
	ig_test_names(IG_TESTS, names, sizeof(names));
	ck_assert_str_eq(names, "tcp_bw, tcp_lat, send_bw, write_bw, send_lat, "
				"write_lat, read_bw, read_lat, ud_send_bw, "
				"ud_send_lat, rs_bw, rs_lat");
}
END_TEST

/* The options' rows the commands list: each transport's, from its folder,
 * in registration order (verbs' eight; the socket transport's --window is
 * named by each command itself). */
START_TEST(t_option_rows_from_their_folders)
{
	static const struct ig_opt cmd[] = { IG_XPORT_OPT_ROWS };
	static const char *const names[] = { "events",	"tx-depth", "cq-mod",
					     "inline",	"outs",	    "device",
					     "ib-port", "gid-index" };
	const struct ig_opt *flat[IG_OPT_MAX_ROWS];
	size_t n = ig_opt_flatten(cmd, 1, flat, IG_OPT_MAX_ROWS);

	ck_assert_uint_eq(n, IG_VB_OPT_COUNT);
	ck_assert_uint_eq(n, sizeof(names) / sizeof(names[0]));
	for (size_t i = 0; i < n; i++) {
		ck_assert_ptr_eq(flat[i], &ig_vb_opt_rows[i]);
		ck_assert_str_eq(flat[i]->name, names[i]);
	}
	ck_assert_str_eq(IG_XPORT_WINDOW_ROW->name, "window");
}
END_TEST

/* A command's table with the transports' rows: their values land in the
 * transport's sub-structs, their range errors are the rows' own. */
START_TEST(t_option_rows_parse)
{
	static const struct ig_opt cmd[] = { IG_XPORT_OPT_ROWS,
					     { .ref = IG_XPORT_WINDOW_ROW } };
	char *argv[] = { "x",	   "--tx-depth", "64",	 "--device",
			 "mlx5_0", "--window",	 "256K", "--events" };
	char *bad[] = { "x", "--cq-mod", "0" };
	struct ig_params p;
	struct ig_local_opts l;
	struct ig_testopts o = { .tt = IG_TESTS, .p = &p, .local = &l };
	struct ig_optparse ps = { .rows = cmd, .nrows = 2 };
	char err[256];

	ig_params_default(&p);
	ig_local_opts_default(&l);
	ig_testopt_bind(&ps, &o);
	ck_assert_int_eq(ig_opt_parse(&ps, 8, argv, err, sizeof(err)), 0);
	ck_assert_uint_eq(p.verbs.tx_depth, 64);
	ck_assert_str_eq(l.verbs.device, "mlx5_0");
	ck_assert_uint_eq(p.sock.window, 256 * 1024);
	ck_assert_uint_eq(p.verbs.events, 1);
	ck_assert_int_eq(ig_opt_parse(&ps, 3, bad, err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "--cq-mod: '0' is not a send count from 1 to "
			      "8192");
}
END_TEST

static Suite *transports_suite(void)
{
	Suite *s = suite_create("transports");
	TCase *tc = tcase_create("table");

	tcase_add_loop_test(tc, t_every_id_registered, 0, IG_XPORT_COUNT);
	tcase_add_loop_test(tc, t_every_test_has_its_transport, 0,
			    IG_TEST_COUNT);
	tcase_add_test(tc, t_rx_confirms);
	tcase_add_test(tc, t_counters_tcp_facts_verbs);
	tcase_add_test(tc, t_no_test_no_transport);
	tcase_add_test(tc, t_tests_from_their_folders);
	tcase_add_loop_test(tc, t_test_row, 0, sizeof(want) / sizeof(want[0]));
	tcase_add_test(tc, t_lookups_read_the_table);
	tcase_add_test(tc, t_option_rows_from_their_folders);
	tcase_add_test(tc, t_option_rows_parse);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(transports_suite());
}
