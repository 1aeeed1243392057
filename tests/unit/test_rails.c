// SPDX-License-Identifier: MIT
/*
 * Unit tests for --rails' pure parts: the selection of a list
 * (host/rails_pair.c), the pairing by subnet and by index, the flagging
 * of an odd rail (report/rails.c), the rails' JSON (report/rails_out.c)
 * and RAILS_INFO's codec (wire/railmsg.c).
 */
#include <check.h>
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "host/cpulist.h"
#include "host/rails.h"
#include "report/rails.h"
#include "testmain.h"
#include "wire/railmsg.h"

static void rail(struct ig_rails *r, const char *dev, const char *addr,
		 int prefix)
{
	struct ig_rail *x = &r->r[r->n++];

	memset(x, 0, sizeof(*x));
	snprintf(x->device, sizeof(x->device), "%s", dev);
	x->port = 1;
	snprintf(x->addr, sizeof(x->addr), "%s", addr);
	x->prefix = prefix;
	x->numa_node = -1;
}

START_TEST(subnet)
{
	ck_assert(ig_rails_same_subnet("10.1.0.1", "10.1.0.2", 24));
	ck_assert(!ig_rails_same_subnet("10.1.0.1", "10.1.1.2", 24));
	ck_assert(ig_rails_same_subnet("10.1.0.1", "10.1.1.2", 16));
	ck_assert(ig_rails_same_subnet("10.1.0.1", "192.0.2.1", 0));
	ck_assert(!ig_rails_same_subnet("10.1.0.1", "10.1.0.2", 33));
	ck_assert(!ig_rails_same_subnet("", "10.1.0.2", 24));
	ck_assert(!ig_rails_same_subnet("10.1.0.1", "x", 24));
}
END_TEST

/* The subnet wins over the order; the index serves those without one. */
START_TEST(pair_subnet_then_index)
{
	struct ig_rails l = { .n = 0 }, s = { .n = 0 };
	int peer[IG_RAILS_MAX];
	enum ig_rail_by by[IG_RAILS_MAX];

	rail(&l, "mlx5_0", "10.2.0.1", 24);
	rail(&l, "mlx5_1", "10.1.0.1", 24);
	rail(&l, "mlx5_2", "", 0);	      /* no address: by index */
	rail(&l, "mlx5_3", "172.16.0.1", 24); /* no such subnet there */
	rail(&s, "mlx5_0", "10.1.0.2", 24);
	rail(&s, "mlx5_1", "10.2.0.2", 24);
	rail(&s, "mlx5_2", "10.3.0.2", 24);
	rail(&s, "mlx5_3", "10.4.0.2", 24);
	ck_assert_uint_eq(ig_rails_pair(&l, &s, peer, by), 4);
	ck_assert_int_eq(peer[0], 1);
	ck_assert_int_eq(by[0], IG_RAIL_SUBNET);
	ck_assert_int_eq(peer[1], 0);
	ck_assert_int_eq(by[1], IG_RAIL_SUBNET);
	ck_assert_int_eq(peer[2], 2);
	ck_assert_int_eq(by[2], IG_RAIL_INDEX);
	ck_assert_int_eq(peer[3], 3);
	ck_assert_int_eq(by[3], IG_RAIL_INDEX);
	ck_assert_str_eq(ig_rail_by_name(by[0]), "subnet");
	ck_assert_str_eq(ig_rail_by_name(by[2]), "index");
}
END_TEST

/* A rail whose index the subnet took gets the first left; one too many
 * gets none. */
START_TEST(pair_index_taken_and_none)
{
	struct ig_rails l = { .n = 0 }, s = { .n = 0 };
	int peer[IG_RAILS_MAX];
	enum ig_rail_by by[IG_RAILS_MAX];

	rail(&l, "a", "", 0);
	rail(&l, "b", "10.1.0.1", 24);
	rail(&l, "c", "", 0);
	rail(&s, "x", "10.1.0.2", 24);
	rail(&s, "y", "10.9.0.2", 24);
	ck_assert_uint_eq(ig_rails_pair(&l, &s, peer, by), 2);
	ck_assert_int_eq(peer[1], 0);
	ck_assert_int_eq(by[1], IG_RAIL_SUBNET);
	ck_assert_int_eq(peer[0], 1); /* its index 0 is b's */
	ck_assert_int_eq(by[0], IG_RAIL_INDEX);
	ck_assert_int_eq(peer[2], -1);
	ck_assert_int_eq(by[2], IG_RAIL_NONE);
}
END_TEST

