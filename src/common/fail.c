// SPDX-License-Identifier: MIT
/* One error line into the caller's buffer (fail.h). */
#include <stdarg.h>
#include <stdio.h>

#include "fail.h"

int ig_fail(int ret, char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return ret;
}
