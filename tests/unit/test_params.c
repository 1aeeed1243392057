// SPDX-License-Identifier: MIT
/*
 * Unit tests for parameter names, option-value parsing and validation.
 * Expected numbers are written out here (64K = 65536, ...) or computed from
 * the caps of params.h; every rejection must name the field and print the
 * bad value in decimal, which the test formats itself.
 */
#include <check.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/params.h"
#include "testmain.h"
#include "transports/transports.h"

#define NS 1000000000ull

struct size_case {
	const char *s;
	uint64_t v;
};

static const struct size_case good_sizes[] = {
	{ "0", 0 },
	{ "1", 1 },
	{ "64", 64 },
	{ "64K", 65536 },
	{ "64k", 65536 },
	{ "1M", 1048576 },
	{ "1m", 1048576 },
	{ "2G", 2147483648ull },
	{ "4g", 4294967296ull },
	{ "0K", 0 },
	{ "007", 7 },
	{ "18446744073709551615", 18446744073709551615ull },
	/* (2^64 - 1) >> 30 is the biggest count of G that fits */
	{ "17179869183G", 17179869183ull * 1073741824ull },
};

START_TEST(test_size_good)
{
	uint64_t v = 12345;

	ck_assert_msg(ig_parse_size(good_sizes[_i].s, &v) == 0, "'%s' refused",
		      good_sizes[_i].s);
	ck_assert_uint_eq(v, good_sizes[_i].v);
}
END_TEST

static const char *const bad_sizes[] = {
	"",
	"K",
	"-1",
	"1.5K",
	"12Q",
	"1KB",
	" 1",
	"1 ",
	"+1",
	"0x10",
	"1T",
	"k",
	"18446744073709551615G",
	"18446744073709551616",
	"17179869184G",
	"99999999999999999999",
	"18014398509481984M",
};

#define N_BAD_SIZES (sizeof(bad_sizes) / sizeof(bad_sizes[0]))

START_TEST(test_size_bad)
{
	uint64_t v = 12345;
	int ret = ig_parse_size(bad_sizes[_i], &v);

	ck_assert_msg(ret == -EINVAL || ret == -ERANGE, "'%s' gave %d",
		      bad_sizes[_i], ret);
	ck_assert_uint_eq(v, 12345);
}
END_TEST

START_TEST(test_size_range)
{
	uint64_t v;

	ck_assert_int_eq(ig_parse_size("18446744073709551616", &v), -ERANGE);
	ck_assert_int_eq(ig_parse_size("17179869184G", &v), -ERANGE);
	ck_assert_int_eq(ig_parse_size("12Q", &v), -EINVAL);
}
END_TEST

struct secs_case {
	const char *s;
	uint64_t ns;
};

static const struct secs_case good_secs[] = {
	{ "1", NS },	      { "0.5", NS / 2 },
	{ ".25", NS / 4 },    { "2.000000001", 2 * NS + 1 },
	{ "0", 0 },	      { "10", 10 * NS },
	{ "0.000001", 1000 }, { "3600", 3600 * NS },
	{ "1.", NS },
};

START_TEST(test_secs_good)
{
	uint64_t v = 12345;

	ck_assert_msg(ig_parse_seconds(good_secs[_i].s, &v) == 0,
		      "'%s' refused", good_secs[_i].s);
	ck_assert_uint_eq(v, good_secs[_i].ns);
}
END_TEST

static const char *const bad_secs[] = {
	"",   "-1", "1s",  "abc", "1e99", ".",	 " 1",
	"1 ", "+1", "inf", "nan", "-0.5", "1,5",
};

#define N_BAD_SECS (sizeof(bad_secs) / sizeof(bad_secs[0]))

START_TEST(test_secs_bad)
{
	uint64_t v = 12345;
	int ret = ig_parse_seconds(bad_secs[_i], &v);

	ck_assert_msg(ret == -EINVAL || ret == -ERANGE, "'%s' gave %d",
		      bad_secs[_i], ret);
	ck_assert_uint_eq(v, 12345);
}
END_TEST

