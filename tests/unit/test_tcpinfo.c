// SPDX-License-Identifier: MIT
/*
 * The TCP transport's table of counters (what RESULT and the report
 * carry under tcp_info and zerocopy_stats), and the MSG_ZEROCOPY
 * completion bookkeeping of tcp_bw's sender.
 */
#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "common/counters.h"
#include "sockets/tcp.h"
#include "sockets/tcp_zc.h"
#include "testmain.h"

/* The TCP transport's table keeps the members tcp_info always had, in
 * their order, so the report's and RESULT's tcp_info stay the same. */
static const char *const keys[] = {
	"retrans",  "retrans_total", "rtt_us", "rttvar_us",
	"snd_cwnd", "snd_mss",	     "pmtu",   "reordering",
};

START_TEST(table_keys)
{
	const struct ig_xport_ops *o = &ig_tcp_ops;
	unsigned int k = 0;

	ck_assert_uint_le(o->nctrs, IG_CTR_MAX);
	for (unsigned int i = 0; i < o->nctrs; i++) {
		if (strcmp(o->ctrs[i].group, "tcp_info"))
			continue;
		ck_assert_uint_lt(k, sizeof(keys) / sizeof(keys[0]));
		ck_assert_str_eq(o->ctrs[i].name, keys[k]);
		ck_assert_uint_eq(o->ctrs[i].bits, 32);
		k++;
	}
	ck_assert_uint_eq(k, sizeof(keys) / sizeof(keys[0]));
}
END_TEST

/* retrans is the interval's (a counter that adds up over repeats), the
 * rest are the values at the end; zerocopy's four are counters summed. */
START_TEST(table_rules)
{
	struct ig_ctrs c;

	ig_ctrs_init(&c, ig_tcp_ops.ctrs, ig_tcp_ops.nctrs, 1);
	for (unsigned int i = 0; i < c.n; i++) {
		bool counter = !strcmp(c.def[i].name, "retrans") ||
			       !strcmp(c.def[i].group, "zerocopy");

		ck_assert_msg(c.def[i].rule ==
				      (counter ? IG_CTR_COUNTER : IG_CTR_GAUGE),
			      "%s", c.def[i].name);
		ck_assert_msg(c.def[i].pool ==
				      (counter ? IG_POOL_SUM : IG_POOL_LAST),
			      "%s", c.def[i].name);
	}
	ck_assert_int_ge(ig_ctrs_find(&c, "zerocopy", "fallback"), 0);
}
END_TEST

/* ---- MSG_ZEROCOPY bookkeeping ---------------------------------------- */

static const struct {
	uint64_t size;
	unsigned int nbuf;
} nbufs
	[] = {
		{ 1, 64 },	   { 65536, 64 },   { 1 << 20, 16 },
		{ 3 << 20, 4 },	   { 16 << 20, 1 }, { 64ull << 20, 1 },
		{ 300 << 10, 32 }, /* 54 fit: the power of two below */
	};

START_TEST(zc_nbuf)
{
	ck_assert_uint_eq(ig_zc_nbuf(nbufs[_i].size), nbufs[_i].nbuf);
}
END_TEST

/*
 * A script: start at number `base` (to cross the 32-bit wrap), make
 * `sends` sends, deliver completions [lo, hi] relative to base, checking
 * what each returns and the outstanding count after it.
 */
