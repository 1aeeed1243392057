// SPDX-License-Identifier: MIT
/*
 * A transport's named per-stream counters and session facts: lookup by
 * name, the interval rules, pooling across streams and repeats, and their
 * JSON form on the wire (RESULT, READY) as an older peer sends it too.
 */
#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "common/counters.h"
#include "common/facts.h"
#include "common/json.h"
#include "testmain.h"
#include "wire/codec.h"

enum { D_BYTES, D_WRAP, D_RTT, D_PEAK, D_AVG, D_N };

static const struct ig_ctr_def defs[D_N] = {
	[D_BYTES] = { .group = "g",
		      .name = "bytes",
		      .unit = "bytes",
		      .rule = IG_CTR_COUNTER,
		      .pool = IG_POOL_SUM },
	[D_WRAP] = { .group = "g",
		     .name = "wrap",
		     .unit = "segments",
		     .rule = IG_CTR_COUNTER,
		     .bits = 32,
		     .pool = IG_POOL_SUM },
	[D_RTT] = { .group = "g",
		    .name = "rtt",
		    .unit = "us",
		    .rule = IG_CTR_GAUGE,
		    .bits = 32,
		    .pool = IG_POOL_LAST },
	[D_PEAK] = { .group = "h",
		     .name = "peak",
		     .unit = "bytes",
		     .rule = IG_CTR_GAUGE,
		     .pool = IG_POOL_MAX },
	[D_AVG] = { .group = "h",
		    .name = "avg",
		    .unit = "us",
		    .rule = IG_CTR_GAUGE,
		    .pool = IG_POOL_MEAN },
};

#define ALL ((1u << D_N) - 1)

START_TEST(find_by_name)
{
	struct ig_ctrs c;

	ig_ctrs_init(&c, defs, D_N, 2);
	ck_assert_int_eq(ig_ctrs_find(&c, "g", "rtt"), D_RTT);
	ck_assert_int_eq(ig_ctrs_find(&c, "h", "avg"), D_AVG);
	ck_assert_int_eq(ig_ctrs_find(&c, "h", "rtt"), -1);
	ck_assert_int_eq(ig_ctrs_find(&c, "g", "none"), -1);
	ck_assert(!ig_ctrs_has_group(&c, "g"));
	c.st[1].have = 1u << D_PEAK;
	ck_assert(ig_ctrs_has_group(&c, "h"));
	ck_assert(!ig_ctrs_has_group(&c, "g"));
	/* a table larger than a snapshot holds is taken as none */
	ig_ctrs_init(&c, defs, IG_CTR_MAX + 1, 2);
	ck_assert_uint_eq(c.n, 0);
}
END_TEST

START_TEST(interval_rules)
{
	struct ig_ctr_snap start = { .have = ALL,
				     .v = { 100, 4294967290u, 9 } };
	struct ig_ctr_snap end = { .have = ALL, .v = { 150, 3, 7, 11, 12 } };

	ig_ctr_interval(defs, D_N, &end, &start);
	ck_assert_uint_eq(end.v[D_BYTES], 50);
	ck_assert_uint_eq(end.v[D_WRAP], 9); /* wrapped at 2^32 */
	ck_assert_uint_eq(end.v[D_RTT], 7);  /* a gauge: the end's */
	ck_assert_uint_eq(end.v[D_PEAK], 11);
	ck_assert_uint_eq(end.have, ALL);
}
END_TEST

/* A counter needs both snapshots; a gauge only the end. */
START_TEST(interval_absent)
{
	struct ig_ctr_snap start = { .have = 1u << D_RTT, .v = { 1, 1, 1 } };
	struct ig_ctr_snap end = { .have = ALL & ~(1u << D_RTT),
				   .v = { 5, 5, 5 } };

	ig_ctr_interval(defs, D_N, &end, &start);
	ck_assert_uint_eq(end.have, (1u << D_PEAK) | (1u << D_AVG));
}
END_TEST

