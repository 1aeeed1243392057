// SPDX-License-Identifier: MIT
/*
 * Unit tests for the trial messages (wire/trymsg.h): TRY, TRIED, UNTRY and
 * UNTRIED through their text on the wire and back, the refusal of a TRY
 * whose change the tune layer does not know (one line naming it), and the
 * client's calls over a socketpair whose other end this test plays.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <json-c/json.h>

#include "testmain.h"
#include "wire/ctrl.h"
#include "wire/trymsg.h"

static const struct ig_tune_change sample[] = {
	{ .kind = IG_TUNE_SYSCTL,
	  .name = "net.ipv4.tcp_rmem",
	  .to = "4096 131072 6291456" },
	{ .kind = IG_TUNE_FEATURE, .dev = "eth0", .name = "gro", .to = "on" },
	{ .kind = IG_TUNE_QDISC, .dev = "eth0", .name = "root", .to = "" },
};
#define NSAMPLE (sizeof(sample) / sizeof(sample[0]))

/* o as its peer gets it: written out and decoded by the wire's codec. */
static json_object *over_wire(json_object *o)
{
	const char *s;
	json_object *back;

	ck_assert_ptr_nonnull(o);
	s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	ck_assert_int_eq(
		ig_msg_body_decode((const uint8_t *)s, strlen(s), &back), 0);
	json_object_put(o);
	return back;
}

static void assert_one_line(const char *s)
{
	ck_assert_uint_gt(strlen(s), 10);
	ck_assert_ptr_null(strchr(s, '\n'));
}

START_TEST(test_try_round_trip)
{
	struct ig_tune_change got[IG_TRY_MAX], in[NSAMPLE];
	char err[256] = "";
	json_object *o;
	size_t n = 99;

	memcpy(in, sample, sizeof(in));
	snprintf(in[0].from, sizeof(in[0].from), "stale");
	o = over_wire(ig_try_to_json(in, NSAMPLE));
	ck_assert(!json_object_object_get_ex(
		json_object_array_get_idx(ig_json_get_array(o, "changes"), 0),
		"from", NULL));
	memset(got, 0x5a, sizeof(got));
	ck_assert_int_eq(
		ig_try_from_json(o, got, IG_TRY_MAX, &n, err, sizeof(err)), 0);
	ck_assert_uint_eq(n, NSAMPLE);
	for (size_t i = 0; i < n; i++) {
		ck_assert_int_eq(got[i].kind, sample[i].kind);
		ck_assert_str_eq(got[i].dev, sample[i].dev);
		ck_assert_str_eq(got[i].name, sample[i].name);
		ck_assert_str_eq(got[i].to, sample[i].to);
		ck_assert_str_eq(got[i].from, "");
	}
	json_object_put(o);
}
END_TEST

/* A TRY of one change: base's JSON with name and dev put in by hand (the
 * sender's own checks are not what is tested).  The decoder's return,
 * its line in err. */
static int try_one(const struct ig_tune_change *base, const char *name,
		   const char *dev, char *err, size_t len)
{
	struct ig_tune_change got[IG_TRY_MAX];
	json_object *o = json_object_new_object();
	json_object *a = json_object_new_array();
	json_object *j = ig_tune_to_json(base);
	size_t n = 99;
	int ret;

	ck_assert_ptr_nonnull(j);
	json_object_object_add(j, "name", json_object_new_string(name));
	json_object_object_add(j, "dev", json_object_new_string(dev));
	json_object_array_add(a, j);
	json_object_object_add(o, "changes", a);
	o = over_wire(o);
	err[0] = 0;
	ret = ig_try_from_json(o, got, IG_TRY_MAX, &n, err, len);
	if (ret)
		ck_assert_uint_eq(n, 0);
	json_object_put(o);
	return ret;
}

START_TEST(test_try_bad_change)
{
	char err[256];

	/* the good ones pass, so that the refusals below are the values' */
	ck_assert_int_eq(try_one(&sample[0], "net.ipv4.tcp_rmem", "", err,
				 sizeof(err)),
			 0);
	ck_assert_int_eq(try_one(&sample[1], "gro", "eth0", err, sizeof(err)),
			 0);
	ck_assert_int_eq(try_one(&sample[0], "net.ipv4.no_such_thing", "", err,
				 sizeof(err)),
			 -EINVAL);
	assert_one_line(err);
	ck_assert_ptr_nonnull(strstr(err, "TRY's change 1"));
	ck_assert_ptr_nonnull(strstr(err, "no_such_thing"));
	ck_assert_int_eq(try_one(&sample[0], "../../../etc/passwd", "", err,
				 sizeof(err)),
			 -EINVAL);
	assert_one_line(err);
	ck_assert_int_eq(try_one(&sample[1], "gro", "../x", err, sizeof(err)),
			 -EINVAL);
	assert_one_line(err);
	ck_assert_int_eq(try_one(&sample[1], "gro", "eth0/../../x", err,
				 sizeof(err)),
			 -EINVAL);
	assert_one_line(err);
}
END_TEST

