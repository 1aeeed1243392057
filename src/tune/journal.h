/* SPDX-License-Identifier: MIT */
#ifndef IG_TUNE_JOURNAL_H
#define IG_TUNE_JOURNAL_H

/*
 * The journal of changes made to this host (docs/design.md, "Trials"): a
 * file of JSON lines, the first {"schema": "ibgap-journal/1", "pid",
 * "started"}, then one line per change written and fsync'ed *before* the
 * change is made ({"op": "set", change}) and one when it is put back
 * ({"op": "reverted", "i": N}).  When every change is back the file is
 * removed.  A file left behind (SIGKILL, a power cut) is a pending
 * journal: `ibgap doctor --undo` puts back what it holds, and every ibgap
 * command warns about it.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "tune.h"

/* Where the journal lives unless --journal FILE says otherwise. */
#define IG_JOURNAL_DIR "/var/lib/ibgap"
#define IG_JOURNAL_DEFAULT IG_JOURNAL_DIR "/try.journal"

struct ig_journal {
	int fd;
	char path[4096];
	const char *root; /* for ig_tune_*: NULL "/" */
	struct ig_tune_change *c;
	bool *reverted;
	size_t n, cap;
};

/* Creates path (its directory too when it is IG_JOURNAL_DIR), exclusively:
 * -EEXIST with one line in err when a journal is pending there (run
 * --undo first).  0 or -errno with one line in err. */
int ig_journal_open(struct ig_journal *j, const char *path, const char *root,
		    char *err, size_t len);
/* Journals c (synced), then ig_tune_apply(); on failure the entry is
 * marked reverted.  c->from is filled.  0 or -errno with one line in err.
 * The index of the change is j->n - 1 on success. */
int ig_journal_apply(struct ig_journal *j, struct ig_tune_change *c, char *err,
		     size_t len);
/* Puts change i back (if not already) and journals it. */
int ig_journal_revert(struct ig_journal *j, size_t i, char *err, size_t len);
/* Puts back every change not yet reverted, newest first; goes on after a
 * failure (each failure one line on stderr); then removes the file if all
 * are back.  0, or the first -errno. */
int ig_journal_revert_all(struct ig_journal *j, char *err, size_t len);
/* --keep: forgets the changes (they stay made) and removes the file. */
void ig_journal_forget(struct ig_journal *j);
/* Frees j; the file stays when changes are pending. */
void ig_journal_close(struct ig_journal *j);

/* 1 when a journal with changes not put back exists at path, 0 when not,
 * -EINVAL when path exists and is not an ibgap journal. */
int ig_journal_pending(const char *path);
/* --undo: puts back every pending change of the journal at path (a dead
 * process's), prints one line per change on out, removes the file.
 * 0; -ENOENT no journal; -EINVAL not an ibgap journal (one line in err);
 * another -errno when a change could not be put back (the file stays). */
int ig_journal_undo(const char *path, const char *root, FILE *out, char *err,
		    size_t len);

#endif
