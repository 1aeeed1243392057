/* SPDX-License-Identifier: MIT */
#ifndef IG_TESTOPT_H
#define IG_TESTOPT_H

/*
 * The options that set a test (-t -D -n --warmup -P --window --timeout
 * --tx-depth --cq-mod --inline --bidir -R --events --outs --device --ib-port
 * --gid-index --cpu), parsed the same way for "ibgap client" and
 * ibgap-fabric.
 */

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "params.h"

/* getopt codes of the long-only ones; a command's own long-only options
 * are numbered from IG_OPT_NEXT. */
enum ig_testopt_code {
	IG_OPT_WARMUP = 256,
	IG_OPT_WINDOW,
	IG_OPT_TIMEOUT,
	IG_OPT_TX_DEPTH,
	IG_OPT_CQ_MOD,
	IG_OPT_INLINE,
	IG_OPT_DEVICE,
	IG_OPT_IB_PORT,
	IG_OPT_GID_INDEX,
	IG_OPT_CPU,
	IG_OPT_BIDIR,
	IG_OPT_EVENTS,
	IG_OPT_OUTS,
	IG_OPT_NEXT
};

/* Their short letters, for getopt_long()'s optstring. */
#define IG_TESTOPT_SHORT "t:D:n:P:R"

/* Their rows of a getopt_long() table. */
/* clang-format off */
#define IG_TESTOPT_LONGOPTS						\
	{ "tests", required_argument, NULL, 't' },			\
	{ "duration", required_argument, NULL, 'D' },			\
	{ "iterations", required_argument, NULL, 'n' },			\
	{ "warmup", required_argument, NULL, IG_OPT_WARMUP },		\
	{ "streams", required_argument, NULL, 'P' },			\
	{ "window", required_argument, NULL, IG_OPT_WINDOW },		\
	{ "timeout", required_argument, NULL, IG_OPT_TIMEOUT },		\
	{ "tx-depth", required_argument, NULL, IG_OPT_TX_DEPTH },	\
	{ "cq-mod", required_argument, NULL, IG_OPT_CQ_MOD },		\
	{ "inline", required_argument, NULL, IG_OPT_INLINE },		\
	{ "device", required_argument, NULL, IG_OPT_DEVICE },		\
	{ "ib-port", required_argument, NULL, IG_OPT_IB_PORT },		\
	{ "gid-index", required_argument, NULL, IG_OPT_GID_INDEX },	\
	{ "cpu", required_argument, NULL, IG_OPT_CPU },			\
	{ "bidir", no_argument, NULL, IG_OPT_BIDIR },			\
	{ "events", no_argument, NULL, IG_OPT_EVENTS },			\
	{ "outs", required_argument, NULL, IG_OPT_OUTS },		\
	{ "reverse", no_argument, NULL, 'R' }
/* clang-format on */

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
	struct ig_params *p;
	struct ig_local_opts *local;
	/* NULL: -P and --window take one value (ibgap-fabric), a list is
	 * refused; else the lists (p gets their first values) */
	struct ig_testopt_lists *lists;
	enum ig_test *tests; /* IG_TEST_COUNT entries, -t */
	unsigned int *ntests;
	bool tests_given; /* -t was given */
	bool iters_given; /* -n was given: iteration mode */
};

/* One value each, p's (streams, window): a plan without lists. */
void ig_testopt_lists_init(struct ig_testopt_lists *l,
			   const struct ig_params *p);

/*
 * Applies option c (getopt_long()'s return) with its argument: 0, -EINVAL
 * with one line in err naming the option, the value and what is allowed,
 * or 1 when c is not one of these options.
 */
int ig_testopt(int c, const char *arg, struct ig_testopts *o, char *err,
	       size_t errlen);
/*
 * After the last option: the checks that need several of them (-R with
 * --bidir, -R with no bandwidth test in -t).  0 or -EINVAL with one line.
 */
int ig_testopt_finish(const struct ig_testopts *o, char *err, size_t errlen);
/* One message size tok of -s arg: 1 to IG_MAX_SIZE; 0 or -EINVAL. */
int ig_testopt_size(const char *arg, const char *tok, uint64_t *v, char *err,
		    size_t errlen);
/* --timeout arg, ns as parsed from it: 0.1 s to IG_MAX_TIMEOUT_MS, *ms
 * set; 0 or -EINVAL */
int ig_testopt_timeout(const char *arg, uint64_t ns, uint32_t *ms, char *err,
		       size_t errlen);
/* --timeout arg (seconds) into *ms: 0 or -EINVAL */
int ig_testopt_timeout_arg(const char *arg, uint32_t *ms, char *err,
			   size_t errlen);

#endif
