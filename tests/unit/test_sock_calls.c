// SPDX-License-Identifier: MIT
/*
 * Unit tests of the socket transport's call tables (src/sockets/
 * sock_calls.h): every call set in each table, the name its tests
 * report, and what tells the two apart (timeouts, kernel TCP features).
 */
#include <check.h>
#include <string.h>

#include "sockets/sock_calls.h"
#include "testmain.h"

static void check_complete(const struct ig_sock_calls *c)
{
	ck_assert_ptr_nonnull(c->name);
	ck_assert_msg(c->socket && c->bind && c->listen && c->accept &&
			      c->connect && c->send && c->recv &&
			      c->setsockopt && c->getsockopt &&
			      c->getsockname && c->poll && c->fcntl &&
			      c->shutdown && c->close,
		      "socket call table %s lacks a call", c->name);
}

START_TEST(t_kernel_complete)
{
	check_complete(&ig_sock_kernel);
	ck_assert_str_eq(ig_sock_kernel.name, "tcp");
	/* SO_RCVTIMEO bounds its blocking calls; TCP_INFO, MSG_ZEROCOPY */
	ck_assert(ig_sock_kernel.timeo);
	ck_assert(ig_sock_kernel.kernel_tcp);
	ck_assert(!ig_sock_kernel.spin);
	ck_assert(ig_sock_kernel.shutdown_wakes);
}
END_TEST

#ifdef IBGAP_HAVE_RSOCKETS
START_TEST(t_rs_complete)
{
	check_complete(&ig_sock_rs);
	ck_assert_str_eq(ig_sock_rs.name, "rsockets");
	/* rsetsockopt has no SO_RCVTIMEO: non-blocking with rpoll */
	ck_assert(!ig_sock_rs.timeo);
	ck_assert(!ig_sock_rs.kernel_tcp);
	/* an rpoll() whose timeout expires breaks later ones: only 0 */
	ck_assert(ig_sock_rs.spin);
	/* rshutdown() can wait for ever on a dead peer */
	ck_assert(!ig_sock_rs.shutdown_wakes);
	ck_assert_ptr_nonnull(ig_sock_rs.hint);
}
END_TEST

/* One table per call set: no rsockets entry is a libc call. */
START_TEST(t_rs_not_kernel)
{
	const void *const *k = (const void *const *)&ig_sock_kernel.socket;
	const void *const *r = (const void *const *)&ig_sock_rs.socket;
	size_t n =
		(sizeof(ig_sock_rs) - offsetof(struct ig_sock_calls, socket)) /
		sizeof(void *);

	for (size_t i = 0; i < n; i++)
		ck_assert_msg(k[i] != r[i], "call %zu is the same in both", i);
}
END_TEST
#endif

static Suite *sock_calls_suite(void)
{
	Suite *s = suite_create("sock_calls");
	TCase *tc = tcase_create("tables");

	tcase_add_test(tc, t_kernel_complete);
#ifdef IBGAP_HAVE_RSOCKETS
	tcase_add_test(tc, t_rs_complete);
	tcase_add_test(tc, t_rs_not_kernel);
#endif
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(sock_calls_suite());
}
