// SPDX-License-Identifier: MIT
/* The options that set a test, rows shared by "ibgap client" and
 * ibgap-fabric: the same option means the same, with the same error line. */
#include <errno.h>
#include <stdbool.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "clock.h"
#include "fail.h"
#include "testopt.h"

/* Test t is in tests[0..n) already: a list names each test once. */
static int test_again(const struct ig_testopts *o, int t, const char *arg,
		      char *err, size_t errlen)
{
	for (unsigned int i = 0; i < *o->ntests; i++)
		if ((int)o->tests[i] == t)
			return ig_fail(-EINVAL, err, errlen,
				       "-t: '%s' is in '%s' twice: give each "
				       "test once",
				       ig_test_name(o->tt, t), arg);
	return 0;
}

static int parse_tests(const char *arg, struct ig_testopts *o, char *err,
		       size_t errlen)
{
	char buf[256], *save = NULL, *tok;

	if (ig_opt_list_check(IG_TESTOPT(TESTS), arg, err, errlen))
		return -EINVAL;
	if (strlen(arg) >= sizeof(buf))
		return ig_fail(-EINVAL, err, errlen,
			       "-t: the list is too long (%zu characters)",
			       strlen(arg));
	strcpy(buf, arg);
	*o->ntests = 0;
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		int t = ig_test_parse(o->tt, tok);

		if (!strcmp(tok, "all")) {
			for (t = 0; t < IG_TEST_COUNT; t++)
				o->tests[t] = t;
			*o->ntests = IG_TEST_COUNT;
			if (strcmp(arg, "all"))
				return ig_fail(-EINVAL, err, errlen,
					       "-t: 'all' stands alone, not in "
					       "a list ('%s')",
					       arg);
			return 0;
		}
		if (t < 0) {
			char names[IG_TEST_COUNT * 14];

			ig_test_names(o->tt, names, sizeof(names));
			return ig_fail(
				-EINVAL, err, errlen,
				"-t: unknown test '%s': allowed %s, or all",
				tok, names);
		}
		if (test_again(o, t, arg, err, errlen))
			return -EINVAL;
		o->tests[(*o->ntests)++] = t;
	}
	if (!*o->ntests)
		return ig_fail(-EINVAL, err, errlen, "-t: empty test list '%s'",
			       arg);
	return 0;
}

void ig_testopt_lists_init(struct ig_testopt_lists *l,
			   const struct ig_params *p)
{
	memset(l, 0, sizeof(*l));
	l->streams[0] = p->streams;
	l->nstreams = 1;
	l->windows[0] = p->sock.window;
	l->nwindows = 1;
}

int ig_testopt_list_value(const struct ig_opt *r, const char *arg,
			  const char *tok, double *v, char *err, size_t errlen)
{
	size_t len;

	if (!ig_opt_value(r, tok, v, err, errlen))
		return 0;
	len = strlen(err);
	if (strcmp(tok, arg) && len < errlen)
		snprintf(err + len, errlen - len, " (in the list '%s')", arg);
	return -EINVAL;
}

/* One value of -P or --window, as typed in tok. */
static int list_value(const struct ig_opt *r, const char *arg, const char *tok,
		      bool window, uint64_t *v, char *err, size_t errlen)
{
	double d;

	if (window && !strcmp(tok, "default")) {
		*v = 0; /* the kernel's own buffer sizes, autotuned */
		return 0;
	}
	if (ig_testopt_list_value(r, arg, tok, &d, err, errlen))
		return -EINVAL;
	*v = (uint64_t)d;
	return 0;
}

