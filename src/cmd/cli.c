// SPDX-License-Identifier: MIT
/* Command-line parsing of "ibgap client" and "ibgap server". */
#include <errno.h>
#include <getopt.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "common/clock.h"
#include "common/repeat.h"

enum {
	OPT_WARMUP = 256,
	OPT_WINDOW,
	OPT_FORMAT,
	OPT_TIMEOUT,
	OPT_TX_DEPTH,
	OPT_CQ_MOD,
	OPT_INLINE,
	OPT_ONCE,
	OPT_DEVICE,
	OPT_IB_PORT,
	OPT_GID_INDEX,
	OPT_CPU,
	OPT_REPEAT,
	OPT_CONFIDENCE,
	OPT_PLOT,
	OPT_SAVE_BASELINE,
	OPT_BASELINE,
	OPT_TOLERANCE,
	OPT_BIDIR,
	OPT_AUTH_FILE,
};

int ig_cli_fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* getopt leaves an unknown short option in optopt; for a long option
 * (optopt 0, or its value >= 256 when its argument is missing) the word
 * is argv[optind - 1]. */
int ig_cli_bad_option(char **argv, int opt, char *err, size_t errlen)
{
	if (opt > 0 && opt < 256)
		return ig_cli_fail(
			err, errlen,
			"option '-%c' is unknown or lacks its value: "
			"see --help",
			opt);
	return ig_cli_fail(err, errlen,
			   "option '%s' is unknown or lacks its value: see "
			   "--help",
			   argv[optind - 1]);
}

static int parse_tests(const char *arg, struct ig_client_opts *o, char *err,
		       size_t errlen)
{
	char buf[256], *save = NULL, *tok;

	if (strlen(arg) >= sizeof(buf))
		return ig_cli_fail(err, errlen,
				   "-t: the list is too long (%zu characters)",
				   strlen(arg));
	strcpy(buf, arg);
	o->ntests = 0;
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		int t = ig_test_parse(tok);

		if (t < 0)
			return ig_cli_fail(
				err, errlen,
				"-t: unknown test '%s': allowed tcp_bw, tcp_lat, "
				"send_bw, write_bw, send_lat, write_lat",
				tok);
		if (o->ntests == IG_TEST_COUNT)
			return ig_cli_fail(err, errlen,
					   "-t: more than %d tests in '%s'",
					   IG_TEST_COUNT, arg);
		o->tests[o->ntests++] = t;
	}
	if (!o->ntests)
		return ig_cli_fail(err, errlen, "-t: empty test list '%s'",
				   arg);
	return 0;
}

static int parse_u32(const char *opt, const char *arg, uint32_t *v, char *err,
		     size_t errlen)
{
	uint64_t x;

	if (ig_parse_u64(arg, &x) || x > UINT32_MAX)
		return ig_cli_fail(
			err, errlen,
			"%s: '%s' is not a whole number from 0 to %u", opt, arg,
			UINT32_MAX);
	*v = (uint32_t)x;
	return 0;
}

static int parse_secs(const char *opt, const char *arg, uint64_t *ns, char *err,
		      size_t errlen)
{
	if (ig_parse_seconds(arg, ns))
		return ig_cli_fail(
			err, errlen,
			"%s: '%s' is not a number of seconds (e.g. 10 or 0.5)",
			opt, arg);
	return 0;
}

static int parse_bytes(const char *opt, const char *arg, uint64_t *v, char *err,
		       size_t errlen)
{
	if (ig_parse_size(arg, v))
		return ig_cli_fail(
			err, errlen,
			"%s: '%s' is not a byte count: use digits with an "
			"optional K, M or G suffix (powers of two)",
			opt, arg);
	return 0;
}

int ig_cli_port(const char *arg, char *err, size_t errlen)
{
	uint64_t v;

	if (ig_parse_u64(arg, &v) || v < 1 || v > 65535)
		return ig_cli_fail(err, errlen,
				   "-p: '%s' is not a port: allowed 1 to 65535",
				   arg);
	return 0;
}

