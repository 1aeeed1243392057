// SPDX-License-Identifier: MIT
/*
 * Unit tests for ibgap-fabric's parts that need no MPI: its options
 * (fabric/fab_opts.c), the "ibgap-fabric/1" document and its text
 * (fab_doc.c) and the baseline comparison (fab_base.c), on a hand-made
 * fabric of four nodes with one slow node.
 */
#include <cairo.h>
#include <check.h>
#include <errno.h>
#include <stdint.h>
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
			    "pairs, ring, bisection, incast, leaves, sample" },
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
	/* --pattern sample's options: with it alone, one of --per-node and
	 * --budget, their ranges */
	{ "--pattern sample --per-node 2 --seed 7", NULL },
	{ "--pattern sample --budget 10", NULL },
	{ "--per-node 3", "--per-node: only with --pattern sample (the "
			  "pattern is pairs)" },
	{ "--pattern ring --budget 5", "--budget: only with --pattern sample "
				       "(the pattern is ring)" },
	{ "--seed 1", "--seed: only with --pattern sample" },
	{ "--pattern sample --per-node 2 --budget 5",
	  "--budget and --per-node: give one (--budget picks --per-node)" },
	{ "--pattern sample --rounds 2",
	  "--rounds: not with --pattern sample" },
	{ "--pattern sample --per-node 0",
	  "--per-node: '0' is not a whole number from 1 to" },
	{ "--pattern sample --budget 0.01",
	  "--budget: '0.01' is not a number from 0.1 to 100000" },
	{ "--pattern sample --seed -1", "--seed: '-1' is not a whole number "
					"from 0 to 4294967295" },
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
		"3 of its 6 measurements flagged; receive side (flagged as "
		"sender: tcp_bw 1 of 1; as receiver: tcp_bw 2 of 2): TCP low "
		"alone: the IP stack (run ibgap doctor)");
	/* it sent in one pair only: one low is not a side's verdict */
	ck_assert_int_eq(ig_json_get_str(n2, "direction", &s), 0);
	ck_assert_str_eq(s, "receive");
	ck_assert(!json_object_object_get_ex(
		json_object_array_get_idx(nodes, 0), "direction", NULL));
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
	/* the figures the order is by: node 3's 3 of 6 flagged, its
	 * median 1 against the fabric's 5.5; then the three with one of
	 * six flagged, each at 10 (10 / 5.5), by rank */
	ck_assert_msg(strstr(buf, "nodes, worst first (flagged, then flagged "
				  "share, then lowest bandwidth x median):\n"
				  "  2   node3                10.9.9.3        "
				  "FLAGGED  3/6 flagged  bw 0.18 x median  "
				  "tcp_bw 1.00 Gb/s  tcp_lat 20.00 us\n"),
		      "%s", buf);
	ck_assert_msg(strstr(buf, "\n  0   node1                10.9.9.1     "
				  "   ok       1/6 flagged  bw 1.82 x median  "
				  "tcp_bw 10.00 Gb/s"),
		      "%s", buf);
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

/* A transient: node1 -> node2's tcp_bw low at first (1 against 10),
 * fine when measured again (9.5): not flagged, and on stdout with both
 * figures, and counted in the verdict line. */
START_TEST(test_transient)
{
	struct fixture f;
	char *buf = NULL;
	size_t len = 0;
	FILE *m;

	fixture(&f, 10); /* all fast */
	f.m[0].bw_gbps = 1;
	f.m[0].retested = f.m[0].retest_ok = true;
	f.m[0].retest_bw_gbps = 9.5;
	ig_fab_judge_pairs(f.m, f.r.k, &f.o.tol, f.r.medians);
	ck_assert(f.m[0].transient && !f.m[0].flagged);
	m = open_memstream(&buf, &len);
	ig_fab_text(m, &f.r);
	fclose(m);
	ck_assert_msg(strstr(buf, "\ntransient measurements (flagged, then "
				  "within the tolerance when measured "
				  "again):\n  round 0  node1 -> node2  tcp_bw "
				  "1.00 Gb/s (median 10.00); again: 9.50 "
				  "Gb/s\n"),
		      "%s", buf);
	ck_assert_msg(strstr(buf, "flagged measurements:\n  none\n"), "%s",
		      buf);
	ck_assert_msg(strstr(buf, "0 of 12 measurements flagged (1 more "
				  "transient);"),
		      "%s", buf);
	free(buf);
}
END_TEST

/* Node 4 in no measurement (as the last of 3 ranks under --pattern
 * bisection): "not measured", not "ok", in the text and the JSON. */
