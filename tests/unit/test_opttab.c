// SPDX-License-Identifier: MIT
/*
 * Unit tests for common/opttab.c: each kind of row fills its field (of its
 * width), a range error is one line naming the option, the value and the
 * range, a ref row is its target with its own help, a call sees the
 * argument, and --help's lines come from the rows.  Expected values are
 * written out (64K = 65536, 2.5 s = 2500 ms).
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/opttab.h"
#include "testmain.h"

struct cmd {
	bool flag, on;
	uint8_t u8;
	uint32_t u32;
	uint64_t u64;
	int port_num;
	double d;
	uint64_t bytes;
	uint64_t ns;
	uint32_t ms;
	const char *text;
	int choice;
	const char *port;
	const char *seen; /* what the call got */
	int calls;
};

static const char *const colours[] = { "red", "green", "blue", NULL };

static int list_call(struct ig_optparse *ps, const struct ig_opt *r,
		     const char *arg, char *err, size_t errlen)
{
	struct cmd *c = ps->obj[0];

	c->seen = arg;
	c->calls++;
	if (!strcmp(arg, "bad"))
		return snprintf(err, errlen, "--list: 'bad' refused"), -EINVAL;
	return 0;
}

#define A(member) .obj = 0, IG_OPT_AT(struct cmd, member)

static const struct ig_opt base_rows[] = {
	{ "flag", 'f', IG_OPT_FLAG, A(flag), .help = "a flag" },
	{ "off", 0, IG_OPT_FLAG, A(on), .clear = true, .help = "clears on" },
	{ "small", 0, IG_OPT_UINT, A(u8), .lo = 1, .hi = 200, .arg = "N",
	  .what = "a small number", .help = "one byte wide" },
	{ "count", 'c', IG_OPT_UINT, A(u32), .lo = 0, .hi = 100000, .arg = "N",
	  .help = "four bytes wide" },
	{ "big", 0, IG_OPT_UINT, A(u64), .lo = 1, .hi = 1e12, .arg = "N",
	  .help = "eight bytes wide" },
	{ "ratio", 0, IG_OPT_DOUBLE, A(d), .lo = 0.01, .hi = 1, .arg = "F",
	  .help = "a fraction" },
	{ "bytes", 0, IG_OPT_SIZE, A(bytes), .lo = 1, .hi = 1 << 30, .arg = "B",
	  .help = "a byte count" },
	{ "wait", 'w', IG_OPT_SECS, A(ns), .lo = 0.001, .hi = 60, .unit = 1,
	  .arg = "SECS", .help = "seconds into ns" },
	{ "deadline", 0, IG_OPT_SECS, A(ms), .lo = 0.1, .hi = 3600,
	  .unit = 1000000, .arg = "SECS", .help = "seconds into ms" },
	{ "name", 'N', IG_OPT_STRING, A(text), .arg = "TEXT",
	  .help = "kept as typed" },
	{ "colour", 0, IG_OPT_ENUM, A(choice), .names = colours,
	  .what = "a colour", .arg = "C", .help = "red, green or blue" },
	{ "list", 0, IG_OPT_LIST, .call = list_call, .arg = "A,B",
	  .help = "a list, parsed by its call" },
	{ "port", 'p', IG_OPT_UINT, A(port), .lo = 1, .hi = 65535,
	  .call = ig_opt_keep_text, .what = "a port", .arg = "PORT",
	  .help = "checked, kept as text" },
	{ "hidden", 0, IG_OPT_FLAG, A(flag) },
};

/* The same row twice over: by ref with a help of its own. */
static const struct ig_opt ref_rows[] = {
	{ .ref = &base_rows[3], .help = "the count, as another command says" },
	{ .ref = &base_rows[6] },
};

#define WORDS(...) ((const char *const[]){ "cmd", __VA_ARGS__, NULL })

struct run {
	char buf[24][64];
	char *argv[25];
	struct ig_optparse ps;
	char err[256];
};

/* Parses w against rows into c; returns ig_opt_parse()'s result. */
static int parse(struct run *r, const struct ig_opt *rows, size_t n,
		 const char *const *w, struct cmd *c)
{
	int argc = 0;

	memset(r, 0, sizeof(*r));
	memset(c, 0, sizeof(*c));
	c->on = true;
	for (; w[argc]; argc++) {
		ck_assert_int_lt(argc, 24);
		snprintf(r->buf[argc], sizeof(r->buf[0]), "%s", w[argc]);
		r->argv[argc] = r->buf[argc];
	}
	r->ps = (struct ig_optparse){ .rows = rows, .nrows = n, .obj = { c } };
	return ig_opt_parse(&r->ps, argc, r->argv, r->err, sizeof(r->err));
}