/* "seconds, decimals allowed": hexadecimal is not a decimal number, and
 * "0x10" must not silently mean 16 seconds. */
START_TEST(test_secs_hex)
{
	uint64_t v = 12345;
	int ret = ig_parse_seconds("0x10", &v);

	ck_assert_msg(ret == -EINVAL || ret == -ERANGE,
		      "'0x10' gave %d, %" PRIu64 " ns", ret, v);
}
END_TEST

START_TEST(test_u64)
{
	static const char *const bad[] = { "",	 "-1",	 "+1", " 1", "1 ",
					   "1a", "0x10", "1K", "1.0" };
	uint64_t v = 0;

	ck_assert_int_eq(ig_parse_u64("0", &v), 0);
	ck_assert_uint_eq(v, 0);
	ck_assert_int_eq(ig_parse_u64("123", &v), 0);
	ck_assert_uint_eq(v, 123);
	ck_assert_int_eq(ig_parse_u64("18446744073709551615", &v), 0);
	ck_assert_uint_eq(v, UINT64_MAX);
	v = 7;
	ck_assert_int_eq(ig_parse_u64("18446744073709551616", &v), -ERANGE);
	ck_assert_uint_eq(v, 7);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_msg(ig_parse_u64(bad[i], &v) == -EINVAL,
			      "'%s' accepted", bad[i]);
		ck_assert_uint_eq(v, 7);
	}
}
END_TEST

static const struct {
	enum ig_test t;
	const char *name;
	const char *transport;
	enum ig_pattern pattern;
} test_table[] = {
	{ IG_TEST_TCP_BW, "tcp_bw", "tcp", IG_PATTERN_BW },
	{ IG_TEST_TCP_LAT, "tcp_lat", "tcp", IG_PATTERN_LAT },
	{ IG_TEST_SEND_BW, "send_bw", "verbs", IG_PATTERN_BW },
	{ IG_TEST_WRITE_BW, "write_bw", "verbs", IG_PATTERN_BW },
	{ IG_TEST_SEND_LAT, "send_lat", "verbs", IG_PATTERN_LAT },
	{ IG_TEST_WRITE_LAT, "write_lat", "verbs", IG_PATTERN_LAT },
	{ IG_TEST_READ_BW, "read_bw", "verbs", IG_PATTERN_BW },
	{ IG_TEST_READ_LAT, "read_lat", "verbs", IG_PATTERN_LAT },
	{ IG_TEST_UD_SEND_BW, "ud_send_bw", "verbs", IG_PATTERN_BW },
	{ IG_TEST_UD_SEND_LAT, "ud_send_lat", "verbs", IG_PATTERN_LAT },
	{ IG_TEST_RS_BW, "rs_bw", "rsockets", IG_PATTERN_BW },
	{ IG_TEST_RS_LAT, "rs_lat", "rsockets", IG_PATTERN_LAT },
};

START_TEST(test_tests)
{
	static const char *const unknown[] = {
		"foo", "", "tcp", "tcp_bw ", "tcp_bw,tcp_lat", "rdma_bw"
	};

	ck_assert_uint_eq(sizeof(test_table) / sizeof(test_table[0]),
			  IG_TEST_COUNT);
	for (size_t i = 0; i < IG_TEST_COUNT; i++) {
		ck_assert_int_eq(ig_test_parse(IG_TESTS, test_table[i].name),
				 test_table[i].t);
		ck_assert_str_eq(ig_test_name(IG_TESTS, test_table[i].t),
				 test_table[i].name);
		ck_assert_str_eq(ig_test_transport(IG_TESTS, test_table[i].t),
				 test_table[i].transport);
		ck_assert_int_eq(ig_test_pattern(IG_TESTS, test_table[i].t),
				 test_table[i].pattern);
	}
	for (size_t i = 0; i < sizeof(unknown) / sizeof(unknown[0]); i++)
		ck_assert_msg(ig_test_parse(IG_TESTS, unknown[i]) == -EINVAL,
			      "'%s' parsed", unknown[i]);
	/* out-of-range values get a name, not a crash */
	ck_assert_ptr_nonnull(ig_test_name(IG_TESTS, IG_TEST_COUNT));
	ck_assert_int_lt(ig_test_parse(IG_TESTS,
				       ig_test_name(IG_TESTS, IG_TEST_COUNT)),
			 0);
	ck_assert_ptr_nonnull(ig_test_transport(IG_TESTS, IG_TEST_COUNT));
	ck_assert_str_ne(ig_test_transport(IG_TESTS, IG_TEST_COUNT), "tcp");
	ck_assert_str_ne(ig_test_transport(IG_TESTS, IG_TEST_COUNT), "verbs");
}
END_TEST

