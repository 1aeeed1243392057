// SPDX-License-Identifier: MIT
/* The JSON getters and setters every layer uses. */
#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "json.h"

static json_object *member(json_object *o, const char *key, json_type type)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, type))
		return NULL;
	return v;
}

int ig_json_get_u64(json_object *o, const char *key, uint64_t *v)
{
	json_object *f = member(o, key, json_type_int);
	uint64_t u;

	if (!f)
		return -EINVAL;
	errno = 0;
	u = json_object_get_uint64(f);
	if (errno ||
	    (json_object_get_int64(f) < 0 && json_object_get_uint64(f) == 0))
		return -EINVAL;
	*v = u;
	return 0;
}

int ig_json_get_int(json_object *o, const char *key, int *v)
{
	json_object *f = member(o, key, json_type_int);
	int64_t i;

	if (!f)
		return -EINVAL;
	i = json_object_get_int64(f);
	if (i < INT32_MIN || i > INT32_MAX)
		return -EINVAL;
	*v = (int)i;
	return 0;
}

int ig_json_get_double(json_object *o, const char *key, double *v)
{
	json_object *f;

	if (!json_object_object_get_ex(o, key, &f) ||
	    !(json_object_is_type(f, json_type_double) ||
	      json_object_is_type(f, json_type_int)))
		return -EINVAL;
	*v = json_object_get_double(f);
	return 0;
}

int ig_json_get_str(json_object *o, const char *key, const char **v)
{
	json_object *f = member(o, key, json_type_string);

	if (!f)
		return -EINVAL;
	*v = json_object_get_string(f);
	return 0;
}

int ig_json_copy_str(json_object *o, const char *key, char *buf, size_t len)
{
	const char *s;

	if (ig_json_get_str(o, key, &s))
		return -EINVAL;
	snprintf(buf, len, "%s", s);
	return 0;
}

int ig_json_copy_str_opt(json_object *o, const char *key, char *buf, size_t len)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !v) {
		if (len)
			buf[0] = 0;
		return 0;
	}
	return ig_json_copy_str(o, key, buf, len);
}

json_object *ig_json_get_array(json_object *o, const char *key)
{
	return member(o, key, json_type_array);
}

int ig_json_add(json_object *o, const char *key, json_object *val)
{
	if (!val)
		return -ENOMEM;
	if (json_object_object_add(o, key, val) < 0) {
		json_object_put(val);
		return -ENOMEM;
	}
	return 0;
}

/*
 * json-c 0.16 prints doubles with "%.17g", which reads back to the same
 * value.  It would print NaN and Infinity, which are not JSON: write null
 * instead, so the document stays valid and a reader rejects the value.
 */
int ig_json_add_double(json_object *o, const char *key, double v)
{
	if (!isfinite(v))
		return json_object_object_add(o, key, NULL) < 0 ? -ENOMEM : 0;
	return ig_json_add(o, key, json_object_new_double(v));
}

int ig_json_add_u64(json_object *o, const char *key, uint64_t v)
{
	return ig_json_add(o, key, json_object_new_uint64(v));
}

int ig_json_add_int(json_object *o, const char *key, int v)
{
	return ig_json_add(o, key, json_object_new_int(v));
}

int ig_json_add_str(json_object *o, const char *key, const char *s)
{
	return ig_json_add(o, key, json_object_new_string(s));
}
