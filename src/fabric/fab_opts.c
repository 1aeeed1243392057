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
#include "common/file.h"
#include "common/opttab.h"
#include "common/testopt.h"
#include "fab.h"
#include "plot/plot.h"
#include "transports/transports.h"

/* the same names as ibgap client's --plot (plot/plot.h) */
static int plot_opt(struct ig_optparse *ps, const struct ig_opt *r,
		    const char *arg, char *err, size_t errlen)
{
	struct ig_fab_opts *o = ps->obj[IG_TO_CMD];
	int ret = ig_plot_format(arg, err, errlen);

	if (ret < 0)
		return ret;
	o->plot = arg;
	return 0;
}

static int size_opt(struct ig_optparse *ps, const struct ig_opt *r,
		    const char *arg, char *err, size_t errlen)
{
	struct ig_fab_opts *o = ps->obj[IG_TO_CMD];
	double v;

	if (ig_opt_value(r, arg, &v, err, errlen))
		return -EINVAL;
	o->p.size = (uint64_t)v;
	o->size_given = true;
	return 0;
}

/* --rails, --rails=LIST or --rails LIST (the next word that is no
 * option: the fabric takes no positional argument) */
static int rails_opt(struct ig_optparse *ps, const struct ig_opt *r,
		     const char *arg, char *err, size_t errlen)
{
	struct ig_fab_opts *o = ps->obj[IG_TO_CMD];

	(void)r;
	o->rails = true;
	if (!arg && optind < ps->argc && ps->argv[optind][0] != '-')
		arg = ps->argv[optind++];
	return ig_rails_list_arg(arg, &o->rails_list, err, errlen);
}

#define F(member) .obj = IG_TO_CMD, IG_OPT_AT(struct ig_fab_opts, member)

static const char *const formats[] = { "text", "json", NULL };