#define NBASE (sizeof(base_rows) / sizeof(base_rows[0]))

START_TEST(test_kinds)
{
	struct run r;
	struct cmd c;

	ck_assert_int_eq(parse(&r, base_rows, NBASE,
			       WORDS("-f", "--off", "--small", "200", "-c", "7",
				     "--big", "1000000000000", "--ratio",
				     "0.25", "--bytes", "64K", "-w", "2.5",
				     "--deadline=2.5", "-N", "x y", "--colour",
				     "blue", "-p", "18515"),
			       &c),
			 0);
	ck_assert(c.flag);
	ck_assert(!c.on);
	ck_assert_uint_eq(c.u8, 200);
	ck_assert_uint_eq(c.u32, 7);
	ck_assert_uint_eq(c.u64, 1000000000000ull);
	ck_assert_double_eq(c.d, 0.25);
	ck_assert_uint_eq(c.bytes, 65536);
	ck_assert_uint_eq(c.ns, 2500000000ull);
	ck_assert_uint_eq(c.ms, 2500);
	ck_assert_str_eq(c.text, "x y");
	ck_assert_int_eq(c.choice, 2);
	ck_assert_str_eq(c.port, "18515");
	ck_assert_uint_eq(r.ps.npositional, 0);
}
END_TEST

/* Words that are no option land in positional, in order, wherever they
 * stand; "--" ends the options. */
START_TEST(test_positional)
{
	struct run r;
	struct cmd c;

	ck_assert_int_eq(parse(&r, base_rows, NBASE,
			       WORDS("a", "-c", "1", "b", "--", "-c"), &c),
			 0);
	ck_assert_uint_eq(r.ps.npositional, 3);
	ck_assert_str_eq(r.ps.positional[0], "a");
	ck_assert_str_eq(r.ps.positional[1], "b");
	ck_assert_str_eq(r.ps.positional[2], "-c");
	ck_assert_uint_eq(c.u32, 1);
	ck_assert_int_eq(
		parse(&r, base_rows, NBASE,
		      WORDS("1", "2", "3", "4", "5", "6", "7", "8", "9"), &c),
		-EINVAL);
	ck_assert_msg(strstr(r.err, "'9'"), "%s", r.err);
}
END_TEST

START_TEST(test_help)
{
	struct run r;
	struct cmd c;

	ck_assert_int_eq(parse(&r, base_rows, NBASE, WORDS("--help"), &c), 1);
	ck_assert_int_eq(
		parse(&r, base_rows, NBASE, WORDS("-c", "1", "-h"), &c), 1);
}
END_TEST

/* Each bad value: -EINVAL, one line holding every needle. */
static const struct {
	const char *argv[4];
	const char *needle[3];
} errs[] = {
	{ { "--small", "0" },
	  { "--small: '0' is not a small number from 1 to 200" } },
	{ { "--small", "201" }, { "'201'", "1 to 200" } },
	{ { "-c", "x" }, { "-c: 'x' is not a whole number from 0 to 100000" } },
	{ { "-c", "-1" }, { "'-1'", "-c" } },
	{ { "--big", "0" }, { "--big: '0'", "from 1 to 1000000000000" } },
	{ { "--ratio", "1.5" },
	  { "--ratio: '1.5' is not a number from 0.01 to 1" } },
	{ { "--ratio", "0.5x" }, { "'0.5x'", "0.01 to 1" } },
	{ { "--bytes", "12Q" },
	  { "--bytes: '12Q' is not a byte count: use digits with an optional "
	    "K, M or G suffix" } },
	{ { "--bytes", "2G" },
	  { "--bytes: '2G' is out of range: allowed 1 to 1G" } },
	{ { "--bytes", "0" }, { "'0'", "1 to 1G" } },
	{ { "--bytes", "99999999999999999999" },
	  { "--bytes: '99999999999999999999' is out of range: allowed 1 to "
	    "1G" } },
	{ { "--bytes", "99999999999G" }, { "is out of range" } },
	{ { "--bytes", "64KB" },
	  { "--bytes: '64KB' is not a byte count: write 64K (K, M and G are "
	    "powers of two: K means KiB, 1024 bytes)" } },
	{ { "--bytes", "2miB" }, { "'2miB'", "write 2M (" } },
	{ { "--bytes", "2B" }, { "'2B'", "optional K, M or G suffix" } },
	{ { "-w", "abc" },
	  { "-w: 'abc' is not a number of seconds (e.g. 10 or 0.5)" } },
	{ { "-w", "0" },
	  { "-w: '0' is out of range: allowed 0.001 to 60 seconds" } },
	{ { "--deadline", "3601" }, { "'3601'", "0.1 to 3600 seconds" } },
	{ { "--colour", "pink" },
	  { "--colour: 'pink' is not a colour: allowed red, green, blue" } },
	{ { "-p", "70000" }, { "-p: '70000' is not a port from 1 to 65535" } },
	{ { "--list", "bad" }, { "--list: 'bad' refused" } },
	/* unknown, a value missing, a value for a flag: said which, with the
	 * nearest name where one is near */
	{ { "--bogus" }, { "option '--bogus' is unknown: see --help" } },
	{ { "-x" }, { "option '-x' is unknown: see --help" } },
	{ { "-c" }, { "option '-c' lacks its value N: see --help" } },
	{ { "--small" }, { "option '--small' lacks its value N" } },
	{ { "--count" }, { "option '--count' lacks its value N" } },
	{ { "--flag=1" },
	  { "option '--flag=1': --flag takes no value: give --flag alone" } },
	{ { "--fla=1" }, { "'--fla=1': --flag takes no value" } },
	{ { "--colour=red", "--ratoi", "1" },
	  { "option '--ratoi' is unknown: did you mean --ratio? (see --help)" } },
	{ { "--deadlines=2" },
	  { "'--deadlines=2' is unknown", "--deadline?" } },
	{ { "--nam" }, { "option '--name' lacks its value TEXT" } },
	{ { "--b", "1" },
	  { "'--b' is ambiguous: did you mean --big or --bytes?" } },
	{ { "--coulor", "red" }, { "did you mean --colour?" } },
	{ { "--big2" }, { "did you mean --big?" } },
	{ { "--zzz" }, { "'--zzz' is unknown: see --help" } },
};

