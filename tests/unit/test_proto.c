// SPDX-License-Identifier: MIT
/*
 * Unit tests for the control-message codec.  Expected header bytes are
 * built here by hand from the wire layout in proto.h (big endian), expected
 * bodies are compared with json_object_equal() against the object the test
 * encoded, and every truncated or fuzzed input lives in a heap buffer of
 * exactly its length so that ASan catches any read past the end.
 */
#include <check.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "wire/proto.h"
#include "testwire.h"
#include "testmain.h"
#include "transports/transports.h"

#define N_FUZZ 10000
#define FUZZ_MAX_LEN 160

/* A whole message in a heap buffer of exactly its length. */
static uint8_t *make_msg(uint16_t type, const char *body, size_t blen,
			 size_t *total)
{
	uint8_t *b = malloc(IG_MSG_HDR_LEN + blen);

	ck_assert_ptr_nonnull(b);
	put_hdr(b, "IBGP", 1, type, (uint32_t)blen);
	memcpy(b + IG_MSG_HDR_LEN, body, blen);
	*total = IG_MSG_HDR_LEN + blen;
	return b;
}

/* Copy of the first n bytes of src in a buffer of exactly n bytes. */
static uint8_t *prefix(const uint8_t *src, size_t n)
{
	uint8_t *b = malloc(n ? n : 1);

	ck_assert_ptr_nonnull(b);
	memcpy(b, src, n);
	return b;
}

static uint64_t xorshift64(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*s = x;
	return x;
}

static json_object *sample_body(unsigned int type)
{
	json_object *o = json_object_new_object();
	json_object *a = json_object_new_array();

	json_object_object_add(o, "type", json_object_new_int((int)type));
	json_object_object_add(o, "message",
			       json_object_new_string("caf\xc3\xa9 \"q\" \\"));
	json_object_object_add(o, "big",
			       json_object_new_uint64(UINT64_MAX - type));
	json_object_array_add(a, json_object_new_uint64(type * 1000ull));
	json_object_array_add(a, json_object_new_uint64(0));
	json_object_object_add(o, "rx_bytes", a);
	return o;
}

START_TEST(test_hdr_round_trip)
{
	static const uint32_t lens[] = {
		0, 1, 255, 256, 65535, IG_MSG_MAX_BODY
	};

	for (unsigned int t = IG_MSG_HELLO; t < IG_MSG_TYPE_MAX; t++) {
		for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
			uint8_t got[IG_MSG_HDR_LEN], want[IG_MSG_HDR_LEN];
			struct ig_msg_hdr h = { 0 };

			put_hdr(want, "IBGP", 1, (uint16_t)t, lens[i]);
			memset(got, 0xa5, sizeof(got));
			ig_msg_hdr_encode(got, (uint16_t)t, lens[i]);
			ck_assert_mem_eq(got, want, IG_MSG_HDR_LEN);
			ck_assert_int_eq(ig_msg_hdr_decode(got, &h), 0);
			ck_assert_uint_eq(h.version, 1);
			ck_assert_uint_eq(h.type, t);
			ck_assert_uint_eq(h.len, lens[i]);
		}
	}
}
END_TEST

START_TEST(test_whole_message)
{
	for (unsigned int t = IG_MSG_HELLO; t < IG_MSG_TYPE_MAX; t++) {
		json_object *want = sample_body(t), *got = NULL;
		const char *s = json_object_to_json_string_ext(
			want, JSON_C_TO_STRING_PLAIN);
		struct ig_msg_hdr h = { 0 };
		size_t total;
		uint8_t *b = make_msg((uint16_t)t, s, strlen(s), &total);
		int ret = ig_msg_decode(b, total, &h, &got);

		ck_assert_int_eq(ret, (int)total);
		ck_assert_uint_eq(h.type, t);
		ck_assert_uint_eq(h.version, 1);
		ck_assert_uint_eq(h.len, strlen(s));
		ck_assert_ptr_nonnull(got);
		ck_assert(json_object_is_type(got, json_type_object));
		ck_assert_msg(json_object_equal(want, got),
			      "type %u: body differs", t);
		json_object_put(got);
		json_object_put(want);
		free(b);
	}
}
END_TEST

/* Extra bytes after a whole message belong to the next one. */
START_TEST(test_two_messages)
{
	static const char b1[] = "{\"a\":1}", b2[] = "{\"b\":\"x\"}";
	size_t l1 = strlen(b1), l2 = strlen(b2), n = 0;
	uint8_t *b = malloc(2 * IG_MSG_HDR_LEN + l1 + l2);
	struct ig_msg_hdr h;
	json_object *o;
	uint64_t v;
	const char *str;
	int ret;

	put_hdr(b, "IBGP", 1, IG_MSG_SYNC, (uint32_t)l1);
	memcpy(b + IG_MSG_HDR_LEN, b1, l1);
	n = IG_MSG_HDR_LEN + l1;
	put_hdr(b + n, "IBGP", 1, IG_MSG_BYE, (uint32_t)l2);
	memcpy(b + n + IG_MSG_HDR_LEN, b2, l2);
	ret = ig_msg_decode(b, n + IG_MSG_HDR_LEN + l2, &h, &o);
	ck_assert_int_eq(ret, (int)n);
	ck_assert_uint_eq(h.type, IG_MSG_SYNC);
	ck_assert_int_eq(ig_json_get_u64(o, "a", &v), 0);
	ck_assert_uint_eq(v, 1);
	json_object_put(o);
	ret = ig_msg_decode(b + n, IG_MSG_HDR_LEN + l2, &h, &o);
	ck_assert_int_eq(ret, (int)(IG_MSG_HDR_LEN + l2));
	ck_assert_uint_eq(h.type, IG_MSG_BYE);
	ck_assert_int_eq(ig_json_get_str(o, "b", &str), 0);
	ck_assert_str_eq(str, "x");
	json_object_put(o);
	free(b);
}
END_TEST