/* clang-format off */
static const struct ig_opt rows[] = {
	{ "pattern", 0, IG_OPT_ENUM, F(pattern), .names = ig_fab_pattern_names,
	  .what = "a pattern", .arg = "P",
	  .help = "pairs (default), ring, bisection, incast, leaves (needs "
		  "--topology), sample" },
	{ "rounds", 0, IG_OPT_UINT, F(rounds), .lo = 1, .hi = 1u << 20,
	  .arg = "K", .help = "only the first K rounds (pairs, ring)" },
	{ "root", 0, IG_OPT_UINT, F(root), .lo = 0, .hi = 1u << 20, .arg = "R",
	  .help = "incast's target rank (default 0)" },
	{ "per-node", 0, IG_OPT_UINT, F(per_node), .lo = 1, .hi = 1u << 20,
	  .arg = "K", .help = "sample: K partners a node (default 3)" },
	{ "budget", 0, IG_OPT_DOUBLE, F(budget), .lo = 0.1, .hi = 100000,
	  .arg = "MIN", .help = "sample: the largest K that fits MIN minutes" },
	{ "seed", 0, IG_OPT_UINT, F(seed), .lo = 0, .hi = 4294967295.0,
	  .arg = "S", .help = "sample: the seed of its random pairs" },
	{ "both-directions", 0, IG_OPT_FLAG, F(both),
	  .help = "bandwidth tests a->b and b->a" },
	{ "retest", 0, IG_OPT_FLAG, F(retest) },
	{ "no-retest", 0, IG_OPT_FLAG, F(retest), .clear = true,
	  .help = "do not measure flagged pairs again" },
	{ "bw-tol", 0, IG_OPT_DOUBLE, F(tol.bw), .lo = 0.01, .hi = 1,
	  .arg = "F", .help = "flag below F x the median bandwidth (0.9)" },
	{ "lat-tol", 0, IG_OPT_DOUBLE, F(tol.lat), .lo = 1, .hi = 1000,
	  .arg = "F", .help = "flag above F x the median p50 latency (2)" },
	{ .ref = IG_TESTOPT(TESTS),
	  .help = "tests (default write_bw,tcp_bw,send_lat,tcp_lat; verbs "
		  "tests only where both have RDMA); as for 'ibgap client'" },
	{ "size", 's', IG_OPT_SIZE, .lo = 1, .hi = IG_MAX_SIZE,
	  .call = size_opt, .arg = "SIZE",
	  .help = "message size (default 64K for bandwidth, 2 for latency)" },
	{ .ref = IG_TESTOPT(DURATION),
	  .help = "measured interval (default 1)" },
	IG_TESTOPT_ROW(ITERATIONS),
	{ .ref = IG_TESTOPT(WARMUP),
	  .help = "excluded warm-up before measuring (0.25)" },
	{ .ref = IG_TESTOPT(STREAMS),
	  .help = "TCP connections / QPs (default 1)" },
	{ .ref = IG_XPORT_WINDOW_ROW,
	  .help = "SO_SNDBUF/SO_RCVBUF of TCP streams" },
	IG_TESTOPT_ROW(BIDIR),
	IG_TESTOPT_ROW(REVERSE),
	IG_XPORT_OPT_ROWS,
	IG_TESTOPT_ROW(CPU),
	IG_TESTOPT_ROW(TIMEOUT),
	IG_TESTOPT_ROW(REPEAT),
	IG_TESTOPT_ROW(CONFIDENCE),
	{ "port", 'p', IG_OPT_UINT, F(port), .lo = 1, .hi = 65535, .arg = "P",
	  .help = "each rank's server: the first free port from P (18516)" },
	{ "addr", 0, IG_OPT_STRING, F(addr), .arg = "CIDR|IFACE",
	  .help = "the data address (default: the first active RDMA port's "
		  "netdev, else the first address that is up)" },
	{ "rails", 0, IG_OPT_STRING, .optional = true, .call = rails_opt,
	  .arg = "[all|LIST]",
	  .help = "each pair on each rail pair (every ACTIVE port, or LIST's "
		  "devices; paired by subnet, else index); flagged rails "
		  "named node:device" },
	{ "format", 0, IG_OPT_ENUM, F(json), .names = formats,
	  .what = "a format", .arg = "FMT", .help = "text or json" },
	{ "output", 'o', IG_OPT_STRING, F(outfile), .arg = "FILE",
	  .help = "write the report to FILE (rewritten after every round)" },
	{ "plot", 0, IG_OPT_STRING, .call = plot_opt, .arg = "FILE",
	  .help = "heat maps of bandwidth and latency, verbs and TCP, "
		  ".svg/.png" },
	{ "save-baseline", 0, IG_OPT_STRING, F(save_baseline), .arg = "F",
	  .help = "save the JSON report to F" },
	{ "baseline", 0, IG_OPT_STRING, F(baseline), .arg = "F",
	  .help = "compare with the saved F; exit 1 when a pair is worse "
		  "than --tolerance" },
	{ "tolerance", 0, IG_OPT_DOUBLE, F(tolerance), .lo = 0, .hi = 1000,
	  .arg = "PCT", .help = "with --baseline: the percentage (default 5)" },
	{ "topology", 0, IG_OPT_STRING, F(topology), .arg = "FILE",
	  .help = "Slurm's topology.conf or ibnetdiscover's output: blame "
		  "links and switches" },
	{ "drain", 0, IG_OPT_FLAG, F(drain),
	  .help = "under srun: drain each flagged node (scontrol, reason "
		  "\"ibgap: ...\"; never over someone else's reason)" },
	{ "resume", 0, IG_OPT_FLAG, F(resume),
	  .help = "alone, without mpirun or srun: return to service the "
		  "nodes whose reason ibgap wrote" },
};
/* clang-format on */

