// SPDX-License-Identifier: MIT
/*
 * Unit tests for host/cpusync.c: the check that a counter is ordered
 * across the CPUs a thread may run on, with fake counters (one time for
 * both sides, the second side's counter set back or ahead) on real pinned
 * threads, and with the real counter.
 */
#include <check.h>
#include <errno.h>
#include <sched.h>
#include <stdatomic.h>
#include <string.h>

#include "common/clock.h"
#include "host/cpusync.h"
#include "testmain.h"

struct fake {
	_Atomic uint64_t t; /* one time, a tick a read */
	int64_t off[2];	    /* each side's counter = t + off */
};

static uint64_t fake_read(void *ctx, int side)
{
	struct fake *f = ctx;

	return atomic_fetch_add(&f->t, 1) + (uint64_t)f->off[side];
}

static uint64_t real_read(void *ctx, int side)
{
	(void)ctx;
	(void)side;
	return ig_cycles();
}

static unsigned int cpus_allowed(void)
{
	cpu_set_t set;

	ck_assert_int_eq(sched_getaffinity(0, sizeof(set), &set), 0);
	return (unsigned int)CPU_COUNT(&set);
}

/* A fake counter whose sides differ by off (side 1 - side 0). */
static int check_fake(int64_t off, char *why, size_t len, unsigned int *n)
{
	struct fake f = { .off = { 0, off } };

	atomic_init(&f.t, 1000000000ull);
	return ig_sync_check(fake_read, &f, n, why, len);
}

START_TEST(t_fake_ordered)
{
	char why[160];
	unsigned int n;
	int ret = check_fake(0, why, sizeof(why), &n);

	/* a busy machine may keep a pinned side from running in time */
	ck_assert_msg(ret == 0 || ret == -ETIMEDOUT, "%d: %s", ret, why);
	if (!ret) {
		ck_assert_uint_eq(n, cpus_allowed());
		ck_assert_str_eq(why, "");
	}
}
END_TEST

/* Either side behind the other by 5000 ticks is a warp, named. */
START_TEST(t_fake_warp)
{
	static const int64_t offs[] = { -5000, 5000 };
	char why[160];
	unsigned int n;
	int ret;

	if (cpus_allowed() < 2)
		return; /* one CPU: no pair to check (t_one_cpu) */
	ret = check_fake(offs[_i], why, sizeof(why), &n);
	if (ret == -ETIMEDOUT)
		return;
	ck_assert_msg(ret == -EAGAIN, "offset %lld: %d (%s)",
		      (long long)offs[_i], ret, why);
	ck_assert_msg(strstr(why, "ticks behind CPU"), "%s", why);
	ck_assert(!strchr(why, '\n'));
}
END_TEST

/* Pinned to one CPU: nothing to compare, ordered, 1 CPU. */
START_TEST(t_one_cpu)
{
	cpu_set_t set, one;
	char why[160];
	unsigned int n;
	int cpu;

	ck_assert_int_eq(sched_getaffinity(0, sizeof(set), &set), 0);
	for (cpu = 0; !CPU_ISSET(cpu, &set); cpu++)
		;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	ck_assert_int_eq(sched_setaffinity(0, sizeof(one), &one), 0);
	ck_assert_int_eq(check_fake(-5000, why, sizeof(why), &n), 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(sched_setaffinity(0, sizeof(set), &set), 0);
}
END_TEST

/* This machine's counter is never seen going back between its CPUs. */
START_TEST(t_real)
{
	char why[160];
	unsigned int n;
	int ret = ig_sync_check(real_read, NULL, &n, why, sizeof(why));

	ck_assert_msg(ret != -EAGAIN, "%s", why);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("cpusync");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, t_fake_ordered);
	tcase_add_loop_test(tc, t_fake_warp, 0, 2);
	tcase_add_test(tc, t_one_cpu);
	tcase_add_test(tc, t_real);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(suite());
}
