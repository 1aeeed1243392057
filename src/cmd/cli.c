// SPDX-License-Identifier: MIT
/* Command-line parsing of "ibgap client" and "ibgap server". */
#include <arpa/inet.h>
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
#include "common/testopt.h"

enum {
	OPT_FORMAT = IG_OPT_NEXT,
	OPT_ONCE,
	OPT_REPEAT,
	OPT_CONFIDENCE,
	OPT_PLOT,
	OPT_SAVE_BASELINE,
	OPT_BASELINE,
	OPT_TOLERANCE,
	OPT_AUTH_FILE,
	OPT_ZEROCOPY,
	OPT_ALSO,
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
	IG_TESTOPT_LONGOPTS,
	{ "port", required_argument, NULL, 'p' },
	{ "size", required_argument, NULL, 's' },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "output", required_argument, NULL, 'o' },
	{ "repeat", required_argument, NULL, OPT_REPEAT },
	{ "confidence", required_argument, NULL, OPT_CONFIDENCE },
	{ "plot", required_argument, NULL, OPT_PLOT },
	{ "save-baseline", required_argument, NULL, OPT_SAVE_BASELINE },
	{ "baseline", required_argument, NULL, OPT_BASELINE },
	{ "tolerance", required_argument, NULL, OPT_TOLERANCE },
	{ "auth-file", required_argument, NULL, OPT_AUTH_FILE },
	{ "zerocopy", optional_argument, NULL, OPT_ZEROCOPY },
	{ "also", required_argument, NULL, OPT_ALSO },
	{ "help", no_argument, NULL, 'h' },
	{}
};

static const char *const zc_modes[] = {
	[IG_ZC_OFF] = "off",
	[IG_ZC_ON] = "on",
	[IG_ZC_BOTH] = "both",
};

static int zc_mode(const char *arg)
{
	for (int i = 0; i < (int)(sizeof(zc_modes) / sizeof(zc_modes[0])); i++)
		if (!strcmp(arg, zc_modes[i]))
			return i;
	return -EINVAL;
}

static int zc_fail(const char *arg, char *err, size_t errlen)
{
	return ig_cli_fail(err, errlen,
			   "--zerocopy: '%s' is not a mode: allowed on (the "
			   "same as no value), off, both",
			   arg);
}

/*
 * --zerocopy[=MODE] or --zerocopy MODE: the next word is taken when it
 * is a mode; another word is left as HOST, and remembered in *word so
 * that a second HOST that is that word is blamed on --zerocopy.
 */
static int zerocopy_opt(int argc, char **argv, struct ig_client_opts *o,
			const char **word, char *err, size_t errlen)
{
	const char *arg = optarg;
	int m;

	if (!arg && optind < argc && zc_mode(argv[optind]) >= 0)
		arg = argv[optind++];
	else if (!arg && optind < argc && argv[optind][0] != '-')
		*word = argv[optind];
	m = arg ? zc_mode(arg) : IG_ZC_ON;
	if (m < 0)
		return zc_fail(arg, err, errlen);
	o->local.sock.zerocopy = (enum ig_zc_mode)m;
	return 0;
}