/* "-P 1,2,4" or "--window 85K,256K": 1 to IG_MAX_LIST values, each once. */
static int parse_list(const struct ig_opt *r, const char *arg, bool window,
		      uint64_t *vals, unsigned int *n, char *err, size_t errlen)
{
	char opt[40], buf[256], *save = NULL, *tok;

	ig_opt_label(r, opt, sizeof(opt));
	if (ig_opt_list_check(r, arg, err, errlen))
		return -EINVAL;
	if (strlen(arg) >= sizeof(buf))
		return ig_fail(-EINVAL, err, errlen,
			       "%s: the list is too long (%zu characters)", opt,
			       strlen(arg));
	strcpy(buf, arg);
	*n = 0;
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (*n == IG_MAX_LIST)
			return ig_fail(-EINVAL, err, errlen,
				       "%s: more than %d values in '%s'", opt,
				       IG_MAX_LIST, arg);
		if (list_value(r, arg, tok, window, &vals[*n], err, errlen))
			return -EINVAL;
		for (unsigned int j = 0; j < *n; j++)
			if (vals[j] == vals[*n])
				return ig_fail(-EINVAL, err, errlen,
					       "%s: '%s' repeats a value of "
					       "'%s': give each value once",
					       opt, tok, arg);
		(*n)++;
	}
	if (!*n)
		return ig_fail(-EINVAL, err, errlen, "%s: no value in '%s'",
			       opt, arg);
	return 0;
}

/* -P and --window: p gets the first value, o->lists all of them. */
static int list_opt(struct ig_optparse *ps, const struct ig_opt *row,
		    const char *arg, bool window, char *err, size_t errlen)
{
	const struct ig_opt *r = ig_opt_row(row);
	struct ig_testopts *o = ps->obj[IG_TO_OPTS];
	struct ig_testopt_lists *l = o->lists;
	uint64_t v[IG_MAX_LIST];
	unsigned int n = 0;
	char opt[40];

	if (parse_list(r, arg, window, v, &n, err, errlen))
		return -EINVAL;
	if (n > 1 && !l)
		return ig_fail(-EINVAL, err, errlen,
			       "%s: '%s' is a list: this command takes one "
			       "value (lists are for 'ibgap client')",
			       ig_opt_label(r, opt, sizeof(opt)), arg);
	ig_opt_store(r, o->p, (double)v[0]);
	if (!l)
		return 0;
	if (window) {
		memcpy(l->windows, v, n * sizeof(*v));
		l->nwindows = n;
		return 0;
	}
	for (unsigned int i = 0; i < n; i++)
		l->streams[i] = (uint32_t)v[i];
	l->nstreams = n;
	return 0;
}

static int streams_opt(struct ig_optparse *ps, const struct ig_opt *row,
		       const char *arg, char *err, size_t errlen)
{
	return list_opt(ps, row, arg, false, err, errlen);
}

int ig_testopt_window(struct ig_optparse *ps, const struct ig_opt *row,
		      const char *arg, char *err, size_t errlen)
{
	return list_opt(ps, row, arg, true, err, errlen);
}

static int tests_opt(struct ig_optparse *ps, const struct ig_opt *r,
		     const char *arg, char *err, size_t errlen)
{
	struct ig_testopts *o = ps->obj[IG_TO_OPTS];

	o->tests_given = true;
	return parse_tests(arg, o, err, errlen);
}

/* -n: the number, and iteration mode */
static int iters_opt(struct ig_optparse *ps, const struct ig_opt *r,
		     const char *arg, char *err, size_t errlen)
{
	struct ig_testopts *o = ps->obj[IG_TO_OPTS];
	double v;

	if (ig_opt_value(r, arg, &v, err, errlen))
		return -EINVAL;
	o->p->iterations = (uint64_t)v;
	o->iters_given = true;
	return 0;
}

/* The CPUs of set as "0-3,8", into buf. */
static void cpu_list(const cpu_set_t *set, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	for (int c = 0; c < CPU_SETSIZE && at < len; c++) {
		int e = c;

		if (!CPU_ISSET(c, set))
			continue;
		while (e + 1 < CPU_SETSIZE && CPU_ISSET(e + 1, set))
			e++;
		if (e > c)
			at += (size_t)snprintf(buf + at, len - at, "%s%d-%d",
					       at ? "," : "", c, e);
		else
			at += (size_t)snprintf(buf + at, len - at, "%s%d",
					       at ? "," : "", c);
		c = e;
	}
}

