/* SPDX-License-Identifier: MIT */
#ifndef IG_FAB_SLURM_H
#define IG_FAB_SLURM_H

/*
 * ibgap-fabric and Slurm (docs/fabric.md "Slurm"): --drain drains the
 * flagged nodes, --resume returns those ibgap drained, the way LBNL NHC
 * does: a reason someone else set is never overwritten.  The pure part
 * (slurm.c: sinfo's output read, what to do with a node, the outcome's
 * JSON and text) and the commands (slurm_exec.c: sinfo and scontrol run
 * without a shell).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <json-c/json.h>

/* Every reason ibgap writes starts so; only those are ibgap's. */
#define IG_SLURM_TAG "ibgap:"
#define IG_SLURM_NAME 64
#define IG_SLURM_REASON 200
/* The format of sinfo -h -N -o: node, state (long), reason ("none") */
#define IG_SLURM_SINFO_FMT "%N|%T|%E"

/* One node as sinfo shows it. */
struct ig_slurm_node {
	char name[IG_SLURM_NAME];
	char state[32];		      /* "idle", "drained", "down*" ... */
	char reason[IG_SLURM_REASON]; /* "" for none */
};

/* Reads the output of sinfo -h -N -o IG_SLURM_SINFO_FMT: one node a
 * line (a node in two partitions once), at most max into nodes; *n their
 * number.  0, or -EINVAL with one line in err naming the bad line. */
int ig_slurm_parse(const char *out, struct ig_slurm_node *nodes, size_t max,
		   size_t *n, char *err, size_t errlen);

/* Whether reason is one ibgap wrote. */
bool ig_slurm_ours(const char *reason);

enum ig_slurm_act {
	IG_SLURM_NONE,	 /* nothing to do (no reason: in service) */
	IG_SLURM_DRAIN,	 /* drain it (no reason yet) */
	IG_SLURM_UPDATE, /* drained by ibgap before: the reason updated */
	IG_SLURM_LEAVE,	 /* someone else's reason: left as it is */
	IG_SLURM_RESUME, /* drained by ibgap: back to service */
};

/* --drain: what to do with node n, which ibgap found bad. */
enum ig_slurm_act ig_slurm_drain_act(const struct ig_slurm_node *n);
/* --resume: what to do with node n. */
enum ig_slurm_act ig_slurm_resume_act(const struct ig_slurm_node *n);

/* What was done to one node. */
struct ig_slurm_done {
	char node[IG_SLURM_NAME];
	enum ig_slurm_act act;
	bool ok; /* the scontrol call worked (or none was needed) */
	char reason[IG_SLURM_REASON]; /* the one written (DRAIN, UPDATE) or
				       * the one found (LEAVE, RESUME) */
	char state[32];		      /* as found */
	char why[256];		      /* !ok: the error, one line */
};

/* The outcome of --drain or --resume. */
struct ig_slurm_out {
	struct ig_slurm_done *d;
	size_t n;
	unsigned int failed; /* scontrol calls that failed */
};

/* The "drained" and "not_drained" arrays of --drain's outcome, added to
 * doc (the report's document). */
void ig_slurm_drain_json(json_object *doc, const struct ig_slurm_out *o);
/* --drain's and --resume's outcome for people: a heading, a line a node
 * (--resume: the nodes with a reason). */
void ig_slurm_drain_text(FILE *f, const struct ig_slurm_out *o);
void ig_slurm_resume_text(FILE *f, const struct ig_slurm_out *o);

/* out: "ibgap: " and why, cut to IG_SLURM_REASON on a character
 * boundary, control characters as spaces. */
void ig_slurm_reason(char *out, size_t len, const char *why);

/* A node to drain, and why (without the tag). */
struct ig_slurm_want {
	const char *node;
	const char *why;
};

/* ---- slurm_exec.c: the commands ---- */

/* The longest wait for one sinfo or scontrol, ms */
#define IG_SLURM_TIMEOUT_MS 30000

/* Runs argv (argv[0] found on PATH) without a shell, its stdout and
 * stderr both into out (NUL-terminated, cut to len), for at most
 * timeout_ms (then killed).  Its exit status (0-255; 128 + the signal
 * when killed by one), or -errno: -ENOENT when argv[0] is not on PATH,
 * -ETIMEDOUT. */
int ig_slurm_exec(char *const argv[], char *out, size_t len, int timeout_ms);

/* Whether Slurm is there for --drain (need_job: in a job, SLURM_JOB_ID
 * set) or --resume: sinfo and scontrol on PATH, "scontrol ping" works.
 * 0, or -ENOTSUP with one line in err. */
int ig_slurm_check(bool need_job, char *err, size_t errlen);

/* --drain: each of want[0..n) (names may repeat: done once) drained, as
 * ig_slurm_drain_act() says, with reason "ibgap: why".  out->d[] one per
 * node (free with ig_slurm_out_free); one line to log for each failed
 * call.  0, or -ENOMEM. */
int ig_slurm_drain(const struct ig_slurm_want *want, size_t n,
		   struct ig_slurm_out *out, FILE *log);

/* --resume: every node of the cluster whose reason is ibgap's back to
 * service; the others' drained nodes listed.  0, -ENOMEM, or -EIO when
 * sinfo failed (one line to log). */
int ig_slurm_resume(struct ig_slurm_out *out, FILE *log);

void ig_slurm_out_free(struct ig_slurm_out *o);

#endif