START_TEST(test_default_ok)
{
	struct ig_params p;
	char err[256] = "";

	memset(&p, 0x5a, sizeof(p));
	ig_params_default(&p);
	ck_assert_msg(ig_params_check(IG_TESTS, &p, err, sizeof(err)) == 0,
		      "default refused: %s", err);
	ck_assert_int_eq(p.test, IG_TEST_TCP_BW);
	ck_assert_uint_eq(p.iterations, 0);
	ck_assert_uint_eq(p.duration_ns, 2 * NS);
	ck_assert_uint_eq(p.streams, 1);
	ck_assert_uint_eq(p.timeout_ms, IG_DEFAULT_TIMEOUT_MS);
	/* the default is good for every test */
	for (int t = 0; t < IG_TEST_COUNT; t++) {
		p.test = t;
		ck_assert_msg(ig_params_check(IG_TESTS, &p, err, sizeof(err)) ==
				      0,
			      "default refused for %s: %s",
			      ig_test_name(IG_TESTS, t), err);
	}
}
END_TEST

/* One bad field: a change to the defaults, the names the error may use for
 * the field, and the bad value it must print. */
struct bad_case {
	const char *what;
	void (*set)(struct ig_params *p);
	const char *names[3];
	uint64_t value;
};

static void set_size0(struct ig_params *p)
{
	p->size = 0;
}
static void set_size_big(struct ig_params *p)
{
	p->size = IG_MAX_SIZE + 1;
}
static void set_streams0(struct ig_params *p)
{
	p->streams = 0;
}
static void set_streams_big(struct ig_params *p)
{
	p->streams = IG_MAX_STREAMS + 1;
}
static void set_duration_big(struct ig_params *p)
{
	p->duration_ns = IG_MAX_DURATION_S * NS + 1;
}
static void set_iter_big(struct ig_params *p)
{
	p->duration_ns = 0;
	p->iterations = IG_MAX_ITERATIONS + 1;
}
static void set_warmup_big(struct ig_params *p)
{
	p->warmup_ns = IG_MAX_WARMUP_S * NS + 1;
}
static void set_window_big(struct ig_params *p)
{
	p->sock.window = IG_MAX_WINDOW + 1;
}
static void set_timeout50(struct ig_params *p)
{
	p->timeout_ms = 50;
}
static void set_timeout_big(struct ig_params *p)
{
	p->timeout_ms = IG_MAX_TIMEOUT_MS + 1;
}
static void set_txd0(struct ig_params *p)
{
	p->verbs.tx_depth = 0;
}
static void set_txd_big(struct ig_params *p)
{
	p->verbs.tx_depth = IG_MAX_TX_DEPTH + 1;
}
static void set_cqmod0(struct ig_params *p)
{
	p->verbs.cq_mod = 0;
}
static void set_cqmod_big(struct ig_params *p)
{
	p->verbs.tx_depth = 64;
	p->verbs.cq_mod = 65;
}
static void set_inline2000(struct ig_params *p)
{
	p->verbs.inline_size = 2000;
}
static void set_mem_verbs(struct ig_params *p)
{
	p->test = IG_TEST_SEND_BW;
	p->size = 64ull << 20;
	p->verbs.tx_depth = 128;
}
static void set_mem_tcp(struct ig_params *p)
{
	p->test = IG_TEST_TCP_BW;
	p->size = 32ull << 20;
	p->streams = 33;
}
static void set_reverse_bidir(struct ig_params *p)
{
	p->reverse = 1;
	p->bidir = 1;
}
static void set_reverse2(struct ig_params *p)
{
	p->reverse = 2;
}
static void set_reverse_lat(struct ig_params *p)
{
	p->test = IG_TEST_SEND_LAT;
	p->size = 1;
	p->reverse = 1;
}
static void set_outs256(struct ig_params *p)
{
	p->test = IG_TEST_READ_BW;
	p->verbs.outs = IG_MAX_OUTS + 1;
}
static void set_outs_huge(struct ig_params *p)
{
	p->test = IG_TEST_READ_LAT;
	p->verbs.outs = UINT32_MAX;
}
static void set_test_bad(struct ig_params *p)
{
	p->test = IG_TEST_COUNT;
}
static void set_test_99(struct ig_params *p)
{
	p->test = (enum ig_test)99;
}

