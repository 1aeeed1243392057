// SPDX-License-Identifier: MIT
/*
 * Unit tests of ig_sock_poll() (src/sockets/tcp_stream.c) on a fake call
 * table: a spinning table (rsockets') is polled with timeout 0 in batches
 * of 256 between two reads of the clock, so a wait that times out has
 * polled a whole number of batches; readiness, EINTR and errors end a
 * batch at once; a table that does not spin gets the time left.
 */
#include <check.h>
#include <errno.h>
#include <poll.h>

#include "common/clock.h"
#include "sockets/tcp_int.h"
#include "testmain.h"

#define BATCH 256

/* the fake poll's script: its answer on call number `ready_at` (1-based),
 * an EINTR on call `eintr_at`, 0 otherwise; `timeouts` sums what it got */
struct script {
	unsigned long calls;
	unsigned long ready_at;
	unsigned long eintr_at;
	int err;
	long timeouts;
};

static struct script sc_now;

static int fake_poll(struct pollfd *pfd, nfds_t n, int timeout)
{
	(void)n;
	sc_now.calls++;
	sc_now.timeouts += timeout;
	if (sc_now.err) {
		errno = sc_now.err;
		return -1;
	}
	if (sc_now.calls == sc_now.eintr_at) {
		errno = EINTR;
		return -1;
	}
	if (sc_now.ready_at && sc_now.calls >= sc_now.ready_at) {
		pfd[0].revents = POLLIN;
		return 1;
	}
	return 0;
}

static struct ig_sock_calls table(bool spin)
{
	return (struct ig_sock_calls){ .name = "fake",
				       .spin = spin,
				       .poll = fake_poll };
}

static uint64_t in_ms(unsigned int ms)
{
	return ig_now_ns() + (uint64_t)ms * IG_NSEC_PER_MSEC;
}

START_TEST(t_ready_after_batches)
{
	struct ig_sock_calls c = table(true);
	struct pollfd pfd = { .fd = 3, .events = POLLIN };

	sc_now = (struct script){ .ready_at = 2 * BATCH + 88 };
	ck_assert_int_eq(ig_sock_poll(&c, &pfd, 1, in_ms(10000)), 1);
	ck_assert_uint_eq(sc_now.calls, 2 * BATCH + 88);
	ck_assert_int_eq(sc_now.timeouts, 0); /* spinning: never blocks */
}
END_TEST

START_TEST(t_timeout_whole_batches)
{
	struct ig_sock_calls c = table(true);
	struct pollfd pfd = { .fd = 3, .events = POLLIN };

	sc_now = (struct script){ 0 };
	ck_assert_int_eq(ig_sock_poll(&c, &pfd, 1, in_ms(5)), -ETIMEDOUT);
	ck_assert_uint_gt(sc_now.calls, 0);
	/* the clock is read between batches only */
	ck_assert_uint_eq(sc_now.calls % BATCH, 0);
}
END_TEST

START_TEST(t_eintr_goes_on)
{
	struct ig_sock_calls c = table(true);
	struct pollfd pfd = { .fd = 3, .events = POLLIN };

	sc_now = (struct script){ .eintr_at = 7, .ready_at = 300 };
	ck_assert_int_eq(ig_sock_poll(&c, &pfd, 1, in_ms(10000)), 1);
	ck_assert_uint_eq(sc_now.calls, 300);
}
END_TEST

START_TEST(t_error_ends)
{
	struct ig_sock_calls c = table(true);
	struct pollfd pfd = { .fd = 3, .events = POLLIN };

	sc_now = (struct script){ .err = EBADF };
	ck_assert_int_eq(ig_sock_poll(&c, &pfd, 1, in_ms(10000)), -EBADF);
	ck_assert_uint_eq(sc_now.calls, 1);
}
END_TEST

START_TEST(t_blocking_gets_time_left)
{
	struct ig_sock_calls c = table(false);
	struct pollfd pfd = { .fd = 3, .events = POLLIN };

	sc_now = (struct script){ .ready_at = 1 };
	ck_assert_int_eq(ig_sock_poll(&c, &pfd, 1, in_ms(10000)), 1);
	ck_assert_uint_eq(sc_now.calls, 1);
	ck_assert_int_gt(sc_now.timeouts, 5000);
	ck_assert_int_le(sc_now.timeouts, 10001);
}
END_TEST

static Suite *sock_poll_suite(void)
{
	Suite *s = suite_create("sock_poll");
	TCase *tc = tcase_create("poll");

	tcase_add_test(tc, t_ready_after_batches);
	tcase_add_test(tc, t_timeout_whole_batches);
	tcase_add_test(tc, t_eintr_goes_on);
	tcase_add_test(tc, t_error_ends);
	tcase_add_test(tc, t_blocking_gets_time_left);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(sock_poll_suite());
}
