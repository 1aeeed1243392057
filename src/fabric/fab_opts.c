// SPDX-License-Identifier: MIT
/* ibgap-fabric's command line: the options of a test mean what they mean
 * for "ibgap client" (common/testopt.h); the rest are the fabric's. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/clock.h"
#include "common/fail.h"
#include "common/testopt.h"
#include "fab.h"
#include "plot/plot.h"

enum {
	OPT_PATTERN = IG_OPT_NEXT,
	OPT_ROUNDS,
	OPT_ROOT,
	OPT_BOTH,
	OPT_RETEST,
	OPT_NO_RETEST,
	OPT_BW_TOL,
	OPT_LAT_TOL,
	OPT_ADDR,
	OPT_FORMAT,
	OPT_PLOT,
	OPT_SAVE_BASELINE,
	OPT_BASELINE,
	OPT_TOLERANCE,
};

static const struct option longopts[] = {
	IG_TESTOPT_LONGOPTS,
	{ "size", required_argument, NULL, 's' },
	{ "port", required_argument, NULL, 'p' },
	{ "pattern", required_argument, NULL, OPT_PATTERN },
	{ "rounds", required_argument, NULL, OPT_ROUNDS },
	{ "root", required_argument, NULL, OPT_ROOT },
	{ "both-directions", no_argument, NULL, OPT_BOTH },
	{ "retest", no_argument, NULL, OPT_RETEST },
	{ "no-retest", no_argument, NULL, OPT_NO_RETEST },
	{ "bw-tol", required_argument, NULL, OPT_BW_TOL },
	{ "lat-tol", required_argument, NULL, OPT_LAT_TOL },
	{ "addr", required_argument, NULL, OPT_ADDR },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "output", required_argument, NULL, 'o' },
	{ "plot", required_argument, NULL, OPT_PLOT },
	{ "save-baseline", required_argument, NULL, OPT_SAVE_BASELINE },
	{ "baseline", required_argument, NULL, OPT_BASELINE },
	{ "tolerance", required_argument, NULL, OPT_TOLERANCE },
	{ "help", no_argument, NULL, 'h' },
	{}
};

void ig_fab_usage(FILE *f)
{
	fputs("usage: mpirun -np N [--map-by node] ibgap-fabric [options]\n"
	      "       srun -N N --ntasks-per-node=1 ibgap-fabric [options]\n"
	      "Measures verbs and TCP between many host pairs at once and "
	      "names the bad nodes.\n"
	      "  --pattern P        pairs (default), ring, bisection, incast\n"
	      "  --rounds K         only the first K rounds (pairs, ring)\n"
	      "  --root R           incast's target rank (default 0)\n"
	      "  --both-directions  bandwidth tests a->b and b->a\n"
	      "  --no-retest        do not measure flagged pairs again\n"
	      "  --bw-tol F         flag below F x the median bandwidth "
	      "(0.9)\n"
	      "  --lat-tol F        flag above F x the median p50 latency "
	      "(2)\n"
	      "  -t LIST            tests (default write_bw,tcp_bw,send_lat,"
	      "tcp_lat;\n"
	      "                     verbs tests only where both have RDMA)\n"
	      "  -s SIZE  -D SECS  -n N  -P N  --window B  --warmup SECS\n"
	      "  --timeout SECS  --tx-depth N  --cq-mod N  --inline B\n"
	      "  --device D  --ib-port N  --gid-index N  --cpu N  --events\n"
	      "  -R  --bidir\n"
	      "                     as for 'ibgap client' (-D default 1)\n"
	      "  -p, --port P       each rank's server: the first free port "
	      "from P (18516)\n"
	      "  --addr CIDR|IFACE  the data address (default: the first "
	      "active RDMA\n"
	      "                     port's netdev, else the first address "
	      "that is up)\n"
	      "  --format text|json  -o FILE (rewritten after every round)\n"
	      "  --plot FILE.svg|png  heat map of bandwidth, verbs and TCP\n"
	      "  --save-baseline F  --baseline F  --tolerance PCT (5)\n",
	      f);
}

static int parse_double(const char *opt, const char *arg, double lo, double hi,
			double *v, char *err, size_t errlen)
{
	char *end;

	*v = strtod(arg, &end);
	if (end == arg || *end || !(*v >= lo && *v <= hi))
		return ig_fail(-EINVAL, err, errlen,
			       "%s: '%s' is not a number from %g to %g", opt,
			       arg, lo, hi);
	return 0;
}

static int parse_uint(const char *opt, const char *arg, uint64_t lo,
		      uint64_t hi, unsigned int *v, char *err, size_t errlen)
{
	uint64_t x;

	if (ig_parse_u64(arg, &x) || x < lo || x > hi)
		return ig_fail(-EINVAL, err, errlen,
			       "%s: '%s' is not a whole number from %llu to "
			       "%llu",
			       opt, arg, (unsigned long long)lo,
			       (unsigned long long)hi);
	*v = (unsigned int)x;
	return 0;
}

static int pattern_opt(const char *arg, struct ig_fab_opts *o, char *err,
		       size_t errlen)
{
	int p = ig_fab_pattern_parse(arg);

	if (p < 0)
		return ig_fail(-EINVAL, err, errlen,
			       "--pattern: '%s' is not a pattern: allowed "
			       "pairs, ring, bisection, incast",
			       arg);
	o->pattern = p;
	return 0;
}

static int format_opt(const char *arg, struct ig_fab_opts *o, char *err,
		      size_t errlen)
{
	if (strcmp(arg, "text") && strcmp(arg, "json"))
		return ig_fail(-EINVAL, err, errlen,
			       "--format: '%s' is not a format: allowed text, "
			       "json",
			       arg);
	o->json = !strcmp(arg, "json");
	return 0;
}

/* the same names as ibgap client's --plot (plot/plot.h) */
static int plot_opt(const char *arg, struct ig_fab_opts *o, char *err,
		    size_t errlen)
{
	int ret = ig_plot_format(arg, err, errlen);

	if (ret < 0)
		return ret;
	o->plot = arg;
	return 0;
}