START_TEST(test_truncated)
{
	json_object *want = sample_body(IG_MSG_RESULT);
	const char *s =
		json_object_to_json_string_ext(want, JSON_C_TO_STRING_PLAIN);
	size_t total;
	uint8_t *full = make_msg(IG_MSG_RESULT, s, strlen(s), &total);

	for (size_t n = 0; n < total; n++) {
		uint8_t *b = prefix(full, n);
		struct ig_msg_hdr h;
		json_object *o = (json_object *)&h; /* must be reset */
		int ret = ig_msg_decode(b, n, &h, &o);

		ck_assert_msg(ret == -EAGAIN, "length %zu of %zu: got %d", n,
			      total, ret);
		ck_assert_ptr_null(o);
		free(b);
	}
	json_object_put(want);
	free(full);
}
END_TEST

START_TEST(test_bad_magic)
{
	static const char *const magics[] = { "IBGQ", "ibgp", "\0\0\0\0",
					      "PGBI", "XBGP" };

	for (size_t i = 0; i < sizeof(magics) / sizeof(magics[0]); i++) {
		uint8_t b[IG_MSG_HDR_LEN + 2];
		struct ig_msg_hdr h;
		json_object *o;

		put_hdr(b, magics[i], 1, IG_MSG_HELLO, 2);
		memcpy(b + IG_MSG_HDR_LEN, "{}", 2);
		ck_assert_int_eq(ig_msg_hdr_decode(b, &h), -EPROTO);
		ck_assert_int_eq(ig_msg_decode(b, sizeof(b), &h, &o), -EPROTO);
		ck_assert_ptr_null(o);
	}
}
END_TEST

START_TEST(test_bad_version)
{
	static const uint16_t vers[] = { 0, 2, 0x0100, 0xffff };

	for (size_t i = 0; i < sizeof(vers) / sizeof(vers[0]); i++) {
		uint8_t b[IG_MSG_HDR_LEN];
		struct ig_msg_hdr h = { 0 };
		json_object *o;

		put_hdr(b, "IBGP", vers[i], IG_MSG_HELLO, 2);
		ck_assert_int_eq(ig_msg_hdr_decode(b, &h), -EPROTONOSUPPORT);
		ck_assert_uint_eq(h.version, vers[i]);
		h.version = 1;
		/* only the header is present: the version decides first */
		ck_assert_int_eq(ig_msg_decode(b, sizeof(b), &h, &o),
				 -EPROTONOSUPPORT);
		ck_assert_uint_eq(h.version, vers[i]);
		ck_assert_ptr_null(o);
	}
}
END_TEST

START_TEST(test_too_big)
{
	static const uint32_t lens[] = { IG_MSG_MAX_BODY + 1, 0x01000000,
					 0x80000000u, 0xffffffffu };

	for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		uint8_t *b = malloc(IG_MSG_HDR_LEN);
		struct ig_msg_hdr h;
		json_object *o;

		put_hdr(b, "IBGP", 1, IG_MSG_SETUP, lens[i]);
		ck_assert_int_eq(ig_msg_hdr_decode(b, &h), -EMSGSIZE);
		ck_assert_int_eq(ig_msg_decode(b, IG_MSG_HDR_LEN, &h, &o),
				 -EMSGSIZE);
		ck_assert_ptr_null(o);
		free(b);
	}
}
END_TEST

/* The biggest body allowed is a whole message too. */
START_TEST(test_max_body)
{
	size_t blen = IG_MSG_MAX_BODY, total;
	char *body = malloc(blen);
	uint8_t *b;
	struct ig_msg_hdr h;
	json_object *o;
	const char *s;

	/* {"s":"xxx...x"} of exactly IG_MSG_MAX_BODY bytes */
	memset(body, 'x', blen);
	memcpy(body, "{\"s\":\"", 6);
	memcpy(body + blen - 2, "\"}", 2);
	b = make_msg(IG_MSG_XPORT, body, blen, &total);
	ck_assert_int_eq(ig_msg_decode(b, total, &h, &o), (int)total);
	ck_assert_int_eq(ig_json_get_str(o, "s", &s), 0);
	ck_assert_uint_eq(strlen(s), blen - 8);
	json_object_put(o);
	free(b);
	free(body);
}
END_TEST