static const char *const devs[] = { "mlx5_0", "mlx5_1", "mlx5_2" };

START_TEST(select_list)
{
	struct ig_rails all = { .n = 0 }, out;
	char err[256];

	rail(&all, "mlx5_0", "10.1.0.1", 24);
	rail(&all, "mlx5_1", "10.2.0.1", 24);
	ck_assert_int_eq(ig_rails_select(&all, NULL, devs, 3, &out, err,
					 sizeof(err)),
			 0);
	ck_assert_uint_eq(out.n, 2);
	ck_assert_int_eq(ig_rails_select(&all, "all", devs, 3, &out, err,
					 sizeof(err)),
			 0);
	ck_assert_uint_eq(out.n, 2);
	ck_assert_int_eq(ig_rails_select(&all, "mlx5_1,mlx5_0", devs, 3, &out,
					 err, sizeof(err)),
			 0);
	ck_assert_uint_eq(out.n, 2);
	ck_assert_str_eq(out.r[0].device, "mlx5_1");
	ck_assert_str_eq(out.r[1].device, "mlx5_0");
}
END_TEST

struct sel_err {
	const char *list;
	const char *want[3]; /* words err must hold */
};

static const struct sel_err sel_errs[] = {
	{ "mlx5_9", { "'mlx5_9'", "found mlx5_0, mlx5_1, mlx5_2", NULL } },
	{ "mlx5_0,mlx5_9", { "'mlx5_9'", "found", NULL } },
	{ "mlx5_2", { "'mlx5_2'", "no ACTIVE port", NULL } },
	{ "mlx5_0,mlx5_0", { "'mlx5_0'", "twice", NULL } },
	{ "mlx5_0,", { "empty", NULL } },
	{ "mlx5_", { "'mlx5_'", "found", NULL } }, /* a prefix is no name */
};

START_TEST(select_errors)
{
	const struct sel_err *c = &sel_errs[_i];
	struct ig_rails all = { .n = 0 }, out;
	char err[256] = "";

	rail(&all, "mlx5_0", "10.1.0.1", 24);
	rail(&all, "mlx5_1", "10.2.0.1", 24);
	ck_assert_int_eq(ig_rails_select(&all, c->list, devs, 3, &out, err,
					 sizeof(err)),
			 -EINVAL);
	ck_assert_ptr_null(strchr(err, '\n'));
	ck_assert_ptr_nonnull(strstr(err, "--rails"));
	for (int k = 0; k < 3 && c->want[k]; k++)
		ck_assert_msg(strstr(err, c->want[k]), "'%s' lacks '%s'", err,
			      c->want[k]);
}
END_TEST

START_TEST(select_no_rail)
{
	struct ig_rails all = { .n = 0 }, out;
	char err[256] = "";

	ck_assert_int_eq(ig_rails_select(&all, NULL, devs, 0, &out, err,
					 sizeof(err)),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "no ACTIVE RDMA port"));
}
END_TEST

static void run(struct ig_rail_run *r, const char *dev, double v, double t)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->local.device, sizeof(r->local.device), "%s", dev);
	snprintf(r->local.fp.fw_ver, sizeof(r->local.fp.fw_ver), "20.1");
	snprintf(r->local.fp.link_rate, sizeof(r->local.fp.link_rate),
		 "200 Gb/sec (4X HDR)");
	snprintf(r->local.fp.mtu, sizeof(r->local.fp.mtu), "4092");
	r->verbs_gbps = v;
	r->tcp_gbps = t;
}

/* Four rails: one whose TCP alone is low, one low in both. */
START_TEST(flag_low)
{
	struct ig_rail_run r[4];

	run(&r[0], "mlx5_0", 190, 90);
	run(&r[1], "mlx5_1", 191, 40); /* TCP alone */
	run(&r[2], "mlx5_2", 100, 50); /* both low: not TCP alone */
	run(&r[3], "mlx5_3", 189, 88);
	ig_rails_flag(r, 4);
	ck_assert_uint_eq(r[0].flags, 0);
	ck_assert_uint_eq(r[3].flags, 0);
	ck_assert_uint_eq(r[1].flags, IG_RAILF_TCP_LOW);
	ck_assert(ig_rail_tcp_low_alone(&r[1]));
	ck_assert_ptr_nonnull(strstr(r[1].why, "TCP 40.00 Gb/s"));
	ck_assert_uint_eq(r[2].flags, IG_RAILF_TCP_LOW | IG_RAILF_VERBS_LOW);
	ck_assert(!ig_rail_tcp_low_alone(&r[2]));
	ck_assert_ptr_nonnull(strstr(r[2].why, "verbs 100.00 Gb/s"));
}
END_TEST

