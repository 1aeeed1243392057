/* SPDX-License-Identifier: MIT */
#ifndef IG_TESTOPT_H
#define IG_TESTOPT_H

/*
 * The options that set a test (-t -D -n --warmup -P --timeout --bidir -R
 * --cpu --repeat --confidence): rows of an option table (opttab.h) that
 * "ibgap client" and ibgap-fabric both use, so that each means the same.
 * A transport's own options (--window; --events, --tx-depth, ...) are
 * rows of its folder, which fill the same structs (enum ig_testopt_obj).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "opttab.h"
#include "params.h"
#include "repeat.h"

/* The structs the test options' rows fill: a command's parse sets
 * ps->obj[] with ig_testopt_bind() (its own struct is obj[IG_TO_CMD]). */
enum ig_testopt_obj {
	IG_TO_CMD,
	IG_TO_PARAMS, /* struct ig_params */
	IG_TO_LOCAL,  /* struct ig_local_opts */
	IG_TO_OPTS,   /* struct ig_testopts */
	IG_TO_REPEAT, /* struct ig_repeat_opts */
};

/* The rows, for a command's table: IG_TESTOPT_ROW(DURATION), or with a
 * help of the command's own: { .ref = IG_TESTOPT(DURATION), .help = ...} */
enum ig_testopt_row {
	IG_TR_TESTS,
	IG_TR_DURATION,
	IG_TR_ITERATIONS,
	IG_TR_WARMUP,
	IG_TR_STREAMS,
	IG_TR_BIDIR,
	IG_TR_REVERSE,
	IG_TR_CPU,
	IG_TR_TIMEOUT,
	IG_TR_REPEAT,
	IG_TR_CONFIDENCE,
	IG_TR_COUNT
};

extern const struct ig_opt ig_testopt_rows[IG_TR_COUNT];
#define IG_TESTOPT(name) (&ig_testopt_rows[IG_TR_##name])
#define IG_TESTOPT_ROW(name)            \
	{                               \
		.ref = IG_TESTOPT(name) \
	}
/* --timeout's range, seconds, for the commands whose timeout is no test's */
#define IG_MIN_TIMEOUT_S 0.1
#define IG_MAX_TIMEOUT_S (IG_MAX_TIMEOUT_MS / 1000)

/* -P and --window as lists ("-P 1,2,4,8 --window 85K,256K"): at most
 * IG_MAX_LIST values each, each once, in the order given. */
#define IG_MAX_LIST 16

struct ig_testopt_lists {
	uint32_t streams[IG_MAX_LIST];
	unsigned int nstreams;
	uint64_t windows[IG_MAX_LIST]; /* 0 = the kernel's default */
	unsigned int nwindows;
};

/* Where the options land (the caller's fields). */
struct ig_testopts {
	const struct ig_tests *tt; /* the tests' rows: -t's names */
	struct ig_params *p;
	struct ig_local_opts *local;
	/* NULL: -P and --window take one value (ibgap-fabric), a list is
	 * refused; else the lists (p gets their first values) */
	struct ig_testopt_lists *lists;
	struct ig_repeat_opts *rep; /* --repeat, --confidence (or NULL) */
	enum ig_test *tests;	    /* IG_TEST_COUNT entries, -t */
	unsigned int *ntests;
	bool tests_given; /* -t was given */
	bool iters_given; /* -n was given: iteration mode */
};

/* One value each, p's (streams, window): a plan without lists. */
void ig_testopt_lists_init(struct ig_testopt_lists *l,
			   const struct ig_params *p);

/* Points the test options' rows at o's structs. */
void ig_testopt_bind(struct ig_optparse *ps, struct ig_testopts *o);

/*
 * After the last option (ps: the parse that filled o): the checks that
 * need several of them (-n with -D, -R with --bidir, -R or --bidir with
 * no bandwidth test in -t).  0 or -EINVAL with one line.
 */
/* CPU cpu (arg as written) is one this process may run on (its affinity
 * mask): 0, else -EINVAL with one line naming what (the option), arg and
 * the CPUs allowed. */
int ig_testopt_cpu_check(const char *what, const char *arg, int cpu, char *err,
			 size_t errlen);
int ig_testopt_finish(const struct ig_optparse *ps, const struct ig_testopts *o,
		      char *err, size_t errlen);
/* --window's call (src/sockets' row): a list of windows, "default" the
 * kernel's; p gets the first. */
int ig_testopt_window(struct ig_optparse *ps, const struct ig_opt *row,
		      const char *arg, char *err, size_t errlen);
/* A value of a list (tok of arg) as row r allows it: on a bad one err
 * gets the list it came from.  0 or -EINVAL. */
int ig_testopt_list_value(const struct ig_opt *r, const char *arg,
			  const char *tok, double *v, char *err, size_t errlen);

#endif