START_TEST(test_bad_type)
{
	static const uint16_t types[] = { 0, IG_MSG_TYPE_MAX,
					  IG_MSG_TYPE_MAX + 1, 0xffff };

	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		size_t total;
		uint8_t *b = make_msg(types[i], "{}", 2, &total);
		struct ig_msg_hdr h;
		json_object *o;

		ck_assert_int_eq(ig_msg_hdr_decode(b, &h), -EBADMSG);
		ck_assert_int_eq(ig_msg_decode(b, total, &h, &o), -EBADMSG);
		ck_assert_ptr_null(o);
		free(b);
	}
}
END_TEST

static const struct {
	const char *s;
	size_t len;
} bad_bodies[] = {
	{ "[]", 2 },	      { "1", 1 },	  { "\"x\"", 3 },
	{ "{", 1 },	      { "{}garbage", 9 }, { "{}x", 3 },
	{ "{\"a\"\0:1}", 8 }, { "{}\0", 3 },	  { "", 0 },
	{ "null", 4 },	      { "true", 4 },	  { "{\"a\":}", 6 },
	{ "{}{}", 4 },	      { " ", 1 },	  { "{\"a\":1,}", 8 },
};

#define N_BAD_BODIES (sizeof(bad_bodies) / sizeof(bad_bodies[0]))

START_TEST(test_bad_body)
{
	size_t total;
	uint8_t *b = make_msg(IG_MSG_READY, bad_bodies[_i].s,
			      bad_bodies[_i].len, &total);
	uint8_t *raw =
		prefix((const uint8_t *)bad_bodies[_i].s, bad_bodies[_i].len);
	struct ig_msg_hdr h;
	json_object *o = (json_object *)&h;

	ck_assert_int_eq(ig_msg_body_decode(raw, bad_bodies[_i].len, &o),
			 -EBADMSG);
	ck_assert_ptr_null(o);
	o = (json_object *)&h;
	ck_assert_int_eq(ig_msg_decode(b, total, &h, &o), -EBADMSG);
	ck_assert_ptr_null(o);
	free(raw);
	free(b);
}
END_TEST

/*
 * "{} " is a JSON object followed by one byte that is not part of it: the
 * body must be exactly the object.
 */
START_TEST(test_trailing_space)
{
	static const char *const bodies[] = { "{} ", "{}\n", " {}" };

	for (size_t i = 0; i < sizeof(bodies) / sizeof(bodies[0]); i++) {
		size_t len = strlen(bodies[i]), total;
		uint8_t *b = make_msg(IG_MSG_READY, bodies[i], len, &total);
		struct ig_msg_hdr h;
		json_object *o;
		int ret = ig_msg_decode(b, total, &h, &o);

		json_object_put(o);
		free(b);
		ck_assert_msg(ret == -EBADMSG,
			      "body '%s' (%zu bytes): got "
			      "%d, want -EBADMSG",
			      bodies[i], len, ret);
	}
}
END_TEST

/*
 * Expected result of ig_msg_decode from the wire layout alone.  *alt is a
 * second acceptable result, or 1 when there is none: -EBADMSG when the
 * outcome depends on the body, or when both length and type are bad.
 */
static int model_decode(const uint8_t *b, size_t n, int *alt)
{
	uint16_t ver, type;
	uint32_t len;

	*alt = 1;
	if (n < IG_MSG_HDR_LEN)
		return -EAGAIN;
	if (memcmp(b, "IBGP", 4))
		return -EPROTO;
	ver = (uint16_t)(b[4] << 8 | b[5]);
	type = (uint16_t)(b[6] << 8 | b[7]);
	len = (uint32_t)b[8] << 24 | (uint32_t)b[9] << 16 |
	      (uint32_t)b[10] << 8 | b[11];
	if (ver != 1)
		return -EPROTONOSUPPORT;
	if (type == 0 || type >= IG_MSG_TYPE_MAX) {
		if (len > IG_MSG_MAX_BODY)
			*alt = -EMSGSIZE;
		return -EBADMSG;
	}
	if (len > IG_MSG_MAX_BODY)
		return -EMSGSIZE;
	if (n - IG_MSG_HDR_LEN < len)
		return -EAGAIN;
	*alt = -EBADMSG;
	return (int)(IG_MSG_HDR_LEN + len);
}

/* One fuzz input: random bytes, or a valid prefix then random bytes, or a
 * valid message with a few bytes changed. */
static size_t fuzz_input(uint64_t *seed, uint8_t *b)
{
	static const char body[] = "{\"rx_bytes\":[1,2,3],\"m\":\"ok\"}";
	size_t n = xorshift64(seed) % FUZZ_MAX_LEN, blen = strlen(body);
	unsigned int kind = (unsigned int)(xorshift64(seed) % 4);

	for (size_t i = 0; i < FUZZ_MAX_LEN; i++)
		b[i] = (uint8_t)xorshift64(seed);
	if (kind == 0)
		return n;
	memcpy(b, "IBGP", 4);
	if (kind == 1)
		return n;
	b[4] = 0;
	b[5] = 1;
	b[8] = b[9] = 0;
	if (kind == 2) {
		b[6] = 0;
		b[7] &= 0x0f;
		return n;
	}
	put_hdr(b, "IBGP", 1, (uint16_t)(1 + xorshift64(seed) % 14),
		(uint32_t)blen);
	memcpy(b + IG_MSG_HDR_LEN, body, blen);
	for (int k = (int)(xorshift64(seed) % 3); k > 0; k--)
		b[xorshift64(seed) % (IG_MSG_HDR_LEN + blen)] =
			(uint8_t)xorshift64(seed);
	return IG_MSG_HDR_LEN + blen + xorshift64(seed) % 4;
}