/* 90% of the median is not low; just below is; one rail is never odd. */
START_TEST(flag_threshold)
{
	struct ig_rail_run r[3];

	run(&r[0], "a", 100, 100);
	run(&r[1], "b", 100, 90);
	run(&r[2], "c", 100, 100);
	ig_rails_flag(r, 3);
	ck_assert_uint_eq(r[1].flags, 0);
	r[1].tcp_gbps = 89.9;
	ig_rails_flag(r, 3);
	ck_assert_uint_eq(r[1].flags, IG_RAILF_TCP_LOW);
	ig_rails_flag(r, 1);
	ck_assert_uint_eq(r[0].flags, 0);
	/* a rail without TCP (no address) is left out of TCP's median */
	r[1].tcp_gbps = 0;
	ig_rails_flag(r, 3);
	ck_assert_uint_eq(r[1].flags, 0);
}
END_TEST

/* The fingerprint: the rail unlike the most is odd; with no majority
 * every rail is. */
START_TEST(flag_fingerprint)
{
	struct ig_rail_run r[3];

	run(&r[0], "a", 100, 50);
	run(&r[1], "b", 100, 50);
	run(&r[2], "c", 100, 50);
	snprintf(r[2].local.fp.fw_ver, sizeof(r[2].local.fp.fw_ver), "19.9");
	ig_rails_flag(r, 3);
	ck_assert_uint_eq(r[0].flags, 0);
	ck_assert_uint_eq(r[1].flags, 0);
	ck_assert_uint_eq(r[2].flags, IG_RAILF_FP);
	ck_assert_ptr_nonnull(strstr(r[2].why, "fw_ver '19.9'"));
	ck_assert_ptr_nonnull(strstr(r[2].why, "'20.1'"));
	snprintf(r[1].local.fp.mtu, sizeof(r[1].local.fp.mtu), "2044");
	snprintf(r[1].local.fp.ipoib_mode, sizeof(r[1].local.fp.ipoib_mode),
		 "connected");
	ig_rails_flag(r, 3);
	ck_assert_ptr_nonnull(strstr(r[1].why, "MTU '2044'"));
	ck_assert_ptr_nonnull(strstr(r[1].why, "IPoIB mode 'connected'"));
	ig_rails_flag(r, 2); /* a and b: no majority for the MTU */
	ck_assert_uint_eq(r[0].flags, IG_RAILF_FP);
	ck_assert_uint_eq(r[1].flags, IG_RAILF_FP);
}
END_TEST

static struct ig_result bw(const char *transport, double gbps)
{
	struct ig_result r = { .transport = transport, .bw_gbps = gbps };

	return r;
}

START_TEST(figures)
{
	struct ig_result res[5] = { bw("verbs", 10), bw("verbs", 12),
				    bw("tcp", 5), bw("tcp@10.0.0.1", 9),
				    bw("tcp", 7) };
	struct ig_rail_run r = { .res = res, .n = 5 };

	res[1].has_lat = true; /* a latency test's figure is no bandwidth */
	res[4].failed = true;
	ig_rails_figures(&r);
	ck_assert_double_eq(r.verbs_gbps, 10);
	ck_assert_double_eq(r.tcp_gbps, 5);
}
END_TEST

static void assert_str(json_object *o, const char *key, const char *want)
{
	json_object *v;

	ck_assert_msg(json_object_object_get_ex(o, key, &v), "no '%s'", key);
	ck_assert_str_eq(json_object_get_string(v), want);
}

/* The report's rails: a rail without an address, here or on the server,
 * says so for TCP, and how its verbs connected (GID from its result). */
