// SPDX-License-Identifier: MIT
/* TRY/TRIED/UNTRY/UNTRIED: the codec and the client's calls (trymsg.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common/json.h"
#include "common/params.h"
#include "trymsg.h"

/* A server's line, printable and one line, into buf. */
static void peer_line(const char *s, char *buf, size_t len)
{
	ig_str_safe(s, buf, len, len - 1);
}

static json_object *changes_json(const struct ig_tune_change *ch, size_t n,
				 bool from)
{
	json_object *o = json_object_new_object();
	json_object *a = json_object_new_array();

	if (!o || !a || ig_json_add(o, "changes", a)) {
		json_object_put(o);
		return NULL;
	}
	for (size_t i = 0; i < n; i++) {
		json_object *c = ig_tune_to_json(&ch[i]);

		if (c) {
			/* TRIED adds "from", even "" (a qdisc's none) */
			json_object_object_del(c, "from");
			json_object_object_del(c, "revert");
		}
		if (!c || (from && ig_json_add_str(c, "from", ch[i].from)) ||
		    json_object_array_add(a, c)) {
			json_object_put(c);
			json_object_put(o);
			return NULL;
		}
	}
	return o;
}

json_object *ig_try_to_json(const struct ig_tune_change *ch, size_t n)
{
	return changes_json(ch, n, false);
}

json_object *ig_tried_to_json(const struct ig_tune_change *ch, size_t n)
{
	return changes_json(ch, n, true);
}

int ig_try_from_json(json_object *o, struct ig_tune_change *ch, size_t max,
		     size_t *n, char *err, size_t len)
{
	json_object *a = ig_json_get_array(o, "changes");
	size_t k = a ? json_object_array_length(a) : 0;
	char line[256];

	*n = 0;
	if (!a || !k || k > max) {
		snprintf(err, len,
			 "TRY holds %s: allowed a 'changes' array of 1 to %zu "
			 "changes",
			 a ? "too many or no changes" : "no 'changes' array",
			 max);
		return -EINVAL;
	}
	for (size_t i = 0; i < k; i++) {
		if (ig_tune_from_json(json_object_array_get_idx(a, i), &ch[i],
				      line, sizeof(line))) {
			snprintf(err, len, "TRY's change %zu: %s", i + 1, line);
			return -EINVAL;
		}
		ch[i].from[0] = 0;
	}
	*n = k;
	return 0;
}

