// SPDX-License-Identifier: MIT
/*
 * Unit tests for VERBS_EP (wire/epmsg.h): a client's and a server's
 * message through their text on the wire and back, and the refusal, with
 * one line naming the member, of truncated or garbled ones.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "testmain.h"
#include "wire/epmsg.h"
#include "wire/proto.h"

static void sample(struct ig_epmsg *m, bool client)
{
	static const uint8_t gid[16] = { 0xfe, 0x80, [8] = 0x02, [15] = 0x42 };

	memset(m, 0, sizeof(*m));
	if (client) {
		snprintf(m->device, sizeof(m->device), "rxe_b2");
		m->port = 1;
	}
	m->mtu = 1024;
	m->rd_atom = client ? 128 : 0;
	m->n = 2;
	for (uint32_t i = 0; i < m->n; i++) {
		m->ep[i] = (struct ig_ep){ .qpn = 0x11 + i,
					   .psn = 0xabcdef - i,
					   .lid = (uint16_t)(client ? 0 : 7),
					   .gid_index = 1 };
		memcpy(m->ep[i].gid, gid, 16);
	}
}

/* The text of m as it travels, decoded again by the wire's codec. */
static json_object *over_wire(const struct ig_epmsg *m)
{
	json_object *o = ig_epmsg_to_json(m), *back;
	const char *s;

	ck_assert_ptr_nonnull(o);
	s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	ck_assert_int_eq(
		ig_msg_body_decode((const uint8_t *)s, strlen(s), &back), 0);
	json_object_put(o);
	return back;
}

START_TEST(test_round_trip)
{
	struct ig_epmsg in, got;
	char err[256] = "";

	for (int client = 0; client < 2; client++) {
		json_object *o;

		sample(&in, client);
		o = over_wire(&in);
		ck_assert_int_eq(json_object_object_get_ex(o, "device", NULL),
				 client);
		memset(&got, 0x5a, sizeof(got));
		ck_assert_int_eq(ig_epmsg_from_json(o, &got, err, sizeof(err)),
				 0);
		json_object_put(o);
		ck_assert_str_eq(got.device, in.device);
		ck_assert_int_eq(got.port, in.port);
		ck_assert_int_eq(got.mtu, 1024);
		ck_assert_uint_eq(got.rd_atom, in.rd_atom);
		ck_assert_uint_eq(got.n, 2);
		ck_assert_mem_eq(got.ep, in.ep, 2 * sizeof(got.ep[0]));
	}
}
END_TEST

static void assert_one_line(const char *s, const char *names)
{
	ck_assert_msg(strstr(s, names), "'%s' does not name '%s'", s, names);
	ck_assert_ptr_null(strchr(s, '\n'));
}

/* in's text with from replaced by to is refused, err naming what. */
static void refused(const char *from, const char *to, const char *what)
{
	struct ig_epmsg m;
	json_object *o, *bad;
	char text[2048], err[256] = "";
	const char *s;
	char *at;

	sample(&m, true);
	o = ig_epmsg_to_json(&m);
	s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	at = strstr(s, from);
	ck_assert_msg(at, "'%s' not in %s", from, s);
	snprintf(text, sizeof(text), "%.*s%s%s", (int)(at - s), s, to,
		 at + strlen(from));
	json_object_put(o);
	ck_assert_int_eq(ig_msg_body_decode((const uint8_t *)text, strlen(text),
					    &bad),
			 0);
	ck_assert_int_eq(ig_epmsg_from_json(bad, &m, err, sizeof(err)),
			 -EBADMSG);
	assert_one_line(err, what);
	json_object_put(bad);
}

START_TEST(test_garbled)
{
	refused("\"qpn\":17", "\"qpn\":16777216", "'qpn'");
	refused("\"qpn\":17", "\"qpn\":0", "'qpn'");
	refused("\"qpn\":17,", "", "'qpn'");
	refused("\"psn\":11259375", "\"psn\":-1", "'psn'");
	refused("\"lid\":0", "\"lid\":65536", "'lid'");
	refused("\"gid\":\"fe80::200:0:0:42\"", "\"gid\":\"10.0.0.1\"",
		"'gid'");
	refused("\"gid_index\":1", "\"gid_index\":256", "'gid_index'");
	refused("\"mtu\":1024", "\"mtu\":1000", "'mtu' 1000");
	refused("\"mtu\":1024", "\"mtu\":8192", "'mtu'");
	refused("\"rd_atom\":128", "\"rd_atom\":256", "'rd_atom'");
	refused("\"device\":\"rxe_b2\"", "\"device\":\"rxe b2;\"", "'device'");
	refused("\"device\":\"rxe_b2\"", "\"device\":\"\"", "'device'");
	refused("\"port\":1", "\"port\":0", "'port'");
	refused("\"port\":1,", "", "'port'");
	refused("[{\"qpn\"", "[7,{\"qpn\"", "endpoint 0");
	refused("\"eps\":[", "\"eps\":7,\"x\":[", "'eps'");
}
END_TEST

START_TEST(test_truncated)
{
	struct ig_epmsg m;
	json_object *o, *bad, *eps;
	char err[256] = "";

	/* no endpoint at all, and more than a session's streams */
	sample(&m, false);
	m.n = 0;
	o = over_wire(&m);
	ck_assert_int_eq(ig_epmsg_from_json(o, &m, err, sizeof(err)), -EBADMSG);
	assert_one_line(err, "'eps'");
	json_object_put(o);
	/* a full message, then one endpoint more on the wire than m holds */
	sample(&m, false);
	for (m.n = 2; m.n < IG_MAX_STREAMS; m.n++)
		m.ep[m.n] = m.ep[0];
	o = over_wire(&m);
	eps = json_object_object_get(o, "eps");
	ck_assert_uint_eq(json_object_array_length(eps), IG_MAX_STREAMS);
	json_object_array_add(
		eps, json_object_get(json_object_array_get_idx(eps, 0)));
	ck_assert_int_eq(ig_epmsg_from_json(o, &m, err, sizeof(err)), -EBADMSG);
	assert_one_line(err, "1 to 64");
	json_object_put(o);
	/* a body cut short is no JSON object: the codec refuses it */
	ck_assert_int_eq(ig_msg_body_decode((const uint8_t *)"{\"eps\":[{", 9,
					    &bad),
			 -EBADMSG);
	/* {} and a body that is no object */
	bad = json_object_new_object();
	ck_assert_int_eq(ig_epmsg_from_json(bad, &m, err, sizeof(err)),
			 -EBADMSG);
	assert_one_line(err, "'mtu'");
	json_object_put(bad);
	bad = json_object_new_array();
	ck_assert_int_eq(ig_epmsg_from_json(bad, &m, err, sizeof(err)),
			 -EBADMSG);
	assert_one_line(err, "not an object");
	json_object_put(bad);
	ck_assert_str_eq(ig_msg_type_name(IG_MSG_VERBS_EP), "VERBS_EP");
	ck_assert_int_eq(IG_MSG_VERBS_EP, 25);
}
END_TEST

static Suite *epmsg_suite(void)
{
	Suite *s = suite_create("epmsg");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_round_trip);
	tcase_add_test(tc, test_garbled);
	tcase_add_test(tc, test_truncated);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(epmsg_suite());
}