START_TEST(test_try_bad_shape)
{
	struct ig_tune_change many[IG_TRY_MAX + 1], got[IG_TRY_MAX];
	static const char *const bodies[] = {
		"{}",
		"{\"changes\":[]}",
		"{\"changes\":{}}",
		"{\"changes\":[1]}",
		"{\"changes\":[{\"kind\":\"sysctl\"}]}",
	};
	char err[256];
	json_object *o;
	size_t n;

	for (size_t i = 0; i < sizeof(bodies) / sizeof(bodies[0]); i++) {
		o = json_tokener_parse(bodies[i]);
		err[0] = 0;
		ck_assert_int_eq(ig_try_from_json(o, got, IG_TRY_MAX, &n, err,
						  sizeof(err)),
				 -EINVAL);
		assert_one_line(err);
		json_object_put(o);
	}
	for (size_t i = 0; i < IG_TRY_MAX + 1; i++)
		many[i] = sample[0];
	o = over_wire(ig_try_to_json(many, IG_TRY_MAX + 1));
	ck_assert_int_eq(ig_try_from_json(o, got, IG_TRY_MAX, &n, err,
					  sizeof(err)),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "1 to 16"));
	json_object_put(o);
}
END_TEST

START_TEST(test_tried_round_trip)
{
	struct ig_tune_change srv[NSAMPLE], cli[NSAMPLE];
	char why[256] = "";
	json_object *o;

	memcpy(srv, sample, sizeof(srv));
	memcpy(cli, sample, sizeof(cli));
	snprintf(srv[0].from, sizeof(srv[0].from), "4096 87380 6291456");
	snprintf(srv[1].from, sizeof(srv[1].from), "off");
	/* srv[2].from "": the qdisc was the kernel's default */
	o = over_wire(ig_tried_to_json(srv, NSAMPLE));
	ck_assert_int_eq(ig_tried_from_json(o, cli, NSAMPLE, why, sizeof(why)),
			 0);
	for (size_t i = 0; i < NSAMPLE; i++)
		ck_assert_str_eq(cli[i].from, srv[i].from);
	/* an answer for another TRY is no answer */
	cli[1].to[0] = 'x';
	ck_assert_int_eq(ig_tried_from_json(o, cli, NSAMPLE, why, sizeof(why)),
			 -EBADMSG);
	assert_one_line(why);
	ck_assert_int_eq(ig_tried_from_json(o, cli, 2, why, sizeof(why)),
			 -EBADMSG);
	json_object_put(o);
}
END_TEST

START_TEST(test_tried_fail)
{
	struct ig_tune_change cli[1] = { sample[0] };
	char why[256] = "";
	json_object *o;

	o = over_wire(ig_tried_fail_json(false,
					 "the server was started without "
					 "--allow-try"));
	ck_assert_int_eq(ig_tried_from_json(o, cli, 1, why, sizeof(why)),
			 -EPERM);
	ck_assert_str_eq(why, "the server was started without --allow-try");
	ck_assert_str_eq(cli[0].from, "");
	json_object_put(o);
	o = over_wire(
		ig_tried_fail_json(true, "ethtool: no such device\n\x1b[2J"));
	ck_assert_int_eq(ig_tried_from_json(o, cli, 1, why, sizeof(why)), -EIO);
	/* the peer's text made one printable line */
	ck_assert_str_eq(why, "ethtool: no such device??[2J");
	json_object_put(o);
	o = json_tokener_parse("{\"changes\":7}");
	ck_assert_int_eq(ig_tried_from_json(o, cli, 1, why, sizeof(why)),
			 -EBADMSG);
	assert_one_line(why);
	json_object_put(o);
}
END_TEST

START_TEST(test_untry)
{
	static const char *const falsy[] = {
		"{}",
		"{\"keep\":false}",
		"{\"keep\":\"yes\"}",
		"{\"keep\":1}",
	};
	json_object *o;

	o = over_wire(ig_untry_to_json(true));
	ck_assert(ig_untry_keep(o));
	json_object_put(o);
	o = over_wire(ig_untry_to_json(false));
	ck_assert(!ig_untry_keep(o));
	json_object_put(o);
	/* anything but true puts back */
	for (size_t i = 0; i < sizeof(falsy) / sizeof(falsy[0]); i++) {
		o = json_tokener_parse(falsy[i]);
		ck_assert(!ig_untry_keep(o));
		json_object_put(o);
	}
}
END_TEST