START_TEST(test_fuzz)
{
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	uint8_t tmp[FUZZ_MAX_LEN + 16];
	unsigned int ok = 0;

	for (int i = 0; i < N_FUZZ; i++) {
		size_t n = fuzz_input(&seed, tmp);
		uint8_t *b = prefix(tmp, n);
		struct ig_msg_hdr h;
		json_object *o = (json_object *)&h;
		int alt, want = model_decode(b, n, &alt);
		int ret = ig_msg_decode(b, n, &h, &o);

		ck_assert_msg(ret == want || ret == alt,
			      "input %d (%zu "
			      "bytes): got %d, want %d or %d",
			      i, n, ret, want, alt);
		if (ret > 0) {
			ck_assert_ptr_nonnull(o);
			ck_assert(json_object_is_type(o, json_type_object));
			ck_assert_ptr_null(
				memchr(b + IG_MSG_HDR_LEN, 0,
				       (size_t)ret - IG_MSG_HDR_LEN));
			json_object_put(o);
			ok++;
		} else {
			ck_assert_ptr_null(o);
		}
		free(b);
	}
	/* the mutated valid messages must succeed now and then */
	ck_assert_uint_gt(ok, 100);
}
END_TEST

START_TEST(test_type_name)
{
	static const char *const names[IG_MSG_TYPE_MAX] = {
		[1] = "HELLO",	    [2] = "WELCOME", [3] = "BUSY",
		[4] = "ERROR",	    [5] = "SETUP",   [6] = "XPORT",
		[7] = "READY",	    [8] = "SYNC",    [9] = "SYNCED",
		[10] = "BEGIN",	    [11] = "END",    [12] = "RESULT",
		[13] = "KEEPALIVE", [14] = "BYE",    [15] = "DOCTOR",
		[16] = "FINDINGS",  [17] = "AUTH",   [18] = "AUTH_REPLY",
		[19] = "TRY",	    [20] = "TRIED",  [21] = "UNTRY",
		[22] = "UNTRIED",   [23] = "RAILS",  [24] = "RAILS_INFO",
		[25] = "VERBS_EP",
	};
	static const unsigned int unknown[] = { 0,	IG_MSG_TYPE_MAX,
						27,	255,
						0xffff, 0xffffffffu };

	ck_assert_uint_eq(IG_MSG_TYPE_MAX, 26);
	ck_assert_uint_eq(IG_MSG_VERBS_EP, 25);
	ck_assert_uint_eq(IG_MSG_RAILS, 23);
	ck_assert_uint_eq(IG_MSG_RAILS_INFO, 24);
	ck_assert_uint_eq(IG_MSG_TRY, 19);
	ck_assert_uint_eq(IG_MSG_UNTRIED, 22);
	ck_assert_uint_eq(IG_MSG_AUTH, 17);
	ck_assert_uint_eq(IG_MSG_AUTH_REPLY, 18);
	ck_assert_uint_eq(IG_MSG_HELLO, 1);
	ck_assert_uint_eq(IG_MSG_BYE, 14);
	for (unsigned int t = 1; t < IG_MSG_TYPE_MAX; t++)
		ck_assert_str_eq(ig_msg_type_name(t), names[t]);
	for (size_t i = 0; i < sizeof(unknown) / sizeof(unknown[0]); i++) {
		const char *s = ig_msg_type_name(unknown[i]);

		ck_assert_ptr_nonnull(s);
		for (unsigned int t = 1; t < IG_MSG_TYPE_MAX; t++)
			ck_assert_str_ne(s, names[t]);
	}
}
END_TEST