int ig_testopt_cpu_check(const char *what, const char *arg, int cpu, char *err,
			 size_t errlen)
{
	cpu_set_t set;
	char list[256];

	CPU_ZERO(&set);
	if (!sched_getaffinity(0, sizeof(set), &set) &&
	    (cpu < 0 || cpu >= CPU_SETSIZE || !CPU_ISSET(cpu, &set))) {
		cpu_list(&set, list, sizeof(list));
		return ig_fail(-EINVAL, err, errlen,
			       "%s: '%s' is not a CPU this host lets ibgap "
			       "run on: allowed %s",
			       what, arg, list);
	}
	return 0;
}

/* --cpu N: a CPU this process may run on (its affinity mask), else the
 * line names the ones it may. */
static int cpu_opt(struct ig_optparse *ps, const struct ig_opt *r,
		   const char *arg, char *err, size_t errlen)
{
	double v;

	if (ig_opt_value(r, arg, &v, err, errlen) ||
	    ig_testopt_cpu_check("--cpu", arg, (int)v, err, errlen))
		return -EINVAL;
	ig_opt_store(r, ps->obj[ig_opt_row(r)->obj], v);
	return 0;
}

/* --confidence LEVEL,WIDTH */
static int confidence_opt(struct ig_optparse *ps, const struct ig_opt *r,
			  const char *arg, char *err, size_t errlen)
{
	struct ig_repeat_opts *o = ps->obj[IG_TO_REPEAT];
	unsigned int level;
	double width;
	int n = 0;

	if (sscanf(arg, "%u,%lf%n", &level, &width, &n) != 2 || arg[n] ||
	    (level != 95 && level != 99) || !(width > 0) || width > 1000)
		return ig_fail(
			-EINVAL, err, errlen,
			"--confidence: '%s' is not LEVEL,WIDTH: LEVEL 95 or 99, "
			"WIDTH the interval's full width in percent of the mean "
			"(e.g. 99,5 for +/-2.5%%)",
			arg);
	o->level = level;
	o->width = width;
	return 0;
}

void ig_testopt_bind(struct ig_optparse *ps, struct ig_testopts *o)
{
	ps->obj[IG_TO_PARAMS] = o->p;
	ps->obj[IG_TO_LOCAL] = o->local;
	ps->obj[IG_TO_OPTS] = o;
	ps->obj[IG_TO_REPEAT] = o->rep;
}

#define P(member) .obj = IG_TO_PARAMS, IG_OPT_AT(struct ig_params, member)
#define L(member) .obj = IG_TO_LOCAL, IG_OPT_AT(struct ig_local_opts, member)