static const struct option client_longopts[] = {
	{ "port", required_argument, NULL, 'p' },
	{ "tests", required_argument, NULL, 't' },
	{ "size", required_argument, NULL, 's' },
	{ "duration", required_argument, NULL, 'D' },
	{ "iterations", required_argument, NULL, 'n' },
	{ "warmup", required_argument, NULL, OPT_WARMUP },
	{ "streams", required_argument, NULL, 'P' },
	{ "window", required_argument, NULL, OPT_WINDOW },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "output", required_argument, NULL, 'o' },
	{ "timeout", required_argument, NULL, OPT_TIMEOUT },
	{ "tx-depth", required_argument, NULL, OPT_TX_DEPTH },
	{ "cq-mod", required_argument, NULL, OPT_CQ_MOD },
	{ "inline", required_argument, NULL, OPT_INLINE },
	{ "device", required_argument, NULL, OPT_DEVICE },
	{ "ib-port", required_argument, NULL, OPT_IB_PORT },
	{ "gid-index", required_argument, NULL, OPT_GID_INDEX },
	{ "cpu", required_argument, NULL, OPT_CPU },
	{ "repeat", required_argument, NULL, OPT_REPEAT },
	{ "confidence", required_argument, NULL, OPT_CONFIDENCE },
	{ "plot", required_argument, NULL, OPT_PLOT },
	{ "save-baseline", required_argument, NULL, OPT_SAVE_BASELINE },
	{ "baseline", required_argument, NULL, OPT_BASELINE },
	{ "tolerance", required_argument, NULL, OPT_TOLERANCE },
	{ "bidir", no_argument, NULL, OPT_BIDIR },
	{ "auth-file", required_argument, NULL, OPT_AUTH_FILE },
	{ "help", no_argument, NULL, 'h' },
	{}
};

static int local_opt(int c, const char *arg, struct ig_local_opts *l, char *err,
		     size_t errlen)
{
	uint64_t v;

	switch (c) {
	case OPT_DEVICE:
		if (!*arg || strlen(arg) >= sizeof(l->device))
			return ig_cli_fail(
				err, errlen,
				"--device: '%s' is not a device name: give one "
				"that ibv_devices lists (1 to %zu characters)",
				arg, sizeof(l->device) - 1);
		strcpy(l->device, arg);
		return 0;
	case OPT_IB_PORT:
		if (ig_parse_u64(arg, &v) || v < 1 || v > 255)
			return ig_cli_fail(
				err, errlen,
				"--ib-port: '%s' is not an HCA port: allowed 1 "
				"to 255",
				arg);
		l->ib_port = (int)v;
		return 0;
	case OPT_GID_INDEX:
		if (ig_parse_u64(arg, &v) || v > 65535)
			return ig_cli_fail(
				err, errlen,
				"--gid-index: '%s' is not a GID index: allowed 0 "
				"to 65535",
				arg);
		l->gid_index = (int)v;
		return 0;
	default:
		if (ig_parse_u64(arg, &v) || v >= CPU_SETSIZE)
			return ig_cli_fail(
				err, errlen,
				"--cpu: '%s' is not a CPU number: allowed 0 to "
				"%d",
				arg, CPU_SETSIZE - 1);
		l->cpu = (int)v;
		return 0;
	}
}

int ig_cli_timeout(const char *arg, uint64_t ns, uint32_t *ms, char *err,
		   size_t errlen)
{
	if (ns < 100 * 1000000ull || ns > IG_MAX_TIMEOUT_MS * 1000000ull)
		return ig_cli_fail(err, errlen,
				   "--timeout: '%s' is out of range: allowed "
				   "0.1 to %d seconds",
				   arg, IG_MAX_TIMEOUT_MS / 1000);
	*ms = (uint32_t)(ns / 1000000);
	return 0;
}

static int timeout_opt(const char *arg, uint32_t *ms, char *err, size_t errlen)
{
	uint64_t ns;

	if (parse_secs("--timeout", arg, &ns, err, errlen))
		return -EINVAL;
	return ig_cli_timeout(arg, ns, ms, err, errlen);
}