static const struct ig_params param_sets[] = {
	{ .test = IG_TEST_TCP_BW,
	  .size = 65536,
	  .iterations = 0,
	  .duration_ns = 2000000000,
	  .warmup_ns = 500000000,
	  .streams = 1,
	  .sock.window = 0,
	  .timeout_ms = 10000,
	  .verbs.tx_depth = 128,
	  .verbs.cq_mod = 16,
	  .verbs.inline_size = 0 },
	{ .test = IG_TEST_WRITE_LAT,
	  .size = 3,
	  .iterations = 5,
	  .duration_ns = 7,
	  .warmup_ns = 11,
	  .streams = 13,
	  .sock.window = 17,
	  .timeout_ms = 19,
	  .verbs.tx_depth = 23,
	  .verbs.cq_mod = 29,
	  .verbs.inline_size = 31,
	  .bidir = 1,
	  .verbs.outs = 37,
	  .verbs.oob = 1,
	  .verbs.inline_auto = 1 },
	{ .test = IG_TEST_SEND_LAT,
	  .size = UINT64_MAX,
	  .iterations = UINT64_MAX - 1,
	  .duration_ns = UINT64_MAX - 2,
	  .warmup_ns = UINT64_MAX - 3,
	  .streams = UINT32_MAX,
	  .sock.window = UINT64_MAX - 4,
	  .timeout_ms = UINT32_MAX - 1,
	  .verbs.tx_depth = UINT32_MAX - 2,
	  .verbs.cq_mod = UINT32_MAX - 3,
	  .verbs.inline_size = UINT32_MAX - 4,
	  .verbs.outs = UINT32_MAX },
	{ .test = IG_TEST_SEND_BW,
	  .size = 1ull << 40,
	  .iterations = 1,
	  .duration_ns = 0,
	  .warmup_ns = 0,
	  .streams = 64,
	  .sock.window = 1ull << 30,
	  .timeout_ms = 100,
	  .verbs.tx_depth = 8192,
	  .verbs.cq_mod = 1,
	  .verbs.inline_size = 1024,
	  .verbs.events = 1,
	  .reverse = 1 },
	{ .test = IG_TEST_WRITE_BW,
	  .size = 0,
	  .iterations = 0,
	  .duration_ns = 0,
	  .warmup_ns = 0,
	  .streams = 0,
	  .sock.window = 0,
	  .timeout_ms = 0,
	  .verbs.tx_depth = 0,
	  .verbs.cq_mod = 0,
	  .verbs.inline_size = 0 },
	{ .test = IG_TEST_TCP_LAT,
	  .size = 2,
	  .iterations = 1000000000,
	  .streams = 2,
	  .timeout_ms = 3600000,
	  .verbs.tx_depth = 1,
	  .verbs.cq_mod = 1 },
};

#define N_PARAM_SETS (sizeof(param_sets) / sizeof(param_sets[0]))

static void assert_params_eq(const struct ig_params *a,
			     const struct ig_params *b)
{
	ck_assert_int_eq(a->test, b->test);
	ck_assert_uint_eq(a->size, b->size);
	ck_assert_uint_eq(a->iterations, b->iterations);
	ck_assert_uint_eq(a->duration_ns, b->duration_ns);
	ck_assert_uint_eq(a->warmup_ns, b->warmup_ns);
	ck_assert_uint_eq(a->streams, b->streams);
	ck_assert_uint_eq(a->sock.window, b->sock.window);
	ck_assert_uint_eq(a->timeout_ms, b->timeout_ms);
	ck_assert_uint_eq(a->verbs.tx_depth, b->verbs.tx_depth);
	ck_assert_uint_eq(a->verbs.cq_mod, b->verbs.cq_mod);
	ck_assert_uint_eq(a->verbs.inline_size, b->verbs.inline_size);
	ck_assert_uint_eq(a->bidir, b->bidir);
	ck_assert_uint_eq(a->verbs.events, b->verbs.events);
	ck_assert_uint_eq(a->reverse, b->reverse);
	ck_assert_uint_eq(a->verbs.outs, b->verbs.outs);
	ck_assert_uint_eq(a->verbs.oob, b->verbs.oob);
	ck_assert_uint_eq(a->verbs.inline_auto, b->verbs.inline_auto);
}

START_TEST(test_params_round_trip)
{
	const struct ig_params *want = &param_sets[_i];
	struct ig_params got;
	json_object *o = ig_params_to_json(IG_TESTS, want);
	char err[256] = "";

	ck_assert_ptr_nonnull(o);
	/* the test, the twelve numeric fields and the optional reverse,
	 * events, outs, oob and inline_auto */
	ck_assert_int_eq(json_object_object_length(o), 17);
	memset(&got, 0x5a, sizeof(got));
	ck_assert_int_eq(
		ig_params_from_json(IG_TESTS, o, &got, err, sizeof(err)), 0);
	assert_params_eq(&got, want);
	json_object_put(o);
}
END_TEST

/* The same through the wire: text, SETUP message, decode, from_json. */
START_TEST(test_params_wire_round_trip)
{
	const struct ig_params *want = &param_sets[_i];
	json_object *o = ig_params_to_json(IG_TESTS, want), *back;
	const char *s =
		json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	struct ig_params got;
	struct ig_msg_hdr h;
	char err[256] = "";
	size_t total;
	uint8_t *b = make_msg(IG_MSG_SETUP, s, strlen(s), &total);

	ck_assert_int_eq(ig_msg_decode(b, total, &h, &back), (int)total);
	memset(&got, 0xa5, sizeof(got));
	ck_assert_int_eq(
		ig_params_from_json(IG_TESTS, back, &got, err, sizeof(err)), 0);
	assert_params_eq(&got, want);
	json_object_put(back);
	json_object_put(o);
	free(b);
}
END_TEST

static void expect_from_json_error(json_object *o, const char *field)
{
	struct ig_params p;
	char err[256] = "";

	ck_assert_int_eq(ig_params_from_json(IG_TESTS, o, &p, err, sizeof(err)),
			 -EINVAL);
	ck_assert_msg(err[0], "empty error for '%s'", field);
	ck_assert_msg(strstr(err, field), "error '%s' does not name '%s'", err,
		      field);
}

