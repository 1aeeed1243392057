// SPDX-License-Identifier: MIT
/* The options that set a test, shared by "ibgap client" and ibgap-fabric:
 * the same option means the same, with the same error line. */
#include <errno.h>
#include <getopt.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "clock.h"
#include "fail.h"
#include "testopt.h"

static int parse_tests(const char *arg, struct ig_testopts *o, char *err,
		       size_t errlen)
{
	char buf[256], *save = NULL, *tok;

	if (strlen(arg) >= sizeof(buf))
		return ig_fail(-EINVAL, err, errlen,
			       "-t: the list is too long (%zu characters)",
			       strlen(arg));
	strcpy(buf, arg);
	*o->ntests = 0;
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		int t = ig_test_parse(tok);

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

			ig_test_names(names, sizeof(names));
			return ig_fail(
				-EINVAL, err, errlen,
				"-t: unknown test '%s': allowed %s, or all",
				tok, names);
		}
		if (*o->ntests == IG_TEST_COUNT)
			return ig_fail(-EINVAL, err, errlen,
				       "-t: more than %d tests in '%s'",
				       IG_TEST_COUNT, arg);
		o->tests[(*o->ntests)++] = t;
	}
	if (!*o->ntests)
		return ig_fail(-EINVAL, err, errlen, "-t: empty test list '%s'",
			       arg);
	return 0;
}

static int parse_u32(const char *opt, const char *arg, uint32_t *v, char *err,
		     size_t errlen)
{
	uint64_t x;

	if (ig_parse_u64(arg, &x) || x > UINT32_MAX)
		return ig_fail(-EINVAL, err, errlen,
			       "%s: '%s' is not a whole number from 0 to %u",
			       opt, arg, UINT32_MAX);
	*v = (uint32_t)x;
	return 0;
}

static int parse_secs(const char *opt, const char *arg, uint64_t *ns, char *err,
		      size_t errlen)
{
	if (ig_parse_seconds(arg, ns))
		return ig_fail(
			-EINVAL, err, errlen,
			"%s: '%s' is not a number of seconds (e.g. 10 or 0.5)",
			opt, arg);
	return 0;
}

static int parse_bytes(const char *opt, const char *arg, uint64_t *v, char *err,
		       size_t errlen)
{
	if (ig_parse_size(arg, v))
		return ig_fail(
			-EINVAL, err, errlen,
			"%s: '%s' is not a byte count: use digits with an "
			"optional K, M or G suffix (powers of two)",
			opt, arg);
	return 0;
}

/* An option's value against its cap, naming the value as the user typed
 * it. */
static int cap(const char *opt, const char *arg, uint64_t v, uint64_t lo,
	       uint64_t hi, const char *allowed, char *err, size_t errlen)
{
	if (v >= lo && v <= hi)
		return 0;
	return ig_fail(-EINVAL, err, errlen,
		       "%s: '%s' is out of range: allowed %s", opt, arg,
		       allowed);
}

static int local_opt(int c, const char *arg, struct ig_local_opts *l, char *err,
		     size_t errlen)
{
	uint64_t v;

	switch (c) {
	case IG_OPT_DEVICE:
		if (!*arg || strlen(arg) >= sizeof(l->verbs.device))
			return ig_fail(
				-EINVAL, err, errlen,
				"--device: '%s' is not a device name: give one "
				"that ibv_devices lists (1 to %zu characters)",
				arg, sizeof(l->verbs.device) - 1);
		strcpy(l->verbs.device, arg);
		return 0;
	case IG_OPT_IB_PORT:
		if (ig_parse_u64(arg, &v) || v < 1 || v > 255)
			return ig_fail(
				-EINVAL, err, errlen,
				"--ib-port: '%s' is not an HCA port: allowed 1 "
				"to 255",
				arg);
		l->verbs.ib_port = (int)v;
		return 0;
	case IG_OPT_GID_INDEX:
		if (ig_parse_u64(arg, &v) || v > 65535)
			return ig_fail(
				-EINVAL, err, errlen,
				"--gid-index: '%s' is not a GID index: allowed 0 "
				"to 65535",
				arg);
		l->verbs.gid_index = (int)v;
		return 0;
	default:
		if (ig_parse_u64(arg, &v) || v >= CPU_SETSIZE)
			return ig_fail(
				-EINVAL, err, errlen,
				"--cpu: '%s' is not a CPU number: allowed 0 to "
				"%d",
				arg, CPU_SETSIZE - 1);
		l->cpu = (int)v;
		return 0;
	}
}

