/* SPDX-License-Identifier: MIT */
#ifndef IG_TESTMAIN_H
#define IG_TESTMAIN_H

#include <check.h>
#include <stdlib.h>

/* Every unit test program's main: runs the suite, exit status 0 when no
 * test failed. */
static inline int run_suite(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
