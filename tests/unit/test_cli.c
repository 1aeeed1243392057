// SPDX-License-Identifier: MIT
/*
 * Unit tests for the "ibgap client" / "ibgap server" argument parsers.
 * argv arrays are writable copies (getopt may permute them); expected
 * values are written out here (64K = 65536, 2.5 s = 2500 ms, ...), and
 * every rejection must return -EINVAL with an error that quotes the bad
 * value.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cli.h"
#include "cmd/client.h"
#include "testmain.h"
#include "transports/transports.h"
#include "verbs/verbs_int.h"

#define NS 1000000000ull
#define MAX_ARGS 40

struct args {
	char buf[MAX_ARGS][96];
	char *argv[MAX_ARGS + 1];
	int argc;
};

/* Writable copy of a NULL-terminated list of words. */
static void mkargs(struct args *a, const char *const *w)
{
	memset(a, 0, sizeof(*a));
	for (a->argc = 0; w[a->argc]; a->argc++) {
		ck_assert_int_lt(a->argc, MAX_ARGS);
		ck_assert_uint_lt(strlen(w[a->argc]), sizeof(a->buf[0]));
		strcpy(a->buf[a->argc], w[a->argc]);
		a->argv[a->argc] = a->buf[a->argc];
	}
	a->argv[a->argc] = NULL;
}

#define WORDS(...) ((const char *const[]){ __VA_ARGS__, NULL })

static int client(struct args *a, const char *const *w,
		  struct ig_client_opts *o, char *err, size_t errlen)
{
	mkargs(a, w);
	err[0] = '\0';
	return ig_cli_client(a->argc, a->argv, o, err, errlen);
}

static int server(struct args *a, const char *const *w,
		  struct ig_server_opts *o, char *err, size_t errlen)
{
	mkargs(a, w);
	err[0] = '\0';
	return ig_cli_server(a->argc, a->argv, o, err, errlen);
}

static bool is_word_char(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	       (c >= 'A' && c <= 'Z') || c == '_' || c == '.';
}

/* tok occurs in s, not as part of a longer word or number. */
static bool has_token(const char *s, const char *tok)
{
	size_t n = strlen(tok);
	const char *p = s;

	while ((p = strstr(p, tok))) {
		if ((p == s || !is_word_char(p[-1])) && !is_word_char(p[n]))
			return true;
		p++;
	}
	return false;
}

/* o's plan as the run layer sees it (ig_client_run_opts). */
static unsigned int plan_count(const struct ig_client_opts *o)
{
	struct ig_run_opts r;

	ig_client_run_opts(o, &r);
	return ig_run_count(&r);
}

static void plan_params(const struct ig_client_opts *o, unsigned int k,
			struct ig_params *p)
{
	struct ig_run_opts r;

	ig_client_run_opts(o, &r);
	ig_run_params(&r, k, p);
}

static void plan_fail(const struct ig_client_opts *o, struct ig_result *res,
		      const char *why)
{
	struct ig_run_opts r;

	ig_client_run_opts(o, &r);
	ig_run_fail(&r, res, 0, why);
}

START_TEST(test_client_defaults)
{
	struct ig_client_opts o;
	struct args a;
	char err[256];

	ck_assert_int_eq(
		client(&a, WORDS("client", "host"), &o, err, sizeof(err)), 0);
	ck_assert_str_eq(o.host, "host");
	ck_assert(!o.port || !strcmp(o.port, "18515"));
	ck_assert_uint_eq(o.ntests, 2);
	ck_assert_int_eq(o.tests[0], IG_TEST_TCP_BW);
	ck_assert_int_eq(o.tests[1], IG_TEST_TCP_LAT);
	ck_assert(!o.size_given);
	ck_assert_int_eq(o.format, IG_FMT_TEXT);
	ck_assert_ptr_null(o.outfile);
	ck_assert_uint_eq(o.p.duration_ns, 2 * NS);
	ck_assert_uint_eq(o.p.iterations, 0);
	/* the defaults "ibgap client --help" states */
	ck_assert_uint_eq(o.p.size, 65536);
	ck_assert_uint_eq(o.p.warmup_ns, NS / 2);
	ck_assert_uint_eq(o.p.streams, 1);
	ck_assert_uint_eq(o.p.timeout_ms, 10000);
	ck_assert_uint_eq(o.p.verbs.tx_depth, 128);
	ck_assert_uint_eq(o.p.verbs.cq_mod, 16);
	ck_assert_uint_eq(o.p.verbs.inline_size, 0);
	ck_assert_uint_eq(o.p.verbs.inline_auto, 1); /* per test */
	ck_assert_uint_eq(o.p.sock.window, 0);
	ck_assert_ptr_null(o.auth_file);
}
END_TEST

/* --auth-file is taken as given: the file is read by the run, not here */
START_TEST(test_auth_file)
{
	struct ig_client_opts o;
	struct ig_server_opts so;
	struct args a;
	char err[256];
	int ret;

	ret = client(&a, WORDS("client", "h", "--auth-file", "/etc/k"), &o, err,
		     sizeof(err));
	ck_assert_msg(ret == 0, "refused: %s", err);
	ck_assert_str_eq(o.auth_file, "/etc/k");
	ck_assert_str_eq(o.host, "h");
	ret = client(&a, WORDS("client", "--auth-file=k", "h"), &o, err,
		     sizeof(err));
	ck_assert_msg(ret == 0, "refused: %s", err);
	ck_assert_str_eq(o.auth_file, "k");
	ret = client(&a, WORDS("client", "h", "--auth-file"), &o, err,
		     sizeof(err));
	ck_assert_int_eq(ret, -EINVAL);
	ck_assert_msg(strstr(err, "--auth-file"), "err: %s", err);
	ret = server(&a, WORDS("server", "--auth-file", "/etc/k", "--once"),
		     &so, err, sizeof(err));
	ck_assert_msg(ret == 0, "refused: %s", err);
	ck_assert_str_eq(so.auth_file, "/etc/k");
	ck_assert(so.once);
	ret = server(&a, WORDS("server", "--auth-file"), &so, err, sizeof(err));
	ck_assert_int_eq(ret, -EINVAL);
	ck_assert_msg(strstr(err, "--auth-file"), "err: %s", err);
}
END_TEST

