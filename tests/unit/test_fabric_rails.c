// SPDX-License-Identifier: MIT
/*
 * Unit tests for fabric/railv.c (ig_fab_judge_rails: the fabric's rule
 * per rail) and the rails' announcement of fabric/fab_rails.c: small
 * fabrics where every pair is measured on every rail, with one rail of
 * one node (or one rail of every node) slowed.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/json.h"
#include "fabric/fab.h"
#include "fabric/verdict.h"
#include "testmain.h"
#include "transports/transports.h"

#define MAXM 256
#define MAXN 8
#define MAXG 4

struct fab {
	struct ig_fab_meas m[MAXM];
	size_t k;
	unsigned int n, g;
	struct ig_fab_node nodes[MAXG * MAXN];
	int rail[MAXG * MAXN];
	double med[IG_TEST_COUNT];
};

/* slow(node, rail, test): the factor of that node's rail (1: healthy) */
typedef double (*slow_fn)(unsigned int node, unsigned int rail, enum ig_test t);

static void add(struct fab *f, unsigned int a, unsigned int b, unsigned int ra,
		unsigned int rb, enum ig_test t, double v)
{
	struct ig_fab_meas *x = &f->m[f->k++];

	ck_assert_uint_lt(f->k, MAXM);
	memset(x, 0, sizeof(*x));
	x->a = a;
	x->b = b;
	x->test = t;
	x->ok = true;
	x->bw_gbps = v;
	x->railed = true;
	x->rail_a = ra;
	x->rail_b = rb;
}

/* Every pair a < b on every rail g (b's rail cross: g's mirror), verbs
 * and TCP, 10 Gb/s times both ends' factors. */
static void build(struct fab *f, unsigned int n, unsigned int g, slow_fn slow,
		  bool cross)
{
	static const enum ig_test tests[] = { IG_TEST_WRITE_BW,
					      IG_TEST_TCP_BW };

	memset(f, 0, sizeof(*f));
	f->n = n;
	f->g = g;
	for (unsigned int r = 0; r < g; r++)
		for (unsigned int a = 0; a < n; a++)
			for (unsigned int b = a + 1; b < n; b++)
				for (unsigned int t = 0; t < 2; t++) {
					unsigned int rb = cross ? g - 1 - r : r;

					add(f, a, b, r, rb, tests[t],
					    10 * slow(a, r, tests[t]) *
						    slow(b, rb, tests[t]));
				}
	ck_assert_int_ge(ig_fab_judge_pairs(f->m, f->k, NULL, f->med), 0);
}

static ssize_t judge(struct fab *f)
{
	return ig_fab_judge_rails(f->m, f->k, NULL, f->med, f->n, f->g,
				  f->nodes, f->rail);
}

static const struct ig_fab_node *at(const struct fab *f, unsigned int g,
				    unsigned int i)
{
	return &f->nodes[g * f->n + i];
}

static double node2_rail1_tcp(unsigned int node, unsigned int rail,
			      enum ig_test t)
{
	return node == 2 && rail == 1 && t == IG_TEST_TCP_BW ? 0.2 : 1;
}

static double rail1_tcp(unsigned int node, unsigned int rail, enum ig_test t)
{
	(void)node;
	return rail == 1 && t == IG_TEST_TCP_BW ? 0.2 : 1;
}

static double rail1_half(unsigned int node, unsigned int rail, enum ig_test t)
{
	(void)node;
	(void)t;
	return rail == 1 ? 0.7 : 1; /* 0.49 a pair: both ends */
}

/* One node's rail low in TCP: that (node, rail) alone, TCP low alone. */
START_TEST(one_node_rail)
{
	struct fab *f = malloc(sizeof(*f));

	build(f, 4, 2, node2_rail1_tcp, false);
	ck_assert_int_eq(judge(f), 1);
	for (unsigned int g = 0; g < 2; g++)
		for (unsigned int i = 0; i < 4; i++) {
			ck_assert_int_eq(f->rail[g * 4 + i], (int)g);
			ck_assert_uint_eq(at(f, g, i)->npairs, 6);
			ck_assert(at(f, g, i)->flagged == (g == 1 && i == 2));
		}
	ck_assert_int_eq(at(f, 1, 2)->cause, IG_FAB_TCP_LOW);
	ck_assert_uint_eq(at(f, 1, 2)->nflagged, 3);
	free(f);
}
END_TEST