START_TEST(pool_streams)
{
	struct ig_ctrs c;
	uint64_t v = 0;

	ig_ctrs_init(&c, defs, D_N, 3);
	for (unsigned int k = 0; k < 3; k++) {
		c.st[k].have = ALL;
		c.st[k].v[D_BYTES] = 10 * (k + 1);
		c.st[k].v[D_RTT] = 100 + k;
		c.st[k].v[D_PEAK] = k == 1 ? 70 : 5;
		c.st[k].v[D_AVG] = 3 * (k + 1);
	}
	c.st[2].have &= ~(1u << D_BYTES); /* not read: left out */
	ck_assert(ig_ctrs_streams(&c, D_BYTES, &v));
	ck_assert_uint_eq(v, 30);
	ck_assert(ig_ctrs_streams(&c, D_RTT, &v));
	ck_assert_uint_eq(v, 102);
	ck_assert(ig_ctrs_streams(&c, D_PEAK, &v));
	ck_assert_uint_eq(v, 70);
	ck_assert(ig_ctrs_streams(&c, D_AVG, &v));
	ck_assert_uint_eq(v, 6);
	for (unsigned int k = 0; k < 3; k++)
		c.st[k].have = 0;
	v = 42;
	ck_assert(!ig_ctrs_streams(&c, D_BYTES, &v));
	ck_assert(!ig_ctrs_streams(&c, -1, &v));
	ck_assert_uint_eq(v, 42);
}
END_TEST

START_TEST(pool_repeats)
{
	struct ig_ctrs acc, r;

	ig_ctrs_init(&acc, defs, D_N, 1);
	acc.st[0] =
		(struct ig_ctr_snap){ .have = ALL, .v = { 10, 1, 100, 8, 4 } };
	r = acc;
	r.st[0] = (struct ig_ctr_snap){ .have = ALL & ~(1u << D_WRAP),
					.v = { 5, 2, 90, 3, 8 } };
	ig_ctrs_pool(&acc, &r);
	r.st[0].v[D_AVG] = 9;
	r.st[0].have = ALL;
	ig_ctrs_pool(&acc, &r);
	ig_ctrs_pool_end(&acc, 3);
	ck_assert_uint_eq(acc.st[0].v[D_BYTES], 20);
	ck_assert_uint_eq(acc.st[0].v[D_RTT], 90);
	ck_assert_uint_eq(acc.st[0].v[D_PEAK], 8);
	ck_assert_uint_eq(acc.st[0].v[D_AVG], 7); /* (4 + 8 + 9) / 3 */
	/* one run did not have it: the pool has not either */
	ck_assert(!(acc.st[0].have & (1u << D_WRAP)));
	/* another table: nothing pools */
	ig_ctrs_init(&r, defs, D_N - 1, 1);
	ig_ctrs_pool(&acc, &r);
	ck_assert_uint_eq(acc.st[0].have, 0);
}
END_TEST

/* What RESULT carries: one array per group, an object per stream, and
 * read back by the table. */
START_TEST(ctrs_round_trip)
{
	struct ig_ctrs c, d;
	json_object *o = json_object_new_object();

	ig_ctrs_init(&c, defs, D_N, 2);
	c.st[0] = (struct ig_ctr_snap){ .have = ALL, .v = { 1, 2, 3, 4, 5 } };
	c.st[1] = (struct ig_ctr_snap){ .have = ALL & ~(1u << D_AVG),
					.v = { 6, 7, 8, 9, 10 } };
	ck_assert_int_eq(ig_ctrs_to_json(o, &c), 0);
	ck_assert_uint_eq(json_object_array_length(ig_json_get_array(o, "g")),
			  2);
	ck_assert_ptr_nonnull(ig_json_get_array(o, "h"));
	ig_ctrs_init(&d, defs, D_N, 2);
	d.st[0].have = 1;
	ig_ctrs_from_json(o, &d);
	for (unsigned int k = 0; k < 2; k++) {
		ck_assert_uint_eq(d.st[k].have, c.st[k].have);
		for (unsigned int i = 0; i < D_N; i++)
			if (c.st[k].have & (1u << i))
				ck_assert_uint_eq(d.st[k].v[i], c.st[k].v[i]);
	}
	/* a session of another stream count: nothing taken */
	ig_ctrs_init(&d, defs, D_N, 3);
	ig_ctrs_from_json(o, &d);
	ck_assert(!ig_ctrs_has_group(&d, "g") && !ig_ctrs_has_group(&d, "h"));
	json_object_put(o);
}
END_TEST

/* What a peer may send: each bad value is left out, the rest is taken. */
static const char *const bad_json[] = {
	"{\"g\":[{\"bytes\":1,\"wrap\":4294967296,\"rtt\":1}]}",
	"{\"g\":[{\"bytes\":1,\"wrap\":-1,\"rtt\":1}]}",
	"{\"g\":[{\"bytes\":1,\"wrap\":\"1\",\"rtt\":1}]}",
	"{\"g\":[{\"bytes\":1,\"wrap\":1.5,\"rtt\":1}]}",
	"{\"g\":[{\"bytes\":1,\"rtt\":1}]}",
};