START_TEST(test_client_short_opts)
{
	struct ig_client_opts o;
	struct args a;
	char err[256];
	int ret;

	ret = client(&a,
		     WORDS("client", "-p", "1234", "-t",
			   "send_bw,write_lat,tcp_bw", "-s", "1M", "-D", "5.5",
			   "--warmup", "0.25", "-P", "4", "--window", "4M",
			   "--format", "json", "-o", "out.json", "--timeout",
			   "2.5", "--tx-depth", "256", "--cq-mod", "32",
			   "--inline", "64", "10.0.0.1"),
		     &o, err, sizeof(err));
	ck_assert_msg(ret == 0, "refused: %s", err);
	ck_assert_str_eq(o.host, "10.0.0.1");
	ck_assert_str_eq(o.port, "1234");
	ck_assert_uint_eq(o.ntests, 3);
	ck_assert_int_eq(o.tests[0], IG_TEST_SEND_BW);
	ck_assert_int_eq(o.tests[1], IG_TEST_WRITE_LAT);
	ck_assert_int_eq(o.tests[2], IG_TEST_TCP_BW);
	ck_assert(o.size_given);
	ck_assert_uint_eq(o.p.size, 1048576);
	ck_assert_uint_eq(o.p.duration_ns, 5500000000ull);
	ck_assert_uint_eq(o.p.iterations, 0);
	ck_assert_uint_eq(o.p.warmup_ns, 250000000);
	ck_assert_uint_eq(o.p.streams, 4);
	ck_assert_uint_eq(o.p.sock.window, 4194304);
	ck_assert_int_eq(o.format, IG_FMT_JSON);
	ck_assert_str_eq(o.outfile, "out.json");
	ck_assert_uint_eq(o.p.timeout_ms, 2500);
	ck_assert_uint_eq(o.p.verbs.tx_depth, 256);
	ck_assert_uint_eq(o.p.verbs.cq_mod, 32);
	ck_assert_uint_eq(o.p.verbs.inline_size, 64);
	ck_assert_uint_eq(o.p.verbs.inline_auto, 0); /* as given */
	ck_assert_uint_eq(o.p.reverse, 0);
}
END_TEST

/* --outs: reads in flight for the read tests, 0 (the default) the
 * devices' maximum, 255 the most rdma_cm carries. */
START_TEST(test_client_outs)
{
	struct ig_client_opts o;
	struct args a;
	char err[256];

	ck_assert_int_eq(client(&a, WORDS("client", "-t", "read_bw", "h"), &o,
				err, sizeof(err)),
			 0);
	ck_assert_uint_eq(o.p.verbs.outs, 0);
	ck_assert_int_eq(client(&a,
				WORDS("client", "-t", "read_bw,read_lat",
				      "--outs", "16", "h"),
				&o, err, sizeof(err)),
			 0);
	ck_assert_uint_eq(o.p.verbs.outs, 16);
	ck_assert_int_eq(o.tests[0], IG_TEST_READ_BW);
	ck_assert_int_eq(o.tests[1], IG_TEST_READ_LAT);
	ck_assert_int_eq(client(&a, WORDS("client", "--outs", "255", "h"), &o,
				err, sizeof(err)),
			 0);
	ck_assert_uint_eq(o.p.verbs.outs, 255);
	ck_assert_int_eq(client(&a, WORDS("client", "--outs", "0", "h"), &o,
				err, sizeof(err)),
			 0);
	ck_assert_uint_eq(o.p.verbs.outs, 0);
}
END_TEST

/* --inline 0 is a choice (no inline even for latency), not the default
 * (ig_vb_inline_want: tests/unit/test_inline.c) */
START_TEST(test_client_inline)
{
	struct ig_client_opts o;
	struct args a;
	char err[256];

	ck_assert_int_eq(client(&a, WORDS("client", "h"), &o, err, sizeof(err)),
			 0);
	ck_assert_uint_eq(o.p.verbs.inline_auto, 1);
	ck_assert_uint_eq(ig_vb_inline_want(IG_TEST_SEND_LAT, &o.p.verbs), 236);
	ck_assert_int_eq(client(&a, WORDS("client", "--inline", "0", "h"), &o,
				err, sizeof(err)),
			 0);
	ck_assert_uint_eq(o.p.verbs.inline_auto, 0);
	ck_assert_uint_eq(ig_vb_inline_want(IG_TEST_SEND_LAT, &o.p.verbs), 0);
	ck_assert_int_eq(client(&a, WORDS("client", "--inline", "1K", "h"), &o,
				err, sizeof(err)),
			 0);
	ck_assert_uint_eq(o.p.verbs.inline_auto, 0);
	ck_assert_uint_eq(o.p.verbs.inline_size, 1024);
	ck_assert_int_ne(client(&a, WORDS("client", "--inline", "1025", "h"),
				&o, err, sizeof(err)),
			 0);
}
END_TEST

/* -R sets reverse and keeps a list with a latency test in it: the latency
 * tests then run as always (client_run clears it per test). */
START_TEST(test_client_reverse)
{
	struct ig_client_opts o;
	struct args a;
	char err[256];

	ck_assert_int_eq(
		client(&a, WORDS("client", "-R", "-t", "tcp_lat,tcp_bw", "h"),
		       &o, err, sizeof(err)),
		0);
	ck_assert_uint_eq(o.p.reverse, 1);
	ck_assert_uint_eq(o.p.bidir, 0);
	ck_assert_int_eq(client(&a, WORDS("client", "--reverse", "h"), &o, err,
				sizeof(err)),
			 0);
	ck_assert_uint_eq(o.p.reverse, 1);
}
END_TEST

