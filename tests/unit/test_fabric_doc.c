// SPDX-License-Identifier: MIT
/*
 * Unit tests for ibgap-fabric's parts that need no MPI: its options
 * (fabric/fab_opts.c), the "ibgap-fabric/1" document and its text
 * (fab_doc.c) and the baseline comparison (fab_base.c), on a hand-made
 * fabric of four nodes with one slow node.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/json.h"
#include "fabric/fab.h"
#include "testmain.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ------------------------------------------------------------- options */

static int parse(const char *line, struct ig_fab_opts *o, char *err,
		 size_t errlen)
{
	char buf[512], *argv[32], *save = NULL;
	int argc = 0;

	snprintf(buf, sizeof(buf), "ibgap-fabric %s", line);
	for (char *t = strtok_r(buf, " ", &save); t && argc < 31;
	     t = strtok_r(NULL, " ", &save))
		argv[argc++] = t;
	argv[argc] = NULL;
	return ig_fab_opts_parse(argc, argv, o, err, errlen);
}

static const struct {
	const char *args;
	const char *err; /* NULL: accepted */
} opt_cases[] = {
	{ "", NULL },
	{ "--pattern ring --rounds 3 -t tcp_bw -s 1M -D 0.5", NULL },
	{ "--pattern mesh", "--pattern: 'mesh' is not a pattern: allowed "
			    "pairs, ring, bisection, incast" },
	{ "--rounds 0", "--rounds: '0' is not a whole number from 1 to" },
	{ "--bw-tol 1.5", "--bw-tol: '1.5' is not a number from 0.01 to 1" },
	{ "--lat-tol 0.5", "--lat-tol: '0.5' is not a number from 1 to 1000" },
	{ "--format csv", "--format: 'csv' is not a format: allowed text, "
			  "json" },
	{ "--plot x.gif", "--plot: 'x.gif' must end in .svg or .png" },
	{ "-t foo", "-t: unknown test 'foo'" },
	{ "-D 0", "-D: '0' is out of range" },
	{ "-p 70000", "-p: '70000' is not a whole number from 1 to 65535" },
	{ "--baseline a.json --save-baseline a.json",
	  "--baseline and --save-baseline name the same file 'a.json'" },
	{ "extra", "takes no positional argument, got 'extra'" },
	{ "--nope", "option '--nope' is unknown: see --help" },
	/* an option that would do nothing is refused, as in the client */
	{ "--tolerance 3",
	  "--tolerance does nothing without --baseline: add --baseline or "
	  "leave --tolerance out" },
	{ "-t tcp_bw,tcp_lat --events",
	  "--events: a verbs option, and -t has no verbs test: add one or "
	  "leave --events out" },
	{ "-n 5 -D 1", "-n and -D together: choose one" },
	{ "-t tcp_lat --bidir", "--bidir: no bandwidth test in -t tcp_lat" },
	{ "--reverse=1", "option '--reverse=1': --reverse takes no value" },
	{ "-p", "option '-p' lacks its value P: see --help" },
	/* --repeat and --confidence: the client's ranges and lines */
	{ "--repeat 5 --confidence 99,10", NULL },
	{ "--repeat 0", "--repeat: '0' is not a number of runs from 1 to 100" },
	{ "--repeat 101", "--repeat: '101' is not a number of runs" },
	{ "--confidence 90,5", "--confidence: '90,5' is not LEVEL,WIDTH" },
	{ "--confidence 95", "--confidence: '95' is not LEVEL,WIDTH" },
};

START_TEST(test_opts_table)
{
	struct ig_fab_opts o;
	char err[512] = "";
	int ret = parse(opt_cases[_i].args, &o, err, sizeof(err));

	if (!opt_cases[_i].err) {
		ck_assert_msg(ret == 0, "'%s': %s", opt_cases[_i].args, err);
		return;
	}
	ck_assert_msg(ret == -EINVAL, "'%s' accepted", opt_cases[_i].args);
	ck_assert_msg(strstr(err, opt_cases[_i].err), "'%s': got '%s'",
		      opt_cases[_i].args, err);
}
END_TEST

START_TEST(test_opts_defaults)
{
	struct ig_fab_opts o;
	char err[256];

	ck_assert_int_eq(parse("", &o, err, sizeof(err)), 0);
	ck_assert_int_eq(o.pattern, IG_FAB_PAIRS);
	ck_assert_int_eq(o.ntests, 4);
	ck_assert_int_eq(o.tests[0], IG_TEST_WRITE_BW);
	ck_assert_int_eq(o.tests[3], IG_TEST_TCP_LAT);
	ck_assert(o.retest);
	ck_assert_int_eq(o.port, IG_FAB_DEFAULT_PORT);
	ck_assert(o.tol.bw == 0.9 && o.tol.lat == 2.0);
	ck_assert_int_eq(parse("--no-retest --both-directions -n 100", &o, err,
			       sizeof(err)),
			 0);
	ck_assert(!o.retest && o.both);
	ck_assert(o.p.iterations == 100 && o.p.duration_ns == 0);
	ck_assert(!o.rep.runs && !o.rep.level);
	ck_assert_int_eq(parse("--repeat 4 --confidence 95,2.5", &o, err,
			       sizeof(err)),
			 0);
	ck_assert_uint_eq(o.rep.runs, 4);
	ck_assert_uint_eq(o.rep.level, 95);
	ck_assert(o.rep.width == 2.5);
	ck_assert_int_eq(parse("-h", &o, err, sizeof(err)), 1);
}
END_TEST