/* A slower rail on every node (a storage rail) is held against itself:
 * nothing flagged, and the fabric's flags of its measurements cleared. */
START_TEST(slow_rail_everywhere)
{
	struct fab *f = malloc(sizeof(*f));
	size_t before = 0, after = 0;

	build(f, 4, 2, rail1_half, false);
	for (size_t j = 0; j < f->k; j++)
		before += f->m[j].flagged;
	ck_assert_uint_eq(before, 12); /* rail 1's, against every rail */
	ck_assert_int_eq(judge(f), 0);
	for (size_t j = 0; j < f->k; j++)
		after += f->m[j].flagged;
	ck_assert_uint_eq(after, 0);
	free(f);
}
END_TEST

/* Two nodes: one measurement a rail and test, too few for a rail's own
 * median: the fabric's (every rail's) stands, and the slow rail of the
 * pair is flagged on both nodes; the other is not. */
START_TEST(two_nodes)
{
	struct fab *f = malloc(sizeof(*f));

	build(f, 2, 2, rail1_tcp, false);
	ck_assert_int_eq(judge(f), 2);
	ck_assert(!at(f, 0, 0)->flagged && !at(f, 0, 1)->flagged);
	ck_assert(at(f, 1, 0)->flagged && at(f, 1, 1)->flagged);
	ck_assert_int_eq(at(f, 1, 0)->cause, IG_FAB_TCP_LOW);
	free(f);
}
END_TEST

/* The rail of each node in a group: the client's rail_a, the server's
 * rail_b (crossed here: rail 0 of a with rail 1 of b). */
START_TEST(rail_indices)
{
	struct fab *f = malloc(sizeof(*f));

	build(f, 2, 2, rail1_tcp, true);
	judge(f);
	ck_assert_int_eq(f->rail[0 * 2 + 0], 0);
	ck_assert_int_eq(f->rail[0 * 2 + 1], 1);
	ck_assert_int_eq(f->rail[1 * 2 + 0], 1);
	ck_assert_int_eq(f->rail[1 * 2 + 1], 0);
	/* measurements without a rail are in no group */
	for (size_t j = 0; j < f->k; j++)
		f->m[j].railed = false;
	ck_assert_int_eq(judge(f), 0);
	for (unsigned int c = 0; c < 4; c++)
		ck_assert_int_eq(f->rail[c], -1);
	free(f);
}
END_TEST

/* The announcement and back: the fields the pairing needs; the name. */
START_TEST(announce)
{
	struct ig_rails *r = calloc(2, sizeof(*r));
	struct ig_fab_info *i = calloc(1, sizeof(*i));
	char name[160];

	r->n = 2;
	snprintf(r->r[0].device, sizeof(r->r[0].device), "mlx5_0");
	snprintf(r->r[1].device, sizeof(r->r[1].device), "mlx5_2");
	snprintf(r->r[1].addr, sizeof(r->r[1].addr), "10.1.2.3");
	snprintf(r->r[1].netdev, sizeof(r->r[1].netdev), "ib2");
	r->r[1].prefix = 24;
	r->r[1].port = 1;
	ig_fab_rails_announce(r, i);
	ck_assert_uint_eq(i->nrails, 2);
	snprintf(i->node, sizeof(i->node), "node3");
	ig_fab_rail_name(i, 1, name, sizeof(name));
	ck_assert_str_eq(name, "node3:mlx5_2");
	ig_fab_rails_of(i, &r[1]);
	ck_assert_uint_eq(r[1].n, 2);
	ck_assert_str_eq(r[1].r[1].addr, "10.1.2.3");
	ck_assert_str_eq(r[1].r[1].netdev, "ib2");
	ck_assert_int_eq(r[1].r[1].prefix, 24);
	ck_assert_str_eq(r[1].r[0].addr, "");
	free(r);
	free(i);
}
END_TEST

/* Two nodes (node and host names PREFIX0, PREFIX1), each with mlx5_0 and
 * mlx5_1, rail 1's TCP low: f's measurements in r. */