static int one_size(const char *arg, const char *tok, uint64_t *v, char *err,
		    size_t errlen)
{
	if (ig_parse_size(tok, v))
		return ig_cli_fail(
			err, errlen,
			"-s: '%s' in '%s' is not a byte count: use digits with "
			"an optional K, M or G suffix (powers of two)",
			tok, arg);
	if (*v < 1 || *v > IG_MAX_SIZE)
		return ig_cli_fail(
			err, errlen,
			"-s: '%s' in '%s' is out of range: allowed 1 to 64M",
			tok, arg);
	return 0;
}

/* A sweep "A:B": powers of two from A to B. */
static int size_range(const char *arg, char *colon, struct ig_client_opts *o,
		      char *err, size_t errlen)
{
	uint64_t lo, hi;

	*colon = 0;
	if (one_size(arg, o->sizes_buf, &lo, err, errlen) ||
	    one_size(arg, colon + 1, &hi, err, errlen))
		return -EINVAL;
	if (lo > hi)
		return ig_cli_fail(err, errlen,
				   "-s: '%s' runs backwards: give SMALL:LARGE",
				   arg);
	o->nsizes = 0;
	for (uint64_t v = lo; v <= hi; v *= 2) {
		if (o->nsizes == IG_MAX_SIZES)
			return ig_cli_fail(err, errlen,
					   "-s: '%s' gives more than %d sizes",
					   arg, IG_MAX_SIZES);
		o->sizes[o->nsizes++] = v;
	}
	return 0;
}