START_TEST(test_unmeasured)
{
	struct fixture f;
	json_object *d, *n3;
	char *buf = NULL;
	size_t len = 0;
	size_t k = 0;
	FILE *m;

	fixture(&f, 10);
	for (size_t i = 0; i < f.r.k; i++)
		if (f.m[i].a != 3 && f.m[i].b != 3)
			f.m[k++] = f.m[i];
	f.r.k = k;
	f.outlier[3] = 0;
	ig_fab_judge_pairs(f.m, k, &f.o.tol, f.r.medians);
	ig_fab_judge_nodes(f.m, k, f.r.medians, f.nodes, 4);
	ig_fab_rank_nodes(f.nodes, 4, f.order);
	ck_assert_uint_eq(f.order[3], 3);
	m = open_memstream(&buf, &len);
	ig_fab_text(m, &f.r);
	fclose(m);
	ck_assert_msg(strstr(buf, "\n  3   node4                10.9.9.4     "
				  "   not measured\n      not measured: in no "
				  "measurement"),
		      "%s", buf);
	ck_assert_msg(strstr(buf, "verdict: 0 of 4 nodes flagged (1 not "
				  "measured), 0 of 6 measurements flagged"),
		      "%s", buf);
	free(buf);
	d = ig_fab_doc(&f.r);
	n3 = json_object_array_get_idx(ig_json_get_array(d, "nodes"), 3);
	ck_assert(!json_object_get_boolean(
		json_object_object_get(n3, "measured")));
	ck_assert(json_object_get_boolean(json_object_object_get(
		json_object_array_get_idx(ig_json_get_array(d, "nodes"), 2),
		"measured")));
	json_object_put(d);
}
END_TEST

/* -t write_bw on nodes without RDMA: no measurement at all is not a
 * passed run: one line saying why. */
START_TEST(test_nothing)
{
	struct fixture f;
	char err[256] = "";

	fixture(&f, 10);
	ck_assert_int_eq(ig_fab_nothing(&f.r, err, sizeof(err)), 0);
	f.r.k = 0;
	f.o.ntests = 1;
	f.o.tests[0] = IG_TEST_WRITE_BW;
	ck_assert_int_eq(ig_fab_nothing(&f.r, err, sizeof(err)), -ENODATA);
	ck_assert_str_eq(err, "nothing measured: -t write_bw has only verbs "
			      "tests, which need an active RDMA port at both "
			      "ends of a pair; 0 of 4 nodes have one");
	f.o.ntests = 2;
	f.o.tests[1] = IG_TEST_TCP_BW;
	f.o.pattern = IG_FAB_BISECTION;
	ck_assert_int_eq(ig_fab_nothing(&f.r, err, sizeof(err)), -ENODATA);
	ck_assert_str_eq(err, "nothing measured: no pair of pattern bisection "
			      "in 3 round(s) ran a test of -t write_bw,tcp_bw");
}
END_TEST

/* ---------------------------------------------------------- --plot */

/* The panels: one per transport and kind measured, none for the rest
 * (a TCP-only fabric: no verbs half); latency below bandwidth. */
START_TEST(test_plot_layout)
{
	struct fixture f;
	struct ig_fab_layout l;

	fixture(&f, 1);
	ig_fab_plot_layout(&f.r, &l);
	ck_assert_uint_eq(l.np, 2);
	ck_assert_int_eq(l.p[0].test, IG_TEST_TCP_BW);
	ck_assert_int_eq(l.p[1].test, IG_TEST_TCP_LAT);
	ck_assert(l.p[1].x == l.p[0].x && l.p[1].y > l.p[0].y + 4 * l.cell);
	ck_assert(l.scale_y > l.p[1].y + 4 * l.cell && l.scale_w > 0);
	fixture_v(&f, 1, true); /* write_bw too: verbs left of TCP */
	ig_fab_plot_layout(&f.r, &l);
	ck_assert_uint_eq(l.np, 3);
	ck_assert_int_eq(l.p[0].test, IG_TEST_WRITE_BW);
	ck_assert_int_eq(l.p[1].test, IG_TEST_TCP_BW);
	ck_assert_int_eq(l.p[2].test, IG_TEST_TCP_LAT);
	ck_assert(l.p[1].x > l.p[0].x + 4 * l.cell && l.p[2].x == l.p[1].x);
}
END_TEST

/* A pixel of a PNG, as 0xRRGGBB. */
static unsigned int pixel(cairo_surface_t *s, double x, double y)
{
	const unsigned char *d = cairo_image_surface_get_data(s);
	int stride = cairo_image_surface_get_stride(s);

	return *(const uint32_t *)(d + (int)y * stride + (int)x * 4) & 0xffffff;
}

static bool greenish(unsigned int v)
{
	return (v >> 8 & 255) > 150 && (v >> 16 & 255) < 80;
}

static bool reddish(unsigned int v)
{
	return (v >> 16 & 255) > 180 && (v >> 8 & 255) < 80;
}