/* Every key to_json writes is required by from_json, except the ones
 * newer peers added (reverse, events, outs, oob, inline_auto), whose
 * absence means the old behaviour. */
START_TEST(test_params_missing_field)
{
	json_object *full = ig_params_to_json(IG_TESTS, &param_sets[1]);
	unsigned int n = 0;

	json_object_object_foreach (full, key, val) {
		json_object *o = NULL;

		(void)val;
		if (!strcmp(key, "reverse") || !strcmp(key, "events") ||
		    !strcmp(key, "outs") || !strcmp(key, "oob") ||
		    !strcmp(key, "inline_auto"))
			continue;
		ck_assert_int_eq(json_object_deep_copy(full, &o, NULL), 0);
		json_object_object_del(o, key);
		expect_from_json_error(o, key);
		json_object_put(o);
		n++;
	}
	ck_assert_uint_eq(n, 12);
	json_object_put(full);
}
END_TEST

/* --ctrl's data address: absent is "" (the control connection's), a
 * numeric IPv4 or IPv6 address travels, anything else is refused naming
 * the key. */
START_TEST(test_params_data_addr)
{
	static const char *const good[] = { "10.1.2.3", "fe80::1" };
	static const char *const bad[] = { "x.y", "", "10.1.2.3.4",
					   "host.example" };
	struct ig_params p = param_sets[1], got;
	json_object *o;
	char err[256] = "";

	o = ig_params_to_json(IG_TESTS, &p);
	ck_assert(!json_object_object_get_ex(o, "data_addr", NULL));
	memset(&got, 0x5a, sizeof(got));
	ck_assert_int_eq(
		ig_params_from_json(IG_TESTS, o, &got, err, sizeof(err)), 0);
	ck_assert_str_eq(got.data_addr, "");
	json_object_put(o);
	for (size_t i = 0; i < 2; i++) {
		snprintf(p.data_addr, sizeof(p.data_addr), "%s", good[i]);
		o = ig_params_to_json(IG_TESTS, &p);
		ck_assert_int_eq(ig_params_from_json(IG_TESTS, o, &got, err,
						     sizeof(err)),
				 0);
		ck_assert_str_eq(got.data_addr, good[i]);
		json_object_put(o);
	}
	for (size_t i = 0; i < 4; i++) {
		o = ig_params_to_json(IG_TESTS, &param_sets[1]);
		json_object_object_add(o, "data_addr",
				       json_object_new_string(bad[i]));
		expect_from_json_error(o, "data_addr");
		json_object_put(o);
	}
	o = ig_params_to_json(IG_TESTS, &param_sets[1]);
	json_object_object_add(o, "data_addr", json_object_new_int(5));
	expect_from_json_error(o, "data_addr");
	json_object_put(o);
}
END_TEST

/* An older peer sends no events: it means 0 (poll); a present one must
 * be a number that fits, and the check allows 0 or 1 only. */
START_TEST(test_params_events_optional)
{
	json_object *o = ig_params_to_json(IG_TESTS, &param_sets[3]);
	struct ig_params p;
	char err[256] = "";

	json_object_object_del(o, "events");
	memset(&p, 0x5a, sizeof(p));
	ck_assert_int_eq(ig_params_from_json(IG_TESTS, o, &p, err, sizeof(err)),
			 0);
	ck_assert_uint_eq(p.verbs.events, 0);
	json_object_object_add(o, "events", json_object_new_int(1));
	ck_assert_int_eq(ig_params_from_json(IG_TESTS, o, &p, err, sizeof(err)),
			 0);
	ck_assert_uint_eq(p.verbs.events, 1);
	ig_params_default(&p);
	p.test = IG_TEST_SEND_BW;
	p.verbs.events = 1;
	ck_assert_int_eq(ig_params_check(IG_TESTS, &p, err, sizeof(err)), 0);
	p.verbs.events = 2;
	ck_assert_int_eq(ig_params_check(IG_TESTS, &p, err, sizeof(err)),
			 -EINVAL);
	ck_assert_msg(strstr(err, "events"), "%s", err);
	json_object_object_add(o, "events", json_object_new_string("yes"));
	expect_from_json_error(o, "events");
	json_object_put(o);
}
END_TEST

/* An old client's SETUP has no "reverse": it means forward, whatever the
 * struct held before; a present one that is not 0 or 1 is refused later
 * by ig_params_check, one that is no integer here. */
START_TEST(test_params_reverse_optional)
{
	struct ig_params want = param_sets[0], got;
	json_object *o;
	char err[256] = "";

	want.reverse = 1;
	o = ig_params_to_json(IG_TESTS, &want);
	json_object_object_del(o, "reverse");
	memset(&got, 0x5a, sizeof(got));
	ck_assert_int_eq(
		ig_params_from_json(IG_TESTS, o, &got, err, sizeof(err)), 0);
	ck_assert_uint_eq(got.reverse, 0);
	json_object_object_add(o, "reverse", json_object_new_string("yes"));
	expect_from_json_error(o, "reverse");
	json_object_object_add(o, "reverse", json_object_new_int(2));
	ck_assert_int_eq(
		ig_params_from_json(IG_TESTS, o, &got, err, sizeof(err)), 0);
	ck_assert_int_eq(ig_params_check(IG_TESTS, &got, err, sizeof(err)),
			 -EINVAL);
	ck_assert_msg(strstr(err, "reverse 2"), "'%s'", err);
	json_object_put(o);
}
END_TEST

