// SPDX-License-Identifier: MIT
/*
 * Unit tests of UD send's pure parts: the size check against the path MTU
 * (src/verbs/vb_ud.c), the delivered and lost arithmetic of a lossy
 * result and its pooling (src/engine/result.c), and the JSON keys.
 */
#include <check.h>
#include <errno.h>
#include <string.h>

#include <json-c/json.h>

#include "common/params.h"
#include "engine/result.h"
#include "report/report.h"
#include "verbs/verbs_int.h"
#include "testmain.h"
#include "transports/transports.h"

START_TEST(test_size_check)
{
	char err[200] = "";

	ck_assert_int_eq(
		ig_vb_ud_size_check(1, 1024, "rxe0", 1, err, sizeof(err)), 0);
	ck_assert_int_eq(ig_vb_ud_size_check(1024, 1024, "rxe0", 1, err,
					     sizeof(err)),
			 0);
	ck_assert_str_eq(err, "");
	ck_assert_int_eq(ig_vb_ud_size_check(1025, 1024, "rxe0", 1, err,
					     sizeof(err)),
			 -EINVAL);
	ck_assert_str_eq(err, "-s 1025 is more than the path MTU (1024 bytes "
			      "on rxe0 port 1): a UD message is one packet; "
			      "allowed 1 to 1024");
	ck_assert_int_eq(ig_vb_ud_size_check(8192, 4096, "mlx5_0", 2, err,
					     sizeof(err)),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "-s 8192 is more than the path MTU "
					  "(4096 bytes on mlx5_0 port 2)"));
}
END_TEST

/* Without -s, ud_send_bw's size is 0 until set-up makes it the path
 * MTU; no other test takes 0. */
START_TEST(test_size_zero)
{
	struct ig_params p;
	char err[200];

	ig_params_default(&p);
	p.size = 0;
	ig_params_set_test(IG_TESTS, &p, IG_TEST_UD_SEND_BW);
	ck_assert_int_eq(ig_params_check(IG_TESTS, &p, err, sizeof(err)), 0);
	ig_params_set_test(IG_TESTS, &p, IG_TEST_SEND_BW);
	ck_assert_int_eq(ig_params_check(IG_TESTS, &p, err, sizeof(err)),
			 -EINVAL);
	ck_assert_str_eq(err, "size 0 is out of range: allowed 1 to 67108864");
	ig_params_set_test(IG_TESTS, &p, IG_TEST_UD_SEND_LAT);
	ck_assert_int_eq(ig_params_check(IG_TESTS, &p, err, sizeof(err)),
			 -EINVAL);
}
END_TEST

START_TEST(test_no_bidir)
{
	struct ig_params p;

	ig_params_default(&p);
	p.bidir = 1;
	ig_params_set_test(IG_TESTS, &p, IG_TEST_UD_SEND_BW);
	ck_assert_int_eq(p.bidir, 0);
	p.bidir = 1;
	ig_params_set_test(IG_TESTS, &p, IG_TEST_SEND_BW);
	ck_assert_int_eq(p.bidir, 1);
}
END_TEST

/* A sender's result: n messages of size bytes in 2 s, the receiver got
 * got of them. */
static void make_sent(struct ig_result *r, uint64_t n, uint64_t got,
		      uint64_t size)
{
	memset(r, 0, sizeof(*r));
	r->params.test = IG_TEST_UD_SEND_BW;
	r->params.size = size;
	r->params.streams = 1;
	r->test = "ud_send_bw";
	r->transport = "verbs";
	r->iterations = n;
	r->bytes = n * size;
	r->seconds = 2;
	r->bw_gbps = (double)r->bytes * 8 / 2 / 1e9;
	r->msg_rate = (double)n / 2;
	r->has_rx_bytes = true;
	r->rx_bytes = got * size;
}

