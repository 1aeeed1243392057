// SPDX-License-Identifier: MIT
/*
 * Unit tests of the verbs inline threshold: what a stream asks its QP for
 * (ig_vb_inline_want, src/verbs/vb_opts.c) by default and with --inline,
 * what the client's parser makes of --inline, and the range check of
 * inline_auto that a SETUP goes through.
 */
#include <check.h>
#include <string.h>

#include "cmd/cli.h"
#include "cmd/client.h"
#include "common/params.h"
#include "testmain.h"
#include "transports/transports.h"
#include "verbs/verbs_int.h"

/* Not given: perftest's figure for the latency tests that send, 0 for
 * the others (reads cannot be inline, bandwidth tests post chains). */
START_TEST(test_want_default)
{
	struct ig_verbs_params v = { .inline_size = 0, .inline_auto = 1 };

	ck_assert_uint_eq(ig_vb_inline_want(IG_TEST_SEND_LAT, &v), 236);
	ck_assert_uint_eq(ig_vb_inline_want(IG_TEST_UD_SEND_LAT, &v), 188);
	ck_assert_uint_eq(ig_vb_inline_want(IG_TEST_WRITE_LAT, &v), 220);
	ck_assert_uint_eq(ig_vb_inline_want(IG_TEST_READ_LAT, &v), 0);
	ck_assert_uint_eq(ig_vb_inline_want(IG_TEST_SEND_BW, &v), 0);
	ck_assert_uint_eq(ig_vb_inline_want(IG_TEST_WRITE_BW, &v), 0);
	ck_assert_uint_eq(ig_vb_inline_want(IG_TEST_UD_SEND_BW, &v), 0);
}
END_TEST

/* Given: that figure for every test, 0 included. */
START_TEST(test_want_given)
{
	struct ig_verbs_params v = { .inline_size = 0, .inline_auto = 0 };

	ck_assert_uint_eq(ig_vb_inline_want(IG_TEST_SEND_LAT, &v), 0);
	ck_assert_uint_eq(ig_vb_inline_want(IG_TEST_WRITE_LAT, &v), 0);
	v.inline_size = 64;
	ck_assert_uint_eq(ig_vb_inline_want(IG_TEST_SEND_LAT, &v), 64);
	ck_assert_uint_eq(ig_vb_inline_want(IG_TEST_SEND_BW, &v), 64);
	ck_assert_uint_eq(ig_vb_inline_want(IG_TEST_UD_SEND_LAT, &v), 64);
}
END_TEST

#define WORDS(...) ((const char *const[]){ __VA_ARGS__, NULL })

static int parse(const char *const *w, struct ig_client_opts *o)
{
	char buf[8][32], *argv[9] = { 0 }, err[256] = "";
	int argc = 0;

	for (; w[argc]; argc++) {
		ck_assert_int_lt(argc, 8);
		strcpy(buf[argc], w[argc]);
		argv[argc] = buf[argc];
	}
	return ig_cli_client(argc, argv, o, err, sizeof(err));
}

/* --inline 0 is a choice (no inline even for latency), not the default */
START_TEST(test_cli_inline)
{
	struct ig_client_opts o;

	ck_assert_int_eq(parse(WORDS("client", "h"), &o), 0);
	ck_assert_uint_eq(o.p.verbs.inline_auto, 1);
	ck_assert_uint_eq(ig_vb_inline_want(IG_TEST_SEND_LAT, &o.p.verbs), 236);
	ck_assert_int_eq(parse(WORDS("client", "--inline", "0", "h"), &o), 0);
	ck_assert_uint_eq(o.p.verbs.inline_auto, 0);
	ck_assert_uint_eq(ig_vb_inline_want(IG_TEST_SEND_LAT, &o.p.verbs), 0);
	ck_assert_int_eq(parse(WORDS("client", "--inline", "1K", "h"), &o), 0);
	ck_assert_uint_eq(o.p.verbs.inline_auto, 0);
	ck_assert_uint_eq(o.p.verbs.inline_size, 1024);
	ck_assert_int_ne(parse(WORDS("client", "--inline", "1025", "h"), &o),
			 0);
}
END_TEST

/* A SETUP's inline_auto is 0 or 1; the error names the field. */
START_TEST(test_auto_range)
{
	struct ig_params p;
	char err[256] = "";

	ig_params_default(&p);
	p.test = IG_TEST_SEND_LAT;
	p.size = 2;
	ck_assert_int_eq(ig_params_check(IG_TESTS, &p, err, sizeof(err)), 0);
	p.verbs.inline_auto = 2;
	ck_assert_int_ne(ig_params_check(IG_TESTS, &p, err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, "inline_auto"), "%s", err);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("inline");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_want_default);
	tcase_add_test(tc, test_want_given);
	tcase_add_test(tc, test_cli_inline);
	tcase_add_test(tc, test_auto_range);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
