// SPDX-License-Identifier: MIT
/* The fingerprint as JSON: an object of strings, one per field. */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "fingerprint.h"
#include "fingerprint_int.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* clang-format off */
#define FIELD(f) \
	{ #f, offsetof(struct ig_fingerprint, f), \
	  sizeof(((struct ig_fingerprint *)0)->f) }
/* clang-format on */

static const struct {
	const char *name;
	size_t off;
	size_t size;
} fields[] = {
	FIELD(kernel),	   FIELD(rdma_core),  FIELD(ibgap),
	FIELD(device),	   FIELD(fw_ver),     FIELD(board_id),
	FIELD(driver),	   FIELD(link_rate),  FIELD(link_width),
	FIELD(link_speed), FIELD(netdev),     FIELD(mtu),
	FIELD(ipoib_mode), FIELD(pcie_speed), FIELD(pcie_width),
};

const char *ig_fingerprint_field(const struct ig_fingerprint *fp,
				 unsigned int i, const char **name)
{
	if (i >= ARRAY_SIZE(fields))
		return NULL;
	if (name)
		*name = fields[i].name;
	return (const char *)fp + fields[i].off;
}

json_object *ig_fingerprint_to_json(const struct ig_fingerprint *fp)
{
	json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	for (size_t i = 0; i < ARRAY_SIZE(fields); i++) {
		const char *v = (const char *)fp + fields[i].off;
		json_object *s = json_object_new_string(v);

		if (!s || json_object_object_add(o, fields[i].name, s) < 0) {
			json_object_put(s);
			json_object_put(o);
			return NULL;
		}
	}
	return o;
}

int ig_fingerprint_from_json(json_object *o, struct ig_fingerprint *fp)
{
	struct ig_fingerprint t;

	if (!o || !json_object_is_type(o, json_type_object))
		return -EINVAL;
	memset(&t, 0, sizeof(t));
	for (size_t i = 0; i < ARRAY_SIZE(fields); i++) {
		json_object *v;

		if (!json_object_object_get_ex(o, fields[i].name, &v))
			continue;
		if (!json_object_is_type(v, json_type_string))
			return -EINVAL;
		ig_fp_set_str((char *)&t + fields[i].off, fields[i].size,
			      json_object_get_string(v));
	}
	*fp = t;
	return 0;
}
