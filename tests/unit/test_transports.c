// SPDX-License-Identifier: MIT
/*
 * Unit tests of the transports' table (src/transports): every transport
 * id has its ops, with every operation the engine calls, under the name
 * the tests of that id report, and every test's transport is registered.
 */
#include <check.h>
#include <string.h>

#include "common/params.h"
#include "transports/transports.h"
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
	enum ig_xport_id x = ig_test_xport(_i);

	ck_assert_int_lt(x, IG_XPORT_COUNT);
#ifndef IBGAP_HAVE_RSOCKETS
	if (x == IG_XPORT_RSOCKETS)
		return;
#endif
	ck_assert_ptr_nonnull(ig_transports.ops[x]);
	ck_assert_str_eq(ig_transports.ops[x]->name, ig_test_transport(_i));
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
	ck_assert_int_eq(ig_test_xport(IG_TEST_COUNT), IG_XPORT_COUNT);
	ck_assert_str_eq(ig_test_transport(IG_TEST_COUNT), "unknown");
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
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(transports_suite());
}
