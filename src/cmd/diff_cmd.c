// SPDX-License-Identifier: MIT
/* "ibgap diff OLD.json NEW.json [--tolerance PCT]": two saved reports. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "common/opttab.h"
#include "commands.h"
#include "report/baseline.h"
#include "usage.h"

struct diff_args {
	const char *old_path;
	const char *new_path;
	double tol;
};

static int tolerance_opt(struct ig_optparse *ps, const struct ig_opt *r,
			 const char *arg, char *err, size_t errlen)
{
	struct diff_args *a = ps->obj[0];

	if (ig_baseline_tolerance_parse(arg, &a->tol))
		return ig_fail(
			-EINVAL, err, errlen,
			"--tolerance '%s': want a percentage from 0 to %g, "
			"e.g. 5 or 2.5",
			arg, ig_opt_row(r)->hi);
	return 0;
}

/* clang-format off */
static const struct ig_opt rows[] = {
	{ "tolerance", 0, IG_OPT_DOUBLE, .lo = 0, .hi = IG_BASELINE_MAX_TOL,
	  .call = tolerance_opt, .arg = "PCT",
	  .help = "a metric worse by more than PCT percent is a regression "
		  "(default 5, at most 1000)" },
};
/* clang-format on */

static void usage(FILE *f)
{
	fputs(ig_usage_diff, f);
	ig_opt_usage(f, rows, sizeof(rows) / sizeof(*rows));
	fputs(ig_usage_diff_exit, f);
}

/* 0, 1 when help was asked for, or -EINVAL with one line in err. */
static int parse_args(int argc, char **argv, struct diff_args *a, char *err,
		      size_t errlen)
{
	struct ig_optparse ps = { .rows = rows,
				  .nrows = sizeof(rows) / sizeof(*rows),
				  .obj = { a } };
	int ret;

	*a = (struct diff_args){ .tol = IG_BASELINE_DEFAULT_TOL };
	ret = ig_opt_parse(&ps, argc, argv, err, errlen);
	if (ret)
		return ret;
	if (ps.npositional > 2)
		return ig_fail(
			-EINVAL, err, errlen,
			"two files are compared, OLD and NEW: got '%s', '%s' "
			"and also '%s'",
			ps.positional[0], ps.positional[1], ps.positional[2]);
	if (ps.npositional < 2)
		return ig_fail(
			-EINVAL, err, errlen,
			"two files are needed, OLD and NEW: ibgap diff OLD.json "
			"NEW.json [--tolerance PCT]");
	a->old_path = ps.positional[0];
	a->new_path = ps.positional[1];
	return 0;
}

int ig_cmd_diff(int argc, char **argv)
{
	json_object *od = NULL, *nd = NULL;
	struct diff_args a;
	char err[512];
	int ret;

	ret = parse_args(argc, argv, &a, err, sizeof(err));
	if (ret == 1)
		return usage(stdout), IG_DIFF_OK;
	if (ret) {
		fprintf(stderr, "ibgap diff: %s\n", err);
		return IG_DIFF_USAGE;
	}
	if (ig_baseline_load(a.old_path, &od, err, sizeof(err)) ||
	    ig_baseline_load(a.new_path, &nd, err, sizeof(err))) {
		fprintf(stderr, "ibgap diff: %s\n", err);
		json_object_put(od);
		return IG_DIFF_BADFILE;
	}
	if (ig_baseline_partial(od))
		fprintf(stderr,
			"ibgap diff: warning: OLD '%s' is of an interrupted "
			"run (results marked partial): no fair reference\n",
			a.old_path);
	printf("old %s, new %s, tolerance %g%%\n", a.old_path, a.new_path,
	       a.tol);
	ret = ig_baseline_compare(od, nd, a.tol, stdout);
	json_object_put(od);
	json_object_put(nd);
	return ret < 0 ? IG_DIFF_BADFILE : ret;
}
