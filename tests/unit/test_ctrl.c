// SPDX-License-Identifier: MIT
/*
 * Unit tests of the control connection's error line (src/wire/ctrl.c):
 * the first failure wins and is written whole, also when the session's
 * threads fail at once (a worker's stall and the control's timeout: a
 * Release build under load once printed half of each, "fake stream
 * 0:client within 1000 ms (raise --timeout if the peer is slow)").  The
 * race is narrow: against the old check-then-write, 5 of 6 runs of
 * t_two_threads_one_line failed here (1 to 10 of 50,000 lines torn).
 */
#include <check.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "testmain.h"
#include "wire/ctrl.h"

#define LINE 51
/* 1e200 in full: 201 digits, worked out before the first is written,
 * which holds the old check-then-write race open for microseconds */
#define BIG 1e200L
#define BIG_DIGITS 201
#define ROUNDS 50000

/* Two racers and the test meet at `go`, both fail on c at once, all
 * three meet at `done`; ROUNDS times. */
struct race {
	struct ig_ctrl c;
	pthread_barrier_t go, done;
};

struct racer {
	struct race *r;
	char ch;
};

static void *fail_at_once(void *arg)
{
	struct racer *me = arg;
	char line[LINE];

	memset(line, me->ch, sizeof(line) - 1);
	line[LINE - 1] = 0;
	for (int i = 0; i < ROUNDS; i++) {
		pthread_barrier_wait(&me->r->go);
		ig_ctrl_fail(&me->r->c, EIO, "%.0Lf%s", BIG, line);
		pthread_barrier_wait(&me->r->done);
	}
	return NULL;
}

/* err holds one racer's line, whole: BIG's digits, then LINE - 1 of one
 * letter */
static bool whole(const char *err)
{
	char digits[BIG_DIGITS + 1];
	const char *tail = err + BIG_DIGITS;

	snprintf(digits, sizeof(digits), "%.0Lf", BIG);
	if (strlen(err) != BIG_DIGITS + LINE - 1 ||
	    strncmp(err, digits, BIG_DIGITS) ||
	    (tail[0] != 'a' && tail[0] != 'b'))
		return false;
	return strspn(tail, tail[0] == 'a' ? "a" : "b") == LINE - 1;
}

START_TEST(t_first_wins)
{
	struct ig_ctrl c;

	memset(&c, 0, sizeof(c));
	ck_assert_int_eq(ig_ctrl_fail(&c, EIO, "first %d", 1), -EIO);
	ck_assert_int_eq(ig_ctrl_fail(&c, EPIPE, "second"), -EPIPE);
	ck_assert_str_eq(c.err, "first 1");
}
END_TEST

START_TEST(t_two_threads_one_line)
{
	static struct race r;
	struct racer who[2] = { { &r, 'a' }, { &r, 'b' } };
	unsigned int torn = 0;
	pthread_t t[2];

	pthread_barrier_init(&r.go, NULL, 3);
	pthread_barrier_init(&r.done, NULL, 3);
	for (int k = 0; k < 2; k++)
		ck_assert_int_eq(
			pthread_create(&t[k], NULL, fail_at_once, &who[k]), 0);
	for (int i = 0; i < ROUNDS; i++) {
		memset(&r.c, 0, sizeof(r.c));
		pthread_barrier_wait(&r.go);
		pthread_barrier_wait(&r.done);
		torn += !whole(r.c.err);
	}
	for (int k = 0; k < 2; k++)
		pthread_join(t[k], NULL);
	pthread_barrier_destroy(&r.go);
	pthread_barrier_destroy(&r.done);
	ck_assert_msg(!torn, "%u of %d lines torn by two failures at once",
		      torn, ROUNDS);
}
END_TEST

static Suite *ctrl_suite(void)
{
	Suite *s = suite_create("ctrl");
	TCase *tc = tcase_create("fail");

	tcase_add_test(tc, t_first_wins);
	tcase_add_test(tc, t_two_threads_one_line);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(ctrl_suite());
}
