// SPDX-License-Identifier: MIT
/* Reports: a table for people, one JSON document, or CSV; the writers are
 * report_text.c, report_json.c and report_csv.c. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "report_int.h"

const char *const ig_format_names[] = {
	[IG_FMT_TEXT] = "text",
	[IG_FMT_JSON] = "json",
	[IG_FMT_CSV] = "csv",
	[IG_FMT_OPENMETRICS] = "openmetrics",
	NULL,
};

int ig_format_parse(const char *s)
{
	for (size_t i = 0; s && ig_format_names[i]; i++)
		if (!strcmp(s, ig_format_names[i]))
			return (int)i;
	return -EINVAL;
}

int ig_report_write(FILE *f, enum ig_format fmt,
		    const struct ig_report_env *env,
		    const struct ig_result *res, size_t n)
{
	int ret;

	if (!f || !env || (n && !res)) {
		fprintf(stderr, "ibgap: report: internal error: %s is NULL\n",
			!f     ? "the output stream"
			: !env ? "env"
			       : "res");
		return -EINVAL;
	}
	switch (fmt) {
	case IG_FMT_TEXT:
		ret = ig_rep_text(f, env, res, n);
		break;
	case IG_FMT_JSON:
		ret = ig_rep_json(f, env, res, n);
		break;
	case IG_FMT_CSV:
		ret = ig_rep_csv(f, env, res, n);
		break;
	case IG_FMT_OPENMETRICS:
		ret = ig_rep_om(f, env, res, n);
		break;
	default:
		fprintf(stderr,
			"ibgap: report: unknown format %d (text, json, csv or "
			"openmetrics)\n",
			(int)fmt);
		return -EINVAL;
	}
	if (ret)
		return ret;
	errno = 0;
	if (fflush(f) || ferror(f)) {
		ret = errno ? -errno : -EIO;
		fprintf(stderr,
			"ibgap: report: writing %zu results failed: %s\n", n,
			strerror(-ret));
		return ret;
	}
	return 0;
}
