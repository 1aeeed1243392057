// SPDX-License-Identifier: MIT
/* struct ig_xinfo <-> JSON: the device a verbs test used. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "proto.h"
#include "report/report.h"

json_object *ig_xinfo_to_json(const struct ig_xinfo *x)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "device", json_object_new_string(x->device));
	json_object_object_add(o, "port", json_object_new_int(x->port));
	json_object_object_add(o, "link_layer",
			       json_object_new_string(x->link_layer));
	json_object_object_add(o, "mtu", json_object_new_int(x->mtu));
	json_object_object_add(o, "gid", json_object_new_string(x->gid));
	json_object_object_add(o, "gid_index",
			       json_object_new_int(x->gid_index));
	json_object_object_add(o, "rate_gbps",
			       json_object_new_double(x->rate_gbps));
	json_object_object_add(o, "numa_node",
			       json_object_new_int(x->numa_node));
	json_object_object_add(o, "cpu", json_object_new_int(x->cpu));
	return o;
}

static int get_int(json_object *o, const char *key, int *v)
{
	json_object *f;

	if (!json_object_object_get_ex(o, key, &f) ||
	    !json_object_is_type(f, json_type_int))
		return -EINVAL;
	*v = json_object_get_int(f);
	return 0;
}

static int get_str(json_object *o, const char *key, char *buf, size_t len)
{
	const char *v;

	if (ig_json_get_str(o, key, &v))
		return -EINVAL;
	snprintf(buf, len, "%s", v);
	return 0;
}

int ig_xinfo_from_json(json_object *o, struct ig_xinfo *x)
{
	json_object *f;
	struct ig_xinfo t = { .valid = true };

	if (get_str(o, "device", t.device, sizeof(t.device)) ||
	    get_int(o, "port", &t.port) ||
	    get_str(o, "link_layer", t.link_layer, sizeof(t.link_layer)) ||
	    get_int(o, "mtu", &t.mtu) ||
	    get_str(o, "gid", t.gid, sizeof(t.gid)) ||
	    get_int(o, "gid_index", &t.gid_index) ||
	    get_int(o, "numa_node", &t.numa_node) ||
	    get_int(o, "cpu", &t.cpu) ||
	    !json_object_object_get_ex(o, "rate_gbps", &f))
		return -EINVAL;
	t.rate_gbps = json_object_get_double(f);
	*x = t;
	return 0;
}
