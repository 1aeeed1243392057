// SPDX-License-Identifier: MIT
/* This host's side of a trial: every change through the journal, so that
 * `ibgap doctor --undo` can put it back after a crash. */
#include <errno.h>
#include <stdio.h>

#include "trial.h"

/* Puts back the first n changes of the current apply, newest first. */
static void undo_some(struct ig_trial_local *l, unsigned int n, bool *restored)
{
	char err[512];

	while (n--) {
		bool ok = !ig_journal_revert(l->j, l->idx[n], err, sizeof(err));

		if (!ok)
			fprintf(stderr, "ibgap doctor: %s\n", err);
		if (restored)
			restored[n] = ok;
	}
}

static int local_apply(void *ctx, struct ig_tune_change *c, unsigned int n,
		       char *err, size_t len)
{
	struct ig_trial_local *l = ctx;

	l->n = 0;
	for (unsigned int i = 0; i < n && i < IG_TRY_MAX_CHANGES; i++) {
		int ret = ig_journal_apply(l->j, &c[i], err, len);

		if (ret) {
			/* nothing half-changed: the ones made go back */
			undo_some(l, l->n, NULL);
			l->n = 0;
			return ret;
		}
		l->idx[l->n++] = l->j->n - 1;
	}
	return 0;
}

static int local_revert(void *ctx, bool keep, bool *restored, char *err,
			size_t len)
{
	struct ig_trial_local *l = ctx;
	int ret = 0;

	if (keep) {
		ig_journal_forget(l->j);
		l->n = 0;
		return 0;
	}
	for (unsigned int i = l->n; i--;) {
		int r = ig_journal_revert(l->j, l->idx[i], err, len);

		restored[i] = !r;
		if (r && !ret)
			ret = r;
	}
	l->n = 0;
	return ret;
}

void ig_trial_local_side(struct ig_trial_local *l, struct ig_journal *j,
			 struct ig_trial_side *s)
{
	*l = (struct ig_trial_local){ .j = j };
	*s = (struct ig_trial_side){ .apply = local_apply,
				     .revert = local_revert,
				     .ctx = l };
}
