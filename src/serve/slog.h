/* SPDX-License-Identifier: MIT */
#ifndef IG_SLOG_H
#define IG_SLOG_H

#include <stdarg.h>
#include <stdbool.h>

/* One line of the server's log on stderr, "TIME ibgap server: TEXT"
 * (UTC), written whole; nothing when quiet (the in-process servers). */
void ig_slog(bool quiet, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void ig_vslog(bool quiet, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

#endif
