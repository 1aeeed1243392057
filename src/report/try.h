/* SPDX-License-Identifier: MIT */
#ifndef IG_REPORT_TRY_H
#define IG_REPORT_TRY_H

/*
 * What `ibgap doctor HOST --try` planned and measured (docs/design.md,
 * "Trials"): the trials (a finding's fix on the side where it was found,
 * or a change of the measurement that touches no setting), the baseline,
 * each trial's figures and verdict, the fixes that helped together, the
 * verbs ceiling.  src/trial/ fills it; this folder prints it as text,
 * as JSON (schema "ibgap-try/1") and as snippets a person can keep.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <json-c/json.h>

#include "common/repeat.h"
#include "doctor/doctor.h"
#include "tune/tune.h"

enum ig_try_side {
	IG_TRY_HERE,  /* this host */
	IG_TRY_THERE, /* the server's host, through the server */
};

enum ig_try_kind {
	IG_TRY_TUNE,	/* changes of settings (the finding's trial) */
	IG_TRY_STREAMS, /* the measurement with -P 4 */
	IG_TRY_WINDOW,	/* the measurement with a larger --window */
	IG_TRY_NUMA,	/* the process on the HCA's NUMA node's CPUs */
};

/* The figures of a trial: tcp_bw (Gb/s, higher is better) and tcp_lat
 * (p50 us, lower is better). */
enum ig_try_metric {
	IG_TRY_BW,
	IG_TRY_LAT,
	IG_TRY_NMETRIC,
};

/* One measurement of the plan (each figure pooled over --repeat runs). */
struct ig_try_meas {
	bool ok[IG_TRY_NMETRIC];
	struct ig_repeat m[IG_TRY_NMETRIC];
};

#define IG_TRY_ID_LEN 40
/* a trial's changes: a finding's (IG_DR_MAX_CHANGES), or the combined
 * fixes of both sides */
#define IG_TRY_MAX_CHANGES 16
#define IG_TRY_WHY_LEN 256

struct ig_try_item {
	char id[IG_TRY_ID_LEN]; /* finding id, or "run.streams" ... */
	enum ig_try_side side;
	enum ig_try_kind kind;
	unsigned int seq; /* its place in the plan */
	unsigned int n;	  /* IG_TRY_TUNE: the changes, made together */
	struct ig_tune_change c[IG_TRY_MAX_CHANGES];
	enum ig_try_side cside[IG_TRY_MAX_CHANGES]; /* each change's side */
	/* not "": not tried, and why (not allowed by the server, down/up,
	 * the finding's own reason) */
	char not_tried[IG_TRY_WHY_LEN];
	/* not "": it was tried and failed (apply or measure), the error */
	char error[IG_TRY_WHY_LEN];
	bool ran; /* applied and measured */
	bool restored[IG_TRY_MAX_CHANGES];
	bool kept; /* --keep: left applied (the combined fixes) */
	struct ig_try_meas after;
	struct ig_change d[IG_TRY_NMETRIC]; /* against the baseline */
};

#define IG_TRY_MAX_ITEMS 64

struct ig_try_doc {
	char host[256]; /* HOST as given */
	char addr[64];	/* its address as connected */
	bool dry_run;
	bool keep;
	unsigned int repeat; /* runs per measurement */
	bool measured;	     /* the baseline ran */
	struct ig_try_meas base;
	/* the verbs ceiling (write_bw, Gb/s), or why there is none */
	bool has_ceiling;
	struct ig_repeat ceiling;
	char ceiling_why[IG_TRY_WHY_LEN];
	struct ig_try_item t[IG_TRY_MAX_ITEMS];
	size_t n;
	/* the changes that helped, applied together (n == 0: none helped) */
	struct ig_try_item combined;
	/* interrupted, an error that ended it ("the run ended at ID: ERROR") */
	char note[IG_TRY_WHY_LEN + IG_TRY_ID_LEN + 32];
};

const char *ig_try_side_name(enum ig_try_side s);
/* t changed settings, ran, and helped tcp_bw: one of the combined
 * fixes, and of the snippets. */
bool ig_try_helped(const struct ig_try_item *t);

/* The plan: every trial, each change and its reverse (from known: the
 * value read; else "the value read before the change"), per side; and
 * what is not tried, with the reason. */
void ig_try_print_plan(FILE *f, const struct ig_try_doc *d);
/* The results as a table, the combined line, the snippets. */
void ig_try_print(FILE *f, const struct ig_try_doc *d);
/* For the fixes that helped: a sysctl.d file, a TuneD profile's sections,
 * the other commands; printed, never written into the system. */
void ig_try_print_snippets(FILE *f, const struct ig_try_doc *d);
/* {"schema": "ibgap-try/1", ...}; NULL when out of memory. */
json_object *ig_try_doc_to_json(const struct ig_try_doc *d);

#endif
