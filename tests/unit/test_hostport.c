// SPDX-License-Identifier: MIT
/*
 * Unit tests for ig_hostport_split (common/hostport.h): the forms a server
 * address takes on a command line, and the ones it refuses.
 */
#include <check.h>
#include <errno.h>
#include <string.h>

#include "common/hostport.h"
#include "testmain.h"

START_TEST(test_accepted)
{
	static const struct {
		const char *in, *host, *port;
	} t[] = {
		{ "h", "h", "" },
		{ "server.example", "server.example", "" },
		{ "127.0.0.1", "127.0.0.1", "" },
		{ "127.0.0.1:18515", "127.0.0.1", "18515" },
		{ "name:1", "name", "1" },
		{ "name:65535", "name", "65535" },
		{ "name:018515", "name", "18515" },
		{ "::1", "::1", "" },
		{ "fe80::1%eth0", "fe80::1%eth0", "" },
		{ "2001:db8::7", "2001:db8::7", "" },
		{ "[::1]", "::1", "" },
		{ "[::1]:18515", "::1", "18515" },
		{ "[fe80::1%eth0]:7", "fe80::1%eth0", "7" },
	};
	struct ig_hostport hp;

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		memset(&hp, 'x', sizeof(hp));
		ck_assert_msg(ig_hostport_split(t[i].in, &hp) == 0,
			      "'%s' refused", t[i].in);
		ck_assert_str_eq(hp.host, t[i].host);
		ck_assert_str_eq(hp.port, t[i].port);
	}
}
END_TEST

START_TEST(test_refused)
{
	static const char *const bad[] = {
		"",	   "[::1",	  "[::1]x",  "[::1]:",	   "[::1]:0",
		"[::1]:x", "[::1]:65536", "[]",	     "[]:1",	   "[h]",
		"[h]:1",   "host:",	  "host:0",  "host:99999", "host:-1",
		"host: 1", "host:1x",	  ":18515",  ":",	   "h]",
		"a[b",	   "[::1]]",	  "[[::1]]", "x[::1]:1",
	};
	struct ig_hostport hp;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(ig_hostport_split(bad[i], &hp) == -EINVAL,
			      "'%s' accepted", bad[i]);
	ck_assert_int_eq(ig_hostport_split(NULL, &hp), -EINVAL);
}
END_TEST

/* The longest host that fits, and one more character. */
START_TEST(test_length)
{
	char s[IG_HOST_MAX + 8];
	struct ig_hostport hp;

	memset(s, 'a', IG_HOST_MAX - 1);
	strcpy(s + IG_HOST_MAX - 1, ":9");
	ck_assert_int_eq(ig_hostport_split(s, &hp), 0);
	ck_assert_uint_eq(strlen(hp.host), IG_HOST_MAX - 1);
	ck_assert_str_eq(hp.port, "9");
	memset(s, 'a', IG_HOST_MAX);
	strcpy(s + IG_HOST_MAX, ":9");
	ck_assert_int_eq(ig_hostport_split(s, &hp), -EINVAL);
	s[IG_HOST_MAX] = '\0';
	ck_assert_int_eq(ig_hostport_split(s, &hp), -EINVAL);
}
END_TEST

START_TEST(test_port)
{
	ck_assert_int_eq(ig_port_parse("1"), 1);
	ck_assert_int_eq(ig_port_parse("18515"), 18515);
	ck_assert_int_eq(ig_port_parse("65535"), 65535);
	ck_assert_int_eq(ig_port_parse("0"), -EINVAL);
	ck_assert_int_eq(ig_port_parse("65536"), -EINVAL);
	ck_assert_int_eq(ig_port_parse("99999999999999999999999"), -EINVAL);
	ck_assert_int_eq(ig_port_parse(""), -EINVAL);
	ck_assert_int_eq(ig_port_parse("http"), -EINVAL);
}
END_TEST

static Suite *hostport_suite(void)
{
	Suite *s = suite_create("hostport");
	TCase *tc = tcase_create("split");

	tcase_add_test(tc, test_accepted);
	tcase_add_test(tc, test_refused);
	tcase_add_test(tc, test_length);
	tcase_add_test(tc, test_port);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(hostport_suite());
}