/* An older client sends no "outs": 0, the devices' maximum; a present
 * one must be an integer that fits, and the check allows 0 to 255. */
START_TEST(test_params_outs_optional)
{
	struct ig_params want = param_sets[0], got;
	json_object *o;
	char err[256] = "";

	want.test = IG_TEST_READ_BW;
	want.verbs.outs = 16;
	o = ig_params_to_json(IG_TESTS, &want);
	memset(&got, 0x5a, sizeof(got));
	ck_assert_int_eq(
		ig_params_from_json(IG_TESTS, o, &got, err, sizeof(err)), 0);
	ck_assert_uint_eq(got.verbs.outs, 16);
	ck_assert_int_eq(got.test, IG_TEST_READ_BW);
	ck_assert_int_eq(ig_params_check(IG_TESTS, &got, err, sizeof(err)), 0);
	json_object_object_del(o, "outs");
	memset(&got, 0x5a, sizeof(got));
	ck_assert_int_eq(
		ig_params_from_json(IG_TESTS, o, &got, err, sizeof(err)), 0);
	ck_assert_uint_eq(got.verbs.outs, 0);
	json_object_object_add(o, "outs", json_object_new_string("max"));
	expect_from_json_error(o, "outs");
	json_object_object_add(o, "outs", json_object_new_int64(1ll << 32));
	expect_from_json_error(o, "outs");
	json_object_object_add(o, "outs", json_object_new_int(256));
	ck_assert_int_eq(
		ig_params_from_json(IG_TESTS, o, &got, err, sizeof(err)), 0);
	ck_assert_int_eq(ig_params_check(IG_TESTS, &got, err, sizeof(err)),
			 -EINVAL);
	ck_assert_msg(strstr(err, "outs 256") && strstr(err, "0 to 255"),
		      "'%s'", err);
	json_object_put(o);
	/* oob (VERBS_EP instead of rdma_cm): absent 0, else 0 or 1 */
	want.verbs.outs = 0;
	want.verbs.oob = 1;
	o = ig_params_to_json(IG_TESTS, &want);
	ck_assert_int_eq(
		ig_params_from_json(IG_TESTS, o, &got, err, sizeof(err)), 0);
	ck_assert_uint_eq(got.verbs.oob, 1);
	json_object_object_del(o, "oob");
	ck_assert_int_eq(
		ig_params_from_json(IG_TESTS, o, &got, err, sizeof(err)), 0);
	ck_assert_uint_eq(got.verbs.oob, 0);
	json_object_object_add(o, "oob", json_object_new_int(2));
	ck_assert_int_eq(
		ig_params_from_json(IG_TESTS, o, &got, err, sizeof(err)), 0);
	ck_assert_int_eq(ig_params_check(IG_TESTS, &got, err, sizeof(err)),
			 -EINVAL);
	ck_assert_msg(strstr(err, "oob 2") && strstr(err, "0 to 1"), "'%s'",
		      err);
	json_object_put(o);
}
END_TEST

static json_object *params_with(const char *key, json_object *val)
{
	json_object *o = ig_params_to_json(IG_TESTS, &param_sets[0]);

	json_object_object_add(o, key, val);
	return o;
}

START_TEST(test_params_bad_values)
{
	static const char *const u32_fields[] = { "streams", "timeout_ms",
						  "tx_depth", "cq_mod",
						  "inline_size" };
	json_object *o;

	o = params_with("streams", json_object_new_int(-1));
	expect_from_json_error(o, "streams");
	json_object_put(o);
	o = params_with("size", json_object_new_int64(-65536));
	expect_from_json_error(o, "size");
	json_object_put(o);
	o = params_with("size", json_object_new_string("64"));
	expect_from_json_error(o, "size");
	json_object_put(o);
	o = params_with("window", json_object_new_double(1.5));
	expect_from_json_error(o, "window");
	json_object_put(o);
	o = params_with("iterations", json_object_new_boolean(1));
	expect_from_json_error(o, "iterations");
	json_object_put(o);
	o = params_with("duration_ns", json_object_new_null());
	expect_from_json_error(o, "duration_ns");
	json_object_put(o);
	o = params_with("test", json_object_new_string("foo_bw"));
	expect_from_json_error(o, "test");
	json_object_put(o);
	o = params_with("test", json_object_new_int(0));
	expect_from_json_error(o, "test");
	json_object_put(o);
	for (size_t i = 0; i < sizeof(u32_fields) / sizeof(u32_fields[0]);
	     i++) {
		o = params_with(u32_fields[i],
				json_object_new_uint64(1ull << 32));
		expect_from_json_error(o, u32_fields[i]);
		json_object_put(o);
	}
}
END_TEST