/* ----------------------------------------------- a hand-made fabric */

/* Four nodes; every pair once with tcp_bw (node 2 at a tenth) and
 * tcp_lat; judged. */
struct fixture {
	struct ig_fab_opts o;
	struct ig_fab_info info[4];
	struct ig_fab_meas m[18];
	struct ig_fab_node nodes[4];
	unsigned int order[4], outlier[4];
	struct ig_fab_run r;
};

static void fixture_v(struct fixture *f, double slow, bool verbs)
{
	static const unsigned int pr[6][2] = { { 0, 1 }, { 2, 3 }, { 0, 2 },
					       { 1, 3 }, { 0, 3 }, { 1, 2 } };
	char err[64];
	size_t k = 0;

	memset(f, 0, sizeof(*f));
	ck_assert_int_eq(parse("--no-retest", &f->o, err, sizeof(err)), 0);
	for (unsigned int i = 0; i < 4; i++) {
		snprintf(f->info[i].host, sizeof(f->info[i].host), "node%u",
			 i + 1);
		snprintf(f->info[i].addr, sizeof(f->info[i].addr), "10.9.9.%u",
			 i + 1);
		snprintf(f->info[i].fp.kernel, sizeof(f->info[i].fp.kernel),
			 "%s", i == 3 ? "6.1.0-old" : "6.12.0");
	}
	for (unsigned int i = 0; i < 6; i++) {
		bool bad = pr[i][0] == 2 || pr[i][1] == 2;

		f->m[k++] = (struct ig_fab_meas){ .round = i / 2,
						  .a = pr[i][0],
						  .b = pr[i][1],
						  .test = IG_TEST_TCP_BW,
						  .ok = true,
						  .bw_gbps = bad ? slow : 10 };
		f->m[k++] = (struct ig_fab_meas){ .round = i / 2,
						  .a = pr[i][0],
						  .b = pr[i][1],
						  .test = IG_TEST_TCP_LAT,
						  .ok = true,
						  .lat_p50_us = 20,
						  .lat_p99_us = 30 };
		if (verbs)
			f->m[k++] =
				(struct ig_fab_meas){ .round = i / 2,
						      .a = pr[i][0],
						      .b = pr[i][1],
						      .test = IG_TEST_WRITE_BW,
						      .ok = true,
						      .bw_gbps = 20 };
	}
	f->r = (struct ig_fab_run){ .o = &f->o,
				    .n = 4,
				    .info = f->info,
				    .m = f->m,
				    .k = k,
				    .rounds_done = 3,
				    .rounds_total = 3,
				    .nodes = f->nodes,
				    .order = f->order,
				    .outlier = f->outlier };
	ig_fab_judge_pairs(f->m, k, &f->o.tol, f->r.medians);
	ig_fab_judge_nodes(f->m, k, f->r.medians, f->nodes, 4);
	ig_fab_rank_nodes(f->nodes, 4, f->order);
	f->outlier[3] = 1; /* key 0, "kernel" */
	f->r.judged = true;
}

static void fixture(struct fixture *f, double slow)
{
	fixture_v(f, slow, false);
}

