// SPDX-License-Identifier: MIT
/*
 * TRY and UNTRY on the server (trial.h).  A TRY is refused, with nothing
 * changed and the session going on, when the server was started without
 * --allow-try, the client did not authenticate, a change is not one the
 * tune layer knows (a closed list: no path or command comes from the
 * client), this process may not make it, or it would take down and up
 * the netdev of the control connection.  Its changes go through the
 * session's journal, opened at the first TRY; a change that fails puts
 * back the ones of its TRY already made.  The session's end puts back
 * everything, whether the client said BYE, vanished or timed out, or the
 * server was told to stop.
 */
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "slog.h"
#include "trial.h"
#include "wire/trymsg.h"

/* Changes one session may have made at once. */
#define SESSION_MAX 64
/* Failures UNTRIED names (the server's log names them all). */
#define UNDO_LINES 8

struct undo {
	unsigned int restored, failed;
	char err[UNDO_LINES][224];
};

void ig_trial_init(struct ig_trial *t, const char *refusal, const char *path,
		   bool quiet)
{
	*t = (struct ig_trial){
		.refusal = refusal,
		.path = path,
		.quiet = quiet,
	};
}

static int reply(struct ig_ctrl *c, enum ig_msg_type type, json_object *o)
{
	int ret = o ? ig_ctrl_send(c, type, o)
		    : ig_ctrl_fail(c, ENOMEM, "out of memory for %s",
				   ig_msg_type_name(type));

	json_object_put(o);
	return ret;
}

static int tried_fail(struct ig_trial *t, struct ig_ctrl *c, bool error,
		      const char *why)
{
	ig_slog(t->quiet, "%s: TRY %s: %s", c->peer,
		error ? "failed" : "refused", why);
	return reply(c, IG_MSG_TRIED, ig_tried_fail_json(error, why));
}

/* Changes [first, j.n) not yet back put back, newest first, a log line
 * each; u counts them and keeps the failures' lines. */
static void put_back(struct ig_trial *t, size_t first, const char *peer,
		     struct undo *u)
{
	char cmd[IG_TUNE_CMD_LEN], err[256];

	for (size_t i = t->j.n; i-- > first;) {
		if (t->j.reverted[i])
			continue;
		ig_tune_cmd(&t->j.c[i], true, cmd, sizeof(cmd));
		if (!ig_journal_revert(&t->j, i, err, sizeof(err))) {
			ig_slog(t->quiet, "%s: put back: %s", peer, cmd);
			u->restored++;
			continue;
		}
		ig_slog(t->quiet, "%s: could not put back: %s: %s", peer, cmd,
			err);
		if (u->failed < UNDO_LINES)
			snprintf(u->err[u->failed], sizeof(u->err[0]),
				 "%.150s: %.60s", cmd, err);
		u->failed++;
	}
}

/* Every change back: the journal removed and closed.  Otherwise it stays
 * pending (for `ibgap doctor --undo`, or this server's next start). */
static void close_journal(struct ig_trial *t, const char *peer)
{
	char err[256];

	if (!t->open)
		return;
	for (size_t i = 0; i < t->j.n; i++)
		if (!t->j.reverted[i]) {
			ig_slog(t->quiet,
				"%s: journal %s stays pending: this server "
				"puts it back when it starts again ('ibgap "
				"doctor --undo --journal %s' once it stopped)",
				peer, t->path, t->path);
			ig_journal_close(&t->j);
			t->open = false;
			return;
		}
	ig_journal_revert_all(&t->j, err, sizeof(err));
	ig_journal_close(&t->j);
	t->open = false;
}

/* Makes ch[0..n) through the journal; on a failure puts back those made,
 * with the failure's line in why.  0 or -errno. */
static int apply_all(struct ig_trial *t, const char *peer,
		     struct ig_tune_change *ch, size_t n, char *why, size_t len)
{
	struct undo u = { 0 };
	char cmd[IG_TUNE_CMD_LEN], err[256];
	size_t first, i;
	int ret = 0;

	if (!t->open) {
		ret = ig_journal_open(&t->j, t->path, NULL, why, len);
		if (ret)
			return ret;
		t->open = true;
	}
	first = t->j.n;
	for (i = 0; i < n; i++) {
		ig_tune_cmd(&ch[i], false, cmd, sizeof(cmd));
		ret = ig_journal_apply(&t->j, &ch[i], err, sizeof(err));
		if (ret)
			break;
		ig_slog(t->quiet, "%s: tried: %s (was '%s')", peer, cmd,
			ch[i].from);
	}
	if (!ret)
		return 0;
	put_back(t, first, peer, &u);
	snprintf(why, len, "'%.200s' failed: %.200s%s", cmd, err,
		 u.failed ? "; some of this TRY's changes before it could "
			    "not be put back (the server's log names them)"
		 : i	  ? "; this TRY's changes before it were put back"
			  : "");
	return ret;
}

/* The same address, of one family (v4-mapped taken off before). */
/* A change that takes a netdev down and up (MTU, IPoIB mode) is not made
 * on the one that carries this control connection: -EPERM, why says so. */
static int cuts_ctrl(struct ig_ctrl *c, const struct ig_tune_change *ch,
		     size_t n, char *why, size_t len)
{
	char dev[IG_TUNE_DEV_LEN];

	ig_ctrl_netdev(c, dev, sizeof(dev));
	for (size_t i = 0; i < n; i++)
		if (ig_tune_down_up(&ch[i]) && dev[0] &&
		    !strcmp(ch[i].dev, dev)) {
			snprintf(
				why, len,
				"%s %.32s takes %s down and up, and this control "
				"connection runs over it: connect over "
				"another address to try it",
				ig_tune_kind_name(ch[i].kind), ch[i].to, dev);
			return -EPERM;
		}
	return 0;
}