/* --also ADDR: the column's name; with -t it needs a tcp test. */
START_TEST(test_client_also)
{
	struct ig_client_opts o;
	struct args a;
	char err[256];

	ck_assert_int_eq(client(&a, WORDS("client", "h"), &o, err, sizeof(err)),
			 0);
	ck_assert_ptr_null(o.also);
	ck_assert_int_eq(client(&a, WORDS("client", "--also", "127.0.0.2", "h"),
				&o, err, sizeof(err)),
			 0);
	ck_assert_str_eq(o.also, "127.0.0.2");
	ck_assert_str_eq(o.also_label, "tcp@127.0.0.2");
	ck_assert_int_eq(client(&a,
				WORDS("client", "-t", "write_bw,tcp_lat",
				      "--also", "fe80::1:2:3:4", "h"),
				&o, err, sizeof(err)),
			 0);
	ck_assert_str_eq(o.also_label, "tcp@fe80::1:2:3:4");
	ck_assert_int_eq(client(&a,
				WORDS("client", "--also",
				      "ffff:ffff:ffff:ffff:ffff:ffff:255.255."
				      "255.255",
				      "h"),
				&o, err, sizeof(err)),
			 0);
	ck_assert_str_eq(o.also_label, "tcp@ffff:ffff:ffff:ffff:ffff:ffff:"
				       "255.255.255.255");
}
END_TEST

/* --rails: alone, =LIST, LIST as the next word, or before HOST alone. */
START_TEST(test_client_rails)
{
	struct ig_client_opts o;
	struct args a;
	char err[256];

	ck_assert_int_eq(client(&a, WORDS("client", "h", "--rails"), &o, err,
				sizeof(err)),
			 0);
	ck_assert(o.rails);
	ck_assert_ptr_null(o.rails_list);
	ck_assert_int_eq(o.rails_mode, IG_RAILS_EACH);
	ck_assert_str_eq(o.host, "h");
	ck_assert_int_eq(client(&a,
				WORDS("client", "--rails", "rxe0,rxe1", "h",
				      "--rails-mode", "together"),
				&o, err, sizeof(err)),
			 0);
	ck_assert_str_eq(o.rails_list, "rxe0,rxe1");
	ck_assert_str_eq(o.host, "h");
	ck_assert_int_eq(o.rails_mode, IG_RAILS_TOGETHER);
	ck_assert_int_eq(client(&a, WORDS("client", "--rails", "h"), &o, err,
				sizeof(err)),
			 0);
	ck_assert_ptr_null(o.rails_list);
	ck_assert_str_eq(o.host, "h");
	ck_assert_int_eq(client(&a, WORDS("client", "--rails=all", "h"), &o,
				err, sizeof(err)),
			 0);
	ck_assert_ptr_null(o.rails_list);
	ck_assert_int_eq(client(&a, WORDS("client", "h"), &o, err, sizeof(err)),
			 0);
	ck_assert(!o.rails);
	ck_assert_uint_eq(o.nrails_cpu, 0);
	ck_assert_int_eq(
		client(&a,
		       WORDS("client", "h", "--rails", "--rails-cpu", "0,0"),
		       &o, err, sizeof(err)),
		0);
	ck_assert_uint_eq(o.nrails_cpu, 2);
	ck_assert_int_eq(o.rails_cpu[0], 0);
	ck_assert_int_eq(o.rails_cpu[1], 0);
}
END_TEST

START_TEST(test_client_long_opts)
{
	struct ig_client_opts o;
	struct args a;
	char err[256];
	int ret;

	ret = client(&a,
		     WORDS("client", "--port", "9", "--tests",
			   "send_lat,write_bw,tcp_lat,send_bw,write_lat,"
			   "tcp_bw",
			   "--size", "64k", "--iterations", "1000", "--streams",
			   "64", "--format", "csv", "--output", "r.csv",
			   "--timeout", "0.1", "host.example"),
		     &o, err, sizeof(err));
	ck_assert_msg(ret == 0, "refused: %s", err);
	ck_assert_str_eq(o.host, "host.example");
	ck_assert_str_eq(o.port, "9");
	ck_assert_uint_eq(o.ntests, 6);
	ck_assert_int_eq(o.tests[0], IG_TEST_SEND_LAT);
	ck_assert_int_eq(o.tests[1], IG_TEST_WRITE_BW);
	ck_assert_int_eq(o.tests[2], IG_TEST_TCP_LAT);
	ck_assert_int_eq(o.tests[3], IG_TEST_SEND_BW);
	ck_assert_int_eq(o.tests[4], IG_TEST_WRITE_LAT);
	ck_assert_int_eq(o.tests[5], IG_TEST_TCP_BW);
	ck_assert(o.size_given);
	ck_assert_uint_eq(o.p.size, 65536);
	ck_assert_uint_eq(o.p.iterations, 1000);
	ck_assert_uint_eq(o.p.duration_ns, 0);
	ck_assert_uint_eq(o.p.streams, 64);
	ck_assert_int_eq(o.format, IG_FMT_CSV);
	ck_assert_str_eq(o.outfile, "r.csv");
	ck_assert_uint_eq(o.p.timeout_ms, 100);
}
END_TEST

/* -n switches to iteration mode: the default duration goes away; an
 * explicit -D with it is refused. */
START_TEST(test_client_iterations)
{
	struct ig_client_opts o;
	struct args a;
	char err[256];

	ck_assert_int_eq(client(&a, WORDS("client", "-n", "5", "h"), &o, err,
				sizeof(err)),
			 0);
	ck_assert_uint_eq(o.p.iterations, 5);
	ck_assert_uint_eq(o.p.duration_ns, 0);
	/* -n and -D: one of them would do nothing */
	ck_assert_int_eq(client(&a, WORDS("client", "-D", "3", "-n", "77", "h"),
				&o, err, sizeof(err)),
			 -EINVAL);
	ck_assert_int_eq(client(&a, WORDS("client", "-n", "1000000000", "h"),
				&o, err, sizeof(err)),
			 0);
	ck_assert_uint_eq(o.p.iterations, 1000000000);
}
END_TEST

