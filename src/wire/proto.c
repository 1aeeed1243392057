// SPDX-License-Identifier: MIT
/* Control-channel message codec: pure functions, no I/O. */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "common/be.h"
#include "common/json.h"
#include "proto.h"

static const char *const type_names[IG_MSG_TYPE_MAX] = {
	[IG_MSG_HELLO] = "HELLO",
	[IG_MSG_WELCOME] = "WELCOME",
	[IG_MSG_BUSY] = "BUSY",
	[IG_MSG_ERROR] = "ERROR",
	[IG_MSG_SETUP] = "SETUP",
	[IG_MSG_XPORT] = "XPORT",
	[IG_MSG_READY] = "READY",
	[IG_MSG_SYNC] = "SYNC",
	[IG_MSG_SYNCED] = "SYNCED",
	[IG_MSG_BEGIN] = "BEGIN",
	[IG_MSG_END] = "END",
	[IG_MSG_RESULT] = "RESULT",
	[IG_MSG_KEEPALIVE] = "KEEPALIVE",
	[IG_MSG_BYE] = "BYE",
	[IG_MSG_DOCTOR] = "DOCTOR",
	[IG_MSG_FINDINGS] = "FINDINGS",
	[IG_MSG_AUTH] = "AUTH",
	[IG_MSG_AUTH_REPLY] = "AUTH_REPLY",
	[IG_MSG_TRY] = "TRY",
	[IG_MSG_TRIED] = "TRIED",
	[IG_MSG_UNTRY] = "UNTRY",
	[IG_MSG_UNTRIED] = "UNTRIED",
	[IG_MSG_RAILS] = "RAILS",
	[IG_MSG_RAILS_INFO] = "RAILS_INFO",
	[IG_MSG_VERBS_EP] = "VERBS_EP",
};

const char *ig_msg_type_name(unsigned int type)
{
	if (type < IG_MSG_TYPE_MAX && type_names[type])
		return type_names[type];
	return "UNKNOWN";
}

void ig_msg_hdr_encode(uint8_t *buf, uint16_t type, uint32_t len)
{
	memcpy(buf, IG_PROTO_MAGIC, 4);
	ig_be_put(buf + 4, IG_PROTO_VERSION, 2);
	ig_be_put(buf + 6, type, 2);
	ig_be_put(buf + 8, len, 4);
}

int ig_msg_hdr_decode(const uint8_t *buf, struct ig_msg_hdr *h)
{
	if (memcmp(buf, IG_PROTO_MAGIC, 4))
		return -EPROTO;
	h->version = (uint16_t)ig_be_get(buf + 4, 2);
	h->type = (uint16_t)ig_be_get(buf + 6, 2);
	h->len = (uint32_t)ig_be_get(buf + 8, 4);
	if (h->version != IG_PROTO_VERSION)
		return -EPROTONOSUPPORT;
	if (h->len > IG_MSG_MAX_BODY)
		return -EMSGSIZE;
	if (h->type == 0 || h->type >= IG_MSG_TYPE_MAX)
		return -EBADMSG;
	return 0;
}

int ig_msg_body_decode(const uint8_t *buf, size_t len, json_object **body)
{
	struct json_tokener *tok;
	json_object *o;

	*body = NULL;
	/* strict: exactly one object, no white space around it */
	if (len < 2 || len > IG_MSG_MAX_BODY || buf[0] != '{' ||
	    buf[len - 1] != '}' || memchr(buf, 0, len))
		return -EBADMSG;
	tok = json_tokener_new_ex(32);
	if (!tok)
		return -ENOMEM;
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	o = json_tokener_parse_ex(tok, (const char *)buf, (int)len);
	if (!o || json_tokener_get_error(tok) != json_tokener_success ||
	    json_tokener_get_parse_end(tok) != len ||
	    !json_object_is_type(o, json_type_object)) {
		json_object_put(o);
		json_tokener_free(tok);
		return -EBADMSG;
	}
	json_tokener_free(tok);
	*body = o;
	return 0;
}

int ig_msg_decode(const uint8_t *buf, size_t len, struct ig_msg_hdr *h,
		  json_object **body)
{
	int ret;

	*body = NULL;
	if (len < IG_MSG_HDR_LEN)
		return -EAGAIN;
	ret = ig_msg_hdr_decode(buf, h);
	if (ret)
		return ret;
	if (len - IG_MSG_HDR_LEN < h->len)
		return -EAGAIN;
	ret = ig_msg_body_decode(buf + IG_MSG_HDR_LEN, h->len, body);
	if (ret)
		return ret;
	return IG_MSG_HDR_LEN + (int)h->len;
}

/* clang-format off */
/* X(key, field): SETUP's member key is struct ig_params' field, the
 * transports' in their sub-structs under the keys they always had. */
#define PARAM_FIELDS(X)                                                       \
	X(size, size) X(iterations, iterations)                              \
	X(duration_ns, duration_ns) X(warmup_ns, warmup_ns)                  \
	X(streams, streams) X(window, sock.window)                           \
	X(timeout_ms, timeout_ms) X(tx_depth, verbs.tx_depth)                \
	X(cq_mod, verbs.cq_mod) X(inline_size, verbs.inline_size)            \
	X(bidir, bidir)
/* Fields newer than protocol version 1's first peers: a SETUP without
 * one means its default (0: the old behaviour). */
