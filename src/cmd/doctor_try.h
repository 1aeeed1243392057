/* SPDX-License-Identifier: MIT */
#ifndef IG_DOCTOR_TRY_H
#define IG_DOCTOR_TRY_H

/* ibgap doctor's command line (doctor_main.c) and its --try, --dry-run
 * and --undo (doctor_try.c, docs/design.md "Trials"). */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/hostport.h"
#include "common/opttab.h"
#include "common/params.h"
#include "common/repeat.h"

/* --try's runs per measurement unless --repeat says */
#define IG_TRY_DEFAULT_REPEAT 3

struct dcli {
	const char *host, *port, *root, *auth_file;
	struct ig_hostport hp; /* HOST split; host (and port) point here */
	bool json;
	uint64_t window;
	int timeout_ms;
	/* --try [IDS], --dry-run, --keep, --journal, --undo, -o */
	bool try_given, ids_next, dry_run, keep, undo;
	const char *try_ids, *journal, *outfile;
	const char *ctrl; /* --ctrl ADDR: the control connection's host */
	/* the measurements' options (-D, --repeat, --confidence) */
	struct ig_params p;
	struct ig_local_opts local;
	struct ig_repeat_opts rep;
};

/* The options that go with --try, --dry-run and --undo, and -o's file:
 * 0 or -EINVAL with one line in err. */
int ig_doctor_try_check(const struct ig_optparse *ps, const struct dcli *o,
			char *err, size_t errlen);
/* HOST's numeric address into buf: 0, or -EHOSTUNREACH with one line on
 * stderr. */
int ig_doctor_resolve(const char *host, char *buf, size_t len);
/* --undo, --dry-run or --try: the exit status. */
int ig_doctor_try(struct dcli *o);

#endif