/* clang-format off */
const struct ig_opt ig_testopt_rows[IG_TR_COUNT] = {
	[IG_TR_TESTS] = { "tests", 't', IG_OPT_LIST, .call = tests_opt,
		.arg = "LIST",
		.help = "comma list of tcp_bw, tcp_lat, send_bw, write_bw, "
			"send_lat, write_lat (default: these six and the "
			"comparison; TCP alone when this host has no RDMA "
			"device), read_bw, read_lat, ud_send_bw, ud_send_lat, "
			"rs_bw, rs_lat; or all: every test" },
	[IG_TR_DURATION] = { "duration", 'D', IG_OPT_SECS, P(duration_ns),
		.lo = 0.001, .hi = IG_MAX_DURATION_S, .unit = 1,
		.arg = "SECS", .help = "measured interval (default 2)" },
	[IG_TR_ITERATIONS] = { "iterations", 'n', IG_OPT_UINT,
		.lo = 1, .hi = IG_MAX_ITERATIONS, .call = iters_opt,
		.what = "a number of iterations", .arg = "N",
		.help = "messages (or round trips) per stream, instead of -D "
			"(not with it)" },
	[IG_TR_WARMUP] = { "warmup", 0, IG_OPT_SECS, P(warmup_ns),
		.lo = 0, .hi = IG_MAX_WARMUP_S, .unit = 1, .arg = "SECS",
		.help = "excluded warm-up before measuring (0.5)" },
	[IG_TR_STREAMS] = { "streams", 'P', IG_OPT_UINT, P(streams),
		.lo = 1, .hi = IG_MAX_STREAMS, .call = streams_opt,
		.what = "a number of streams", .arg = "N",
		.help = "TCP connections / QPs (default 1); a list 1,2,4,8 "
			"runs each number (a matrix with --window: one row "
			"per size x streams x window, at most 256, each list "
			"at most 16)" },
	[IG_TR_BIDIR] = { "bidir", 0, IG_OPT_FLAG, P(bidir),
		.help = "bandwidth tests in both directions at once" },
	[IG_TR_REVERSE] = { "reverse", 'R', IG_OPT_FLAG, P(reverse),
		.help = "bandwidth tests: the server sends, this host "
			"receives (latency tests ignore it)" },
	[IG_TR_CPU] = { "cpu", 0, IG_OPT_UINT, L(cpu),
		.lo = 0, .hi = CPU_SETSIZE - 1, .call = cpu_opt,
		.what = "a CPU number",
		.arg = "N",
		.help = "pin this host's test threads (TCP and verbs) to CPU N "
			"(default: verbs on a CPU local to the HCA, TCP not "
			"pinned)" },
	[IG_TR_TIMEOUT] = { "timeout", 0, IG_OPT_SECS, P(timeout_ms),
		.lo = IG_MIN_TIMEOUT_S, .hi = IG_MAX_TIMEOUT_S,
		.unit = 1000000, .arg = "SECS",
		.help = "deadline of every control read (10)" },
	[IG_TR_REPEAT] = { "repeat", 0, IG_OPT_UINT, .obj = IG_TO_REPEAT,
		IG_OPT_AT(struct ig_repeat_opts, runs), .lo = 1,
		.hi = IG_MAX_REPEAT, .what = "a number of runs", .arg = "N",
		.help = "run each measurement N times: mean and 95% confidence "
			"interval" },
	[IG_TR_CONFIDENCE] = { "confidence", 0, IG_OPT_LIST,
		.call = confidence_opt, .arg = "L,W",
		.help = "repeat until the L% (95 or 99) interval is within "
			"+/-W/2 % of the mean, 3 to 10 runs (or --repeat N at "
			"most)" },
};
/* clang-format on */

/* -R or --bidir (opt) with no bandwidth test in -t: refused. */
static int direction_fail(const struct ig_testopts *o, const char *opt,
			  char *err, size_t errlen)
{
	char list[IG_TEST_COUNT * 12] = "";
	size_t len = 0;

	for (unsigned int i = 0; i < *o->ntests; i++) {
		if (ig_test_pattern(o->tt, o->tests[i]) == IG_PATTERN_BW)
			return 0;
		len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s",
					i ? "," : "",
					ig_test_name(o->tt, o->tests[i]));
	}
	return ig_fail(-EINVAL, err, errlen,
		       "%s: no bandwidth test in -t %s: %s is for the _bw "
		       "tests (a ping-pong has no direction)",
		       opt, list, opt);
}

int ig_testopt_finish(const struct ig_optparse *ps, const struct ig_testopts *o,
		      char *err, size_t errlen)
{
	if (o->iters_given && ig_opt_given(ps, "duration"))
		return ig_fail(-EINVAL, err, errlen,
			       "-n and -D together: choose one (-n counts the "
			       "messages of each stream, -D times the run)");
	if (o->p->reverse && o->p->bidir)
		return ig_fail(-EINVAL, err, errlen,
			       "-R and --bidir together: choose one (--bidir "
			       "measures both directions, -R server -> client "
			       "alone)");
	if (o->p->reverse || o->p->bidir)
		return direction_fail(o, o->p->reverse ? "-R" : "--bidir", err,
				      errlen);
	return 0;
}