/* The options an option acts with, given: accepted. */
START_TEST(test_client_used)
{
	struct ig_client_opts o;
	struct args a;
	char err[256];

	ck_assert_int_eq(client(&a,
				WORDS("client", "--events", "--device", "rxe0",
				      "-t", "tcp_bw,write_bw", "h"),
				&o, err, sizeof(err)),
			 0);
	ck_assert_int_eq(client(&a,
				WORDS("client", "--tolerance", "10",
				      "--baseline", "b.json", "h"),
				&o, err, sizeof(err)),
			 0);
	ck_assert(o.tolerance == 10);
	/* without -t: the tests are chosen at run time */
	ck_assert_int_eq(client(&a, WORDS("client", "--events", "h"), &o, err,
				sizeof(err)),
			 0);
	ck_assert_int_eq(
		client(&a,
		       WORDS("client", "--bidir", "-t", "tcp_lat,tcp_bw", "h"),
		       &o, err, sizeof(err)),
		0);
}
END_TEST

START_TEST(test_client_help)
{
	struct ig_client_opts o;
	struct args a;
	char err[256];

	ck_assert_int_eq(
		client(&a, WORDS("client", "--help"), &o, err, sizeof(err)), 1);
	ck_assert_int_eq(
		client(&a, WORDS("client", "-h"), &o, err, sizeof(err)), 1);
	ck_assert_int_eq(client(&a, WORDS("client", "-s", "1K", "--help"), &o,
				err, sizeof(err)),
			 1);
}
END_TEST

/* Parsing again starts from scratch: nothing leaks from the last call. */
START_TEST(test_client_repeat)
{
	struct ig_client_opts o;
	struct args a;
	char err[256];

	for (int i = 0; i < 3; i++) {
		ck_assert_int_eq(client(&a,
					WORDS("client", "-s", "4K", "-P", "2",
					      "-t", "tcp_lat", "a"),
					&o, err, sizeof(err)),
				 0);
		ck_assert_uint_eq(o.p.size, 4096);
		ck_assert_uint_eq(o.p.streams, 2);
		ck_assert_uint_eq(o.ntests, 1);
		ck_assert_int_eq(client(&a, WORDS("client", "-s", "12Q", "b"),
					&o, err, sizeof(err)),
				 -EINVAL);
		ck_assert_int_eq(client(&a, WORDS("client", "b"), &o, err,
					sizeof(err)),
				 0);
		ck_assert_str_eq(o.host, "b");
		ck_assert(!o.size_given);
		ck_assert_uint_eq(o.p.size, 65536);
		ck_assert_uint_eq(o.p.streams, 1);
		ck_assert_uint_eq(o.ntests, 2);
	}
}
END_TEST

struct err_case {
	const char *argv[10];
	const char *needle; /* the bad value, as a word of err */
	const char *also;   /* another word err must hold, or NULL */
};