#define PARAM_OPTIONAL(X)                                                     \
	X(reverse, reverse) X(events, verbs.events) X(outs, verbs.outs)      \
	X(oob, verbs.oob) X(inline_auto, verbs.inline_auto)
/* clang-format on */

json_object *ig_params_to_json(const struct ig_tests *tt,
			       const struct ig_params *p)
{
	json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	json_object_object_add(
		o, "test", json_object_new_string(ig_test_name(tt, p->test)));
#define ADD(k, f) json_object_object_add(o, #k, json_object_new_uint64(p->f));
	PARAM_FIELDS(ADD)
	PARAM_OPTIONAL(ADD)
#undef ADD
	if (p->data_addr[0])
		json_object_object_add(o, "data_addr",
				       json_object_new_string(p->data_addr));
	return o;
}

/* Where each of PARAM_FIELDS lives in struct ig_params, and its width:
 * uint32_t or uint64_t, which get_param() stores. */
struct param_field {
	const char *key;
	size_t off, size;
};

#define PARAM_SIZE(f) sizeof(((struct ig_params *)0)->f)
#define PARAM_FIELD(k, f) { #k, offsetof(struct ig_params, f), PARAM_SIZE(f) },
#define PARAM_WIDTH_OK(k, f) \
	_Static_assert(PARAM_SIZE(f) == 4 || PARAM_SIZE(f) == 8, #k " width");
static const struct param_field param_fields[] = { PARAM_FIELDS(PARAM_FIELD) };
static const struct param_field param_optional[] = { PARAM_OPTIONAL(
	PARAM_FIELD) };
PARAM_FIELDS(PARAM_WIDTH_OK)
PARAM_OPTIONAL(PARAM_WIDTH_OK)

static int get_field(json_object *o, const char *key, uint64_t max, uint64_t *v,
		     char *err, size_t errlen)
{
	if (ig_json_get_u64(o, key, v)) {
		snprintf(err, errlen,
			 "parameter '%s' is missing or not a non-negative "
			 "integer",
			 key);
		return -EINVAL;
	}
	if (*v > max) {
		snprintf(err, errlen,
			 "parameter '%s' = %" PRIu64
			 " does not fit its field (max %" PRIu64 ")",
			 key, *v, max);
		return -EINVAL;
	}
	return 0;
}

/* p's field f from o's value under f->key, refused when it does not fit. */
static int get_param(json_object *o, const struct param_field *f,
		     struct ig_params *p, char *err, size_t errlen)
{
	bool narrow = f->size == sizeof(uint32_t);
	void *at = (char *)p + f->off;
	uint64_t v;
	int ret;

	ret = get_field(o, f->key, narrow ? UINT32_MAX : UINT64_MAX, &v, err,
			errlen);
	if (ret)
		return ret;
	if (narrow)
		*(uint32_t *)at = (uint32_t)v;
	else
		*(uint64_t *)at = v;
	return 0;
}

/* The optional "data_addr": a numeric IPv4 or IPv6 address, or absent. */
static int get_data_addr(json_object *o, struct ig_params *p, char *err,
			 size_t errlen)
{
	unsigned char buf[sizeof(struct in6_addr)];
	const char *a = "";
	char safe[72];

	p->data_addr[0] = 0;
	if (!json_object_object_get_ex(o, "data_addr", NULL))
		return 0;
	if (!ig_json_get_str(o, "data_addr", &a) &&
	    strlen(a) < sizeof(p->data_addr) &&
	    (inet_pton(AF_INET, a, buf) == 1 ||
	     inet_pton(AF_INET6, a, buf) == 1)) {
		snprintf(p->data_addr, sizeof(p->data_addr), "%s", a);
		return 0;
	}
	snprintf(err, errlen,
		 "parameter 'data_addr' (%s) is not a numeric IPv4 or IPv6 "
		 "address",
		 a[0] ? ig_str_safe(a, safe, sizeof(safe), 64)
		      : "not a string, or empty");
	return -EINVAL;
}

int ig_params_from_json(const struct ig_tests *tt, json_object *o,
			struct ig_params *p, char *err, size_t errlen)
{
	const char *name;
	int t, ret;

	if (ig_json_get_str(o, "test", &name)) {
		snprintf(err, errlen, "parameter 'test' is missing");
		return -EINVAL;
	}
	t = ig_test_parse(tt, name);
	if (t < 0) {
		char safe[72];

		snprintf(err, errlen, "test '%s' is unknown to this server",
			 ig_str_safe(name, safe, sizeof(safe), 64));
		return -EINVAL;
	}
	p->test = t;
	for (size_t i = 0; i < sizeof(param_fields) / sizeof(param_fields[0]);
	     i++) {
		ret = get_param(o, &param_fields[i], p, err, errlen);
		if (ret)
			return ret;
	}
	for (size_t i = 0;
	     i < sizeof(param_optional) / sizeof(param_optional[0]); i++) {
		const struct param_field *f = &param_optional[i];

		if (!json_object_object_get_ex(o, f->key, NULL)) {
			memset((char *)p + f->off, 0, f->size);
			continue;
		}
		ret = get_param(o, f, p, err, errlen);
		if (ret)
			return ret;
	}
	return get_data_addr(o, p, err, errlen);
}
