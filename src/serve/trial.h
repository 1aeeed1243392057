/* SPDX-License-Identifier: MIT */
#ifndef IG_TRIAL_H
#define IG_TRIAL_H

/*
 * The server's side of a trial (docs/design.md, "Trials on the server's
 * host"): TRY and UNTRY of one session, applied through the session's
 * journal, and every change put back when the session ends, whatever ends
 * it.  One log line per change made or put back.
 */
#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

#include "tune/journal.h"
#include "wire/ctrl.h"

struct ig_trial {
	const char *refusal; /* NULL: this session may change the host */
	const char *path;    /* the journal */
	bool quiet;	     /* no log (in-process servers) */
	bool open;	     /* j holds this session's changes */
	struct ig_journal j;
};

/* refusal: why TRY is refused in this session (NULL: it is not). */
void ig_trial_init(struct ig_trial *t, const char *refusal, const char *path,
		   bool quiet);
/* Answers TRY (TRIED) or UNTRY (UNTRIED); the session goes on whatever
 * the answer.  0, or the connection's negative errno (c->err). */
int ig_trial_serve(struct ig_trial *t, struct ig_ctrl *c, enum ig_msg_type type,
		   json_object *body);
/* The session has ended: every change not yet back is put back (a log line
 * each, naming peer); the journal is removed, or stays when one could not
 * be put back. */
void ig_trial_end(struct ig_trial *t, const char *peer);

/* The server's journal: file, or IG_JOURNAL_DIR "/server-PORT.journal",
 * into path.  A pending journal there (an earlier server killed) is put
 * back now, a log line per change.  0, or -errno with one line in err: the
 * file is not a journal (-EINVAL), or a change could not be put back. */
int ig_trial_setup(const char *file, int port, bool quiet, char *path,
		   size_t plen, char *err, size_t len);

#endif