START_TEST(test_errors)
{
	const char *w[6] = { "cmd" };
	struct run r;
	struct cmd c;
	int n = 1;

	for (int i = 0; i < 4 && errs[_i].argv[i]; i++)
		w[n++] = errs[_i].argv[i];
	ck_assert_int_eq(parse(&r, base_rows, NBASE, w, &c), -EINVAL);
	ck_assert_msg(!strchr(r.err, '\n') && r.err[0], "err '%s'", r.err);
	for (int i = 0; i < 3 && errs[_i].needle[i]; i++)
		ck_assert_msg(strstr(r.err, errs[_i].needle[i]),
			      "case %d: '%s' lacks '%s'", _i, r.err,
			      errs[_i].needle[i]);
}
END_TEST

/* A call sees the argument; the field it does not fill stays. */
START_TEST(test_call)
{
	struct run r;
	struct cmd c;

	ck_assert_int_eq(
		parse(&r, base_rows, NBASE, WORDS("--list", "a,b"), &c), 0);
	ck_assert_str_eq(c.seen, "a,b");
	ck_assert_int_eq(c.calls, 1);
	ck_assert_int_eq(c.u32, 0);
}
END_TEST

/* A ref row is its target: the same option, range and field. */
START_TEST(test_ref)
{
	struct run r;
	struct cmd c;

	ck_assert_int_eq(parse(&r, ref_rows, 2,
			       WORDS("-c", "9", "--bytes", "1K"), &c),
			 0);
	ck_assert_uint_eq(c.u32, 9);
	ck_assert_uint_eq(c.bytes, 1024);
	ck_assert_int_eq(parse(&r, ref_rows, 2, WORDS("-c", "100001"), &c),
			 -EINVAL);
	ck_assert_msg(strstr(r.err, "-c: '100001'") &&
			      strstr(r.err, "0 to 100000"),
		      "%s", r.err);
	/* not in this table */
	ck_assert_int_eq(parse(&r, ref_rows, 2, WORDS("-f"), &c), -EINVAL);
}
END_TEST

/* Parsing again starts from scratch (getopt's state is reset). */
START_TEST(test_again)
{
	struct run r;
	struct cmd c;

	ck_assert_int_eq(parse(&r, base_rows, NBASE, WORDS("-c", "1", "x"), &c),
			 0);
	ck_assert_int_eq(parse(&r, base_rows, NBASE, WORDS("-c", "2"), &c), 0);
	ck_assert_uint_eq(c.u32, 2);
	ck_assert_uint_eq(r.ps.npositional, 0);
}
END_TEST

static char *usage(const struct ig_opt *rows, size_t n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	ig_opt_usage(f, rows, n);
	fclose(f);
	return buf;
}

/* --help: one line per row with help (a short letter first where there
 * is one), the help from column 26, wrapped before column 80. */