START_TEST(test_doc)
{
	struct fixture f;
	json_object *d, *nodes, *pairs, *n2, *reasons;
	const char *s;
	int v;

	fixture(&f, 1);
	d = ig_fab_doc(&f.r);
	ck_assert_ptr_nonnull(d);
	ck_assert_int_eq(ig_json_get_str(d, "schema", &s), 0);
	ck_assert_str_eq(s, "ibgap-fabric/1");
	ck_assert_int_eq(ig_json_get_str(d, "pattern", &s), 0);
	ck_assert_str_eq(s, "pairs");
	nodes = ig_json_get_array(d, "nodes");
	pairs = ig_json_get_array(d, "pairs");
	ck_assert_uint_eq(json_object_array_length(nodes), 4);
	ck_assert_uint_eq(json_object_array_length(pairs), 12);
	n2 = json_object_array_get_idx(nodes, 2);
	ck_assert(
		json_object_get_boolean(json_object_object_get(n2, "flagged")));
	reasons = ig_json_get_array(n2, "reasons");
	ck_assert_uint_eq(json_object_array_length(reasons), 1);
	ck_assert_str_eq(
		json_object_get_string(json_object_array_get_idx(reasons, 0)),
		"3 of its 6 measurements flagged: TCP low alone: the "
		"IP stack (run ibgap doctor)");
	reasons = ig_json_get_array(json_object_array_get_idx(nodes, 3),
				    "reasons");
	ck_assert_str_eq(
		json_object_get_string(json_object_array_get_idx(reasons, 0)),
		"fingerprint: its kernel differs from most nodes'");
	for (size_t i = 0; i < 12; i++) {
		json_object *p = json_object_array_get_idx(pairs, i);
		bool flagged = json_object_get_boolean(
			json_object_object_get(p, "flagged"));

		ck_assert_int_eq(ig_json_get_int(p, "a", &v), 0);
		ck_assert_msg(flagged == f.m[i].flagged, "pair %zu", i);
		ck_assert_msg(flagged == (f.m[i].test == IG_TEST_TCP_BW &&
					  (f.m[i].a == 2 || f.m[i].b == 2)),
			      "pair %zu flagged %d", i, flagged);
	}
	json_object_put(d);
}
END_TEST

START_TEST(test_text)
{
	struct fixture f;
	char *buf = NULL;
	size_t len = 0;
	FILE *m;

	fixture(&f, 1);
	m = open_memstream(&buf, &len);
	ig_fab_text(m, &f.r);
	fclose(m);
	ck_assert_msg(strstr(buf, "nodes, worst first:\n  2   node3"), "%s",
		      buf);
	ck_assert_msg(strstr(buf, "FLAGGED"), "%s", buf);
	ck_assert_msg(strstr(buf, "verdict: 1 of 4 nodes flagged, 3 of 12 "
				  "measurements flagged"),
		      "%s", buf);
	/* half of the 4 nodes' pairs have node 3: the median is between */
	ck_assert_msg(strstr(buf, "node1 -> node3  tcp_bw 1.00 Gb/s "
				  "(median 5.50)\n"),
		      "%s", buf);
	ck_assert_msg(strstr(buf, "fingerprint outliers:\n  3   node4        "
				  "        differs in: kernel\n"),
		      "%s", buf);
	free(buf);
}
END_TEST

/* --repeat 3 --confidence 95,5: a repeated measurement's spread in the
 * JSON (the client's "repeat" object, its metric by the test) and on its
 * flagged line; a summary line in the text. */
START_TEST(test_repeat)
{
	struct fixture f;
	json_object *d, *p0, *p1, *rep;
	char *buf = NULL;
	size_t len = 0;
	const char *s;
	uint64_t u;
	FILE *m;

	fixture(&f, 1);
	f.o.rep = (struct ig_repeat_opts){ .runs = 3, .level = 95, .width = 5 };
	for (size_t i = 0; i < f.r.k; i++)
		f.m[i].rep = (struct ig_repeat){ .n = 3,
						 .level = 95,
						 .width_pct = 5,
						 .mean = 1,
						 .ci_lo = 0.9,
						 .ci_hi = 1.1,
						 .met = i % 2 };
	f.m[11].rep.n = 0; /* one measured once (SIGINT) */
	d = ig_fab_doc(&f.r);
	ck_assert_ptr_nonnull(d);
	p0 = json_object_array_get_idx(ig_json_get_array(d, "pairs"), 0);
	p1 = json_object_array_get_idx(ig_json_get_array(d, "pairs"), 1);
	rep = json_object_object_get(p0, "repeat");
	ck_assert_ptr_nonnull(rep);
	ck_assert_int_eq(ig_json_get_u64(rep, "runs", &u), 0);
	ck_assert_uint_eq(u, 3);
	ck_assert_int_eq(ig_json_get_str(rep, "metric", &s), 0);
	ck_assert_str_eq(s, "bw_gbps");
	ck_assert_int_eq(ig_json_get_str(json_object_object_get(p1, "repeat"),
					 "metric", &s),
			 0);
	ck_assert_str_eq(s, "lat_us.p50");
	ck_assert_ptr_null(json_object_object_get(
		json_object_array_get_idx(ig_json_get_array(d, "pairs"), 11),
		"repeat"));
	json_object_put(d);
	m = open_memstream(&buf, &len);
	ig_fab_text(m, &f.r);
	fclose(m);
	ck_assert_msg(strstr(buf, "  repeats: 11 measurements repeated, 3.0 "
				  "runs each; the 95% interval within +/-2.5% "
				  "in 5 of them\n"),
		      "%s", buf);
	ck_assert_msg(strstr(buf, "node1 -> node3  tcp_bw 1.00 Gb/s (median "
				  "5.50) [3 runs, 95% interval 0.9 to 1.1]"),
		      "%s", buf);
	free(buf);
}
END_TEST

