// SPDX-License-Identifier: MIT
/* The server's side of a trial: TRY and UNTRY on the held control
 * connection (wire/trymsg.h).  The server journals and puts back its own
 * changes, also when the session ends. */
#include <errno.h>
#include <stdio.h>

#include "trial.h"
#include "wire/trymsg.h"

static int remote_apply(void *ctx, struct ig_tune_change *c, unsigned int n,
			char *err, size_t len)
{
	struct ig_trial_remote *r = ctx;
	char why[IG_TRY_WHY_LEN];
	int ret;

	r->n = 0;
	if (r->side->refused[0])
		return -EPERM;
	ret = ig_try_remote(r->c, c, n, why, sizeof(why));
	if (ret == -EPERM) {
		snprintf(r->side->refused, sizeof(r->side->refused), "%s", why);
	} else if (ret && r->c->err[0]) {
		/* the session is over (an ibgap that does not know TRY
		 * answers ERROR and ends it) */
		snprintf(r->side->refused, sizeof(r->side->refused),
			 "it ended the session at TRY: %.200s", why);
		r->side->lost = true;
	} else if (ret) {
		snprintf(err, len, "the server: %s", why);
	} else {
		r->n = n;
	}
	return ret;
}

static int remote_revert(void *ctx, bool keep, bool *restored, char *err,
			 size_t len)
{
	struct ig_trial_remote *r = ctx;
	unsigned int back = 0;
	int ret;

	if (!r->n)
		return 0;
	ret = ig_untry_remote(r->c, keep, &back, err, len);
	for (unsigned int i = 0; i < r->n; i++)
		restored[i] = !ret && !keep;
	r->n = 0;
	return ret;
}

void ig_trial_remote_side(struct ig_trial_remote *r, struct ig_ctrl *c,
			  struct ig_trial_side *s)
{
	*r = (struct ig_trial_remote){ .c = c, .side = s };
	*s = (struct ig_trial_side){ .apply = remote_apply,
				     .revert = remote_revert,
				     .ctx = r };
}