/* 2^32 - 1 still fits a uint32 field; 2^32 must not wrap to 0. */
START_TEST(test_params_u32_edge)
{
	json_object *o =
		params_with("streams", json_object_new_uint64(UINT32_MAX));
	struct ig_params p;
	char err[256] = "";

	ck_assert_int_eq(ig_params_from_json(IG_TESTS, o, &p, err, sizeof(err)),
			 0);
	ck_assert_uint_eq(p.streams, 4294967295u);
	json_object_put(o);
	o = params_with("streams", json_object_new_uint64(1ull << 32));
	err[0] = '\0';
	ck_assert_int_eq(ig_params_from_json(IG_TESTS, o, &p, err, sizeof(err)),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "4294967296"));
	json_object_put(o);
}
END_TEST

START_TEST(test_json_get)
{
	json_object *o = json_tokener_parse(
		"{\"u\":42,\"max\":18446744073709551615,\"neg\":-1,"
		"\"d\":1.5,\"s\":\"str\",\"b\":true,\"n\":null,"
		"\"a\":[1],\"o\":{\"u\":1},\"zero\":0}");
	static const char *const not_u64[] = { "neg", "d", "s", "b",
					       "n",   "a", "o", "absent" };
	static const char *const not_str[] = { "u", "d", "b",	  "n",
					       "a", "o", "absent" };
	uint64_t v;
	const char *s;

	ck_assert_ptr_nonnull(o);
	ck_assert_int_eq(ig_json_get_u64(o, "u", &v), 0);
	ck_assert_uint_eq(v, 42);
	ck_assert_int_eq(ig_json_get_u64(o, "zero", &v), 0);
	ck_assert_uint_eq(v, 0);
	ck_assert_int_eq(ig_json_get_u64(o, "max", &v), 0);
	ck_assert_uint_eq(v, 18446744073709551615ull);
	ck_assert_int_eq(ig_json_get_str(o, "s", &s), 0);
	ck_assert_str_eq(s, "str");
	for (size_t i = 0; i < sizeof(not_u64) / sizeof(not_u64[0]); i++)
		ck_assert_msg(ig_json_get_u64(o, not_u64[i], &v) == -EINVAL,
			      "get_u64 accepted '%s'", not_u64[i]);
	for (size_t i = 0; i < sizeof(not_str) / sizeof(not_str[0]); i++)
		ck_assert_msg(ig_json_get_str(o, not_str[i], &s) == -EINVAL,
			      "get_str accepted '%s'", not_str[i]);
	json_object_put(o);
}
END_TEST

/* A peer's unknown test name must not carry control characters into the
 * error text the server logs (found by fuzz_msg: log line forging). */
START_TEST(test_params_name_sanitized)
{
	json_object *o = json_object_new_object();
	struct ig_params p;
	char err[256] = "";

	json_object_object_add(o, "test",
			       json_object_new_string("tcp_\nbw\x1b[2J"));
	ck_assert_int_eq(ig_params_from_json(IG_TESTS, o, &p, err, sizeof(err)),
			 -EINVAL);
	ck_assert_msg(err[0], "no error text");
	for (const char *c = err; *c; c++)
		ck_assert_msg((unsigned char)*c >= 0x20 && *c != 0x7f,
			      "control character 0x%02x in '%s'",
			      (unsigned char)*c, err);
	ck_assert_msg(strstr(err, "tcp_?bw?[2J"), "'%s' does not show the name",
		      err);
	json_object_put(o);
}
END_TEST

static Suite *proto_suite(void)
{
	Suite *s = suite_create("proto");
	TCase *tc = tcase_create("codec");
	TCase *tp = tcase_create("params");

	tcase_add_test(tc, test_hdr_round_trip);
	tcase_add_test(tc, test_whole_message);
	tcase_add_test(tc, test_two_messages);
	tcase_add_test(tc, test_truncated);
	tcase_add_test(tc, test_bad_magic);
	tcase_add_test(tc, test_bad_version);
	tcase_add_test(tc, test_too_big);
	tcase_add_test(tc, test_max_body);
	tcase_add_test(tc, test_bad_type);
	tcase_add_loop_test(tc, test_bad_body, 0, N_BAD_BODIES);
	tcase_add_test(tc, test_trailing_space);
	tcase_add_test(tc, test_fuzz);
	tcase_add_test(tc, test_type_name);
	suite_add_tcase(s, tc);
	tcase_add_loop_test(tp, test_params_round_trip, 0, N_PARAM_SETS);
	tcase_add_loop_test(tp, test_params_wire_round_trip, 0, N_PARAM_SETS);
	tcase_add_test(tp, test_params_missing_field);
	tcase_add_test(tp, test_params_events_optional);
	tcase_add_test(tp, test_params_data_addr);
	tcase_add_test(tp, test_params_reverse_optional);
	tcase_add_test(tp, test_params_outs_optional);
	tcase_add_test(tp, test_params_bad_values);
	tcase_add_test(tp, test_params_u32_edge);
	tcase_add_test(tp, test_json_get);
	tcase_add_test(tp, test_params_name_sanitized);
	suite_add_tcase(s, tp);
	return s;
}

int main(void)
{
	return run_suite(proto_suite());
}