static int size_opt(const char *arg, struct ig_fab_opts *o, char *err,
		    size_t errlen)
{
	o->size_given = true;
	return ig_testopt_size(arg, arg, &o->p.size, err, errlen);
}

/* The fabric's own options, one by one. */
static int fab_opt(int c, const char *arg, struct ig_fab_opts *o, char *err,
		   size_t errlen)
{
	unsigned int v = 0;

	switch (c) {
	case 's':
		return size_opt(arg, o, err, errlen);
	case 'p':
		if (parse_uint("-p", arg, 1, 65535, &v, err, errlen))
			return -EINVAL;
		o->port = (int)v;
		return 0;
	case 'o':
		o->outfile = arg;
		return 0;
	case OPT_PATTERN:
		return pattern_opt(arg, o, err, errlen);
	case OPT_ROUNDS:
		return parse_uint("--rounds", arg, 1, 1u << 20, &o->rounds, err,
				  errlen);
	case OPT_ROOT:
		return parse_uint("--root", arg, 0, 1u << 20, &o->root, err,
				  errlen);
	case OPT_BOTH:
		o->both = true;
		return 0;
	case OPT_RETEST:
	case OPT_NO_RETEST:
		o->retest = c == OPT_RETEST;
		return 0;
	case OPT_BW_TOL:
		return parse_double("--bw-tol", arg, 0.01, 1, &o->tol.bw, err,
				    errlen);
	case OPT_LAT_TOL:
		return parse_double("--lat-tol", arg, 1, 1000, &o->tol.lat, err,
				    errlen);
	case OPT_ADDR:
		o->addr = arg;
		return 0;
	case OPT_FORMAT:
		return format_opt(arg, o, err, errlen);
	case OPT_PLOT:
		return plot_opt(arg, o, err, errlen);
	case OPT_SAVE_BASELINE:
		o->save_baseline = arg;
		return 0;
	case OPT_BASELINE:
		o->baseline = arg;
		return 0;
	case OPT_TOLERANCE:
		return parse_double("--tolerance", arg, 0, 1000, &o->tolerance,
				    err, errlen);
	default:
		return ig_fail(-EINVAL, err, errlen,
			       "unknown option: see 'ibgap-fabric --help'");
	}
}

static void defaults(struct ig_fab_opts *o)
{
	static const enum ig_test tests[] = { IG_TEST_WRITE_BW, IG_TEST_TCP_BW,
					      IG_TEST_SEND_LAT,
					      IG_TEST_TCP_LAT };

	memset(o, 0, sizeof(*o));
	ig_params_default(&o->p);
	o->p.duration_ns = IG_NSEC_PER_SEC;
	o->p.warmup_ns = IG_NSEC_PER_SEC / 4;
	ig_local_opts_default(&o->local);
	memcpy(o->tests, tests, sizeof(tests));
	o->ntests = sizeof(tests) / sizeof(*tests);
	o->retest = true;
	o->tol = (struct ig_fab_tol){ .bw = 0.9, .lat = 2.0 };
	o->port = IG_FAB_DEFAULT_PORT;
	o->tolerance = 5;
}

static int finish(struct ig_fab_opts *o, bool iters, char *err, size_t errlen)
{
	char why[256];

	if (iters)
		o->p.duration_ns = 0;
	if (o->baseline && o->save_baseline &&
	    !strcmp(o->baseline, o->save_baseline))
		return ig_fail(-EINVAL, err, errlen,
			       "--baseline and --save-baseline name the same "
			       "file '%s': give two",
			       o->baseline);
	if (ig_params_check(&o->p, why, sizeof(why)))
		return ig_fail(-EINVAL, err, errlen, "bad option value: %s",
			       why);
	return 0;
}

int ig_fab_opts_parse(int argc, char **argv, struct ig_fab_opts *o, char *err,
		      size_t errlen)
{
	struct ig_testopts t;
	int c, ret;

	defaults(o);
	t = (struct ig_testopts){ .p = &o->p,
				  .local = &o->local,
				  .tests = o->tests,
				  .ntests = &o->ntests };
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "s:p:o:h" IG_TESTOPT_SHORT,
				longopts, NULL)) != -1) {
		if (c == 'h')
			return 1;
		if (c == '?' || c == ':')
			return ig_fail(-EINVAL, err, errlen,
				       "option '%s' is unknown or lacks its "
				       "value: see --help",
				       argv[optind - 1]);
		ret = ig_testopt(c, optarg, &t, err, errlen);
		if (ret == 1)
			ret = fab_opt(c, optarg, o, err, errlen);
		if (ret)
			return ret;
	}
	if (optind != argc)
		return ig_fail(-EINVAL, err, errlen,
			       "ibgap-fabric takes no positional argument, "
			       "got '%s'",
			       argv[optind]);
	o->tests_given = t.tests_given;
	if (ig_testopt_finish(&t, err, errlen))
		return -EINVAL;
	return finish(o, t.iters_given, err, errlen);
}