static void two_nodes_run(struct fab *f, struct ig_fab_run *r,
			  struct ig_fab_info *info, const char *prefix)
{
	build(f, 2, 2, rail1_tcp, false);
	for (unsigned int i = 0; i < 2; i++) {
		snprintf(info[i].node, sizeof(info[i].node), "%s%u", prefix, i);
		snprintf(info[i].host, sizeof(info[i].host), "%s%u", prefix, i);
		info[i].nrails = 2;
		for (unsigned int j = 0; j < 2; j++)
			snprintf(info[i].rails[j].device,
				 sizeof(info[i].rails[j].device), "mlx5_%u", j);
	}
	r->m = f->m;
	r->k = f->k;
}

/* The report's rails: two nodes n0, n1 with mlx5_0 and mlx5_1, rail 1's
 * TCP low (two_nodes above): each node's rails[] in JSON, the text's
 * block and a measurement's rails. */
START_TEST(report)
{
	struct fab *f = malloc(sizeof(*f));
	struct ig_fab_info info[2] = { 0 };
	struct ig_fab_opts o = { .rails = true };
	struct ig_fab_run r = { .o = &o, .n = 2, .info = info };
	json_object *a, *one;
	char *text = NULL;
	size_t len = 0;
	FILE *mf;

	two_nodes_run(f, &r, info, "n");
	ck_assert_int_eq(judge(f), 2);
	r.nrail_groups = 2;
	r.rail_nodes = f->nodes;
	r.rail_idx = f->rail;
	a = ig_fab_node_rails_json(&r, 1);
	ck_assert_uint_eq(json_object_array_length(a), 2);
	one = json_object_array_get_idx(a, 1);
	ck_assert_str_eq(
		json_object_get_string(json_object_object_get(one, "name")),
		"n1:mlx5_1");
	ck_assert(json_object_get_boolean(
		json_object_object_get(one, "flagged")));
	ck_assert(!json_object_get_boolean(json_object_object_get(
		json_object_array_get_idx(a, 0), "flagged")));
	json_object_put(a);
	a = ig_fab_meas_rails_json(&r, &f->m[f->k - 1]);
	ck_assert_str_eq(json_object_get_string(json_object_object_get(a, "a")),
			 "mlx5_1");
	json_object_put(a);
	mf = open_memstream(&text, &len);
	ig_fab_rails_text(mf, &r);
	fclose(mf);
	ck_assert_msg(strstr(text, "flagged rails: 2 n0:mlx5_1 (rank 0) "
				   "n1:mlx5_1 (rank 1)\n"),
		      "%s", text);
	free(text);
	free(f);
}
END_TEST

/* --baseline: each old pair against this run's pair on the same rails
 * (devices at both ends); an old pair without rails matches none. */
START_TEST(baseline)
{
	static const char *const old =
		"{\"schema\": \"ibgap-fabric/1\", \"nodes\": [{\"host\": "
		"\"h0\"}, {\"host\": \"h1\"}], \"pairs\": ["
		"{\"a\": 0, \"b\": 1, \"test\": \"tcp_bw\", \"ok\": true, "
		"\"bw_gbps\": 10, \"rails\": {\"a\": \"mlx5_0\", \"b\": "
		"\"mlx5_0\"}}, {\"a\": 0, \"b\": 1, \"test\": \"tcp_bw\", "
		"\"ok\": true, \"bw_gbps\": 10, \"rails\": {\"a\": "
		"\"mlx5_1\", \"b\": \"mlx5_1\"}}]}";
	struct fab *f = malloc(sizeof(*f));
	struct ig_fab_info info[2] = { 0 };
	struct ig_fab_node nodes[2] = { 0 };
	struct ig_fab_opts o = { .rails = true };
	struct ig_fab_run r = { .o = &o, .n = 2, .info = info, .nodes = nodes };
	json_object *doc = json_tokener_parse(old), *p;
	char *text = NULL;
	size_t len = 0;
	FILE *mf;

	two_nodes_run(f, &r, info, "h");
	mf = open_memstream(&text, &len);
	ck_assert_int_eq(ig_fab_baseline_cmp(&r, doc, "b.json", 5, mf), 1);
	fclose(mf);
	ck_assert_msg(strstr(text, "pair h0 -> h1 (mlx5_1 -> mlx5_1) tcp_bw: "
				   "10.00 -> 0.40"),
		      "%s", text);
	ck_assert_msg(strstr(text, "in 2 figures compared"), "%s", text);
	free(text);
	text = NULL;
	/* the same pairs without rails: none is this run's */
	p = ig_json_get_array(doc, "pairs");
	for (size_t i = 0; i < json_object_array_length(p); i++)
		json_object_object_del(json_object_array_get_idx(p, i),
				       "rails");
	mf = open_memstream(&text, &len);
	ck_assert_int_eq(ig_fab_baseline_cmp(&r, doc, "b.json", 5, mf),
			 -ENODATA);
	fclose(mf);
	free(text);
	json_object_put(doc);
	free(f);
}
END_TEST