int ig_testopt_timeout(const char *arg, uint64_t ns, uint32_t *ms, char *err,
		       size_t errlen)
{
	if (ns < 100 * 1000000ull || ns > IG_MAX_TIMEOUT_MS * 1000000ull)
		return ig_fail(-EINVAL, err, errlen,
			       "--timeout: '%s' is out of range: allowed "
			       "0.1 to %d seconds",
			       arg, IG_MAX_TIMEOUT_MS / 1000);
	*ms = (uint32_t)(ns / 1000000);
	return 0;
}

int ig_testopt_timeout_arg(const char *arg, uint32_t *ms, char *err,
			   size_t errlen)
{
	uint64_t ns;

	if (parse_secs("--timeout", arg, &ns, err, errlen))
		return -EINVAL;
	return ig_testopt_timeout(arg, ns, ms, err, errlen);
}

int ig_testopt_size(const char *arg, const char *tok, uint64_t *v, char *err,
		    size_t errlen)
{
	if (ig_parse_size(tok, v))
		return ig_fail(
			-EINVAL, err, errlen,
			"-s: '%s' in '%s' is not a byte count: use digits with "
			"an optional K, M or G suffix (powers of two)",
			tok, arg);
	if (*v < 1 || *v > IG_MAX_SIZE)
		return ig_fail(
			-EINVAL, err, errlen,
			"-s: '%s' in '%s' is out of range: allowed 1 to 64M",
			tok, arg);
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

/* One value of -P or --window, as typed in tok. */
static int list_value(int c, const char *tok, uint64_t *v, char *err,
		      size_t errlen)
{
	uint32_t u = 0;

	if (c == 'P') {
		if (parse_u32("-P", tok, &u, err, errlen) ||
		    cap("-P", tok, u, 1, IG_MAX_STREAMS, "1 to 64", err,
			errlen))
			return -EINVAL;
		*v = u;
		return 0;
	}
	if (!strcmp(tok, "default")) {
		*v = 0; /* the kernel's own buffer sizes, autotuned */
		return 0;
	}
	if (parse_bytes("--window", tok, v, err, errlen) ||
	    cap("--window", tok, *v, 1, IG_MAX_WINDOW, "1 to 1G, or default",
		err, errlen))
		return -EINVAL;
	return 0;
}

/* A bad value of a list: its line says which list it came from. */
static int in_list(const char *arg, const char *tok, char *err, size_t errlen)
{
	size_t len = strlen(err);

	if (strcmp(tok, arg) && len < errlen)
		snprintf(err + len, errlen - len, " (in the list '%s')", arg);
	return -EINVAL;
}

/* "-P 1,2,4" or "--window 85K,256K": 1 to IG_MAX_LIST values, each once. */
static int parse_list(int c, const char *arg, uint64_t *vals, unsigned int *n,
		      char *err, size_t errlen)
{
	const char *opt = c == 'P' ? "-P" : "--window";
	char buf[256], *save = NULL, *tok;

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
		if (list_value(c, tok, &vals[*n], err, errlen))
			return in_list(arg, tok, err, errlen);
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
static int list_opt(int c, const char *arg, struct ig_testopts *o, char *err,
		    size_t errlen)
{
	struct ig_testopt_lists *l = o->lists;
	uint64_t v[IG_MAX_LIST];
	unsigned int n = 0;

	if (parse_list(c, arg, v, &n, err, errlen))
		return -EINVAL;
	if (n > 1 && !l)
		return ig_fail(-EINVAL, err, errlen,
			       "%s: '%s' is a list: this command takes one "
			       "value (lists are for 'ibgap client')",
			       c == 'P' ? "-P" : "--window", arg);
	if (c == 'P')
		o->p->streams = (uint32_t)v[0];
	else
		o->p->sock.window = v[0];
	if (!l)
		return 0;
	if (c == IG_OPT_WINDOW) {
		memcpy(l->windows, v, n * sizeof(*v));
		l->nwindows = n;
		return 0;
	}
	for (unsigned int i = 0; i < n; i++)
		l->streams[i] = (uint32_t)v[i];
	l->nstreams = n;
	return 0;
}

/* The options that set the test parameters (struct ig_params). */
static int param_opt(int c, const char *arg, struct ig_testopts *o, char *err,
		     size_t errlen)
{
	struct ig_params *p = o->p;
	uint64_t v;
	int ret = 0;

	switch (c) {
	case 'D':
		ret = parse_secs("-D", arg, &p->duration_ns, err, errlen) ||
		      cap("-D", arg, p->duration_ns, 1000000,
			  IG_MAX_DURATION_S * IG_NSEC_PER_SEC,
			  "0.001 to 3600 seconds", err, errlen);
		break;
	case 'n':
		if (ig_parse_u64(arg, &p->iterations) || !p->iterations)
			return ig_fail(
				-EINVAL, err, errlen,
				"-n: '%s' is not a whole number of iterations "
				"from 1 to %llu",
				arg, IG_MAX_ITERATIONS);
		o->iters_given = true;
		break;
	case IG_OPT_WARMUP:
		ret = parse_secs("--warmup", arg, &p->warmup_ns, err, errlen) ||
		      cap("--warmup", arg, p->warmup_ns, 0,
			  IG_MAX_WARMUP_S * IG_NSEC_PER_SEC, "0 to 60 seconds",
			  err, errlen);
		break;
	case IG_OPT_TIMEOUT:
		ret = ig_testopt_timeout_arg(arg, &p->timeout_ms, err, errlen);
		break;
	case IG_OPT_TX_DEPTH:
		ret = parse_u32("--tx-depth", arg, &p->verbs.tx_depth, err,
				errlen) ||
		      cap("--tx-depth", arg, p->verbs.tx_depth, 1,
			  IG_MAX_TX_DEPTH, "1 to 8192", err, errlen);
		break;
	case IG_OPT_CQ_MOD:
		ret = parse_u32("--cq-mod", arg, &p->verbs.cq_mod, err,
				errlen) ||
		      cap("--cq-mod", arg, p->verbs.cq_mod, 1, IG_MAX_TX_DEPTH,
			  "1 to --tx-depth", err, errlen);
		break;
	case IG_OPT_INLINE:
		ret = parse_bytes("--inline", arg, &v, err, errlen) ||
		      cap("--inline", arg, v, 0, 1024, "0 to 1024", err,
			  errlen);
		p->verbs.inline_size =
			(uint32_t)(v > UINT32_MAX ? UINT32_MAX : v);
		break;
	case IG_OPT_OUTS:
		ret = parse_u32("--outs", arg, &p->verbs.outs, err, errlen) ||
		      cap("--outs", arg, p->verbs.outs, 0, IG_MAX_OUTS,
			  "0 (the devices' maximum) to 255", err, errlen);
		break;
	case IG_OPT_BIDIR:
		p->bidir = 1;
		break;
	case IG_OPT_EVENTS:
		p->verbs.events = 1;
		break;
	case 'R':
		p->reverse = 1;
		break;
	}
	return ret ? -EINVAL : 0;
}

int ig_testopt(int c, const char *arg, struct ig_testopts *o, char *err,
	       size_t errlen)
{
	switch (c) {
	case 't':
		o->tests_given = true;
		return parse_tests(arg, o, err, errlen);
	case 'P':
	case IG_OPT_WINDOW:
		return list_opt(c, arg, o, err, errlen);
	case 'D':
	case 'n':
	case IG_OPT_WARMUP:
	case IG_OPT_TIMEOUT:
	case IG_OPT_TX_DEPTH:
	case IG_OPT_CQ_MOD:
	case IG_OPT_INLINE:
	case IG_OPT_OUTS:
	case IG_OPT_BIDIR:
	case IG_OPT_EVENTS:
	case 'R':
		return param_opt(c, arg, o, err, errlen);
	case IG_OPT_DEVICE:
	case IG_OPT_IB_PORT:
	case IG_OPT_GID_INDEX:
	case IG_OPT_CPU:
		return local_opt(c, arg, o->local, err, errlen);
	default:
		return 1;
	}
}

int ig_testopt_finish(const struct ig_testopts *o, char *err, size_t errlen)
{
	char list[IG_TEST_COUNT * 12] = "";
	size_t len = 0;

	if (!o->p->reverse)
		return 0;
	if (o->p->bidir)
		return ig_fail(-EINVAL, err, errlen,
			       "-R and --bidir together: choose one (--bidir "
			       "measures both directions, -R server -> client "
			       "alone)");
	for (unsigned int i = 0; i < *o->ntests; i++) {
		if (ig_test_pattern(o->tests[i]) == IG_PATTERN_BW)
			return 0;
		len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s",
					i ? "," : "",
					ig_test_name(o->tests[i]));
	}
	return ig_fail(-EINVAL, err, errlen,
		       "-R: no bandwidth test in -t %s: -R is for the _bw "
		       "tests (a ping-pong has no direction)",
		       list);
}
