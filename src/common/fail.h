/* SPDX-License-Identifier: MIT */
#ifndef IG_FAIL_H
#define IG_FAIL_H

#include <stddef.h>

/*
 * Writes one error line, printf-style, into err[0..errlen) and returns ret,
 * for "return ig_fail(-EINVAL, err, errlen, "size %zu ...", n);".
 */
int ig_fail(int ret, char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