static const struct err_case client_errs[] = {
	{ { "client", "-s", "12Q", "h" }, "12Q", "-s" },
	{ { "client", "-t", "foo", "h" }, "foo", "-t" },
	{ { "client", "-t", "", "h" }, "-t", NULL },
	{ { "client", "-t", ",", "h" }, ",", "-t" },
	{ { "client", "-t", "tcp_bw,nope", "h" }, "nope", "-t" },
	{ { "client", "-p", "0", "h" }, "0", "-p" },
	{ { "client", "-p", "70000", "h" }, "70000", "-p" },
	{ { "client", "-p", "abc", "h" }, "abc", "-p" },
	{ { "client", "-D", "abc", "h" }, "abc", "-D" },
	{ { "client", "-n", "0", "h" }, "0", "-n" },
	{ { "client", "-n", "-5", "h" }, "-5", "-n" },
	{ { "client", "-P", "0", "h" }, "0", "-P" },
	{ { "client", "-P", "100", "h" }, "100", "-P" },
	{ { "client", "-P", "4294967296", "h" }, "4294967296", "-P" },
	{ { "client", "--format", "xml", "h" }, "xml", "--format" },
	{ { "client", "--timeout", "0.01", "h" }, "0.01", "--timeout" },
	{ { "client", "--timeout", "3601", "h" }, "3601", "--timeout" },
	{ { "client", "--window", "2G", "h" }, "2G", "--window" },
	{ { "client", "--inline", "2000", "h" }, "2000", "inline" },
	{ { "client", "--cq-mod", "200", "h" }, "200", "cq-mod" },
	{ { "client", "--outs", "256", "h" }, "256", "--outs" },
	{ { "client", "--outs", "x", "h" }, "x", "--outs" },
	{ { "client", "--outs", "-1", "h" }, "-1", "--outs" },
	{ { "client", "--outs", "4294967296", "h" }, "4294967296", "--outs" },
	{ { "client", "-n", "1000000001", "h" }, "1000000001", NULL },
	{ { "client" }, "HOST", NULL },
	{ { "client", "-s", "1K" }, "HOST", NULL },
	{ { "client", "--bogus", "h" }, "--bogus", NULL },
	{ { "client", "-x", "h" }, "-x", NULL },
	{ { "client", "-P", "2", "-s" }, "-s", NULL },
	{ { "client", "--format" }, "--format", NULL },
	/* -P and --window lists: the bad value, and the list it came from */
	{ { "client", "-P", "0,2", "h" }, "0", "0,2" },
	{ { "client", "-P", "1,65", "h" }, "65", "1,65" },
	{ { "client", "-P", "2,x", "h" }, "x", "2,x" },
	{ { "client", "-P", "2,4,2", "h" }, "2", "2,4,2" },
	{ { "client", "-P", ",", "h" }, ",", "-P" },
	{ { "client", "-P", "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17", "h" },
	  "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17",
	  "16" },
	{ { "client", "--window", "1K,x", "h" }, "x", "1K,x" },
	{ { "client", "--window", "1K,2G", "h" }, "2G", "1K,2G" },
	{ { "client", "--window", "1K,0", "h" }, "0", "1K,0" },
	{ { "client", "--window", "default,1K,default", "h" },
	  "default",
	  "default,1K,default" },
	{ { "client", "--window", "64K,65536", "h" }, "65536", "64K,65536" },
	/* the product: 27 sizes x 4 x 3 = 324 > 256 */
	{ { "client", "-s", "1:64M", "-P", "1,2,4,8", "--window", "1K,2K,4K",
	    "h" },
	  "324",
	  "256" },
	/* each number of streams against the buffer cap: 64M x 32 = 2G */
	{ { "client", "-s", "64M", "-P", "1,32", "h" }, "2147483648", NULL },
	{ { "client", "-R", "--bidir", "h" }, "-R", "--bidir" },
	{ { "client", "--bidir", "--reverse", "h" }, "-R", "--bidir" },
	{ { "client", "-R", "-t", "send_lat,tcp_lat", "h" },
	  "send_lat,tcp_lat",
	  "-R" },
	/* --also: a numeric address, and a tcp test to run against it */
	{ { "client", "--also", "eth-host", "h" }, "eth-host", "--also" },
	{ { "client", "--also", "127.0.0.300", "h" }, "127.0.0.300", "--also" },
	{ { "client", "--also", "", "h" }, "--also", NULL },
	{ { "client", "--also", "::1::2", "h" }, "::1::2", "--also" },
	{ { "client", "--also", "127.0.0.2", "-t", "write_bw", "h" },
	  "127.0.0.2",
	  "--also" },
	{ { "client", "h", "--also" }, "--also", NULL },
	/* --rails: not with what picks one device, nor with a format
	 * without a place for the rail */
	{ { "client", "--rails", "--device", "rxe0", "h" },
	  "--device",
	  "--rails" },
	{ { "client", "--rails=rxe0", "--ib-port", "1", "h" },
	  "--ib-port",
	  "--rails" },
	{ { "client", "--rails", "--also", "127.0.0.2", "h" },
	  "--also",
	  "--rails" },
	{ { "client", "--rails", "--format", "csv", "h" }, "csv", "--rails" },
	{ { "client", "--rails-mode", "together", "h" },
	  "--rails-mode",
	  "--rails" },
	{ { "client", "--rails", "--rails-mode", "both", "h" },
	  "both",
	  "--rails-mode" },
	{ { "client", "--rails=", "h" }, "--rails", NULL },
	{ { "client", "--rails-cpu", "0", "h" }, "--rails-cpu", "--rails" },
	{ { "client", "--rails", "--rails-cpu", "0,x", "h" },
	  "0,x",
	  "--rails-cpu" },
	{ { "client", "--rails", "--rails-cpu", "0,", "h" },
	  "0,",
	  "--rails-cpu" },
	{ { "client", "--rails", "--rails-cpu", "100000", "h" },
	  "100000",
	  "allowed" },
	{ { "client", "--rails", "--rails-cpu", "0", "--cpu", "0", "h" },
	  "--rails-cpu",
	  "--cpu" },
	/* which is wrong, and how to write it */
	{ { "client", "--cpu", "1023", "h" }, "1023", "allowed" },
	{ { "client", "--reverse=1", "h" }, "--reverse=1", "alone" },
	{ { "client", "h", "-p" }, "-p", "PORT" },
	{ { "client", "--bidr", "h" }, "--bidr", "--bidir?" },
	{ { "client", "-P", "1,2,x", "h" }, "1,2,x", "64" },
	{ { "client", "-s", "99999999999999999999", "h" },
	  "99999999999999999999",
	  "range" },
	{ { "client", "-s", "64KB", "h" }, "64KB", "64K" },
	{ { "client", "-s", "64KiB", "h" }, "64KiB", "64K" },
	{ { "client", "-s", "4,1mb", "h" }, "1mb", "1M" },
	{ { "client", "-s", "3:100", "h" }, "3:100", "96" },
	{ { "client", "-s", "3:64M", "h" }, "3:64M", "48M" },
	/* an option that would do nothing in this run is refused */
	{ { "client", "-n", "5", "-D", "2", "h" }, "-n", "-D" },
	{ { "client", "--duration", "2", "--iterations", "5", "h" },
	  "-n",
	  "-D" },
	{ { "client", "--bidir", "-t", "tcp_lat", "h" }, "tcp_lat", "--bidir" },
	{ { "client", "--tolerance", "10", "h" }, "--tolerance", "--baseline" },
	{ { "client", "--events", "-t", "tcp_bw", "h" }, "--events", "verbs" },
	{ { "client", "-t", "tcp_bw,tcp_lat", "--device", "mlx5_0", "h" },
	  "--device",
	  "verbs" },
	{ { "client", "--gid-index", "3", "-t", "rs_lat", "h" },
	  "--gid-index",
	  "-t" },
	{ { "client", "-t", "tcp_bw,tcp_bw", "h" }, "tcp_bw,tcp_bw", "twice" },
	{ { "client", "-t", "tcp_bw,,tcp_lat", "h" }, "tcp_bw,,tcp_lat", "-t" },
	{ { "client", "-t", "tcp_bw,", "h" }, "tcp_bw,", "empty" },
	{ { "client", "-s", "4K,,8K", "h" }, "4K,,8K", "-s" },
	{ { "client", "-P", "1,2,", "h" }, "1,2,", "-P" },
	{ { "client", "--window", ",1K", "h" }, ",1K", "--window" },
};

#define N_CLIENT_ERRS (sizeof(client_errs) / sizeof(client_errs[0]))

/* The words of a case, for messages. */
static const char *joined(const struct err_case *c, char *buf, size_t n)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int i = 0; i < 10 && c->argv[i] && len < n; i++)
		len += (size_t)snprintf(buf + len, n - len, "%s'%s'",
					i ? " " : "", c->argv[i]);
	return buf;
}