/* A sweep "A:B": powers of two from A to B. */
static int size_range(const char *arg, char *colon, struct ig_client_opts *o,
		      char *err, size_t errlen)
{
	uint64_t lo, hi;

	*colon = 0;
	if (ig_testopt_size(arg, o->sizes_buf, &lo, err, errlen) ||
	    ig_testopt_size(arg, colon + 1, &hi, err, errlen))
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
		if (ig_testopt_size(arg, tok, &o->sizes[o->nsizes++], err,
				    errlen))
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

/* --also ADDR: a numeric IPv4 or IPv6 address, the column "tcp@ADDR". */
static int also_opt(const char *arg, struct ig_client_opts *o, char *err,
		    size_t errlen)
{
	unsigned char buf[sizeof(struct in6_addr)];

	if (inet_pton(AF_INET, arg, buf) != 1 &&
	    inet_pton(AF_INET6, arg, buf) != 1)
		return ig_cli_fail(err, errlen,
				   "--also: '%s' is not an address: allowed a "
				   "numeric IPv4 or IPv6 address of the "
				   "server (e.g. 192.0.2.7)",
				   arg);
	o->also = arg;
	snprintf(o->also_label, sizeof(o->also_label), "tcp@%s", arg);
	return 0;
}

static int client_opt(int c, const char *arg, struct ig_client_opts *o,
		      char *err, size_t errlen)
{
	int ret = 0;

	switch (c) {
	case 'p':
		o->port = arg;
		ret = ig_cli_port(arg, err, errlen);
		break;
	case 's':
		ret = parse_sizes(arg, o, err, errlen);
		o->p.size = o->sizes[0];
		o->size_given = true;
		break;
	case OPT_FORMAT:
		ret = ig_format_parse(arg);
		if (ret < 0)
			return ig_cli_fail(
				err, errlen,
				"--format: '%s' is not a format: allowed text, "
				"json, csv, openmetrics",
				arg);
		o->format = ret;
		ret = 0;
		break;
	case 'o':
		o->outfile = arg;
		break;
	case OPT_AUTH_FILE:
		o->auth_file = arg; /* loaded (and checked) by the client run */
		break;
	case OPT_ALSO:
		ret = also_opt(arg, o, err, errlen);
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

static bool has_test(const struct ig_client_opts *o, enum ig_test t)
{
	for (unsigned int i = 0; i < o->ntests; i++)
		if (o->tests[i] == t)
			return true;
	return false;
}

static int client_finish(struct ig_client_opts *o, bool iters_given, char *err,
			 size_t errlen)
{
	char why[256];

	const struct ig_testopt_lists *l = &o->lists;
	unsigned int combos = o->nsizes * l->nstreams * l->nwindows;
	struct ig_params p;

	if (o->local.sock.zerocopy != IG_ZC_OFF && !has_test(o, IG_TEST_TCP_BW))
		return ig_cli_fail(err, errlen,
				   "--zerocopy %s: it is tcp_bw's sender, and "
				   "-t has no tcp_bw: add it",
				   zc_modes[o->local.sock.zerocopy]);
	if (o->also && o->tests_given && !has_test(o, IG_TEST_TCP_BW) &&
	    !has_test(o, IG_TEST_TCP_LAT))
		return ig_cli_fail(err, errlen,
				   "--also %s: it runs the tcp tests again, "
				   "and -t has neither tcp_bw nor tcp_lat: add "
				   "one",
				   o->also);
	if (iters_given)
		o->p.duration_ns = 0;
	if (combos > IG_MAX_COMBOS)
		return ig_cli_fail(
			err, errlen,
			"-s, -P, --window: %u sizes x %u streams x %u windows "
			"= %u combinations: allowed at most %d (shorten a list)",
			o->nsizes, l->nstreams, l->nwindows, combos,
			IG_MAX_COMBOS);
	for (unsigned int i = 0; i < l->nstreams; i++) {
		p = o->p;
		p.streams = l->streams[i];
		if (ig_params_check(&p, why, sizeof(why)))
			return ig_cli_fail(err, errlen, "bad option value: %s",
					   why);
	}
	return 0;
}

int ig_cli_client(int argc, char **argv, struct ig_client_opts *o, char *err,
		  size_t errlen)
{
	struct ig_testopts t = { .p = &o->p,
				 .local = &o->local,
				 .lists = &o->lists,
				 .tests = o->tests,
				 .ntests = &o->ntests };
	const char *zc_word = NULL;
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
	ig_testopt_lists_init(&o->lists, &o->p);
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "p:s:o:h" IG_TESTOPT_SHORT,
				client_longopts, NULL)) != -1) {
		if (c == 'h')
			return 1;
		if (c == '?' || c == ':')
			return ig_cli_bad_option(argv, optopt, err, errlen);
		if (c == OPT_ZEROCOPY) {
			if (zerocopy_opt(argc, argv, o, &zc_word, err, errlen))
				return -EINVAL;
			continue;
		}
		ret = ig_testopt(c, optarg, &t, err, errlen);
		if (ret == 1)
			ret = client_opt(c, optarg, o, err, errlen);
		if (ret)
			return ret;
	}
	if (optind == argc)
		return ig_cli_fail(
			err, errlen,
			"client needs a HOST argument: ibgap client HOST "
			"[options]");
	if (optind < argc - 1 && zc_word &&
	    (!strcmp(argv[optind], zc_word) ||
	     !strcmp(argv[optind + 1], zc_word)))
		return zc_fail(zc_word, err, errlen);
	if (optind < argc - 1)
		return ig_cli_fail(
			err, errlen,
			"client takes one HOST, got '%s' and also '%s'",
			argv[optind], argv[optind + 1]);
	o->host = argv[optind];
	o->tests_given = t.tests_given;
	if (ig_testopt_finish(&t, err, errlen))
		return -EINVAL;
	return client_finish(o, t.iters_given, err, errlen);
}

static const struct option server_longopts[] = {
	{ "port", required_argument, NULL, 'p' },
	{ "bind", required_argument, NULL, 'B' },
	{ "once", no_argument, NULL, OPT_ONCE },
	{ "timeout", required_argument, NULL, IG_OPT_TIMEOUT },
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
		case IG_OPT_TIMEOUT:
			if (ig_testopt_timeout_arg(optarg, &ms, err, errlen))
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