START_TEST(test_untried)
{
	static const char *const errs[] = { "ethtool -K eth0 gro off: gone",
					    "tc qdisc del dev eth0 root: busy" };
	unsigned int restored = 99;
	char err[256] = "";
	json_object *o;

	o = over_wire(ig_untried_to_json(3, NULL, 0));
	ck_assert_int_eq(ig_untried_from_json(o, &restored, err, sizeof(err)),
			 0);
	ck_assert_uint_eq(restored, 3);
	json_object_put(o);
	o = over_wire(ig_untried_to_json(1, errs, 2));
	ck_assert_int_eq(ig_untried_from_json(o, &restored, err, sizeof(err)),
			 -EIO);
	ck_assert_uint_eq(restored, 1);
	ck_assert_str_eq(err, "ethtool -K eth0 gro off: gone; tc qdisc del "
			      "dev eth0 root: busy");
	json_object_put(o);
	o = json_tokener_parse("{\"restored\":-1,\"errors\":[]}");
	ck_assert_int_eq(ig_untried_from_json(o, &restored, err, sizeof(err)),
			 -EBADMSG);
	json_object_put(o);
}
END_TEST

/* The client's calls: the answer is written first into the socketpair, so
 * one thread plays both ends; then what the client sent is read back. */
static void pair(struct ig_ctrl *cli, struct ig_ctrl *srv)
{
	int sv[2];

	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	ig_ctrl_init(cli, sv[0], 2000);
	ig_ctrl_init(srv, sv[1], 2000);
}

START_TEST(test_remote_calls)
{
	struct ig_tune_change srv_ch[NSAMPLE], cli_ch[NSAMPLE];
	struct ig_ctrl cli, srv;
	enum ig_msg_type type;
	unsigned int restored = 0;
	char why[256] = "";
	json_object *o;

	pair(&cli, &srv);
	memcpy(srv_ch, sample, sizeof(srv_ch));
	memcpy(cli_ch, sample, sizeof(cli_ch));
	snprintf(srv_ch[1].from, sizeof(srv_ch[1].from), "off");
	o = ig_tried_to_json(srv_ch, NSAMPLE);
	ck_assert_int_eq(ig_ctrl_send(&srv, IG_MSG_TRIED, o), 0);
	json_object_put(o);
	ck_assert_int_eq(ig_try_remote(&cli, cli_ch, NSAMPLE, why, sizeof(why)),
			 0);
	ck_assert_str_eq(cli_ch[1].from, "off");
	ck_assert_int_eq(ig_ctrl_recv(&srv, &type, &o), 0);
	ck_assert_int_eq(type, IG_MSG_TRY);
	json_object_put(o);

	o = ig_tried_fail_json(false, "the client did not authenticate");
	ck_assert_int_eq(ig_ctrl_send(&srv, IG_MSG_TRIED, o), 0);
	json_object_put(o);
	ck_assert_int_eq(ig_try_remote(&cli, cli_ch, 1, why, sizeof(why)),
			 -EPERM);
	ck_assert_str_eq(why, "the client did not authenticate");
	ck_assert_int_eq(ig_ctrl_recv(&srv, &type, &o), 0);
	json_object_put(o);

	o = ig_untried_to_json(2, NULL, 0);
	ck_assert_int_eq(ig_ctrl_send(&srv, IG_MSG_UNTRIED, o), 0);
	json_object_put(o);
	ck_assert_int_eq(
		ig_untry_remote(&cli, false, &restored, why, sizeof(why)), 0);
	ck_assert_uint_eq(restored, 2);
	ck_assert_int_eq(ig_ctrl_recv(&srv, &type, &o), 0);
	ck_assert_int_eq(type, IG_MSG_UNTRY);
	ck_assert(!ig_untry_keep(o));
	json_object_put(o);

	/* the server gone: the connection's error, its line in why */
	ig_ctrl_close(&srv);
	ck_assert_int_lt(ig_try_remote(&cli, cli_ch, 1, why, sizeof(why)), 0);
	assert_one_line(why);
	ck_assert_int_eq(ig_try_remote(&cli, cli_ch, 0, why, sizeof(why)),
			 -EINVAL);
	ig_ctrl_close(&cli);
}
END_TEST

static Suite *trymsg_suite(void)
{
	Suite *s = suite_create("trymsg");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_try_round_trip);
	tcase_add_test(tc, test_try_bad_change);
	tcase_add_test(tc, test_try_bad_shape);
	tcase_add_test(tc, test_tried_round_trip);
	tcase_add_test(tc, test_tried_fail);
	tcase_add_test(tc, test_untry);
	tcase_add_test(tc, test_untried);
	tcase_add_test(tc, test_remote_calls);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(trymsg_suite());
}
