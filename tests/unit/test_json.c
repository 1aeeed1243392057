// SPDX-License-Identifier: MIT
/* Unit tests of common/json.c: the getters' types and ranges, what they
 * leave alone on error, and the setters' NULL and NaN handling. */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "common/json.h"
#include "testmain.h"

static json_object *doc(void)
{
	json_object *o = json_tokener_parse(
		"{\"u\": 42, \"neg\": -1, \"big\": 18446744073709551615,"
		" \"d\": 2.5, \"s\": \"hello\", \"n\": null, \"a\": [1, 2],"
		" \"i32\": 2147483648}");

	ck_assert_ptr_nonnull(o);
	return o;
}

START_TEST(t_get_u64)
{
	json_object *o = doc();
	uint64_t v = 7;

	ck_assert_int_eq(ig_json_get_u64(o, "u", &v), 0);
	ck_assert_uint_eq(v, 42);
	ck_assert_int_eq(ig_json_get_u64(o, "big", &v), 0);
	ck_assert_uint_eq(v, UINT64_MAX);
	v = 7;
	ck_assert_int_eq(ig_json_get_u64(o, "neg", &v), -EINVAL);
	ck_assert_int_eq(ig_json_get_u64(o, "d", &v), -EINVAL);
	ck_assert_int_eq(ig_json_get_u64(o, "s", &v), -EINVAL);
	ck_assert_int_eq(ig_json_get_u64(o, "absent", &v), -EINVAL);
	ck_assert_uint_eq(v, 7);
	json_object_put(o);
}
END_TEST

START_TEST(t_get_int_double)
{
	json_object *o = doc();
	int i = 3;
	double d = 0;

	ck_assert_int_eq(ig_json_get_int(o, "neg", &i), 0);
	ck_assert_int_eq(i, -1);
	ck_assert_int_eq(ig_json_get_int(o, "i32", &i), -EINVAL);
	ck_assert_int_eq(ig_json_get_int(o, "d", &i), -EINVAL);
	ck_assert_int_eq(i, -1);
	ck_assert_int_eq(ig_json_get_double(o, "d", &d), 0);
	ck_assert(d == 2.5);
	ck_assert_int_eq(ig_json_get_double(o, "u", &d), 0);
	ck_assert(d == 42.0);
	ck_assert_int_eq(ig_json_get_double(o, "s", &d), -EINVAL);
	ck_assert_int_eq(ig_json_get_double(o, "n", &d), -EINVAL);
	json_object_put(o);
}
END_TEST

START_TEST(t_strings)
{
	json_object *o = doc();
	const char *s = NULL;
	char buf[4] = "xyz";

	ck_assert_int_eq(ig_json_get_str(o, "s", &s), 0);
	ck_assert_str_eq(s, "hello");
	ck_assert_int_eq(ig_json_get_str(o, "u", &s), -EINVAL);
	ck_assert_int_eq(ig_json_copy_str(o, "s", buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "hel"); /* truncated, terminated */
	ck_assert_int_eq(ig_json_copy_str(o, "n", buf, sizeof(buf)), -EINVAL);
	ck_assert_str_eq(buf, "hel");
	ck_assert_int_eq(ig_json_copy_str_opt(o, "n", buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "");
	strcpy(buf, "xyz");
	ck_assert_int_eq(ig_json_copy_str_opt(o, "absent", buf, sizeof(buf)),
			 0);
	ck_assert_str_eq(buf, "");
	ck_assert_int_eq(ig_json_copy_str_opt(o, "u", buf, sizeof(buf)),
			 -EINVAL);
	json_object_put(o);
}
END_TEST

START_TEST(t_array)
{
	json_object *o = doc();

	ck_assert_ptr_nonnull(ig_json_get_array(o, "a"));
	ck_assert_int_eq(json_object_array_length(ig_json_get_array(o, "a")),
			 2);
	ck_assert_ptr_null(ig_json_get_array(o, "s"));
	ck_assert_ptr_null(ig_json_get_array(o, "absent"));
	json_object_put(o);
}
END_TEST

START_TEST(t_setters)
{
	json_object *o = json_object_new_object();
	double d = 0;

	ck_assert_int_eq(ig_json_add(o, "x", NULL), -ENOMEM);
	ck_assert(!json_object_object_get_ex(o, "x", NULL));
	ck_assert_int_eq(ig_json_add_double(o, "nan", NAN), 0);
	ck_assert_int_eq(ig_json_add_double(o, "inf", INFINITY), 0);
	ck_assert_str_eq(json_object_to_json_string_ext(o,
							JSON_C_TO_STRING_PLAIN),
			 "{\"nan\":null,\"inf\":null}");
	ck_assert_int_eq(ig_json_add_double(o, "d", 0.1), 0);
	ck_assert_int_eq(ig_json_get_double(o, "d", &d), 0);
	ck_assert(d == 0.1);
	json_object_put(o);
}
END_TEST

static Suite *json_suite(void)
{
	Suite *s = suite_create("json");
	TCase *tc = tcase_create("json");

	tcase_add_test(tc, t_get_u64);
	tcase_add_test(tc, t_get_int_double);
	tcase_add_test(tc, t_strings);
	tcase_add_test(tc, t_array);
	tcase_add_test(tc, t_setters);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(json_suite());
}