static void check_err(int ret, const char *err, const struct err_case *c)
{
	char w[256];

	ck_assert_msg(ret == -EINVAL, "%s: got %d, err '%s'",
		      joined(c, w, sizeof(w)), ret, err);
	ck_assert_msg(err[0], "%s: empty err", joined(c, w, sizeof(w)));
	ck_assert_msg(has_token(err, c->needle), "'%s' does not quote '%s'",
		      err, c->needle);
	ck_assert_msg(!c->also || has_token(err, c->also),
		      "'%s' does not name '%s'", err, c->also);
}

START_TEST(test_client_errors)
{
	const struct err_case *c = &client_errs[_i];
	struct ig_client_opts o;
	struct args a;
	char err[256];

	check_err(client(&a, c->argv, &o, err, sizeof(err)), err, c);
}
END_TEST

/* The error for a second HOST must quote it. */
START_TEST(test_client_two_hosts)
{
	static const struct err_case c = { { "client", "hostA", "hostB" },
					   "hostB",
					   NULL };
	struct ig_client_opts o;
	struct args a;
	char err[256];

	check_err(client(&a, c.argv, &o, err, sizeof(err)), err, &c);
}
END_TEST

/* An unknown short option inside a cluster: the error must name it, not
 * argv[0] or another word. */
START_TEST(test_client_unknown_in_cluster)
{
	static const struct err_case c = { { "client", "-xy", "h" },
					   "-xy",
					   NULL };
	struct ig_client_opts o;
	struct args a;
	char err[256];
	int ret = client(&a, c.argv, &o, err, sizeof(err));

	ck_assert_int_eq(ret, -EINVAL);
	ck_assert_msg(!has_token(err, "client"), "'%s' names argv[0]", err);
	ck_assert_msg(strstr(err, "-x") || strstr(err, "'x'"),
		      "'%s' does not name -x", err);
}
END_TEST

/* "usage: ibgap client HOST [options]": options after HOST. */
START_TEST(test_client_host_first)
{
	struct ig_client_opts o;
	struct args a;
	char err[256];
	int ret;

	ret = client(&a, WORDS("client", "host", "-s", "64K", "-P", "2"), &o,
		     err, sizeof(err));
	ck_assert_msg(ret == 0, "'client host -s 64K -P 2' refused: %s", err);
	ck_assert_str_eq(o.host, "host");
	ck_assert_uint_eq(o.p.size, 65536);
	ck_assert_uint_eq(o.p.streams, 2);
	ck_assert(o.size_given);
}
END_TEST

START_TEST(test_server_defaults)
{
	struct ig_server_opts o;
	struct args a;
	char err[256];

	memset(&o, 0x5a, sizeof(o));
	ck_assert_int_eq(server(&a, WORDS("server"), &o, err, sizeof(err)), 0);
	ck_assert_int_eq(o.timeout_ms, 10000);
	ck_assert(!o.once);
	ck_assert(!o.port || !strcmp(o.port, "18515"));
	ck_assert_ptr_null(o.bind);
	ck_assert_ptr_null(o.auth_file);
}
END_TEST

START_TEST(test_server_opts)
{
	struct ig_server_opts o;
	struct args a;
	char err[256];
	int ret;

	ret = server(&a,
		     WORDS("server", "-p", "1234", "-B", "127.0.0.1", "--once",
			   "--timeout", "2.5"),
		     &o, err, sizeof(err));
	ck_assert_msg(ret == 0, "refused: %s", err);
	ck_assert_str_eq(o.port, "1234");
	ck_assert_str_eq(o.bind, "127.0.0.1");
	ck_assert(o.once);
	ck_assert_int_eq(o.timeout_ms, 2500);
	ret = server(&a,
		     WORDS("server", "--port", "65535", "--bind", "::1",
			   "--timeout", "3600"),
		     &o, err, sizeof(err));
	ck_assert_msg(ret == 0, "refused: %s", err);
	ck_assert_str_eq(o.port, "65535");
	ck_assert_str_eq(o.bind, "::1");
	ck_assert(!o.once);
	ck_assert_int_eq(o.timeout_ms, 3600000);
	ck_assert_int_eq(
		server(&a, WORDS("server", "--help"), &o, err, sizeof(err)), 1);
	ck_assert_int_eq(
		server(&a, WORDS("server", "-h"), &o, err, sizeof(err)), 1);
}
END_TEST

static const struct err_case server_errs[] = {
	{ { "server", "extra" }, "extra", NULL },
	{ { "server", "--once", "extra" }, "extra", NULL },
	{ { "server", "--bogus" }, "--bogus", NULL },
	{ { "server", "-x" }, "-x", NULL },
	{ { "server", "-p", "0" }, "0", "-p" },
	{ { "server", "-p", "70000" }, "70000", "-p" },
	{ { "server", "-p", "abc" }, "abc", "-p" },
	{ { "server", "--timeout", "0.01" }, "0.01", "--timeout" },
	{ { "server", "--timeout", "abc" }, "abc", "--timeout" },
	{ { "server", "--timeout" }, "--timeout", NULL },
	{ { "server", "-B" }, "-B", NULL },
};

#define N_SERVER_ERRS (sizeof(server_errs) / sizeof(server_errs[0]))

START_TEST(test_server_errors)
{
	const struct err_case *c = &server_errs[_i];
	struct ig_server_opts o;
	struct args a;
	char err[256];

	check_err(server(&a, c->argv, &o, err, sizeof(err)), err, c);
}
END_TEST

/* Parses w, which must be accepted.  o's strings (host, --also, ...)
 * point into a's argv, as into main()'s: a must outlive o. */
static void client_ok(struct args *a, const char *const *w,
		      struct ig_client_opts *o)
{
	char err[256];
	int ret = client(a, w, o, err, sizeof(err));

	ck_assert_msg(ret == 0, "%s refused: %s", w[1], err);
}