START_TEST(test_delivered)
{
	struct ig_result r;

	make_sent(&r, 1000, 900, 1024);
	ig_result_delivered(&r, 1024);
	ck_assert(r.lossy);
	ck_assert_uint_eq(r.sent, 1000);
	ck_assert_uint_eq(r.iterations, 900);
	ck_assert_uint_eq(r.lost, 100);
	ck_assert_uint_eq(r.sent, r.iterations + r.lost);
	ck_assert_uint_eq(r.bytes, 900 * 1024);
	ck_assert_double_eq_tol(r.loss_rate, 0.1, 1e-12);
	ck_assert_double_eq_tol(r.bw_gbps, 900.0 * 1024 * 8 / 2 / 1e9, 1e-12);
	ck_assert_double_eq_tol(r.msg_rate, 450, 1e-9);

	make_sent(&r, 1000, 1000, 64);
	ig_result_delivered(&r, 64);
	ck_assert_uint_eq(r.lost, 0);
	ck_assert_double_eq(r.loss_rate, 0);
	ck_assert_uint_eq(r.iterations, 1000);

	make_sent(&r, 10, 0, 64); /* all lost */
	ig_result_delivered(&r, 64);
	ck_assert_uint_eq(r.lost, 10);
	ck_assert_double_eq(r.loss_rate, 1);
	ck_assert_double_eq(r.bw_gbps, 0);

	make_sent(&r, 0, 0, 64); /* nothing sent: no division by zero */
	ig_result_delivered(&r, 64);
	ck_assert_uint_eq(r.lost, 0);
	ck_assert_double_eq(r.loss_rate, 0);
}
END_TEST

START_TEST(test_pool)
{
	struct ig_result acc, r;

	make_sent(&acc, 1000, 900, 1024);
	ig_result_delivered(&acc, 1024);
	make_sent(&r, 1000, 1000, 1024);
	ig_result_delivered(&r, 1024);
	ig_result_pool(&acc, &r);
	ig_result_pool_end(&acc, 2);
	ck_assert_uint_eq(acc.sent, 2000);
	ck_assert_uint_eq(acc.lost, 100);
	ck_assert_uint_eq(acc.iterations, 1900);
	ck_assert_double_eq_tol(acc.loss_rate, 0.05, 1e-12);
	ck_assert_double_eq_tol(acc.msg_rate, 1900.0 / 4, 1e-9);
}
END_TEST

static json_object *key(json_object *o, const char *k)
{
	json_object *v = NULL;

	ck_assert_msg(json_object_object_get_ex(o, k, &v), "key %s missing", k);
	return v;
}

START_TEST(test_json)
{
	struct ig_result r;
	json_object *o;

	make_sent(&r, 1000, 750, 512);
	ig_result_delivered(&r, 512);
	o = ig_result_to_json(&r);
	ck_assert_ptr_nonnull(o);
	ck_assert_int_eq(json_object_get_int64(key(o, "sent")), 1000);
	ck_assert_int_eq(json_object_get_int64(key(o, "lost")), 250);
	ck_assert_int_eq(json_object_get_int64(key(o, "iterations")), 750);
	ck_assert_int_eq(json_object_get_int64(key(o, "rx_bytes")), 750 * 512);
	ck_assert_int_eq(json_object_get_int64(key(o, "bytes")), 750 * 512);
	ck_assert_double_eq_tol(json_object_get_double(key(o, "loss_rate")),
				0.25, 1e-12);
	json_object_put(o);

	make_sent(&r, 1000, 750, 512); /* not lossy: no such keys */
	o = ig_result_to_json(&r);
	ck_assert(!json_object_object_get_ex(o, "sent", NULL));
	ck_assert(!json_object_object_get_ex(o, "lost", NULL));
	ck_assert(!json_object_object_get_ex(o, "loss_rate", NULL));
	json_object_put(o);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("ud");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_size_check);
	tcase_add_test(tc, test_size_zero);
	tcase_add_test(tc, test_no_bidir);
	tcase_add_test(tc, test_delivered);
	tcase_add_test(tc, test_pool);
	tcase_add_test(tc, test_json);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
