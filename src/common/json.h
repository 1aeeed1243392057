/* SPDX-License-Identifier: MIT */
#ifndef IG_JSON_H
#define IG_JSON_H

#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

/*
 * The JSON getters and setters every layer uses (json-c underneath).
 * Getters return 0, or -EINVAL when the key is absent or its value has
 * the wrong type or range; they leave *v alone on error.
 */

/* A non-negative integer. */
int ig_json_get_u64(json_object *o, const char *key, uint64_t *v);
/* An integer in the range of int. */
int ig_json_get_int(json_object *o, const char *key, int *v);
/* A number, integer or not. */
int ig_json_get_double(json_object *o, const char *key, double *v);
/* A string; *v points into o and lives as long as o. */
int ig_json_get_str(json_object *o, const char *key, const char **v);
/* A string, copied into buf (truncated, always NUL-terminated). */
int ig_json_copy_str(json_object *o, const char *key, char *buf, size_t len);
/* The same, but an absent or null member is "" (and 0): an optional
 * string. */
int ig_json_copy_str_opt(json_object *o, const char *key, char *buf,
			 size_t len);
/* An array, or NULL when key is absent or not an array. */
json_object *ig_json_get_array(json_object *o, const char *key);

/*
 * Adds val under key, taking ownership of val; -ENOMEM if val is NULL
 * (a failed json_object_new_*()) or the add fails.
 */
int ig_json_add(json_object *o, const char *key, json_object *val);
/* A double; NaN and infinities, which JSON cannot hold, become null. */
int ig_json_add_double(json_object *o, const char *key, double v);
int ig_json_add_u64(json_object *o, const char *key, uint64_t v);
int ig_json_add_int(json_object *o, const char *key, int v);
int ig_json_add_str(json_object *o, const char *key, const char *s);

#endif