START_TEST(ctrs_refuses)
{
	json_object *o = json_tokener_parse(bad_json[_i]);
	struct ig_ctrs c;

	ck_assert_ptr_nonnull(o);
	ig_ctrs_init(&c, defs, D_N, 1);
	ig_ctrs_from_json(o, &c);
	ck_assert_uint_eq(c.st[0].have, (1u << D_BYTES) | (1u << D_RTT));
	json_object_put(o);
}
END_TEST

START_TEST(facts_set_get)
{
	struct ig_facts f = { 0 };
	char name[8];

	ck_assert_int_eq(ig_facts_set_str(&f, IG_FACT_DEVICE, "rxe0"), 0);
	ck_assert_int_eq(ig_facts_set_int(&f, IG_FACT_PORT, 1), 0);
	ck_assert_int_eq(ig_facts_set_real(&f, "rate_gbps", 2.5), 0);
	ck_assert_str_eq(ig_facts_str(&f, IG_FACT_DEVICE), "rxe0");
	ck_assert_str_eq(ig_facts_str(&f, IG_FACT_PORT), "");
	ck_assert_int_eq(ig_facts_int(&f, IG_FACT_PORT, -1), 1);
	ck_assert_int_eq(ig_facts_int(&f, IG_FACT_DEVICE, -1), -1);
	ck_assert(ig_facts_real(&f, "rate_gbps", 0) == 2.5);
	ck_assert_ptr_null(ig_facts_get(&f, "gid"));
	/* replaced in place, the order kept */
	ck_assert_int_eq(ig_facts_set_int(&f, IG_FACT_DEVICE, 7), 0);
	ck_assert_uint_eq(f.n, 3);
	ck_assert_str_eq(f.f[0].name, IG_FACT_DEVICE);
	ig_facts_del(&f, IG_FACT_PORT);
	ck_assert_uint_eq(f.n, 2);
	ck_assert_str_eq(f.f[1].name, "rate_gbps");
	ck_assert_int_eq(ig_facts_set_int(&f, "a name far too long to keep", 1),
			 -EINVAL);
	for (unsigned int i = f.n; i < IG_FACT_MAX; i++) {
		snprintf(name, sizeof(name), "f%u", i);
		ck_assert_int_eq(ig_facts_set_int(&f, name, i), 0);
	}
	ck_assert_int_eq(ig_facts_set_int(&f, "one_more", 1), -ENOSPC);
}
END_TEST

/* READY's facts as an older peer sends them (its xinfo): types kept. */
START_TEST(facts_from_old_peer)
{
	json_object *o = json_tokener_parse(
		"{\"device\":\"rxe0\",\"port\":1,\"link_layer\":\"Ethernet\","
		"\"mtu\":1024,\"gid\":\"fe80::1\",\"gid_index\":1,"
		"\"rate_gbps\":25.0,\"numa_node\":-1,\"cpu\":-1,"
		"\"odd\":[1],\"ctl\":\"a\\u001bb\"}");
	struct ig_facts f;
	json_object *back;

	ck_assert_int_eq(ig_facts_from_json(o, &f), 0);
	ck_assert_uint_eq(f.n, 10); /* the array is left out */
	ck_assert_str_eq(ig_facts_str(&f, "gid"), "fe80::1");
	ck_assert_int_eq(ig_facts_int(&f, "numa_node", 0), -1);
	ck_assert(ig_facts_real(&f, "rate_gbps", 0) == 25.0);
	ck_assert_str_eq(ig_facts_str(&f, "ctl"), "a?b");
	back = ig_facts_to_json(&f);
	ck_assert(json_object_is_type(json_object_object_get(back, "mtu"),
				      json_type_int));
	ck_assert(json_object_is_type(json_object_object_get(back, "rate_gbps"),
				      json_type_double));
	ck_assert_int_eq(ig_facts_from_json(NULL, &f), -EINVAL);
	json_object_put(back);
	json_object_put(o);
}
END_TEST

static Suite *counters_suite(void)
{
	Suite *s = suite_create("counters");
	TCase *tc = tcase_create("rules");

	tcase_add_test(tc, find_by_name);
	tcase_add_test(tc, interval_rules);
	tcase_add_test(tc, interval_absent);
	tcase_add_test(tc, pool_streams);
	tcase_add_test(tc, pool_repeats);
	suite_add_tcase(s, tc);
	tc = tcase_create("wire");
	tcase_add_test(tc, ctrs_round_trip);
	tcase_add_loop_test(tc, ctrs_refuses, 0,
			    sizeof(bad_json) / sizeof(*bad_json));
	tcase_add_test(tc, facts_set_get);
	tcase_add_test(tc, facts_from_old_peer);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(counters_suite());
}