/* With verbs too: a flagged TCP measurement shows the pair's verbs
 * figure beside it (verbs fine: the IP stack). */
START_TEST(test_text_verbs)
{
	struct fixture f;
	char *buf = NULL;
	size_t len = 0;
	FILE *m;

	fixture_v(&f, 1, true);
	m = open_memstream(&buf, &len);
	ig_fab_text(m, &f.r);
	fclose(m);
	ck_assert_msg(strstr(buf, "node1 -> node3  tcp_bw 1.00 Gb/s (median "
				  "5.50); write_bw 20.00 Gb/s (median "
				  "20.00)\n"),
		      "%s", buf);
	ck_assert_msg(strstr(buf, "3 of its 9 measurements flagged: TCP low "
				  "alone"),
		      "%s", buf);
	free(buf);
}
END_TEST

/* -R: b's server sent; the text names the sender first, the JSON says
 * sender = b for bandwidth tests and nothing for latency ones. */
START_TEST(test_reverse)
{
	struct fixture f;
	char *buf = NULL;
	size_t len = 0;
	json_object *d, *p;
	int v = -1;
	FILE *m;

	fixture(&f, 1);
	f.o.p.reverse = 1;
	m = open_memstream(&buf, &len);
	ig_fab_text(m, &f.r);
	fclose(m);
	ck_assert_msg(strstr(buf, "node3 -> node1  tcp_bw 1.00 Gb/s"), "%s",
		      buf);
	free(buf);
	d = ig_fab_doc(&f.r);
	p = json_object_array_get_idx(ig_json_get_array(d, "pairs"), 0);
	ck_assert_int_eq(ig_json_get_int(p, "sender", &v), 0);
	ck_assert_int_eq(v, 1); /* pair 0 -> 1, b sent */
	p = json_object_array_get_idx(ig_json_get_array(d, "pairs"), 1);
	ck_assert(!json_object_object_get_ex(p, "sender", NULL));
	json_object_put(d);
}
END_TEST

/* Writes f's document to a temporary file; its path into path. */
static void save(struct fixture *f, char *path, size_t len)
{
	int fd;

	snprintf(path, len, "/tmp/test_fabric_doc.XXXXXX");
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	close(fd);
	f->o.json = true;
	f->o.outfile = path;
	ck_assert_int_eq(ig_fab_write(&f->r, NULL), 0);
	f->o.json = false;
	f->o.outfile = NULL;
}

START_TEST(test_baseline)
{
	struct fixture old, now;
	char path[64], err[256], *buf = NULL;
	json_object *doc = NULL;
	size_t len = 0;
	FILE *m;
	int n;

	fixture(&old, 10); /* all fast */
	save(&old, path, sizeof(path));
	ck_assert_int_eq(ig_fab_baseline_load(path, &doc, err, sizeof(err)), 0);
	fixture(&now, 1); /* node 3 slow */
	m = open_memstream(&buf, &len);
	n = ig_fab_baseline_cmp(&now.r, doc, path, 5, m);
	fclose(m);
	/* three pairs and node 3's median */
	ck_assert_msg(n == 4, "%d regressions: %s", n, buf);
	ck_assert_msg(strstr(buf, "regression: pair node1 -> node3 tcp_bw: "
				  "10.00 -> 1.00 Gb/s (-90.0%"),
		      "%s", buf);
	ck_assert_msg(strstr(buf, "regression: node node3 tcp_bw"), "%s", buf);
	free(buf);
	buf = NULL;
	m = open_memstream(&buf, &len);
	ck_assert_int_eq(ig_fab_baseline_cmp(&old.r, doc, path, 5, m), 0);
	fclose(m);
	free(buf);
	json_object_put(doc);
	/* a document of another kind, then no file at all */
	m = fopen(path, "w");
	fputs("{\"schema\": \"ibgap/1\"}\n", m);
	fclose(m);
	ck_assert_int_eq(ig_fab_baseline_load(path, &doc, err, sizeof(err)),
			 -EINVAL);
	ck_assert_msg(strstr(err, "is not an ibgap-fabric/1 document"), "%s",
		      err);
	unlink(path);
	ck_assert_int_eq(ig_fab_baseline_load(path, &doc, err, sizeof(err)),
			 -EINVAL);
	ck_assert_msg(strstr(err, "--baseline: cannot read"), "%s", err);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("fabric_doc");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_opts_table, 0, ARRAY_SIZE(opt_cases));
	tcase_add_test(tc, test_opts_defaults);
	tcase_add_test(tc, test_doc);
	tcase_add_test(tc, test_text);
	tcase_add_test(tc, test_text_verbs);
	tcase_add_test(tc, test_repeat);
	tcase_add_test(tc, test_reverse);
	tcase_add_test(tc, test_baseline);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(suite());
}