START_TEST(rails_json)
{
	struct ig_rail_run r[3];
	struct ig_rails_report rep = { .r = r, .n = 3 };
	struct ig_result res = bw("verbs", 90);
	double vt[3] = { 1, 2, 3 }, tt[3] = { 4, 0, 0 };
	json_object *a, *o, *v;

	run(&r[0], "mlx5_0", 100, 50);
	run(&r[1], "mlx5_1", 100, 0);
	run(&r[2], "mlx5_2", 90, 0);
	snprintf(r[0].local.addr, sizeof(r[0].local.addr), "10.1.0.1");
	r[0].by = IG_RAIL_SUBNET;
	snprintf(r[0].remote.device, sizeof(r[0].remote.device), "mlx5_4");
	snprintf(r[0].remote.addr, sizeof(r[0].remote.addr), "10.1.0.4");
	/* r[2]: an address here, none on its peer */
	snprintf(r[2].local.addr, sizeof(r[2].local.addr), "10.3.0.1");
	r[2].by = IG_RAIL_INDEX;
	snprintf(r[2].remote.device, sizeof(r[2].remote.device), "mlx5_6");
	ig_facts_set_str(&res.facts, "connect", "out-of-band");
	ig_facts_set_str(&res.facts, "gid", "fe80::1");
	ig_facts_set_int(&res.facts, "gid_index", 1);
	r[2].res = &res;
	r[2].n = 1;
	rep.together = true;
	rep.verbs_together = vt;
	rep.tcp_together = tt;
	ig_rails_flag(r, 3);
	a = ig_rails_json(&rep);
	ck_assert_ptr_nonnull(a);
	ck_assert_uint_eq(json_object_array_length(a), 3);
	o = json_object_array_get_idx(a, 0);
	ck_assert(json_object_object_get_ex(o, "server", &v));
	ck_assert(json_object_object_get_ex(v, "device", &v));
	ck_assert_str_eq(json_object_get_string(v), "mlx5_4");
	ck_assert(json_object_object_get_ex(o, "paired_by", &v));
	ck_assert_str_eq(json_object_get_string(v), "subnet");
	ck_assert(json_object_object_get_ex(o, "tcp_gbps", &v));
	ck_assert(!json_object_object_get_ex(o, "verbs_connect", &v));
	ck_assert(json_object_object_get_ex(o, "tcp_together_gbps", &v));
	o = json_object_array_get_idx(a, 1);
	ck_assert(!json_object_object_get_ex(o, "server", &v));
	assert_str(o, "tcp", "no IPoIB address");
	assert_str(o, "no_address", "client");
	assert_str(o, "verbs_connect", "out-of-band");
	ck_assert(!json_object_object_get_ex(o, "gid", &v)); /* no result */
	ck_assert(json_object_object_get_ex(o, "verbs_together_gbps", &v));
	ck_assert(!json_object_object_get_ex(o, "tcp_together_gbps", &v));
	o = json_object_array_get_idx(a, 2);
	assert_str(o, "tcp", "no IPoIB address");
	assert_str(o, "no_address", "server");
	assert_str(o, "gid", "fe80::1");
	ck_assert(json_object_object_get_ex(o, "gid_index", &v));
	ck_assert_int_eq(json_object_get_int(v), 1);
	json_object_put(a);
}
END_TEST

/* The text of a rail whose peer has no address: which netdev, how its
 * verbs connected, and no TCP column. */
START_TEST(rails_text_no_addr)
{
	struct ig_rail_run r;
	struct ig_rails_report rep = { .r = &r, .n = 1 };
	struct ig_result res = bw("verbs", 90);
	double vt = 80, tt = 0;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	run(&r, "mlx5_2", 90, 0);
	snprintf(r.local.addr, sizeof(r.local.addr), "10.3.0.1");
	snprintf(r.remote.netdev, sizeof(r.remote.netdev), "ib2");
	r.by = IG_RAIL_INDEX;
	ig_facts_set_str(&res.facts, "connect", "out-of-band");
	ig_facts_set_str(&res.facts, "gid", "fe80::1");
	ig_facts_set_int(&res.facts, "gid_index", 3);
	r.res = &res;
	r.n = 1;
	rep.together = true;
	rep.verbs_together = &vt;
	rep.tcp_together = &tt;
	ck_assert_ptr_nonnull(f);
	ig_rails_text(f, &rep);
	fclose(f);
	ck_assert_msg(strstr(text, "  no IPv4 address on the server's ib2: "
				   "verbs without rdma_cm, GID fe80::1 "
				   "(index 3)"),
		      "%s", text);
	ck_assert_msg(strstr(text, "tcp: no IPoIB address"), "%s", text);
	ck_assert_msg(strstr(text, "  mlx5_2     verbs 80.00 Gb/s, tcp: no "
				   "IPoIB address\n"),
		      "%s", text);
	free(text);
}
END_TEST

