// SPDX-License-Identifier: MIT
/* RAILS/RAILS_INFO: the codec and both sides' calls (railmsg.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/json.h"
#include "railmsg.h"

json_object *ig_rail_to_json(const struct ig_rail *r)
{
	json_object *o = json_object_new_object();

	if (!o || ig_json_add_str(o, "device", r->device) ||
	    ig_json_add_int(o, "port", r->port) ||
	    ig_json_add_str(o, "netdev", r->netdev) ||
	    ig_json_add_str(o, "addr", r->addr) ||
	    ig_json_add_int(o, "prefix", r->prefix) ||
	    ig_json_add_int(o, "numa_node", r->numa_node) ||
	    ig_json_add_str(o, "link_layer", r->link_layer) ||
	    ig_json_add(o, "fingerprint", ig_fingerprint_to_json(&r->fp))) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

json_object *ig_rails_to_json(const struct ig_rails *r)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; a && i < r->n; i++) {
		json_object *o = ig_rail_to_json(&r->r[i]);

		if (!o || json_object_array_add(a, o)) {
			json_object_put(o);
			json_object_put(a);
			return NULL;
		}
	}
	return a;
}

static int rail_from_json(json_object *o, struct ig_rail *r)
{
	json_object *fp;

	memset(r, 0, sizeof(*r));
	r->numa_node = -1;
	if (ig_json_copy_str(o, "device", r->device, sizeof(r->device)) ||
	    ig_json_get_int(o, "port", &r->port))
		return -EBADMSG;
	ig_json_copy_str_opt(o, "netdev", r->netdev, sizeof(r->netdev));
	ig_json_copy_str_opt(o, "addr", r->addr, sizeof(r->addr));
	ig_json_get_int(o, "prefix", &r->prefix);
	ig_json_get_int(o, "numa_node", &r->numa_node);
	ig_json_copy_str_opt(o, "link_layer", r->link_layer,
			     sizeof(r->link_layer));
	if (json_object_object_get_ex(o, "fingerprint", &fp))
		ig_fingerprint_from_json(fp, &r->fp);
	if (r->prefix < 0 || r->prefix > 32)
		r->prefix = 32;
	return 0;
}

int ig_rails_from_json(json_object *o, struct ig_rails *r)
{
	size_t n;

	r->n = 0;
	if (!json_object_is_type(o, json_type_array))
		return -EBADMSG;
	n = json_object_array_length(o);
	for (size_t i = 0; i < n && r->n < IG_RAILS_MAX; i++)
		if (rail_from_json(json_object_array_get_idx(o, i),
				   &r->r[r->n++]))
			return -EBADMSG;
	return 0;
}

int ig_rails_remote(struct ig_ctrl *c, struct ig_rails *r, char *err,
		    size_t len)
{
	json_object *o = json_object_new_object(), *reply = NULL;
	int ret;

	ret = o ? ig_ctrl_send(c, IG_MSG_RAILS, o)
		: ig_ctrl_fail(c, ENOMEM, "out of memory for RAILS");
	json_object_put(o);
	if (!ret)
		ret = ig_ctrl_expect(c, IG_MSG_RAILS_INFO, &reply);
	if (ret) {
		snprintf(err, len,
			 "asking %s for its rails: %s (a server older than "
			 "--rails does not know RAILS: update it)",
			 c->peer, c->err);
		return ret;
	}
	ret = ig_rails_from_json(ig_json_get_array(reply, "rails"), r);
	json_object_put(reply);
	if (ret)
		snprintf(err, len,
			 "RAILS_INFO from %s: 'rails' is not an array of "
			 "{device, port, ...}",
			 c->peer);
	return ret;
}

int ig_rails_serve(struct ig_ctrl *c)
{
	struct ig_rails *r = calloc(1, sizeof(*r));
	struct ig_inv *inv = NULL;
	json_object *o = json_object_new_object();
	char err[256];
	int ret;

	if (r && !ig_inv_load("/", IG_INV_GIDS, &inv, err, sizeof(err)))
		ig_rails_local(inv, r);
	ig_inv_free(inv);
	if (!r || !o || ig_json_add(o, "rails", ig_rails_to_json(r)))
		ret = ig_ctrl_fail(c, ENOMEM, "out of memory for RAILS_INFO");
	else
		ret = ig_ctrl_send(c, IG_MSG_RAILS_INFO, o);
	json_object_put(o);
	free(r);
	return ret;
}