START_TEST(test_usage)
{
	char *s = usage(base_rows, NBASE), *line, *save = NULL;
	int n = 0;

	ck_assert_msg(strstr(s, "  -f, --flag             a flag\n"), "%s", s);
	ck_assert_msg(strstr(s, "      --small N          one byte wide\n"),
		      "%s", s);
	ck_assert_msg(strstr(s, "  -p, --port PORT        checked, kept as "
				"text\n"),
		      "%s", s);
	ck_assert_ptr_null(strstr(s, "hidden"));
	for (line = strtok_r(s, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		ck_assert_msg(strlen(line) <= 79, "too long: '%s'", line);
		n++;
	}
	ck_assert_int_eq(n, (int)NBASE - 1);
	free(s);
	s = usage(ref_rows, 2);
	ck_assert_str_eq(s, "  -c, --count N          the count, as another "
			    "command says\n"
			    "      --bytes B          a byte count\n");
	free(s);
}
END_TEST

/* A long help wraps at a space, continued at column 26; a line may be 79
 * characters long, not 80. */
START_TEST(test_usage_wrap)
{
	static const struct ig_opt rows[] = {
		{ "long", 0, IG_OPT_FLAG,
		  .help = "aaaa bbbb cccc dddd eeee ffff gggg hhhh iiii jjjj "
			  "kkkk llll mmmm" },
	};
	char *s = usage(rows, 1);

	ck_assert_str_eq(s, "      --long             aaaa bbbb cccc dddd eeee "
			    "ffff gggg hhhh iiii jjjj kkkk\n"
			    "                         llll mmmm\n");
	free(s);
}
END_TEST

/* An IG_OPT_ROWS row stands for its rows, nested too (the transports'
 * rows in a command's table): parsed, listed in --help in its place, and
 * counted against IG_OPT_MAX_ROWS. */
START_TEST(test_rows)
{
	static const struct ig_opt inner[] = {
		{ .kind = IG_OPT_ROWS, .rows = base_rows, .nrows = 1 },
		{ .kind = IG_OPT_ROWS }, /* a transport without options */
	};
	static const struct ig_opt rows[] = {
		{ .kind = IG_OPT_ROWS, .rows = inner, .nrows = 2 },
		{ "count", 'c', IG_OPT_UINT, A(u32), .lo = 0, .hi = 9,
		  .arg = "N", .help = "the count" },
	};
	static const struct ig_opt many[] = {
		{ .kind = IG_OPT_ROWS, .rows = base_rows, .nrows = NBASE },
		{ .kind = IG_OPT_ROWS, .rows = base_rows, .nrows = NBASE },
		{ .kind = IG_OPT_ROWS, .rows = base_rows, .nrows = NBASE },
		{ .kind = IG_OPT_ROWS, .rows = base_rows, .nrows = NBASE },
		{ .kind = IG_OPT_ROWS, .rows = base_rows, .nrows = NBASE },
	};
	struct run r;
	struct cmd c;
	char *s, want[64];

	ck_assert_int_eq(parse(&r, rows, 2, WORDS("-f", "-c", "3"), &c), 0);
	ck_assert(c.flag);
	ck_assert_uint_eq(c.u32, 3);
	ck_assert_int_eq(parse(&r, rows, 2, WORDS("--small", "1"), &c),
			 -EINVAL);
	s = usage(rows, 2);
	ck_assert_str_eq(s, "  -f, --flag             a flag\n"
			    "  -c, --count N          the count\n");
	free(s);
	ck_assert_uint_gt(5 * NBASE, IG_OPT_MAX_ROWS);
	ck_assert_int_eq(parse(&r, many, 5, WORDS("-f"), &c), -EINVAL);
	snprintf(want, sizeof(want), "option table of %zu rows: at most %d",
		 5 * NBASE, IG_OPT_MAX_ROWS);
	ck_assert_str_eq(r.err, want);
}
END_TEST

static Suite *opttab_suite(void)
{
	Suite *s = suite_create("opttab");
	TCase *tc = tcase_create("parse");

	tcase_add_test(tc, test_kinds);
	tcase_add_test(tc, test_positional);
	tcase_add_test(tc, test_help);
	tcase_add_loop_test(tc, test_errors, 0,
			    (int)(sizeof(errs) / sizeof(errs[0])));
	tcase_add_test(tc, test_call);
	tcase_add_test(tc, test_ref);
	tcase_add_test(tc, test_again);
	suite_add_tcase(s, tc);
	tc = tcase_create("usage");
	tcase_add_test(tc, test_usage);
	tcase_add_test(tc, test_usage_wrap);
	tcase_add_test(tc, test_rows);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(opttab_suite());
}