/* --rails' forms, and what cannot go with it (exit 2: -EINVAL). */
static const struct {
	const char *argv[6];
	int ret;
	const char *list; /* NULL: all */
	const char *err;  /* a part of the line */
} opt_cases[] = {
	{ { "--rails" }, 0, NULL, NULL },
	{ { "--rails", "all" }, 0, NULL, NULL },
	{ { "--rails", "rxe0,rxe1", "-D", "0.5" }, 0, "rxe0,rxe1", NULL },
	{ { "--rails=mlx5_0" }, 0, "mlx5_0", NULL },
	{ { "--rails", "-D", "0.5" }, 0, NULL, NULL },
	{ { "--rails=" }, -EINVAL, NULL, "--rails: '' is no list" },
	{ { "--rails", "--device", "rxe0" },
	  -EINVAL,
	  NULL,
	  "--rails with --device" },
	{ { "--device", "rxe0", "--rails", "rxe0" },
	  -EINVAL,
	  NULL,
	  "--rails with --device" },
	{ { "--rails", "--ib-port", "2" },
	  -EINVAL,
	  NULL,
	  "--rails with --ib-port" },
	{ { "--rails", "--addr", "eth0" },
	  -EINVAL,
	  NULL,
	  "--rails with --addr" },
};

START_TEST(options)
{
	char *argv[8] = { "ibgap-fabric" }, err[512] = "";
	struct ig_fab_opts o;
	int argc = 1, ret;

	for (int j = 0; j < 6 && opt_cases[_i].argv[j]; j++)
		argv[argc++] = (char *)opt_cases[_i].argv[j];
	ret = ig_fab_opts_parse(argc, argv, &o, err, sizeof(err));
	ck_assert_msg(ret == opt_cases[_i].ret, "%s: %d (%s)",
		      opt_cases[_i].argv[0], ret, err);
	if (opt_cases[_i].err) {
		ck_assert_msg(strstr(err, opt_cases[_i].err), "%s", err);
		return;
	}
	ck_assert(o.rails);
	if (opt_cases[_i].list)
		ck_assert_str_eq(o.rails_list, opt_cases[_i].list);
	else
		ck_assert_ptr_null(o.rails_list);
}
END_TEST

START_TEST(no_rails)
{
	char *argv[] = { "ibgap-fabric", "-D", "0.5" }, err[512];
	struct ig_fab_opts o;

	ck_assert_int_eq(ig_fab_opts_parse(3, argv, &o, err, sizeof(err)), 0);
	ck_assert(!o.rails);
}
END_TEST

static Suite *rails_suite(void)
{
	Suite *s = suite_create("fabric_rails");
	TCase *tc = tcase_create("verdicts");

	tcase_add_test(tc, one_node_rail);
	tcase_add_test(tc, slow_rail_everywhere);
	tcase_add_test(tc, two_nodes);
	tcase_add_test(tc, rail_indices);
	tcase_add_test(tc, announce);
	tcase_add_test(tc, report);
	tcase_add_test(tc, baseline);
	suite_add_tcase(s, tc);
	tc = tcase_create("options");
	tcase_add_loop_test(tc, options, 0,
			    sizeof(opt_cases) / sizeof(opt_cases[0]));
	tcase_add_test(tc, no_rails);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(rails_suite());
}
