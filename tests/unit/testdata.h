/* SPDX-License-Identifier: MIT */
/* The unit tests' data directory: IG_TEST_DATA (ctest sets it), else
 * tests/data found from this header's path. */
#ifndef IG_TESTDATA_H
#define IG_TESTDATA_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline void data_path(char *buf, size_t len, const char *rel)
{
	const char *d = getenv("IG_TEST_DATA");
	int n;

	if (d && *d) {
		n = snprintf(buf, len, "%s/%s", d, rel);
	} else {
		const char *f = __FILE__, *slash = strrchr(f, '/');
		int dl = slash ? (int)(slash - f) : 1;

		n = snprintf(buf, len, "%.*s/../data/%s", dl, slash ? f : ".",
			     rel);
	}
	ck_assert_int_lt(n, (int)len);
}

#endif