/* -s SIZE, -s A,B,C or -s A:B */
static int parse_sizes(const char *arg, struct ig_client_opts *o, char *err,
		       size_t errlen)
{
	char *tok, *save = NULL, *colon;

	if (strlen(arg) >= sizeof(o->sizes_buf))
		return ig_cli_fail(err, errlen,
				   "-s: the list is too long (%zu characters)",
				   strlen(arg));
	strcpy(o->sizes_buf, arg);
	colon = strchr(o->sizes_buf, ':');
	if (colon)
		return size_range(arg, colon, o, err, errlen);
	o->nsizes = 0;
	for (tok = strtok_r(o->sizes_buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (o->nsizes == IG_MAX_SIZES)
			return ig_cli_fail(err, errlen,
					   "-s: more than %d sizes in '%s'",
					   IG_MAX_SIZES, arg);
		if (one_size(arg, tok, &o->sizes[o->nsizes++], err, errlen))
			return -EINVAL;
	}
	if (!o->nsizes)
		return ig_cli_fail(err, errlen, "-s: no size in '%s'", arg);
	return 0;
}

static int parse_confidence(const char *arg, struct ig_client_opts *o,
			    char *err, size_t errlen)
{
	unsigned int level;
	double width;
	int n = 0;

	if (sscanf(arg, "%u,%lf%n", &level, &width, &n) != 2 || arg[n] ||
	    (level != 95 && level != 99) || !(width > 0) || width > 1000)
		return ig_cli_fail(
			err, errlen,
			"--confidence: '%s' is not LEVEL,WIDTH: LEVEL 95 or 99, "
			"WIDTH the interval's full width in percent of the mean "
			"(e.g. 99,5 for +/-2.5%%)",
			arg);
	o->conf_level = level;
	o->conf_width = width;
	return 0;
}

static int analysis_opt(int c, const char *arg, struct ig_client_opts *o,
			char *err, size_t errlen)
{
	uint64_t v;
	char *end;

	switch (c) {
	case OPT_REPEAT:
		if (ig_parse_u64(arg, &v) || v < 1 || v > IG_MAX_REPEAT)
			return ig_cli_fail(
				err, errlen,
				"--repeat: '%s' is not a number of runs from 1 "
				"to %d",
				arg, IG_MAX_REPEAT);
		o->repeat = (unsigned int)v;
		return 0;
	case OPT_CONFIDENCE:
		return parse_confidence(arg, o, err, errlen);
	case OPT_PLOT:
		o->plot = arg;
		return 0;
	case OPT_SAVE_BASELINE:
		o->save_baseline = arg;
		return 0;
	case OPT_BASELINE:
		o->baseline = arg;
		return 0;
	default:
		o->tolerance = strtod(arg, &end);
		if (!*arg || *end || !(o->tolerance >= 0) ||
		    o->tolerance > 1000)
			return ig_cli_fail(
				err, errlen,
				"--tolerance: '%s' is not a percentage from 0 to "
				"1000",
				arg);
		return 0;
	}
}

/* An option's value against its cap, naming the value as the user typed
 * it. */
static int cap(const char *opt, const char *arg, uint64_t v, uint64_t lo,
	       uint64_t hi, const char *allowed, char *err, size_t errlen)
{
	if (v >= lo && v <= hi)
		return 0;
	return ig_cli_fail(err, errlen, "%s: '%s' is out of range: allowed %s",
			   opt, arg, allowed);
}

/* The options that set the test parameters (struct ig_params). */
static int param_opt(int c, const char *arg, struct ig_client_opts *o,
		     bool *iters_given, char *err, size_t errlen)
{
	struct ig_params *p = &o->p;
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
			return ig_cli_fail(
				err, errlen,
				"-n: '%s' is not a whole number of iterations "
				"from 1 to %llu",
				arg, IG_MAX_ITERATIONS);
		*iters_given = true;
		break;
	case OPT_WARMUP:
		ret = parse_secs("--warmup", arg, &p->warmup_ns, err, errlen) ||
		      cap("--warmup", arg, p->warmup_ns, 0,
			  IG_MAX_WARMUP_S * IG_NSEC_PER_SEC, "0 to 60 seconds",
			  err, errlen);
		break;
	case 'P':
		ret = parse_u32("-P", arg, &p->streams, err, errlen) ||
		      cap("-P", arg, p->streams, 1, IG_MAX_STREAMS, "1 to 64",
			  err, errlen);
		break;
	case OPT_WINDOW:
		ret = parse_bytes("--window", arg, &p->window, err, errlen) ||
		      cap("--window", arg, p->window, 1, IG_MAX_WINDOW,
			  "1 to 1G", err, errlen);
		break;
	case OPT_TIMEOUT:
		ret = timeout_opt(arg, &p->timeout_ms, err, errlen);
		break;
	case OPT_TX_DEPTH:
		ret = parse_u32("--tx-depth", arg, &p->tx_depth, err, errlen) ||
		      cap("--tx-depth", arg, p->tx_depth, 1, IG_MAX_TX_DEPTH,
			  "1 to 8192", err, errlen);
		break;
	case OPT_CQ_MOD:
		ret = parse_u32("--cq-mod", arg, &p->cq_mod, err, errlen) ||
		      cap("--cq-mod", arg, p->cq_mod, 1, IG_MAX_TX_DEPTH,
			  "1 to --tx-depth", err, errlen);
		break;
	case OPT_INLINE:
		ret = parse_bytes("--inline", arg, &v, err, errlen) ||
		      cap("--inline", arg, v, 0, 1024, "0 to 1024", err,
			  errlen);
		p->inline_size = (uint32_t)(v > UINT32_MAX ? UINT32_MAX : v);
		break;
	case OPT_BIDIR:
		p->bidir = 1;
		break;
	}
	return ret ? -EINVAL : 0;
}

static int client_opt(int c, const char *arg, struct ig_client_opts *o,
		      bool *iters_given, char *err, size_t errlen)
{
	int ret = 0;

	switch (c) {
	case 'p':
		o->port = arg;
		ret = ig_cli_port(arg, err, errlen);
		break;
	case 't':
		ret = parse_tests(arg, o, err, errlen);
		o->tests_given = true;
		break;
	case 's':
		ret = parse_sizes(arg, o, err, errlen);
		o->p.size = o->sizes[0];
		o->size_given = true;
		break;
	case 'D':
	case 'n':
	case OPT_WARMUP:
	case 'P':
	case OPT_WINDOW:
	case OPT_TIMEOUT:
	case OPT_TX_DEPTH:
	case OPT_CQ_MOD:
	case OPT_INLINE:
	case OPT_BIDIR:
		ret = param_opt(c, arg, o, iters_given, err, errlen);
		break;
	case OPT_FORMAT:
		ret = ig_format_parse(arg);
		if (ret < 0)
			return ig_cli_fail(
				err, errlen,
				"--format: '%s' is not a format: allowed text, "
				"json, csv",
				arg);
		o->format = ret;
		ret = 0;
		break;
	case 'o':
		o->outfile = arg;
		break;
	case OPT_DEVICE:
	case OPT_IB_PORT:
	case OPT_GID_INDEX:
	case OPT_CPU:
		ret = local_opt(c, arg, &o->local, err, errlen);
		break;
	case OPT_AUTH_FILE:
		o->auth_file = arg; /* loaded (and checked) by the client run */
		break;
	case OPT_REPEAT:
	case OPT_CONFIDENCE:
	case OPT_PLOT:
	case OPT_SAVE_BASELINE:
	case OPT_BASELINE:
	case OPT_TOLERANCE:
		ret = analysis_opt(c, arg, o, err, errlen);
		break;
	default:
		return ig_cli_fail(err, errlen,
				   "unknown option: see 'ibgap client --help'");
	}
	return ret ? -EINVAL : 0;
}

