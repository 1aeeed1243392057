// SPDX-License-Identifier: MIT
/*
 * TCP_INFO -> JSON and back (what RESULT and the report carry), the
 * retransmissions of the measured interval, and the MSG_ZEROCOPY
 * completion bookkeeping of tcp_bw's sender.
 */
#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "common/json.h"
#include "host/tcpinfo.h"
#include "sockets/tcp_zc.h"
#include "testmain.h"
#include "wire/codec.h"

static const struct ig_tcpinfo sample = {
	.valid = true,
	.retrans_total = 41,
	.retrans = 7,
	.rtt_us = 231,
	.rttvar_us = 125,
	.snd_cwnd = 16,
	.snd_mss = 65483,
	.pmtu = 65535,
	.reordering = 3,
};

static const struct {
	const char *key;
	uint64_t want;
} keys[] = {
	{ "retrans", 7 },     { "retrans_total", 41 }, { "rtt_us", 231 },
	{ "rttvar_us", 125 }, { "snd_cwnd", 16 },      { "snd_mss", 65483 },
	{ "pmtu", 65535 },    { "reordering", 3 },
};

static bool same(const struct ig_tcpinfo *a, const struct ig_tcpinfo *b)
{
	return a->valid == b->valid && a->retrans_total == b->retrans_total &&
	       a->retrans == b->retrans && a->rtt_us == b->rtt_us &&
	       a->rttvar_us == b->rttvar_us && a->snd_cwnd == b->snd_cwnd &&
	       a->snd_mss == b->snd_mss && a->pmtu == b->pmtu &&
	       a->reordering == b->reordering;
}

START_TEST(to_json_keys)
{
	json_object *o = ig_tcpinfo_to_json(&sample);
	uint64_t v = 0;

	ck_assert_ptr_nonnull(o);
	ck_assert_int_eq(ig_json_get_u64(o, keys[_i].key, &v), 0);
	ck_assert_uint_eq(v, keys[_i].want);
	ck_assert_int_eq(json_object_object_length(o),
			 sizeof(keys) / sizeof(keys[0]));
	json_object_put(o);
}
END_TEST

START_TEST(round_trip_array)
{
	struct ig_tcpinfo in[3] = { sample, sample, sample }, out[3];
	json_object *a;

	in[1].retrans = 0;
	in[2].rtt_us = 19;
	a = ig_tcpinfo_array_to_json(in, 3);
	ck_assert_ptr_nonnull(a);
	ck_assert_int_eq(ig_tcpinfo_array_from_json(a, out, 3), 0);
	for (int i = 0; i < 3; i++) {
		ck_assert(out[i].valid);
		ck_assert(same(&out[i], &in[i]));
	}
	/* one stream more or less than the session has: refused */
	ck_assert_int_eq(ig_tcpinfo_array_from_json(a, out, 2), -EINVAL);
	ck_assert_int_eq(ig_tcpinfo_array_from_json(a, out, 4), -EINVAL);
	ck_assert_int_eq(ig_tcpinfo_array_from_json(NULL, out, 3), -EINVAL);
	json_object_put(a);
}
END_TEST

/* What a peer may send in RESULT's tcp_info: refused, struct untouched. */
static const char *const bad_json[] = {
	"[]",
	"{}",
	"{\"retrans\":1,\"retrans_total\":1,\"rtt_us\":1,\"rttvar_us\":1,"
	"\"snd_cwnd\":1,\"snd_mss\":1,\"pmtu\":1}",
	"{\"retrans\":1,\"retrans_total\":1,\"rtt_us\":4294967296,"
	"\"rttvar_us\":1,\"snd_cwnd\":1,\"snd_mss\":1,\"pmtu\":1,"
	"\"reordering\":1}",
	"{\"retrans\":-1,\"retrans_total\":1,\"rtt_us\":1,\"rttvar_us\":1,"
	"\"snd_cwnd\":1,\"snd_mss\":1,\"pmtu\":1,\"reordering\":1}",
	"{\"retrans\":\"1\",\"retrans_total\":1,\"rtt_us\":1,\"rttvar_us\":1,"
	"\"snd_cwnd\":1,\"snd_mss\":1,\"pmtu\":1,\"reordering\":1}",
	"{\"retrans\":1.5,\"retrans_total\":1,\"rtt_us\":1,\"rttvar_us\":1,"
	"\"snd_cwnd\":1,\"snd_mss\":1,\"pmtu\":1,\"reordering\":1}",
};

START_TEST(from_json_refuses)
{
	json_object *o = json_tokener_parse(bad_json[_i]);
	struct ig_tcpinfo t = sample;

	ck_assert_ptr_nonnull(o);
	ck_assert_int_eq(ig_tcpinfo_from_json(o, &t), -EINVAL);
	ck_assert(same(&t, &sample));
	json_object_put(o);
}
END_TEST

/* start total, end total, valid flags -> retrans of the interval */
static const struct {
	uint64_t t0, t1;
	bool v0, v1;
	uint64_t want;
} iv[] = {
	{ 0, 0, true, true, 0 },	   { 5, 12, true, true, 7 },
	{ 4294967290u, 3, true, true, 9 }, /* the 32-bit counter wrapped */
	{ 5, 12, false, true, 0 },	   /* no start snapshot */
	{ 5, 12, true, false, 0 },	   /* no end snapshot */
};

START_TEST(interval_retrans)
{
	struct ig_tcpinfo a = { .valid = iv[_i].v0,
				.retrans_total = iv[_i].t0 };
	struct ig_tcpinfo b = { .valid = iv[_i].v1,
				.retrans_total = iv[_i].t1,
				.retrans = 99 };

	ig_tcpinfo_interval(&b, &a);
	ck_assert_uint_eq(b.retrans, iv[_i].want);
}
END_TEST

START_TEST(retrans_sum)
{
	struct ig_tcpinfo t[3] = { { .valid = true, .retrans = 2 },
				   { .valid = false, .retrans = 50 },
				   { .valid = true, .retrans = 3 } };

	ck_assert_uint_eq(ig_tcpinfo_retrans(t, 3), 5);
	ck_assert_uint_eq(ig_tcpinfo_retrans(t, 1), 2);
}
END_TEST

START_TEST(zc_stats_interval)
{
	struct ig_zc_stats end = { 10, 8, 3, 1 }, start = { 4, 4, 1, 0 };
	struct ig_zc_stats sum = { 1, 1, 1, 1 };

	ig_zc_stats_sub(&end, &start);
	ck_assert_uint_eq(end.sends, 6);
	ck_assert_uint_eq(end.copied, 4);
	ck_assert_uint_eq(end.enobufs, 2);
	ck_assert_uint_eq(end.fallback, 1);
	ig_zc_stats_add(&sum, &end);
	ck_assert_uint_eq(sum.sends, 7);
	ck_assert_uint_eq(sum.fallback, 2);
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
	TCase *tc = tcase_create("json");

	tcase_add_loop_test(tc, to_json_keys, 0, sizeof(keys) / sizeof(*keys));
	tcase_add_test(tc, round_trip_array);
	tcase_add_loop_test(tc, from_json_refuses, 0,
			    sizeof(bad_json) / sizeof(*bad_json));
	suite_add_tcase(s, tc);
	tc = tcase_create("interval");
	tcase_add_loop_test(tc, interval_retrans, 0, sizeof(iv) / sizeof(*iv));
	tcase_add_test(tc, retrans_sum);
	tcase_add_test(tc, zc_stats_interval);
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
