// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: the loader of saved JSON reports (--baseline, ibgap
 * diff; docs/design.md, "Fuzzing").  The input is a file's bytes.
 *
 * ig_baseline_parse() either refuses it with one error line, or returns a
 * document that ig_baseline_compare() can walk: compared with itself, it
 * finds no regression (every metric changes by 0 %).  The comparison is
 * written to /dev/null.  A broken invariant aborts, which libFuzzer
 * reports as a crash; leaks are reported by LeakSanitizer.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/baseline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MUST(cond)                                                       \
	do {                                                             \
		if (!(cond)) {                                           \
			fprintf(stderr,                                  \
				"fuzz_baseline: %s:%d: invariant: %s\n", \
				__FILE__, __LINE__, #cond);              \
			abort();                                         \
		}                                                        \
	} while (0)

/* Opened once: the harness's only state, never freed (the process ends). */
static FILE *devnull(void)
{
	static FILE *f;

	if (!f)
		f = fopen("/dev/null", "w");
	MUST(f);
	return f;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_object *doc = NULL;
	char err[512] = "";
	int ret;

	ret = ig_baseline_parse((const char *)data, size, &doc, err,
				sizeof(err));
	if (ret) {
		MUST(ret < 0 && !doc);
		MUST(err[0] && !strchr(err, '\n'));
		return 0;
	}
	MUST(doc);
	ret = ig_baseline_compare(doc, doc, IG_BASELINE_DEFAULT_TOL, devnull());
	/* with itself: nothing lost; nothing compared when it has no
	 * metric at all */
	MUST(ret == IG_DIFF_OK || ret == IG_DIFF_INCOMPLETE || ret == -ENOMEM);
	json_object_put(doc);
	return 0;
}