static int client_finish(struct ig_client_opts *o, bool iters_given, char *err,
			 size_t errlen)
{
	char why[256];

	if (iters_given)
		o->p.duration_ns = 0;
	if (ig_params_check(&o->p, why, sizeof(why)))
		return ig_cli_fail(err, errlen, "bad option value: %s", why);
	return 0;
}

int ig_cli_client(int argc, char **argv, struct ig_client_opts *o, char *err,
		  size_t errlen)
{
	bool iters_given = false;
	int c, ret;

	memset(o, 0, sizeof(*o));
	ig_params_default(&o->p);
	ig_local_opts_default(&o->local);
	o->tests[0] = IG_TEST_TCP_BW;
	o->tests[1] = IG_TEST_TCP_LAT;
	o->ntests = 2;
	o->format = IG_FMT_TEXT;
	o->tolerance = 5;
	o->sizes[0] = o->p.size;
	o->nsizes = 1;
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "p:t:s:D:n:P:o:h", client_longopts,
				NULL)) != -1) {
		if (c == 'h')
			return 1;
		if (c == '?' || c == ':')
			return ig_cli_bad_option(argv, optopt, err, errlen);
		ret = client_opt(c, optarg, o, &iters_given, err, errlen);
		if (ret)
			return ret;
	}
	if (optind == argc)
		return ig_cli_fail(
			err, errlen,
			"client needs a HOST argument: ibgap client HOST "
			"[options]");
	if (optind < argc - 1)
		return ig_cli_fail(
			err, errlen,
			"client takes one HOST, got '%s' and also '%s'",
			argv[optind], argv[optind + 1]);
	o->host = argv[optind];
	return client_finish(o, iters_given, err, errlen);
}

static const struct option server_longopts[] = {
	{ "port", required_argument, NULL, 'p' },
	{ "bind", required_argument, NULL, 'B' },
	{ "once", no_argument, NULL, OPT_ONCE },
	{ "timeout", required_argument, NULL, OPT_TIMEOUT },
	{ "auth-file", required_argument, NULL, OPT_AUTH_FILE },
	{ "help", no_argument, NULL, 'h' },
	{}
};

int ig_cli_server(int argc, char **argv, struct ig_server_opts *o, char *err,
		  size_t errlen)
{
	uint32_t ms;
	int c;

	memset(o, 0, sizeof(*o));
	o->timeout_ms = IG_DEFAULT_TIMEOUT_MS;
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "p:B:h", server_longopts, NULL)) !=
	       -1) {
		switch (c) {
		case 'h':
			return 1;
		case 'p':
			o->port = optarg;
			if (ig_cli_port(optarg, err, errlen))
				return -EINVAL;
			break;
		case 'B':
			o->bind = optarg;
			break;
		case OPT_ONCE:
			o->once = true;
			break;
		case OPT_TIMEOUT:
			if (timeout_opt(optarg, &ms, err, errlen))
				return -EINVAL;
			o->timeout_ms = (int)ms;
			break;
		case OPT_AUTH_FILE:
			o->auth_file = optarg; /* loaded by ig_server_new */
			break;
		default:
			return ig_cli_bad_option(argv, optopt, err, errlen);
		}
	}
	if (optind != argc)
		return ig_cli_fail(
			err, errlen,
			"server takes no positional argument, got '%s'",
			argv[optind]);
	return 0;
}