/* -P and --window lists land in o.lists, p takes their first values. */
START_TEST(test_client_lists)
{
	struct ig_client_opts o;
	struct args a;

	client_ok(&a,
		  WORDS("client", "-P", "1,2,4,8", "--window", "85K,256K", "-s",
			"1K:8K", "h"),
		  &o);
	ck_assert_uint_eq(o.lists.nstreams, 4);
	ck_assert_uint_eq(o.lists.streams[0], 1);
	ck_assert_uint_eq(o.lists.streams[3], 8);
	ck_assert_uint_eq(o.lists.nwindows, 2);
	ck_assert_uint_eq(o.lists.windows[0], 87040);
	ck_assert_uint_eq(o.lists.windows[1], 262144);
	ck_assert_uint_eq(o.p.streams, 1);
	ck_assert_uint_eq(o.p.sock.window, 87040);
	/* 4 sizes x 4 streams x 2 windows x 2 tests */
	ck_assert_uint_eq(plan_count(&o), 64);
	/* the limit itself: 16 sizes x 16 streams x 1 window = 256 */
	client_ok(&a,
		  WORDS("client", "-s", "1:32K", "-P",
			"1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16", "h"),
		  &o);
	ck_assert_uint_eq(plan_count(&o), 256 * 2);
	/* one value: a plan of one combination, as before the lists */
	client_ok(&a, WORDS("client", "-P", "3", "h"), &o);
	ck_assert_uint_eq(o.lists.nstreams, 1);
	ck_assert_uint_eq(o.lists.streams[0], 3);
	ck_assert_uint_eq(o.lists.nwindows, 1);
	ck_assert_uint_eq(o.lists.windows[0], 0);
	ck_assert_uint_eq(plan_count(&o), 2);
	/* "default" in a window list: the kernel's buffers (0), once */
	client_ok(&a, WORDS("client", "--window", "default,256K", "h"), &o);
	ck_assert_uint_eq(o.lists.nwindows, 2);
	ck_assert_uint_eq(o.lists.windows[0], 0);
	ck_assert_uint_eq(o.lists.windows[1], 262144);
	ck_assert_uint_eq(o.p.sock.window, 0);
}
END_TEST

/* The plan's order: sizes outer, then streams, then windows, the tests
 * innermost; latency tests at 2 bytes when -s was not given. */
START_TEST(test_client_plan_order)
{
	static const struct {
		enum ig_test test;
		uint64_t size;
		uint32_t streams;
		uint64_t window;
	} want[] = {
		{ IG_TEST_TCP_BW, 65536, 1, 1024 },
		{ IG_TEST_TCP_LAT, 2, 1, 1024 },
		{ IG_TEST_TCP_BW, 65536, 1, 4096 },
		{ IG_TEST_TCP_LAT, 2, 1, 4096 },
		{ IG_TEST_TCP_BW, 65536, 2, 1024 },
		{ IG_TEST_TCP_LAT, 2, 2, 1024 },
		{ IG_TEST_TCP_BW, 65536, 2, 4096 },
		{ IG_TEST_TCP_LAT, 2, 2, 4096 },
	};
	struct ig_client_opts o;
	struct ig_params p;
	struct args a;

	client_ok(&a,
		  WORDS("client", "-t", "tcp_bw,tcp_lat", "-P", "1,2",
			"--window", "1K,4K", "h"),
		  &o);
	ck_assert_uint_eq(plan_count(&o), 8);
	for (unsigned int k = 0; k < 8; k++) {
		plan_params(&o, k, &p);
		ck_assert_msg(p.test == want[k].test &&
				      p.size == want[k].size &&
				      p.streams == want[k].streams &&
				      p.sock.window == want[k].window,
			      "plan[%u]: %s %llu x%u window %llu", k,
			      ig_test_name(IG_TESTS, p.test),
			      (unsigned long long)p.size, p.streams,
			      (unsigned long long)p.sock.window);
	}
	/* with sizes: the size changes slowest */
	client_ok(&a,
		  WORDS("client", "-t", "tcp_bw", "-s", "1K,2K", "-P", "1,2",
			"h"),
		  &o);
	plan_params(&o, 1, &p);
	ck_assert(p.size == 1024 && p.streams == 2);
	plan_params(&o, 2, &p);
	ck_assert(p.size == 2048 && p.streams == 1);
}
END_TEST

/* --also's plan: the tcp tests of -t only, against ADDR, as the column
 * tcp@ADDR; when it cannot run, every result of it failed with the
 * reason, in the plan's order (--zerocopy both: tcp_bw twice). */
START_TEST(test_client_also_plan)
{
	static const struct {
		enum ig_test test;
		uint64_t size;
	} want[] = {
		{ IG_TEST_TCP_BW, 1024 },  { IG_TEST_TCP_BW, 1024 },
		{ IG_TEST_TCP_LAT, 1024 }, { IG_TEST_TCP_BW, 2048 },
		{ IG_TEST_TCP_BW, 2048 },  { IG_TEST_TCP_LAT, 2048 },
	};
	struct ig_client_opts o, al;
	struct args a;
	struct ig_result *res = calloc(8, sizeof(*res));

	ck_assert_ptr_nonnull(res);
	client_ok(&a,
		  WORDS("client", "-t", "write_bw,tcp_bw,send_lat,tcp_lat",
			"-s", "1K,2K", "--zerocopy", "both", "--also",
			"127.0.0.2", "h"),
		  &o);
	ig_client_also_opts(&o, &al);
	ck_assert_str_eq(al.host, "127.0.0.2");
	ck_assert_ptr_null(al.also);
	ck_assert_str_eq(al.column, "tcp@127.0.0.2");
	ck_assert_uint_eq(al.ntests, 2);
	ck_assert_uint_eq(plan_count(&al), 6);
	plan_fail(&al, res, "refused");
	for (unsigned int i = 0; i < 6; i++) {
		ck_assert_msg(res[i].failed &&
				      res[i].params.test == want[i].test &&
				      res[i].params.size == want[i].size &&
				      !strcmp(res[i].error, "refused"),
			      "result %u: %s %llu failed %d '%s'", i,
			      ig_test_name(IG_TESTS, res[i].params.test),
			      (unsigned long long)res[i].params.size,
			      res[i].failed, res[i].error);
	}
	ck_assert(!res[6].failed);
	free(res);
}
END_TEST

