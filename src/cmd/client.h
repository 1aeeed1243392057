/* SPDX-License-Identifier: MIT */
#ifndef IG_CLIENT_H
#define IG_CLIENT_H

#include "wire/auth.h"
#include "cli.h"
#include "wire/ctrl.h"
#include "engine/result.h"
#include "doctor/doctor.h"
#include "host/rails.h"
#include "report/rails.h"
#include "run/run.h"

/* Runs every test of o against the server and writes the report.
 * Returns 0, or 1 after printing one line on stderr (2 when --auth-file
 * is refused, 3 for an unreadable --baseline, 130 after SIGINT). */
int ig_client_run(const struct ig_client_opts *o);

/* o's plan for the run layer (its lists point into o). */
void ig_client_run_opts(const struct ig_client_opts *o, struct ig_run_opts *r);
/* --also's plan: o's tcp tests, against o->also, as the column
 * o->also_label (a points into o: o must outlive a's results). */
void ig_client_also_opts(const struct ig_client_opts *o,
			 struct ig_client_opts *a);

/* client_diag.c: the doctor around a run */
#define IG_CLIENT_DIAG_MAX 8
struct ig_client_diag {
	struct sockaddr_storage peer;
	bool peer_known; /* peer holds the server's address */
	bool have_peer;	 /* and the counters could be read */
	struct ig_dr_counters c0;
	struct ig_dr_finding f[IG_CLIENT_DIAG_MAX];
	size_t nf;
};
struct ig_compare;
void ig_client_diag_begin(struct ig_client_diag *d, int fd);
void ig_client_diag_end(struct ig_client_diag *d);
void ig_client_diag_top(struct ig_client_diag *d, const struct ig_compare *c,
			uint64_t window);
/* The IPoIB mode of the path to the server, for the like-for-like pairs. */
void ig_client_diag_ipoib(const struct ig_client_diag *d, struct ig_compare *c);

/* client_rails.c: --rails (docs/design.md, "Rails") */
struct ig_client_rails {
	struct ig_rails_report rep;
	struct ig_rail_run run[IG_RAILS_MAX];
	struct ig_dr_finding f[IG_RAILS_MAX][IG_CLIENT_DIAG_MAX];
	double verbs_together[IG_RAILS_MAX], tcp_together[IG_RAILS_MAX];
	struct ig_client_opts ro[IG_RAILS_MAX]; /* each rail's plan */
	size_t count[IG_RAILS_MAX];		/* its results */
};
/* This host's rails of o->rails_list, the server's (asked on a session of
 * their own, which fills env's hosts) and their pairs, each rail's plan
 * and its count in *total.  0, else the exit status after one line on
 * stderr (2: a bad --rails list). */
int ig_client_rails_plan(const struct ig_client_opts *o,
			 const struct ig_auth_key *key,
			 struct ig_client_rails *cr, struct ig_report_env *env,
			 size_t *total);
/* Runs each rail's plan in turn into res (each result's rail set), then
 * flags the odd rails and asks the doctor about a rail whose TCP alone is
 * low.  *n: the results filled.  0, or -1 when a rail failed (its error
 * in the report). */
int ig_client_rails_run(const struct ig_client_opts *o,
			const struct ig_auth_key *key,
			struct ig_client_rails *cr, struct ig_result *res,
			size_t *n);

/* client_rails_at.c: --rails-mode together: every paired rail's plan at
 * once, one thread and session each (HELLO's group lets the server run
 * them side by side), the rails starting each of o's tests together (a
 * rail whose plan lacks one, a rail without an address its TCP, waits
 * it out); fills cr->rep's together figures.  0, or -1 when a rail
 * failed. */
int ig_client_rails_together(const struct ig_client_opts *o,
			     const struct ig_auth_key *key,
			     struct ig_client_rails *cr);

/* client_out.c: -o FILE written whole or not at all (stdout without -o) */
struct ig_client_out {
	FILE *f;
	const char *path; /* NULL: stdout */
	char tmp[4096];
};
/* 0, or 1 after one line on stderr. */
int ig_client_out_open(struct ig_client_out *out, const char *path);
/* keep: rename the report over path; else remove it.  0, or 1 after one
 * line on stderr. */
int ig_client_out_close(struct ig_client_out *out, bool keep);

/* client_baseline.c */
void ig_client_fingerprints(struct ig_report_env *env,
			    const struct ig_result *res, size_t n);
/* 0, or IG_DIFF_BADFILE after one line on stderr. */
int ig_client_load_baseline(const struct ig_client_opts *o, json_object **old);
/* --save-baseline and --baseline: the exit status (0, 1, 3). */
int ig_client_baseline(const struct ig_client_opts *o,
		       const struct ig_report_env *env,
		       const struct ig_result *res, size_t n, json_object *old);

#endif