static const struct bad_case bad_cases[] = {
	{ "size 0", set_size0, { "size" }, 0 },
	{ "size max+1", set_size_big, { "size" }, (64ull << 20) + 1 },
	{ "streams 0", set_streams0, { "streams" }, 0 },
	{ "streams max+1", set_streams_big, { "streams" }, 65 },
	{ "duration", set_duration_big, { "duration" }, 3600 * NS + 1 },
	{ "iterations", set_iter_big, { "iterations" }, 1000000001 },
	{ "warmup", set_warmup_big, { "warmup" }, 60 * NS + 1 },
	{ "window", set_window_big, { "window" }, (1ull << 30) + 1 },
	{ "timeout 50", set_timeout50, { "timeout" }, 50 },
	{ "timeout max+1", set_timeout_big, { "timeout" }, 3600001 },
	{ "tx_depth 0", set_txd0, { "tx-depth", "tx_depth" }, 0 },
	{ "tx_depth max+1", set_txd_big, { "tx-depth", "tx_depth" }, 8193 },
	{ "cq_mod 0", set_cqmod0, { "cq-mod", "cq_mod" }, 0 },
	{ "cq_mod > tx_depth", set_cqmod_big, { "cq-mod", "cq_mod" }, 65 },
	{ "inline 2000", set_inline2000, { "inline" }, 2000 },
	/* 64M x 128 x 1 stream */
	{ "verbs memory", set_mem_verbs, { "memory" }, 8589934592ull },
	/* 32M x 33 streams */
	{ "tcp memory", set_mem_tcp, { "memory" }, 1107296256ull },
	{ "reverse and bidir", set_reverse_bidir, { "reverse" }, 1 },
	{ "reverse 2", set_reverse2, { "reverse" }, 2 },
	/* names the test; "1" is its size */
	{ "reverse latency", set_reverse_lat, { "send_lat" }, 1 },
	{ "outs 256", set_outs256, { "outs" }, 256 },
	{ "outs max", set_outs_huge, { "outs" }, UINT32_MAX },
	{ "test past the last", set_test_bad, { "test" }, IG_TEST_COUNT },
	{ "test 99", set_test_99, { "test" }, 99 },
};

#define N_BAD_CASES (sizeof(bad_cases) / sizeof(bad_cases[0]))

static bool names_field(const char *err, const char *const names[3])
{
	for (int i = 0; i < 3 && names[i]; i++)
		if (strstr(err, names[i]))
			return true;
	return false;
}

/* The decimal v as a whole number in err, not part of a longer one. */
static bool has_number(const char *err, uint64_t v)
{
	char num[32];
	const char *s = err;
	size_t n = (size_t)snprintf(num, sizeof(num), "%" PRIu64, v);

	while ((s = strstr(s, num))) {
		bool left = s == err || s[-1] < '0' || s[-1] > '9';
		bool right = s[n] < '0' || s[n] > '9';

		if (left && right)
			return true;
		s++;
	}
	return false;
}

