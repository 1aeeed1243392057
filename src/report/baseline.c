// SPDX-License-Identifier: MIT
/*
 * Saved reports for baselines: checking that a buffer holds an ibgap
 * report before anything looks inside (baseline_load.c reads files).  The
 * fuzzer calls ig_baseline_parse(), so every input, however broken, ends
 * in 0 or one error line: the size is capped before parsing, a NUL byte or
 * bad UTF-8 is refused, json-c's nesting limit bounds the recursion, and
 * every value is type-checked before use.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "baseline.h"
#include "host/fingerprint.h"
#include "common/fail.h"
#include "common/params.h"

#define IG_SCHEMA "ibgap/1"

static const char *tname(json_object *v)
{
	return json_type_to_name(json_object_get_type(v));
}

/* A string value for a message: at most 40 characters, control
 * characters as '?'. */
static const char *shown(json_object *v, char *buf, size_t len)
{
	return ig_str_safe(json_object_get_string(v), buf, len, 40);
}

/* An integer >= 1 under key; absent is allowed when optional. */
static bool positive_int(json_object *r, const char *key, bool optional)
{
	json_object *v;

	if (!json_object_object_get_ex(r, key, &v))
		return optional;
	return json_object_is_type(v, json_type_int) &&
	       json_object_get_int64(v) >= 1;
}

static int check_result(json_object *r, size_t i, char *err, size_t errlen)
{
	char buf[48];
	json_object *t;

	if (!json_object_is_type(r, json_type_object))
		return ig_fail(-EINVAL, err, errlen,
			       "results[%zu] is of type %s, want an object", i,
			       tname(r));
	if (!json_object_object_get_ex(r, "test", &t) ||
	    !json_object_is_type(t, json_type_string) ||
	    !json_object_get_string_len(t))
		return ig_fail(-EINVAL, err, errlen,
			       "results[%zu] has no \"test\" name (a string)",
			       i);
	if (!positive_int(r, "size", false))
		return ig_fail(-EINVAL, err, errlen,
			       "results[%zu] (%s): \"size\" is missing or "
			       "not an integer >= 1",
			       i, shown(t, buf, sizeof(buf)));
	if (!positive_int(r, "streams", true))
		return ig_fail(-EINVAL, err, errlen,
			       "results[%zu] (%s): \"streams\" is not an "
			       "integer >= 1",
			       i, shown(t, buf, sizeof(buf)));
	return 0;
}

/* env, env.client, env.server and their fingerprints are optional; when
 * present they must be objects (fingerprints: of strings). */
static int check_env(json_object *doc, char *err, size_t errlen)
{
	static const char *const hosts[] = { "client", "server" };
	struct ig_fingerprint fp;
	json_object *env, *h, *f;

	if (!json_object_object_get_ex(doc, "env", &env))
		return 0;
	if (!json_object_is_type(env, json_type_object))
		return ig_fail(-EINVAL, err, errlen,
			       "\"env\" is of type %s, want an object",
			       tname(env));
	for (int i = 0; i < 2; i++) {
		if (!json_object_object_get_ex(env, hosts[i], &h))
			continue;
		if (!json_object_is_type(h, json_type_object))
			return ig_fail(-EINVAL, err, errlen,
				       "env.%s is of type %s, want an object",
				       hosts[i], tname(h));
		if (json_object_object_get_ex(h, "fingerprint", &f) &&
		    ig_fingerprint_from_json(f, &fp))
			return ig_fail(-EINVAL, err, errlen,
				       "env.%s.fingerprint is not an object of "
				       "strings",
				       hosts[i]);
	}
	return 0;
}