void ig_fab_usage(FILE *f)
{
	fputs("usage: mpirun -np N [--map-by node] ibgap-fabric [options]\n"
	      "       srun -N N --ntasks-per-node=1 --mpi=pmix ibgap-fabric "
	      "[options] [--drain]\n"
	      "       ibgap-fabric --resume\n"
	      "Measures verbs and TCP between many host pairs at once and "
	      "names the bad nodes.\n",
	      f);
	ig_opt_usage(f, rows, sizeof(rows) / sizeof(*rows));
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

/* --resume takes no other option: 0, or -EINVAL naming the first other. */
static int resume_alone(const struct ig_optparse *ps, char *err, size_t errlen)
{
	char lb[64];

	for (unsigned int i = 0; i < ps->ngiven; i++) {
		const struct ig_opt *r = ps->given[i];

		if (r->name && !strcmp(r->name, "resume"))
			continue;
		return ig_fail(-EINVAL, err, errlen,
			       "--resume runs alone (ibgap-fabric --resume, "
			       "without mpirun or srun): %s is not for it",
			       ig_opt_label(r, lb, sizeof(lb)));
	}
	return 0;
}

/* --per-node, --budget, --seed: with --pattern sample alone, and one of
 * the first two. */
static int sample_opts(const struct ig_optparse *ps, struct ig_fab_opts *o,
		       char *err, size_t errlen)
{
	static const char *const only[] = { "per-node", "budget", "seed" };

	for (unsigned int i = 0; o->pattern != IG_FAB_SAMPLE && i < 3; i++)
		if (ig_opt_given(ps, only[i]))
			return ig_fail(-EINVAL, err, errlen,
				       "--%s: only with --pattern sample (the "
				       "pattern is %s)",
				       only[i],
				       ig_fab_pattern_name(o->pattern));
	if (o->pattern == IG_FAB_SAMPLE && ig_opt_given(ps, "rounds"))
		return ig_fail(-EINVAL, err, errlen,
			       "--rounds: not with --pattern sample (its "
			       "rounds are --per-node's)");
	if (ig_opt_given(ps, "per-node") && ig_opt_given(ps, "budget"))
		return ig_fail(-EINVAL, err, errlen,
			       "--budget and --per-node: give one (--budget "
			       "picks --per-node)");
	o->seed_given = ig_opt_given(ps, "seed");
	return 0;
}

static int finish(const struct ig_optparse *ps, struct ig_fab_opts *o,
		  bool iters, char *err, size_t errlen)
{
	char why[256];

	if (sample_opts(ps, o, err, errlen))
		return -EINVAL;
	if (iters)
		o->p.duration_ns = 0;
	if (o->resume && resume_alone(ps, err, errlen))
		return -EINVAL;
	if (ig_opt_needs(ps, "tolerance", "baseline", err, errlen))
		return -EINVAL;
	if (o->rails && (ig_opt_given(ps, "device") ||
			 ig_opt_given(ps, "ib-port") || o->addr))
		return ig_fail(-EINVAL, err, errlen,
			       "--rails with %s: --rails runs each rail's "
			       "device and address; give one or the other",
			       o->addr			    ? "--addr"
			       : ig_opt_given(ps, "device") ? "--device"
							    : "--ib-port");
	if (o->pattern == IG_FAB_LEAVES && !o->topology)
		return ig_fail(-EINVAL, err, errlen,
			       "--pattern leaves needs --topology FILE: the "
			       "leaves are the topology's");
	if (ig_xport_opts_check(ps, o->tests, o->ntests, err, errlen))
		return -EINVAL;
	if (o->baseline && o->save_baseline &&
	    !strcmp(o->baseline, o->save_baseline))
		return ig_fail(-EINVAL, err, errlen,
			       "--baseline and --save-baseline name the same "
			       "file '%s': give two",
			       o->baseline);
	if (ig_params_check(IG_TESTS, &o->p, why, sizeof(why)))
		return ig_fail(-EINVAL, err, errlen, "bad option value: %s",
			       why);
	return 0;
}

int ig_fab_opts_parse(int argc, char **argv, struct ig_fab_opts *o, char *err,
		      size_t errlen)
{
	struct ig_optparse ps = { .rows = rows,
				  .nrows = sizeof(rows) / sizeof(*rows),
				  .obj = { o } };
	struct ig_testopts t;
	int ret;

	defaults(o);
	t = (struct ig_testopts){ .tt = IG_TESTS,
				  .p = &o->p,
				  .local = &o->local,
				  .rep = &o->rep,
				  .tests = o->tests,
				  .ntests = &o->ntests };
	ig_testopt_bind(&ps, &t);
	ret = ig_opt_parse(&ps, argc, argv, err, errlen);
	if (ret)
		return ret;
	if (ps.npositional)
		return ig_fail(-EINVAL, err, errlen,
			       "ibgap-fabric takes no positional argument, "
			       "got '%s'",
			       ps.positional[0]);
	o->tests_given = t.tests_given;
	if (ig_testopt_finish(&ps, &t, err, errlen))
		return -EINVAL;
	return finish(&ps, o, t.iters_given, err, errlen);
}

int ig_fab_opts_paths(const struct ig_fab_opts *o, char *err, size_t errlen)
{
	const struct ig_file_out out[] = {
		{ "--plot", o->plot },
		{ "-o", o->outfile },
		{ "--save-baseline", o->save_baseline },
	};

	return ig_file_check_outs(out, sizeof(out) / sizeof(*out), err, errlen);
}