START_TEST(test_check_bad)
{
	const struct bad_case *c = &bad_cases[_i];
	struct ig_params p;
	char err[256] = "";

	ig_params_default(&p);
	c->set(&p);
	ck_assert_msg(ig_params_check(IG_TESTS, &p, err, sizeof(err)) ==
			      -EINVAL,
		      "%s accepted", c->what);
	ck_assert_msg(names_field(err, c->names), "%s: '%s' does not name %s",
		      c->what, err, c->names[0]);
	ck_assert_msg(has_number(err, c->value),
		      "%s: '%s' does not say %" PRIu64, c->what, err, c->value);
}
END_TEST

/* Both modes set: the error must say which values are set. */
START_TEST(test_check_both_modes)
{
	struct ig_params p;
	char err[256] = "";

	ig_params_default(&p);
	p.iterations = 1000;
	p.duration_ns = 3 * NS;
	ck_assert_int_eq(ig_params_check(IG_TESTS, &p, err, sizeof(err)),
			 -EINVAL);
	ck_assert_msg(strstr(err, "iterations") && strstr(err, "duration"),
		      "'%s' does not name both fields", err);
	ck_assert_msg(has_number(err, 1000), "'%s' does not say 1000", err);
	ck_assert_msg(has_number(err, 3 * NS) || has_number(err, 3),
		      "'%s' does not say the duration", err);
}
END_TEST

/* Neither mode set: both are 0, which "neither ... is set" says; the
 * message must still name both fields. */
START_TEST(test_check_no_mode)
{
	struct ig_params p;
	char err[256] = "";

	ig_params_default(&p);
	p.iterations = 0;
	p.duration_ns = 0;
	ck_assert_int_eq(ig_params_check(IG_TESTS, &p, err, sizeof(err)),
			 -EINVAL);
	ck_assert_msg(strstr(err, "iterations") && strstr(err, "duration"),
		      "'%s' does not name both fields", err);
}
END_TEST

/* The smallest err buffers must not be overrun (ASan) and stay strings. */
START_TEST(test_check_short_err)
{
	struct ig_params p;
	char err[8];

	ig_params_default(&p);
	p.size = 0;
	memset(err, 'x', sizeof(err));
	ck_assert_int_eq(ig_params_check(IG_TESTS, &p, err, sizeof(err)),
			 -EINVAL);
	ck_assert_uint_lt(strlen(err), sizeof(err));
}
END_TEST

struct good_case {
	const char *what;
	enum ig_test test;
	uint64_t size;
	uint32_t streams;
	uint32_t tx_depth;
	uint64_t iterations;
};

static const struct good_case good_cases[] = {
	{ "size 1", IG_TEST_TCP_BW, 1, 1, 128, 0 },
	{ "size max", IG_TEST_TCP_BW, 64ull << 20, 1, 128, 0 },
	{ "streams 1", IG_TEST_TCP_LAT, 64, 1, 128, 0 },
	{ "streams max", IG_TEST_TCP_BW, 64, 64, 128, 0 },
	{ "streams max verbs", IG_TEST_WRITE_BW, 4096, 64, 128, 0 },
	/* 16M x 64 streams = 1 GiB exactly on TCP */
	{ "tcp memory cap", IG_TEST_TCP_BW, 16ull << 20, 64, 128, 0 },
	/* 1M x 128 x 8 = 1 GiB exactly on verbs */
	{ "verbs memory cap", IG_TEST_SEND_BW, 1ull << 20, 8, 128, 0 },
	{ "tx_depth max", IG_TEST_SEND_LAT, 2, 1, 8192, 0 },
	{ "iterations max", IG_TEST_WRITE_LAT, 2, 1, 128, 1000000000 },
	{ "iterations 1", IG_TEST_TCP_LAT, 2, 1, 128, 1 },
};

