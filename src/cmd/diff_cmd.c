// SPDX-License-Identifier: MIT
/* "ibgap diff OLD.json NEW.json [--tolerance PCT]": two saved reports. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "report/baseline.h"
#include "usage.h"

struct diff_args {
	const char *old_path;
	const char *new_path;
	double tol;
};

static int tolerance_arg(const char *val, double *tol, char *err, size_t errlen)
{
	if (!val)
		return ig_cli_fail(
			err, errlen,
			"option '--tolerance' lacks its value: a percentage, "
			"e.g. --tolerance 5");
	if (ig_baseline_tolerance_parse(val, tol))
		return ig_cli_fail(
			err, errlen,
			"--tolerance '%s': want a percentage from 0 to %g, "
			"e.g. 5 or 2.5",
			val, IG_BASELINE_MAX_TOL);
	return 0;
}

static int positional(const char *arg, struct diff_args *a, char *err,
		      size_t errlen)
{
	if (!a->old_path)
		a->old_path = arg;
	else if (!a->new_path)
		a->new_path = arg;
	else
		return ig_cli_fail(
			err, errlen,
			"two files are compared, OLD and NEW: got '%s', '%s' "
			"and also '%s'",
			a->old_path, a->new_path, arg);
	return 0;
}

/* 0, 1 when help was asked for, or -EINVAL with one line in err. */
static int parse_args(int argc, char **argv, struct diff_args *a, char *err,
		      size_t errlen)
{
	bool opts = true;
	int ret;

	*a = (struct diff_args){ .tol = IG_BASELINE_DEFAULT_TOL };
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i];

		if (opts && !strcmp(arg, "--")) {
			opts = false;
		} else if (opts &&
			   (!strcmp(arg, "-h") || !strcmp(arg, "--help"))) {
			return 1;
		} else if (opts && !strcmp(arg, "--tolerance")) {
			ret = tolerance_arg(i + 1 < argc ? argv[++i] : NULL,
					    &a->tol, err, errlen);
			if (ret)
				return ret;
		} else if (opts && !strncmp(arg, "--tolerance=", 12)) {
			ret = tolerance_arg(arg + 12, &a->tol, err, errlen);
			if (ret)
				return ret;
		} else if (opts && arg[0] == '-' && arg[1]) {
			return ig_cli_fail(
				err, errlen,
				"option '%s' is unknown: allowed --tolerance PCT "
				"and --help",
				arg);
		} else if (positional(arg, a, err, errlen)) {
			return -EINVAL;
		}
	}
	if (!a->new_path)
		return ig_cli_fail(
			err, errlen,
			"two files are needed, OLD and NEW: ibgap diff OLD.json "
			"NEW.json [--tolerance PCT]");
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
		return fputs(ig_usage_diff, stdout), IG_DIFF_OK;
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
	printf("old %s, new %s, tolerance %g%%\n", a.old_path, a.new_path,
	       a.tol);
	ret = ig_baseline_compare(od, nd, a.tol, stdout);
	json_object_put(od);
	json_object_put(nd);
	if (ret < 0)
		return IG_DIFF_BADFILE;
	return ret ? IG_DIFF_REGRESSION : IG_DIFF_OK;
}