static int check_doc(json_object *doc, char *err, size_t errlen)
{
	json_object *v, *res;
	char buf[48];
	int ret;

	if (!json_object_is_type(doc, json_type_object))
		return ig_fail(-EINVAL, err, errlen,
			       "the document is of type %s, want an object "
			       "(an ibgap report)",
			       tname(doc));
	if (!json_object_object_get_ex(doc, "schema", &v))
		return ig_fail(-EINVAL, err, errlen,
			       "no \"schema\": not an ibgap report (want "
			       "\"" IG_SCHEMA "\")");
	if (!json_object_is_type(v, json_type_string))
		return ig_fail(-EINVAL, err, errlen,
			       "\"schema\" is of type %s, "
			       "want \"" IG_SCHEMA "\"",
			       tname(v));
	if (strcmp(json_object_get_string(v), IG_SCHEMA))
		return ig_fail(-EINVAL, err, errlen,
			       "schema \"%s\" is not supported: "
			       "want \"" IG_SCHEMA "\"",
			       shown(v, buf, sizeof(buf)));
	if (!json_object_object_get_ex(doc, "results", &res))
		return ig_fail(-EINVAL, err, errlen, "no \"results\" array");
	if (!json_object_is_type(res, json_type_array))
		return ig_fail(-EINVAL, err, errlen,
			       "\"results\" is of type %s, want an array",
			       tname(res));
	for (size_t i = 0; i < json_object_array_length(res); i++) {
		ret = check_result(json_object_array_get_idx(res, i), i, err,
				   errlen);
		if (ret)
			return ret;
	}
	return check_env(doc, err, errlen);
}

/* s[len] must be '\0' (the tokener is given it, so that a number at the
 * very end is complete) and s holds no other NUL. */
static int parse_cstr(const char *s, size_t len, json_object **doc, char *err,
		      size_t errlen)
{
	struct json_tokener *tok = json_tokener_new();
	enum json_tokener_error jerr;
	json_object *o;
	size_t end;
	int ret;

	if (!tok)
		return ig_fail(-ENOMEM, err, errlen,
			       "out of memory for the JSON parser");
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT |
					    JSON_TOKENER_VALIDATE_UTF8);
	o = json_tokener_parse_ex(tok, s, (int)len + 1);
	jerr = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	if (!o || jerr != json_tokener_success) {
		json_object_put(o);
		return ig_fail(-EINVAL, err, errlen,
			       "not JSON: %s at byte %zu of %zu",
			       json_tokener_error_desc(jerr), end, len);
	}
	if (end < len && s[end + strspn(s + end, " \t\r\n")]) {
		json_object_put(o);
		return ig_fail(-EINVAL, err, errlen,
			       "not JSON: more data after the document, at "
			       "byte %zu",
			       end);
	}
	ret = check_doc(o, err, errlen);
	if (ret) {
		json_object_put(o);
		return ret;
	}
	*doc = o;
	return 0;
}

/* The checks that need no parser: empty, too large, NUL bytes. */
static int precheck(const char *buf, size_t len, char *err, size_t errlen)
{
	const char *nul;

	if (!len)
		return ig_fail(-ENODATA, err, errlen,
			       "empty (0 bytes): not an ibgap report");
	if (len > IG_BASELINE_MAX_BYTES)
		return ig_fail(-EFBIG, err, errlen,
			       "%zu bytes, over the %u MiB limit of a "
			       "saved report",
			       len, IG_BASELINE_MAX_BYTES >> 20);
	nul = memchr(buf, '\0', len);
	if (nul)
		return ig_fail(-EINVAL, err, errlen,
			       "not JSON: a NUL byte at byte %zu",
			       (size_t)(nul - buf));
	return 0;
}

int ig_baseline_parse(const char *buf, size_t len, json_object **doc, char *err,
		      size_t errlen)
{
	char *copy;
	int ret;

	*doc = NULL;
	if (!buf && len)
		return ig_fail(-EINVAL, err, errlen,
			       "internal error: no buffer for %zu bytes", len);
	ret = precheck(buf, len, err, errlen);
	if (ret)
		return ret;
	copy = malloc(len + 1);
	if (!copy)
		return ig_fail(-ENOMEM, err, errlen,
			       "out of memory for %zu bytes", len);
	memcpy(copy, buf, len);
	copy[len] = '\0';
	ret = parse_cstr(copy, len, doc, err, errlen);
	free(copy);
	return ret;
}

int ig_baseline_tolerance_parse(const char *s, double *pct)
{
	char *end;
	double v;

	if (!s || !s[0])
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno)
		return -EINVAL;
	if (*end == '%')
		end++;
	if (*end || !isfinite(v) || v < 0 || v > IG_BASELINE_MAX_TOL)
		return -EINVAL;
	*pct = v;
	return 0;
}