#define N_GOOD_CASES (sizeof(good_cases) / sizeof(good_cases[0]))

START_TEST(test_check_good)
{
	const struct good_case *c = &good_cases[_i];
	struct ig_params p;
	char err[256] = "";

	ig_params_default(&p);
	p.test = c->test;
	p.size = c->size;
	p.streams = c->streams;
	p.verbs.tx_depth = c->tx_depth;
	if (c->iterations) {
		p.iterations = c->iterations;
		p.duration_ns = 0;
	}
	ck_assert_msg(ig_params_check(IG_TESTS, &p, err, sizeof(err)) == 0,
		      "%s refused: %s", c->what, err);
}
END_TEST

/* Other values at their caps, one at a time. */
START_TEST(test_check_caps)
{
	struct ig_params p;
	char err[256] = "";

	ig_params_default(&p);
	p.duration_ns = 3600 * NS;
	p.warmup_ns = 60 * NS;
	p.sock.window = 1ull << 30;
	p.timeout_ms = 100;
	p.verbs.cq_mod = p.verbs.tx_depth;
	p.verbs.inline_size = 0;
	ck_assert_msg(ig_params_check(IG_TESTS, &p, err, sizeof(err)) == 0,
		      "caps refused: %s", err);
	p.timeout_ms = 3600000;
	p.warmup_ns = 0;
	p.verbs.cq_mod = 1;
	ck_assert_msg(ig_params_check(IG_TESTS, &p, err, sizeof(err)) == 0,
		      "caps refused: %s", err);
	/* --outs: 0 (the devices' maximum) to IG_MAX_OUTS */
	p.test = IG_TEST_READ_BW;
	p.verbs.outs = IG_MAX_OUTS;
	ck_assert_msg(ig_params_check(IG_TESTS, &p, err, sizeof(err)) == 0,
		      "outs 255 refused: %s", err);
	p.verbs.outs = 1;
	ck_assert_msg(ig_params_check(IG_TESTS, &p, err, sizeof(err)) == 0,
		      "outs 1 refused: %s", err);
	p.verbs.outs = 0;
	/* one more byte per buffer is over the verbs cap of 1 GiB */
	p.test = IG_TEST_WRITE_BW;
	p.size = (1ull << 20) + 1;
	p.streams = 8;
	p.verbs.tx_depth = 128;
	ck_assert_int_eq(ig_params_check(IG_TESTS, &p, err, sizeof(err)),
			 -EINVAL);
	ck_assert(has_number(err, ((1ull << 20) + 1) * 128 * 8));
}
END_TEST

static Suite *params_suite(void)
{
	Suite *s = suite_create("params");
	TCase *tp = tcase_create("parse");
	TCase *tc = tcase_create("check");

	tcase_add_loop_test(tp, test_size_good, 0,
			    sizeof(good_sizes) / sizeof(good_sizes[0]));
	tcase_add_loop_test(tp, test_size_bad, 0, N_BAD_SIZES);
	tcase_add_test(tp, test_size_range);
	tcase_add_loop_test(tp, test_secs_good, 0,
			    sizeof(good_secs) / sizeof(good_secs[0]));
	tcase_add_loop_test(tp, test_secs_bad, 0, N_BAD_SECS);
	tcase_add_test(tp, test_secs_hex);
	tcase_add_test(tp, test_u64);
	tcase_add_test(tp, test_tests);
	suite_add_tcase(s, tp);
	tcase_add_test(tc, test_default_ok);
	tcase_add_loop_test(tc, test_check_bad, 0, N_BAD_CASES);
	tcase_add_test(tc, test_check_both_modes);
	tcase_add_test(tc, test_check_no_mode);
	tcase_add_test(tc, test_check_short_err);
	tcase_add_loop_test(tc, test_check_good, 0, N_GOOD_CASES);
	tcase_add_test(tc, test_check_caps);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(params_suite());
}