/* RAILS_INFO's rails survive the wire; a member without a device is
 * malformed. */
START_TEST(railmsg_round_trip)
{
	struct ig_rails in = { .n = 0 }, out;
	json_object *a, *bad;

	rail(&in, "mlx5_0", "10.1.0.1", 24);
	rail(&in, "rxe0", "", 0);
	snprintf(in.r[0].netdev, sizeof(in.r[0].netdev), "ib0");
	snprintf(in.r[0].fp.link_rate, sizeof(in.r[0].fp.link_rate),
		 "100 Gb/sec (4X EDR)");
	in.r[0].numa_node = 1;
	a = ig_rails_to_json(&in);
	ck_assert_ptr_nonnull(a);
	ck_assert_int_eq(ig_rails_from_json(a, &out), 0);
	ck_assert_uint_eq(out.n, 2);
	ck_assert_str_eq(out.r[0].device, "mlx5_0");
	ck_assert_str_eq(out.r[0].netdev, "ib0");
	ck_assert_str_eq(out.r[0].addr, "10.1.0.1");
	ck_assert_int_eq(out.r[0].prefix, 24);
	ck_assert_int_eq(out.r[0].numa_node, 1);
	ck_assert_str_eq(out.r[0].fp.link_rate, "100 Gb/sec (4X EDR)");
	ck_assert_str_eq(out.r[1].addr, "");
	json_object_put(a);
	bad = json_tokener_parse("[{\"port\": 1}]");
	ck_assert_int_eq(ig_rails_from_json(bad, &out), -EBADMSG);
	json_object_put(bad);
	bad = json_tokener_parse("{\"device\": \"x\"}");
	ck_assert_int_eq(ig_rails_from_json(bad, &out), -EBADMSG);
	json_object_put(bad);
}
END_TEST

/* A rail's TCP threads take its HCA's local CPUs in turn: the allowed
 * ones of the cpulist, wrapping; none allowed is -1. */
START_TEST(cpulist_nth)
{
	cpu_set_t allowed;
	int cpus[CPU_SETSIZE], n = 0;
	char list[4096] = "";
	size_t at = 0;

	ck_assert_int_eq(sched_getaffinity(0, sizeof(allowed), &allowed), 0);
	for (int c = 0; c < CPU_SETSIZE && at < sizeof(list) - 16; c++)
		if (CPU_ISSET(c, &allowed)) {
			cpus[n++] = c;
			at += (size_t)snprintf(list + at, sizeof(list) - at,
					       "%s%d", n > 1 ? "," : "", c);
		}
	ck_assert_int_gt(n, 0);
	ck_assert_int_eq(ig_cpulist_nth(list, 0, false), cpus[0]);
	ck_assert_int_eq(ig_cpulist_nth(list, n, false), cpus[0]);
	ck_assert_int_eq(ig_cpulist_nth(list, n - 1, false), cpus[n - 1]);
	ck_assert_int_eq(ig_cpulist_nth(list, 0, true), cpus[n - 1]);
	snprintf(list, sizeof(list), "%d-%d", cpus[0], cpus[0]);
	ck_assert_int_eq(ig_cpulist_nth(list, 3, false), cpus[0]);
	ck_assert_int_eq(ig_cpulist_nth("100000", 0, false), -1);
	ck_assert_int_eq(ig_cpulist_nth("", 0, false), -1);
	ck_assert_int_eq(ig_cpulist_nth("x", 0, false), -1);
}
END_TEST

static Suite *rails_suite(void)
{
	Suite *s = suite_create("rails");
	TCase *tc = tcase_create("pair");

	tcase_add_test(tc, subnet);
	tcase_add_test(tc, pair_subnet_then_index);
	tcase_add_test(tc, pair_index_taken_and_none);
	tcase_add_test(tc, select_list);
	tcase_add_loop_test(tc, select_errors, 0,
			    sizeof(sel_errs) / sizeof(*sel_errs));
	tcase_add_test(tc, select_no_rail);
	suite_add_tcase(s, tc);
	tc = tcase_create("flag");
	tcase_add_test(tc, flag_low);
	tcase_add_test(tc, flag_threshold);
	tcase_add_test(tc, flag_fingerprint);
	tcase_add_test(tc, figures);
	tcase_add_test(tc, rails_json);
	tcase_add_test(tc, rails_text_no_addr);
	tcase_add_test(tc, railmsg_round_trip);
	tcase_add_test(tc, cpulist_nth);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(rails_suite());
}