#define MAXSTEP 4
static const struct {
	const char *what;
	uint32_t base;
	unsigned int nbuf, sends;
	struct {
		uint32_t lo, hi;
		int ret;
		uint32_t outstanding;
	} step[MAXSTEP];
	unsigned int nstep;
} zc_cases[] = {
	{ "in order, one by one",
	  0,
	  4,
	  3,
	  { { 0, 0, 1, 2 }, { 1, 1, 1, 1 }, { 2, 2, 1, 0 } },
	  3 },
	{ "merged range", 0, 4, 4, { { 0, 3, 4, 0 } }, 1 },
	{ "out of order: the hole holds the tail",
	  0,
	  4,
	  4,
	  { { 2, 3, 2, 4 }, { 1, 1, 1, 4 }, { 0, 0, 1, 0 } },
	  3 },
	{ "a duplicate counts once",
	  0,
	  4,
	  3,
	  { { 1, 1, 1, 3 }, { 0, 1, 1, 1 } },
	  2 },
	{ "beyond the sends made",
	  0,
	  4,
	  2,
	  { { 0, 2, -ERANGE, 2 }, { 2, 2, -ERANGE, 2 } },
	  2 },
	{ "backwards range", 0, 4, 3, { { 2, 1, -ERANGE, 3 } }, 1 },
	{ "below the tail (completed already)",
	  0,
	  4,
	  3,
	  { { 0, 0, 1, 2 }, { 0, 0, -ERANGE, 2 } },
	  2 },
	{ "across the 32-bit wrap",
	  4294967294u,
	  4,
	  4,
	  { { 0, 1, 2, 2 }, { 2, 3, 2, 0 } },
	  2 },
};

START_TEST(zc_ranges)
{
	struct ig_zc z;

	ig_zc_init(&z, zc_cases[_i].nbuf);
	z.next = z.tail = zc_cases[_i].base;
	for (unsigned int k = 0; k < zc_cases[_i].sends; k++) {
		ck_assert(ig_zc_can_send(&z));
		ig_zc_sent(&z);
	}
	for (unsigned int k = 0; k < zc_cases[_i].nstep; k++) {
		uint32_t b = zc_cases[_i].base;

		ck_assert_msg(ig_zc_complete(&z, b + zc_cases[_i].step[k].lo,
					     b + zc_cases[_i].step[k].hi) ==
				      zc_cases[_i].step[k].ret,
			      "%s: step %u", zc_cases[_i].what, k);
		ck_assert_msg(ig_zc_outstanding(&z) ==
				      zc_cases[_i].step[k].outstanding,
			      "%s: step %u: %u outstanding", zc_cases[_i].what,
			      k, ig_zc_outstanding(&z));
	}
}
END_TEST

/* A buffer is never handed over while an earlier send on it is
 * outstanding: with 4 buffers the fifth send waits for the first. */
START_TEST(zc_buffer_reuse)
{
	struct ig_zc z;
	bool busy[4] = { false };

	ig_zc_init(&z, 4);
	z.next = z.tail = 4294967293u; /* wrap on the way */
	for (int k = 0; k < 4; k++) {
		ck_assert(ig_zc_can_send(&z));
		ck_assert(!busy[ig_zc_slot(&z)]);
		busy[ig_zc_slot(&z)] = true;
		ig_zc_sent(&z);
	}
	ck_assert(!ig_zc_can_send(&z));
	ck_assert_int_eq(ig_zc_complete(&z, 4294967294u, 4294967294u), 1);
	ck_assert(!ig_zc_can_send(&z)); /* the first is still out */
	ck_assert_int_eq(ig_zc_complete(&z, 4294967293u, 4294967293u), 1);
	ck_assert(ig_zc_can_send(&z));
	ck_assert_uint_eq(ig_zc_outstanding(&z), 2);
	/* the next send reuses the first send's buffer, now complete */
	ck_assert_uint_eq(ig_zc_slot(&z), 4294967293u % 4);
}
END_TEST

static Suite *tcpinfo_suite(void)
{
	Suite *s = suite_create("tcpinfo");
	TCase *tc = tcase_create("table");

	tcase_add_test(tc, table_keys);
	tcase_add_test(tc, table_rules);
	suite_add_tcase(s, tc);
	tc = tcase_create("zerocopy");
	tcase_add_loop_test(tc, zc_nbuf, 0, sizeof(nbufs) / sizeof(*nbufs));
	tcase_add_loop_test(tc, zc_ranges, 0,
			    sizeof(zc_cases) / sizeof(*zc_cases));
	tcase_add_test(tc, zc_buffer_reuse);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(tcpinfo_suite());
}
