/* SPDX-License-Identifier: MIT */
#ifndef IG_TRIAL_H
#define IG_TRIAL_H

/*
 * Trials (`ibgap doctor HOST --try`, docs/design.md, "Trials"): a plan of
 * runs with changes between them.  The baseline (tcp_bw, tcp_lat, pooled
 * over --repeat runs), then for each chosen finding its fix applied on its
 * side, the same measurement, the fix put back; then the fixes that
 * helped together; the verbs ceiling last.  The changes go through one
 * ops table per side: this host's journal (local.c) or the server's
 * TRY/UNTRY (remote.c), so that the flow is tested without either.
 * The document it fills is report/try.h's.
 */
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "doctor/doctor.h"
#include "report/try.h"
#include "run/run.h"
#include "tune/journal.h"
#include "wire/ctrl.h"

/* One side's changes. */
struct ig_trial_side {
	/* makes c[0..n) (each c->from filled), all or none: 0, or -errno
	 * with one line in err (nothing is then left changed) */
	int (*apply)(void *ctx, struct ig_tune_change *c, unsigned int n,
		     char *err, size_t len);
	/* puts back what the last apply made (keep: leaves it made and
	 * forgets it); restored[i] per change of that apply.  0 or -errno */
	int (*revert)(void *ctx, bool keep, bool *restored, char *err,
		      size_t len);
	void *ctx;
	/* not "": this side changes nothing (the server refused: its
	 * reason), its trials are listed as not allowed */
	char refused[IG_TRY_WHY_LEN];
	/* the server ended the session at TRY (an ibgap without the
	 * message): the run reconnects (ig_trial_env.reconnect) */
	bool lost;
};

/* Where and how the plan runs. */
struct ig_trial_env {
	struct ig_run_opts ro;	       /* p, local (interrupt), rep, quiet */
	struct ig_ctrl *c;	       /* the held control connection */
	struct ig_trial_side *side[2]; /* by enum ig_try_side; NULL: none */
	bool ceiling;		       /* the path has RDMA: measure write_bw */
	char no_ceiling[IG_TRY_WHY_LEN]; /* else why not */
	bool keep;			 /* --keep */
	const char *numa_cpus; /* the HCA's local CPUs ("" or NULL: none) */
	/* opens the control connection *c again after the server ended the
	 * session: 0 or -errno with one line in err; NULL: the run ends */
	int (*reconnect)(void *ctx, char *err, size_t len);
	void *reconnect_ctx;
};

/* The trials chosen: ids "all" or a comma-separated list of finding ids
 * (and the trials that touch no setting: run.streams, run.window,
 * run.numa); here's and there's (NULL: none) findings.  ctrl_dev: with
 * --ctrl, the netdev of this host that carries the control connection
 * ("" unknown); NULL without --ctrl: then a change that takes its netdev
 * down and up is not tried, and with it only on this host's ctrl_dev
 * (the server refuses its own).
 * 0, or -EINVAL with one line in err naming the unknown id and the ids
 * found. */
int ig_trial_plan(struct ig_try_doc *d, const char *ids,
		  const struct ig_dr_report *here,
		  const struct ig_dr_report *there, const char *ctrl_dev,
		  bool numa, char *err, size_t len);
/* This process may make every change the plan has for this host: 0, or
 * -EPERM with one line in err naming the side and the change. */
int ig_trial_allowed(const struct ig_try_doc *d, char *err, size_t len);
/* The plan has a change to make on side s. */
bool ig_trial_has_changes(const struct ig_try_doc *d, enum ig_try_side s);

/* Runs the plan into d.  0, or the -errno that ended it early (d->note
 * says why; what ran is in d).  Every change is put back (unless --keep
 * for the combined fixes) before it returns, also after an error or the
 * interrupt. */
int ig_trial_run(const struct ig_trial_env *e, struct ig_try_doc *d);

/* This host's side: the journal (opened by the caller before the first
 * change). */
struct ig_trial_local {
	struct ig_journal *j;
	size_t idx[IG_TRY_MAX_CHANGES];
	unsigned int n;
};
void ig_trial_local_side(struct ig_trial_local *l, struct ig_journal *j,
			 struct ig_trial_side *s);

/* The server's side: TRY/UNTRY on c (the first refusal sets
 * s->refused, and the side's later trials are not allowed). */
struct ig_trial_remote {
	struct ig_ctrl *c;
	struct ig_trial_side *side;
	unsigned int n; /* changes of the last TRY */
};
void ig_trial_remote_side(struct ig_trial_remote *r, struct ig_ctrl *c,
			  struct ig_trial_side *s);

/* The server's findings on the held control connection (DOCTOR,
 * FINDINGS) for its address addr (--ctrl's data address; NULL: the
 * control connection's): 0 or a negative errno with one line in err. */
int ig_trial_findings(struct ig_ctrl *c, uint64_t window, const char *addr,
		      struct ig_dr_report *r, char *err, size_t len);

#endif