json_object *ig_tried_fail_json(bool error, const char *why)
{
	json_object *o = json_object_new_object();

	if (o && ig_json_add_str(o, error ? "error" : "refused", why)) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

static bool same_knob(const struct ig_tune_change *a,
		      const struct ig_tune_change *b)
{
	return a->kind == b->kind && !strcmp(a->dev, b->dev) &&
	       !strcmp(a->name, b->name) && !strcmp(a->to, b->to);
}

/* TRIED {changes}: the same knobs as asked, in order, each with from. */
static int tried_changes(json_object *a, struct ig_tune_change *ch, size_t n,
			 char *why, size_t len)
{
	struct ig_tune_change got;
	char line[256];

	if (json_object_array_length(a) != n) {
		snprintf(why, len,
			 "TRIED holds %zu changes for a TRY of %zu: a server "
			 "that does not follow the protocol",
			 json_object_array_length(a), n);
		return -EBADMSG;
	}
	for (size_t i = 0; i < n; i++) {
		json_object *c = json_object_array_get_idx(a, i);

		if (ig_tune_from_json(c, &got, line, sizeof(line)) ||
		    !same_knob(&got, &ch[i]) ||
		    ig_json_copy_str(c, "from", got.from, sizeof(got.from))) {
			snprintf(why, len,
				 "TRIED's change %zu is not the one asked for "
				 "with its old value ('from')",
				 i + 1);
			return -EBADMSG;
		}
		memcpy(ch[i].from, got.from, sizeof(ch[i].from));
	}
	return 0;
}

int ig_tried_from_json(json_object *o, struct ig_tune_change *ch, size_t n,
		       char *why, size_t len)
{
	json_object *a = ig_json_get_array(o, "changes");
	const char *s;

	if (!ig_json_get_str(o, "refused", &s)) {
		peer_line(s, why, len);
		return -EPERM;
	}
	if (!ig_json_get_str(o, "error", &s)) {
		peer_line(s, why, len);
		return -EIO;
	}
	if (!a) {
		snprintf(why, len,
			 "TRIED holds neither 'changes', 'refused' nor "
			 "'error'");
		return -EBADMSG;
	}
	return tried_changes(a, ch, n, why, len);
}

json_object *ig_untry_to_json(bool keep)
{
	json_object *o = json_object_new_object();

	if (o && ig_json_add(o, "keep", json_object_new_boolean(keep))) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

bool ig_untry_keep(json_object *o)
{
	json_object *k;

	return json_object_object_get_ex(o, "keep", &k) &&
	       json_object_is_type(k, json_type_boolean) &&
	       json_object_get_boolean(k);
}

json_object *ig_untried_to_json(unsigned int restored,
				const char *const *errors, size_t nerr)
{
	json_object *o = json_object_new_object();
	json_object *a = json_object_new_array();

	if (!o || !a || ig_json_add(o, "errors", a) ||
	    ig_json_add_u64(o, "restored", restored)) {
		json_object_put(o);
		return NULL;
	}
	for (size_t i = 0; i < nerr; i++)
		if (json_object_array_add(a,
					  json_object_new_string(errors[i]))) {
			json_object_put(o);
			return NULL;
		}
	return o;
}

/* The lines of UNTRIED's errors, joined by "; " into err. */
static void join_errors(json_object *a, char *err, size_t len)
{
	size_t at = 0;
	char line[256];

	err[0] = 0;
	for (size_t i = 0; i < json_object_array_length(a) && at + 1 < len;
	     i++) {
		json_object *e = json_object_array_get_idx(a, i);

		peer_line(json_object_is_type(e, json_type_string)
				  ? json_object_get_string(e)
				  : "(not a string)",
			  line, sizeof(line));
		at += (size_t)snprintf(err + at, len - at, "%s%s",
				       i ? "; " : "", line);
	}
}

int ig_untried_from_json(json_object *o, unsigned int *restored, char *err,
			 size_t len)
{
	json_object *a = ig_json_get_array(o, "errors");
	uint64_t v;

	if (ig_json_get_u64(o, "restored", &v) || v > UINT32_MAX || !a) {
		snprintf(err, len,
			 "UNTRIED lacks 'restored' (a count) or 'errors' (an "
			 "array)");
		return -EBADMSG;
	}
	*restored = (unsigned int)v;
	if (!json_object_array_length(a))
		return 0;
	join_errors(a, err, len);
	return -EIO;
}

/* Sends type with body o (consumed) and waits for want: 0 and *reply, or
 * a negative errno with c->err in err. */
static int ask(struct ig_ctrl *c, enum ig_msg_type type, json_object *o,
	       enum ig_msg_type want, json_object **reply, char *err,
	       size_t len)
{
	int ret;

	if (!o)
		ret = ig_ctrl_fail(c, ENOMEM, "out of memory for %s",
				   ig_msg_type_name(type));
	else
		ret = ig_ctrl_send(c, type, o);
	json_object_put(o);
	if (!ret)
		ret = ig_ctrl_expect(c, want, reply);
	if (ret)
		snprintf(err, len, "%s", c->err);
	return ret;
}

int ig_try_remote(struct ig_ctrl *c, struct ig_tune_change *ch, size_t n,
		  char *why, size_t len)
{
	json_object *r;
	int ret;

	if (!n || n > IG_TRY_MAX) {
		snprintf(why, len, "a TRY of %zu changes: allowed 1 to %d", n,
			 IG_TRY_MAX);
		return -EINVAL;
	}
	ret = ask(c, IG_MSG_TRY, ig_try_to_json(ch, n), IG_MSG_TRIED, &r, why,
		  len);
	if (ret)
		return ret;
	ret = ig_tried_from_json(r, ch, n, why, len);
	json_object_put(r);
	if (ret == -EBADMSG)
		ig_ctrl_fail(c, EBADMSG, "%s from %s", why, c->peer);
	return ret;
}

int ig_untry_remote(struct ig_ctrl *c, bool keep, unsigned int *restored,
		    char *err, size_t len)
{
	json_object *r;
	int ret;

	*restored = 0;
	ret = ask(c, IG_MSG_UNTRY, ig_untry_to_json(keep), IG_MSG_UNTRIED, &r,
		  err, len);
	if (ret)
		return ret;
	ret = ig_untried_from_json(r, restored, err, len);
	json_object_put(r);
	if (ret == -EBADMSG)
		ig_ctrl_fail(c, EBADMSG, "%s from %s", err, c->peer);
	return ret;
}
