// SPDX-License-Identifier: MIT
/* The server's doctor on the connection a trial holds: DOCTOR {window},
 * FINDINGS (as the doctor's own fetch, without a second connection). */
#include <errno.h>
#include <stdio.h>

#include "trial.h"
#include "wire/proto.h"

int ig_trial_findings(struct ig_ctrl *c, uint64_t window, const char *addr,
		      struct ig_dr_report *r, char *err, size_t len)
{
	json_object *o = json_object_new_object(), *fb = NULL, *v;
	int ret;

	json_object_object_add(o, "window", json_object_new_uint64(window));
	if (addr && addr[0])
		json_object_object_add(o, "addr", json_object_new_string(addr));
	ret = ig_ctrl_send(c, IG_MSG_DOCTOR, o);
	json_object_put(o);
	if (!ret)
		ret = ig_ctrl_expect(c, IG_MSG_FINDINGS, &fb);
	if (ret) {
		snprintf(err, len, "the server's findings: %s", c->err);
		return ret;
	}
	ret = ig_dr_report_from_json(fb, r);
	if (!ret && json_object_object_get_ex(fb, "dropped", &v))
		r->dropped = (size_t)json_object_get_int64(v);
	json_object_put(fb);
	if (ret)
		snprintf(err, len, "FINDINGS from %s is not a doctor report",
			 c->peer);
	return ret;
}