/* Why ch may not be tried here, into why; 0 when it may. */
static int refusal(const struct ig_trial *t, const struct ig_tune_change *ch,
		   size_t n, char *why, size_t len)
{
	for (size_t i = 0; i < n; i++) {
		bool sys = ch[i].kind == IG_TUNE_GOVERNOR ||
			   ch[i].kind == IG_TUNE_IRQ;
		char cmd[IG_TUNE_CMD_LEN];

		if (!ig_tune_allowed(&ch[i]))
			continue;
		ig_tune_cmd(&ch[i], false, cmd, sizeof(cmd));
		snprintf(why, len,
			 "the server lacks %s for %.300s (run it as root to "
			 "allow trials)",
			 sys ? "CAP_SYS_ADMIN" : "CAP_NET_ADMIN", cmd);
		return -EPERM;
	}
	if ((t->open ? t->j.n : 0) + n > SESSION_MAX) {
		snprintf(why, len,
			 "a session may make at most %d changes: UNTRY first",
			 SESSION_MAX);
		return -EPERM;
	}
	return 0;
}

static int serve_try(struct ig_trial *t, struct ig_ctrl *c, json_object *body)
{
	struct ig_tune_change ch[IG_TRY_MAX];
	char why[512];
	size_t n;

	if (t->refusal)
		return tried_fail(t, c, false, t->refusal);
	if (ig_try_from_json(body, ch, IG_TRY_MAX, &n, why, sizeof(why)) ||
	    refusal(t, ch, n, why, sizeof(why)))
		return tried_fail(t, c, false, why);
	/* this change only, not the side: an error, the trials go on */
	if (cuts_ctrl(c, ch, n, why, sizeof(why)))
		return tried_fail(t, c, true, why);
	if (apply_all(t, c->peer, ch, n, why, sizeof(why)))
		return tried_fail(t, c, true, why);
	return reply(c, IG_MSG_TRIED, ig_tried_to_json(ch, n));
}

/* UNTRY {keep}: the session's changes put back (or forgotten, kept). */
static int serve_untry(struct ig_trial *t, struct ig_ctrl *c, json_object *body)
{
	const char *lines[UNDO_LINES];
	struct undo u = { 0 };
	char cmd[IG_TUNE_CMD_LEN];
	size_t k;

	if (t->open && ig_untry_keep(body)) {
		for (size_t i = 0; i < t->j.n; i++) {
			if (t->j.reverted[i])
				continue;
			ig_tune_cmd(&t->j.c[i], false, cmd, sizeof(cmd));
			ig_slog(t->quiet, "%s: kept at the client's word: %s",
				c->peer, cmd);
		}
		ig_journal_forget(&t->j);
		ig_journal_close(&t->j);
		t->open = false;
	} else if (t->open) {
		put_back(t, 0, c->peer, &u);
		if (!u.failed)
			close_journal(t, c->peer);
	}
	k = u.failed < UNDO_LINES ? u.failed : UNDO_LINES;
	for (size_t i = 0; i < k; i++)
		lines[i] = u.err[i];
	return reply(c, IG_MSG_UNTRIED,
		     ig_untried_to_json(u.restored, lines, k));
}

int ig_trial_serve(struct ig_trial *t, struct ig_ctrl *c, enum ig_msg_type type,
		   json_object *body)
{
	return type == IG_MSG_TRY ? serve_try(t, c, body)
				  : serve_untry(t, c, body);
}

void ig_trial_end(struct ig_trial *t, const char *peer)
{
	struct undo u = { 0 };

	if (!t->open)
		return;
	put_back(t, 0, peer, &u);
	close_journal(t, peer);
}

/* A pending journal's put-backs, one log line each (undo's lines). */
static int recover(const char *path, bool quiet, char *err, size_t len)
{
	char *buf = NULL, *line, *save = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);
	int ret;

	if (!f) {
		snprintf(err, len, "out of memory to put back journal '%s'",
			 path);
		return -ENOMEM;
	}
	ret = ig_journal_undo(path, NULL, f, err, len);
	fclose(f);
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		ig_slog(quiet, "journal %s of an earlier run: %s", path, line);
	free(buf);
	return ret;
}

int ig_trial_setup(const char *file, int port, bool quiet, char *path,
		   size_t plen, char *err, size_t len)
{
	char line[256];
	int ret;

	if (file)
		snprintf(path, plen, "%s", file);
	else
		snprintf(path, plen, "%s/server-%d.journal", IG_JOURNAL_DIR,
			 port);
	ret = ig_journal_pending(path);
	if (ret == 0 || ret == -ENOENT)
		return 0;
	if (ret == -EINVAL) {
		snprintf(err, len,
			 "journal '%s' is not an ibgap journal: move it away "
			 "or give --journal another file",
			 path);
		return -EINVAL;
	}
	if (ret < 0) {
		snprintf(err, len, "journal '%s' cannot be read: %s", path,
			 strerror(-ret));
		return ret;
	}
	ret = recover(path, quiet, line, sizeof(line));
	if (ret == -ENOENT)
		return 0;
	if (ret)
		snprintf(err, len,
			 "journal '%s' of an earlier run: %s; the server does "
			 "not start until it is put back ('ibgap doctor --undo "
			 "--journal %s')",
			 path, line, path);
	return ret;
}
