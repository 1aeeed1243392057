// SPDX-License-Identifier: MIT
/* The server's log lines (slog.h). */
#include <stdio.h>
#include <time.h>

#include "slog.h"

void ig_vslog(bool quiet, const char *fmt, va_list ap)
{
	char ts[32];
	time_t now = time(NULL);
	struct tm tm;

	if (quiet)
		return;
	strftime(ts, sizeof(ts), "%Y-%m-%dT%H:%M:%S", gmtime_r(&now, &tm));
	flockfile(stderr);
	fprintf(stderr, "%s ibgap server: ", ts);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	funlockfile(stderr);
}

void ig_slog(bool quiet, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ig_vslog(quiet, fmt, ap);
	va_end(ap);
}