/* HOST and --also in their forms (common/hostport.h): the brackets taken
 * off, a :PORT into o.port (or --also's own), -p the same or refused. */
START_TEST(test_client_hostport)
{
	struct ig_client_opts o, al;
	struct args a;
	char err[256], col[64];
	const struct {
		const char *const *w;
		const char *host, *port, *also, *also_port;
	} t[] = {
		{ WORDS("client", "[::1]:5000", "--also", "[::2]"), "::1",
		  "5000", "::2", "5000" },
		{ WORDS("client", "-p", "7", "::1", "--also", "10.0.0.2:8"),
		  "::1", "7", "10.0.0.2", "8" },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		client_ok(&a, t[i].w, &o);
		ig_client_also_opts(&o, &al);
		ck_assert_str_eq(o.host, t[i].host);
		ck_assert_str_eq(o.port, t[i].port);
		ck_assert_str_eq(al.host, t[i].also);
		ck_assert_str_eq(al.port, t[i].also_port);
		snprintf(col, sizeof(col), "tcp@%s", t[i].also);
		ck_assert_str_eq(al.column, col);
	}
	client_ok(&a, WORDS("client", "h:09", "-p", "9"), &o);
	ck_assert_str_eq(o.host, "h");
	ck_assert_str_eq(o.port, "9");
	ck_assert_int_eq(client(&a, WORDS("client", "h:9", "-p", "10"), &o, err,
				sizeof(err)),
			 -EINVAL);
	ck_assert_msg(strstr(err, "'h:9'") && strstr(err, "-p says 10"), "%s",
		      err);
	ck_assert_int_eq(client(&a, WORDS("client", "[::1"), &o, err,
				sizeof(err)),
			 -EINVAL);
	ck_assert_msg(strstr(err, "'[::1'") && strstr(err, "[IPV6]:PORT"), "%s",
		      err);
}
END_TEST

/* Parses the words w against a table of -P and --window alone, bound to
 * t (no lists: ibgap-fabric's use). */
static int no_lists(struct ig_testopts *t, const char *const *w, char *err,
		    size_t errlen)
{
	static const struct ig_opt rows[] = { IG_TESTOPT_ROW(STREAMS),
					      { .ref = IG_XPORT_WINDOW_ROW } };
	struct ig_optparse ps = { .rows = rows, .nrows = 2 };
	struct args a;

	mkargs(&a, w);
	err[0] = '\0';
	ig_testopt_bind(&ps, t);
	return ig_opt_parse(&ps, a.argc, a.argv, err, errlen);
}

/* ibgap-fabric's use of the rows (no lists): one value, a list is
 * refused in one line naming it. */
START_TEST(test_testopt_no_lists)
{
	struct ig_params p;
	struct ig_local_opts l;
	enum ig_test tests[IG_TEST_COUNT];
	unsigned int nt = 0;
	struct ig_testopts t = {
		.p = &p, .local = &l, .tests = tests, .ntests = &nt
	};
	char err[256] = "";

	ig_params_default(&p);
	ck_assert_int_eq(no_lists(&t, WORDS("x", "-P", "4"), err, sizeof(err)),
			 0);
	ck_assert_uint_eq(p.streams, 4);
	ck_assert_int_eq(no_lists(&t, WORDS("x", "--window", "1M"), err,
				  sizeof(err)),
			 0);
	ck_assert_uint_eq(p.sock.window, 1 << 20);
	ck_assert_int_eq(no_lists(&t, WORDS("x", "-P", "1,2"), err,
				  sizeof(err)),
			 -EINVAL);
	ck_assert_msg(has_token(err, "1,2") && has_token(err, "-P") &&
			      !strchr(err, '\n'),
		      "err '%s'", err);
	ck_assert_int_eq(no_lists(&t, WORDS("x", "--window", "1K,2K"), err,
				  sizeof(err)),
			 -EINVAL);
	ck_assert_msg(has_token(err, "1K,2K") && has_token(err, "--window"),
		      "err '%s'", err);
	ck_assert_uint_eq(p.streams, 4);
}
END_TEST

static Suite *cli_suite(void)
{
	Suite *s = suite_create("cli");
	TCase *tc = tcase_create("client");
	TCase *ts = tcase_create("server");

	tcase_add_test(tc, test_client_defaults);
	tcase_add_test(tc, test_client_short_opts);
	tcase_add_test(tc, test_client_reverse);
	tcase_add_test(tc, test_client_outs);
	tcase_add_test(tc, test_client_inline);
	tcase_add_test(tc, test_client_also);
	tcase_add_test(tc, test_client_rails);
	tcase_add_test(tc, test_client_long_opts);
	tcase_add_test(tc, test_client_iterations);
	tcase_add_test(tc, test_client_used);
	tcase_add_test(tc, test_client_help);
	tcase_add_test(tc, test_client_repeat);
	tcase_add_loop_test(tc, test_client_errors, 0, N_CLIENT_ERRS);
	tcase_add_test(tc, test_client_two_hosts);
	tcase_add_test(tc, test_client_unknown_in_cluster);
	tcase_add_test(tc, test_client_host_first);
	tcase_add_test(tc, test_client_lists);
	tcase_add_test(tc, test_client_plan_order);
	tcase_add_test(tc, test_client_also_plan);
	tcase_add_test(tc, test_client_hostport);
	tcase_add_test(tc, test_testopt_no_lists);
	suite_add_tcase(s, tc);
	tcase_add_test(ts, test_server_defaults);
	tcase_add_test(ts, test_server_opts);
	tcase_add_test(ts, test_auth_file);
	tcase_add_loop_test(ts, test_server_errors, 0, N_SERVER_ERRS);
	suite_add_tcase(s, ts);
	return s;
}

int main(void)
{
	return run_suite(cli_suite());
}
