/* SPDX-License-Identifier: MIT */
#ifndef IG_TRYMSG_H
#define IG_TRYMSG_H

/*
 * The trial messages of the control channel (docs/design.md, "Wire
 * protocol", "Trials on the server's host"): after WELCOME a client may
 * ask the server to change its host, together, and later to put it back.
 *
 *   TRY      c->s  {"changes": [change...]}  (tune.h's JSON, without from)
 *   TRIED    s->c  {"changes": [change with "from"...]}  all applied
 *                  {"refused": "REASON"}  not allowed, nothing changed
 *                  {"error": "ONE LINE"}  a change failed; the ones of
 *                                         this TRY made are put back
 *   UNTRY    c->s  {"keep": false}  put back every change of the session
 *                  (true: forget them, they stay)
 *   UNTRIED  s->c  {"restored": N, "errors": ["ONE LINE"...]}
 *
 * The codec (the *_json functions) is pure; ig_try_remote() and
 * ig_untry_remote() are the client's calls over a connection.
 */
#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

#include "ctrl.h"
#include "tune/tune.h"

/* Changes in one TRY: a TRIED of that many, each with its longest values
 * and commands, stays below IG_MSG_MAX_BODY. */
#define IG_TRY_MAX 16

/* TRY's body; NULL when out of memory. */
json_object *ig_try_to_json(const struct ig_tune_change *ch, size_t n);
/* TRY's body into ch[0..*n) (at most max): each change checked by
 * ig_tune_from_json, from cleared.  0, or -EINVAL with one line in err
 * naming what is wrong (no changes array, too many, a bad change). */
int ig_try_from_json(json_object *o, struct ig_tune_change *ch, size_t max,
		     size_t *n, char *err, size_t len);

/* TRIED {changes} for ch[0..n), each with its "from". */
json_object *ig_tried_to_json(const struct ig_tune_change *ch, size_t n);
/* TRIED {"refused": why} or, error true, {"error": why}. */
json_object *ig_tried_fail_json(bool error, const char *why);
/*
 * The client's reading of TRIED for its TRY of ch[0..n): 0 and each
 * ch[i].from filled; -EPERM refused, -EIO a change failed (the server's
 * line in why); -EBADMSG the body is neither (why says so).
 */
int ig_tried_from_json(json_object *o, struct ig_tune_change *ch, size_t n,
		       char *why, size_t len);

json_object *ig_untry_to_json(bool keep);
/* keep is true only when the body says "keep": true. */
bool ig_untry_keep(json_object *o);
/* UNTRIED; errors[0..nerr) the lines of the changes not put back. */
json_object *ig_untried_to_json(unsigned int restored,
				const char *const *errors, size_t nerr);
/* 0 and *restored; -EIO when the server could not put some back (its
 * lines, joined by "; ", in err); -EBADMSG malformed. */
int ig_untried_from_json(json_object *o, unsigned int *restored, char *err,
			 size_t len);

/*
 * Client: TRY ch[0..n) (1 to IG_TRY_MAX) and wait for TRIED.  0: applied,
 * ch[i].from filled.  -EPERM: refused, the server's reason in why.  -EIO:
 * a change failed and the server put this TRY's others back, its line in
 * why.  Another negative errno: the connection or a malformed answer
 * (why = c->err); the session is over.
 */
int ig_try_remote(struct ig_ctrl *c, struct ig_tune_change *ch, size_t n,
		  char *why, size_t len);
/*
 * Client: UNTRY {keep} and wait for UNTRIED.  0 and *restored (changes put
 * back; 0 with keep); -EIO when some could not be put back (the server's
 * lines in err); another negative errno: the connection (err = c->err).
 */
int ig_untry_remote(struct ig_ctrl *c, bool keep, unsigned int *restored,
		    char *err, size_t len);

#endif
