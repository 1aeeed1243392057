// SPDX-License-Identifier: MIT
/*
 * Unit tests of the verbs inline threshold: what a stream asks its QP for
 * (ig_vb_inline_want, src/verbs/vb_opts.c) by default and with --inline,
 * and the range check of inline_auto that a SETUP goes through (what the
 * client's parser makes of --inline: test_cli.c).
 */
#include <check.h>
#include <string.h>

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
	tcase_add_test(tc, test_auto_range);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