/* The heat map drawn: a transient coloured by its retest (green) and
 * framed white, a slow pair red, the latency panel's cells, and the
 * colour scale from red to green. */
START_TEST(test_plot_png)
{
	char path[] = "/tmp/test_fabric_plot.XXXXXX.png", err[256];
	struct ig_fab_layout l;
	struct fixture f;
	cairo_surface_t *s;
	double c;
	int fd;

	fixture(&f, 10);
	f.m[4].bw_gbps = 1; /* 0 -> 2: low */
	f.m[8].bw_gbps = 1; /* 0 -> 3: low, then fine: transient */
	f.m[8].retested = f.m[8].retest_ok = true;
	f.m[8].retest_bw_gbps = 9.5;
	ig_fab_judge_pairs(f.m, f.r.k, &f.o.tol, f.r.medians);
	ck_assert(f.m[4].flagged && f.m[4].a == 0 && f.m[4].b == 2);
	ck_assert(f.m[8].transient && f.m[8].a == 0 && f.m[8].b == 3);
	fd = mkstemps(path, 4);
	ck_assert_int_ge(fd, 0);
	close(fd);
	ck_assert_int_eq(ig_fab_plot(&f.r, path, err, sizeof(err)), 0);
	ig_fab_plot_layout(&f.r, &l);
	s = cairo_image_surface_create_from_png(path);
	unlink(path);
	ck_assert_int_eq(cairo_surface_status(s), CAIRO_STATUS_SUCCESS);
	ck_assert_int_eq(cairo_image_surface_get_width(s), (int)l.w);
	c = l.cell;
	/* cell (0, 3): the retest's 9.5 against 10 (the first: 1, red) */
	ck_assert_msg(greenish(pixel(s, l.p[0].x + 3.5 * c, l.p[0].y + c / 2)),
		      "transient %06x",
		      pixel(s, l.p[0].x + 3.5 * c, l.p[0].y + c / 2));
	ck_assert_uint_eq(pixel(s, l.p[0].x + 3 * c + 2.5, l.p[0].y + c / 2),
			  0xffffff);
	/* cell (0, 2): 1 against 10, red, no frame */
	ck_assert(reddish(pixel(s, l.p[0].x + 2.5 * c, l.p[0].y + c / 2)));
	ck_assert(reddish(pixel(s, l.p[0].x + 2 * c + 2.5, l.p[0].y + c / 2)));
	/* tcp_lat, all at the median */
	ck_assert(greenish(pixel(s, l.p[1].x + 1.5 * c, l.p[1].y + c / 2)));
	/* the scale */
	ck_assert(reddish(pixel(s, l.scale_x + 2, l.scale_y + 4)));
	ck_assert(greenish(pixel(s, l.scale_x + l.scale_w - 3, l.scale_y + 4)));
	cairo_surface_destroy(s);
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
	ck_assert_msg(strstr(buf, "3 of its 9 measurements flagged; receive "
				  "side (flagged as sender: tcp_bw 1 of 1; as "
				  "receiver: tcp_bw 2 of 2): TCP low alone"),
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
	for (size_t i = 0; i < f.r.k; i++)
		f.m[i].reverse = true; /* as the pair's plan sets it */
	ig_fab_judge_nodes(f.m, f.r.k, f.r.medians, f.nodes, 4);
	m = open_memstream(&buf, &len);
	ig_fab_text(m, &f.r);
	fclose(m);
	ck_assert_msg(strstr(buf, "node3 -> node1  tcp_bw 1.00 Gb/s"), "%s",
		      buf);
	/* its two pairs as a server now sent: the send side */
	ck_assert_msg(strstr(buf, "3 of its 6 measurements flagged; send side "
				  "(flagged as sender: tcp_bw 2 of 2; as "
				  "receiver: tcp_bw 1 of 1)"),
		      "%s", buf);
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

/* ------------------------------------------------- shared findings */

/* Finding ids ("a b c") into node i's findings, as the doctor's lines. */
static void findings(struct ig_fab_find *fd, unsigned int i, bool ran,
		     const char *ids)
{
	char buf[256], *save = NULL;

	memset(fd, 0, sizeof(*fd));
	fd->rank = i;
	fd->ran = ran;
	snprintf(buf, sizeof(buf), "%s", ids);
	for (char *t = strtok_r(buf, " ", &save); t && fd->n < IG_FAB_NDR;
	     t = strtok_r(NULL, " ", &save)) {
		snprintf(fd->id[fd->n], sizeof(fd->id[0]), "%s", t);
		snprintf(fd->line[fd->n++], sizeof(fd->line[0]),
			 "%s: on node%u", t, i + 1);
	}
}

static const struct {
	const char *name;
	const char *ids[4]; /* node i's; NULL: its doctor did not run */
	const char *shared; /* the fabric-wide line's ids, "" none */
	const char *own[4]; /* node3's (flagged) reasons after the first */
} shared_cases[] = {
	{ "node3 has one of its own",
	  { "gro queues", "queues gro", "gro rps queues", "queues gro ring" },
	  "gro, queues",
	  { "rps: on node3" } },
	{ "a node whose doctor did not run is left out",
	  { "gro", NULL, "gro rps", "gro" },
	  "gro",
	  { "rps: on node3" } },
	{ "one node with none: nothing is everywhere",
	  { "gro queues", "", "gro rps queues", "gro queues" },
	  "",
	  { "gro: on node3", "rps: on node3", "queues: on node3" } },
	{ "only shared ones: said so",
	  { "gro", "gro", "gro", "gro" },
	  "gro",
	  { "the doctor's findings on it are all ones every node has" } },
	{ "one doctor ran: nothing to compare",
	  { NULL, NULL, "gro rps", NULL },
	  "",
	  { "gro: on node3", "rps: on node3" } },
	{ "the own ones shown: IG_FAB_NFIND",
	  { "gro", "gro", "a gro b c d", "gro" },
	  "gro",
	  { "a: on node3", "b: on node3", "c: on node3" } },
};

START_TEST(test_shared_findings)
{
	struct ig_fab_find fd[4];
	struct fixture f;
	json_object *d, *sh, *why;
	char *buf = NULL, want[256];
	size_t len = 0, nown = 0, at = 0;
	FILE *m;

	fixture(&f, 1); /* node3 (rank 2) flagged, TCP low alone */
	for (unsigned int i = 0; i < 4; i++)
		findings(&fd[i], i, shared_cases[_i].ids[i] != NULL,
			 shared_cases[_i].ids[i] ? shared_cases[_i].ids[i]
						 : "");
	f.r.find = fd;
	f.r.nfind = 4;
	ig_fab_shared(&f.r);
	d = ig_fab_doc(&f.r);
	sh = ig_json_get_array(d, "shared_findings");
	ck_assert_ptr_nonnull(sh);
	for (size_t i = 0; i < json_object_array_length(sh); i++)
		at += (size_t)snprintf(
			want + at, sizeof(want) - at, "%s%s", i ? ", " : "",
			json_object_get_string(
				json_object_array_get_idx(sh, i)));
	ck_assert_str_eq(at ? want : "", shared_cases[_i].shared);
	why = ig_json_get_array(
		json_object_array_get_idx(ig_json_get_array(d, "nodes"), 2),
		"reasons");
	while (nown < 4 && shared_cases[_i].own[nown])
		nown++;
	ck_assert_uint_eq(json_object_array_length(why), 1 + nown);
	for (size_t i = 0; i < nown; i++)
		ck_assert_str_eq(json_object_get_string(
					 json_object_array_get_idx(why, i + 1)),
				 shared_cases[_i].own[i]);
	json_object_put(d);
	m = open_memstream(&buf, &len);
	ig_fab_text(m, &f.r);
	fclose(m);
	snprintf(want, sizeof(want), "\n  every node: %s (the doctor's",
		 shared_cases[_i].shared);
	ck_assert_msg(!*shared_cases[_i].shared == !strstr(buf, want), "%s",
		      buf);
	ck_assert_msg(!*shared_cases[_i].shared ==
			      !strstr(buf, "  every node:"),
		      "%s", buf);
	free(buf);
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
	ck_assert_msg(strstr(buf, ": 0 regression(s) beyond 5.0% in 20 figures "
				  "compared\n"),
		      "%s", buf);
	free(buf);
	buf = NULL;
	/* other hosts: nothing of the baseline measured, not a pass */
	for (unsigned int i = 0; i < 4; i++)
		snprintf(now.info[i].host, sizeof(now.info[i].host), "other%u",
			 i);
	m = open_memstream(&buf, &len);
	n = ig_fab_baseline_cmp(&now.r, doc, path, 5, m);
	fclose(m);
	ck_assert_msg(n == -ENODATA, "%d: %s", n, buf);
	ck_assert_msg(strstr(buf, ": nothing compared: none of its pairs and "
				  "nodes (by host names and test) was measured "
				  "in this run\n"),
		      "%s", buf);
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
	tcase_add_test(tc, test_transient);
	tcase_add_test(tc, test_unmeasured);
	tcase_add_test(tc, test_nothing);
	tcase_add_test(tc, test_plot_layout);
	tcase_add_test(tc, test_plot_png);
	tcase_add_test(tc, test_repeat);
	tcase_add_test(tc, test_reverse);
	tcase_add_loop_test(tc, test_shared_findings, 0,
			    ARRAY_SIZE(shared_cases));
	tcase_add_test(tc, test_baseline);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(suite());
}
