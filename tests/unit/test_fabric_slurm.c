// SPDX-License-Identifier: MIT
/*
 * Unit tests for fabric/slurm.c (and fab_slurm.c's pure parts): sinfo's
 * output as Slurm 22.05 prints it for -h -N -o '%N|%T|%E' (made up from
 * a real run's lines), what --drain and --resume do with each node (a
 * reason someone else set is never touched), the reason written, the
 * outcome's JSON and text, the options (--resume alone); ig_slurm_exec
 * on plain commands.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/fab.h"
#include "fabric/slurm.h"
#include "fabric/verdict.h"
#include "testmain.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* A cluster's sinfo: n03 in two partitions (listed twice), a reason
 * with '|' and spaces, one not responding ("down*"). */
static const char sinfo_out[] =
	"n01|idle|none\n"
	"n02|drained|admin: fan [ticket 12]\n"
	"n03|draining|ibgap: 3 of 6 measurements low: TCP low alone\n"
	"n03|draining|ibgap: 3 of 6 measurements low: TCP low alone\n"
	"n04|down*|Not responding\n"
	"n05|drained|ibgap: a|b  c\n"
	"n06|allocated|none\n"
	"\n";

START_TEST(parse_sinfo)
{
	struct ig_slurm_node n[8];
	char err[256] = "";
	size_t k;

	ck_assert_int_eq(ig_slurm_parse(sinfo_out, n, 8, &k, err, sizeof(err)),
			 0);
	ck_assert_uint_eq(k, 6);
	ck_assert_str_eq(n[0].name, "n01");
	ck_assert_str_eq(n[0].state, "idle");
	ck_assert_str_eq(n[0].reason, "");
	ck_assert_str_eq(n[1].reason, "admin: fan [ticket 12]");
	ck_assert_str_eq(n[2].name, "n03");
	ck_assert_str_eq(n[3].state, "down*");
	ck_assert_str_eq(n[4].name, "n05");
	ck_assert_str_eq(n[4].reason, "ibgap: a|b  c");
	ck_assert_str_eq(n[5].name, "n06");
}
END_TEST

START_TEST(parse_bad)
{
	struct ig_slurm_node n[2];
	char err[256] = "";
	size_t k;

	ck_assert_int_eq(ig_slurm_parse("n01|idle|none\nsinfo: error: x\n", n,
					2, &k, err, sizeof(err)),
			 -EINVAL);
	ck_assert_str_eq(err, "sinfo's line 2 is not NODE|STATE|REASON: "
			      "'sinfo: error: x'");
	ck_assert_int_eq(ig_slurm_parse("|idle|none\n", n, 2, &k, err,
					sizeof(err)),
			 -EINVAL);
	ck_assert_int_eq(ig_slurm_parse("a|b|c\nd|e|f\ng|h|i\n", n, 2, &k, err,
					sizeof(err)),
			 -ENOSPC);
	ck_assert_str_eq(err, "sinfo lists more than 2 nodes");
	ck_assert_int_eq(ig_slurm_parse("", n, 2, &k, err, sizeof(err)), 0);
	ck_assert_uint_eq(k, 0);
}
END_TEST

/* The decisions over sinfo_out's nodes, in order. */
START_TEST(acts)
{
	static const enum ig_slurm_act drain[] = {
		IG_SLURM_DRAIN, IG_SLURM_LEAVE,	 IG_SLURM_UPDATE,
		IG_SLURM_LEAVE, IG_SLURM_UPDATE, IG_SLURM_DRAIN,
	};
	static const enum ig_slurm_act resume[] = {
		IG_SLURM_NONE,	IG_SLURM_LEAVE,	 IG_SLURM_RESUME,
		IG_SLURM_LEAVE, IG_SLURM_RESUME, IG_SLURM_NONE,
	};
	struct ig_slurm_node n[8];
	char err[256];
	size_t k;

	ck_assert_int_eq(ig_slurm_parse(sinfo_out, n, 8, &k, err, sizeof(err)),
			 0);
	for (size_t i = 0; i < k; i++) {
		ck_assert_msg(ig_slurm_drain_act(&n[i]) == drain[i],
			      "drain of %s", n[i].name);
		ck_assert_msg(ig_slurm_resume_act(&n[i]) == resume[i],
			      "resume of %s", n[i].name);
	}
	ck_assert(ig_slurm_ours("ibgap: x"));
	ck_assert(!ig_slurm_ours("ibgap x"));
	ck_assert(!ig_slurm_ours("admin: ibgap: x"));
	ck_assert(!ig_slurm_ours(""));
}
END_TEST

START_TEST(reason)
{
	char r[IG_SLURM_REASON], small[12];

	ig_slurm_reason(r, sizeof(r), "tcp_bw low\nsecond\tline");
	ck_assert_str_eq(r, "ibgap: tcp_bw low second line");
	/* "ibgap: ab" + a 2-byte character that does not fit whole */
	ig_slurm_reason(small, sizeof(small), "ab\xc3\xa9\xc3\xa9");
	ck_assert_str_eq(small, "ibgap: ab\xc3\xa9");
	ig_slurm_reason(small, 11, "ab\xc3\xa9\xc3\xa9");
	ck_assert_str_eq(small, "ibgap: ab");
	/* a 3-byte character whole, then 2 and 1 of its bytes in */
	ig_slurm_reason(small, 12, "a\xe2\x82\xac\xe2\x82\xac");
	ck_assert_str_eq(small, "ibgap: a\xe2\x82\xac");
	ig_slurm_reason(small, 11, "a\xe2\x82\xac\xe2\x82\xac");
	ck_assert_str_eq(small, "ibgap: a");
	ig_slurm_reason(small, 10, "a\xe2\x82\xac\xe2\x82\xac");
	ck_assert_str_eq(small, "ibgap: a");
}
END_TEST

static const struct ig_slurm_done done_init[] = {
	{ .node = "n03",
	  .act = IG_SLURM_DRAIN,
	  .ok = true,
	  .reason = "ibgap: x",
	  .state = "allocated" },
	{ .node = "n05",
	  .act = IG_SLURM_UPDATE,
	  .ok = true,
	  .reason = "ibgap: y",
	  .state = "draining" },
	{ .node = "n02",
	  .act = IG_SLURM_LEAVE,
	  .ok = true,
	  .reason = "admin: fan",
	  .state = "draining" },
	{ .node = "n07",
	  .act = IG_SLURM_DRAIN,
	  .ok = false,
	  .reason = "ibgap: z",
	  .why = "scontrol update NodeName=n07 State=DRAIN: exit 1: "
		 "slurm_update error: Invalid node name specified" },
};

START_TEST(drain_json)
{
	struct ig_slurm_done done[ARRAY_SIZE(done_init)];
	struct ig_slurm_out o = { .d = done,
				  .n = ARRAY_SIZE(done),
				  .failed = 1 };
	json_object *doc = json_object_new_object();
	const char *s;

	memcpy(done, done_init, sizeof(done));
	ig_slurm_drain_json(doc, &o);
	s = json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PLAIN);
	ck_assert_str_eq(
		s,
		"{\"drained\":[{\"node\":\"n03\",\"reason\":\"ibgap: x\","
		"\"state\":\"allocated\",\"updated\":false},{\"node\":\"n05\","
		"\"reason\":\"ibgap: y\",\"state\":\"draining\",\"updated\":"
		"true}],\"not_drained\":[{\"node\":\"n02\",\"reason\":"
		"\"admin: fan\",\"state\":\"draining\",\"why\":\"a reason not "
		"ibgap's: left as it is\"},{\"node\":\"n07\",\"reason\":"
		"\"ibgap: z\",\"why\":\"scontrol update NodeName=n07 "
		"State=DRAIN: exit 1: slurm_update error: Invalid node name "
		"specified\"}]}");
	json_object_put(doc);
}
END_TEST

/* f's text, NUL-terminated in buf. */
static void text_of(void (*fn)(FILE *, const struct ig_slurm_out *),
		    const struct ig_slurm_out *o, char *buf, size_t len)
{
	FILE *f = fmemopen(buf, len, "w");

	ck_assert_ptr_nonnull(f);
	fn(f, o);
	fclose(f);
}

START_TEST(texts)
{
	struct ig_slurm_done done[ARRAY_SIZE(done_init)];
	struct ig_slurm_out o = { .d = done,
				  .n = ARRAY_SIZE(done),
				  .failed = 1 };
	struct ig_slurm_done res[] = {
		{ .node = "n03",
		  .act = IG_SLURM_RESUME,
		  .ok = true,
		  .reason = "ibgap: x",
		  .state = "drained" },
		{ .node = "n02",
		  .act = IG_SLURM_LEAVE,
		  .ok = true,
		  .reason = "admin: fan",
		  .state = "drained" },
	};
	struct ig_slurm_out r = { .d = res, .n = 2 };
	char buf[2048];

	memcpy(done, done_init, sizeof(done));
	text_of(ig_slurm_drain_text, &o, buf, sizeof(buf));
	ck_assert_str_eq(
		buf,
		"\nslurm --drain: 4 flagged node(s), some scontrol calls "
		"FAILED\n"
		"  drained  n03                  'ibgap: x'\n"
		"  updated  n05                  'ibgap: y'\n"
		"  left     n02                  draining, a reason not "
		"ibgap's: 'admin: fan'\n"
		"  FAILED   n07                  scontrol update NodeName=n07 "
		"State=DRAIN: exit 1: slurm_update error: Invalid node name "
		"specified\n");
	text_of(ig_slurm_resume_text, &r, buf, sizeof(buf));
	ck_assert_str_eq(buf, "ibgap-fabric --resume: 1 node(s) resumed, 1 "
			      "drained or down with someone else's reason "
			      "left, 0 failed\n"
			      "  resumed  n03                  'ibgap: x'\n"
			      "  left     n02                  drained, a "
			      "reason not ibgap's: 'admin: fan'\n");
}
END_TEST

START_TEST(drain_why)
{
	struct ig_fab_node nodes[2] = {
		{ .rank = 0,
		  .npairs = 6,
		  .nflagged = 3,
		  .flagged = true,
		  .cause = IG_FAB_TCP_LOW,
		  .dir = IG_FAB_DIR_RECV,
		  .bw_ratio = 0.04 },
		{ .rank = 1,
		  .npairs = 4,
		  .nflagged = 4,
		  .flagged = true,
		  .cause = IG_FAB_FAILED,
		  .bw_ratio = -1,
		  /* tcp_lat alone, its pairs failed: no p50 */
		  .tests = 1u << IG_TEST_TCP_LAT,
		  .lat_ratio = 0 },
	};
	struct ig_fab_run r = { .n = 2, .nodes = nodes };
	char buf[160];

	ig_fab_drain_why(&r, 0, buf, sizeof(buf));
	ck_assert_str_eq(buf, "3 of 6 measurements low, receive side, "
			      "bandwidth 0.04 x the median: TCP low alone: "
			      "the IP stack (run ibgap doctor)");
	ig_fab_drain_why(&r, 1, buf, sizeof(buf));
	ck_assert_str_eq(buf, "4 of 4 measurements low: its pairs failed: a "
			      "dead or stalled node");
}
END_TEST

/*
 * t_slurm.sh's second --drain as the verdicts see it: four nodes,
 * every pair once (-t tcp_bw,tcp_lat --bw-tol 0.5 --lat-tol 4); node 2
 * (rank 1) shaped to 30 Mbit/s, the other three pairs at 1-2 Gb/s, so
 * the bandwidth median lies between them and a healthy node's median
 * reads ~2 x it; latency ~10 us.  Only rank 1 is low.  With two of rank
 * 2's latency pairs slow (the machine's load, as in a failed run of
 * scripts/test), rank 2 is flagged for latency alone, and its reason
 * says so, where it said "3 of 6 measurements low, bandwidth 1.98 x the
 * median".
 */
static const struct {
	double lat20, lat23; /* rank 2's latency pairs with 0 and 3 */
	unsigned int nflagged;
	const char *why[4];
} four_cases[] = {
	{ 10.1,
	  12.5,
	  1,
	  { NULL, "3 of 6 measurements low, receive side, bandwidth 0.05 x the "
		  "median: TCP low alone: the IP stack (run ibgap doctor)" } },
	{ 62,
	  71,
	  2,
	  { NULL,
	    "3 of 6 measurements low, receive side, bandwidth 0.05 x the "
	    "median: TCP low alone: the IP stack (run ibgap doctor)",
	    "3 of 6 measurements flagged, p50 latency 4.56 x the median: "
	    "TCP low alone: the IP stack (run ibgap doctor)" } },
};

START_TEST(drain_why_four)
{
	/* the pairs in their rounds; tcp_bw, then tcp_lat */
	static const unsigned int ab[6][2] = { { 0, 3 }, { 1, 2 }, { 2, 0 },
					       { 3, 1 }, { 0, 1 }, { 2, 3 } };
	const double bw[6] = { 1.9, 0.028, 1.1, 0.029, 0.028, 1.5 };
	const double lat[6] = { 9.6,  13.2, four_cases[_i].lat20,
				14.0, 9.9,  four_cases[_i].lat23 };
	const struct ig_fab_tol tol = { .bw = 0.5, .lat = 4 };
	struct ig_fab_meas m[12] = { 0 };
	struct ig_fab_node nodes[4];
	struct ig_fab_run r = { .n = 4, .nodes = nodes };
	char buf[160];

	for (unsigned int i = 0; i < 12; i++) {
		m[i].a = ab[i / 2][0];
		m[i].b = ab[i / 2][1];
		m[i].ok = true;
		m[i].test = i % 2 ? IG_TEST_TCP_LAT : IG_TEST_TCP_BW;
		m[i].bw_gbps = bw[i / 2];
		m[i].lat_p50_us = lat[i / 2];
	}
	ck_assert_int_ge(ig_fab_judge_pairs(m, 12, &tol, r.medians), 0);
	ck_assert_int_eq(ig_fab_judge_nodes(m, 12, r.medians, nodes, 4),
			 four_cases[_i].nflagged);
	for (unsigned int i = 0; i < 4; i++) {
		const char *want = four_cases[_i].why[i];

		ck_assert_msg(nodes[i].flagged == (want != NULL), "rank %u", i);
		if (!want)
			continue;
		ig_fab_drain_why(&r, i, buf, sizeof(buf));
		ck_assert_str_eq(buf, want);
	}
}
END_TEST

START_TEST(slurm_node)
{
	char out[64];

	unsetenv("SLURMD_NODENAME");
	ig_fab_slurm_node("n01.cluster.example", out, sizeof(out));
	ck_assert_str_eq(out, "n01");
	setenv("SLURMD_NODENAME", "gpu-17", 1);
	ig_fab_slurm_node("n01.cluster.example", out, sizeof(out));
	ck_assert_str_eq(out, "gpu-17");
	unsetenv("SLURMD_NODENAME");
}
END_TEST

START_TEST(exec_plain)
{
	char *const ok[] = { "sh", "-c", "echo out; echo err >&2; exit 3",
			     NULL };
	char *const none[] = { "ibgap-no-such-command", NULL };
	char *const slow[] = { "sleep", "5", NULL };
	char *const big[] = { "sh", "-c", "yes | head -c 100000", NULL };
	char out[64];

	ck_assert_int_eq(ig_slurm_exec(ok, out, sizeof(out), 5000), 3);
	ck_assert_str_eq(out, "out\nerr\n");
	ck_assert_int_eq(ig_slurm_exec(none, out, sizeof(out), 5000), -ENOENT);
	ck_assert_int_eq(ig_slurm_exec(slow, out, sizeof(out), 100),
			 -ETIMEDOUT);
	ck_assert_int_eq(ig_slurm_exec(big, out, sizeof(out), 5000), 0);
	ck_assert_uint_eq(strlen(out), sizeof(out) - 1);
}
END_TEST

/* Without Slurm's environment: --drain says so before anything runs. */
START_TEST(check_no_job)
{
	char err[512];

	unsetenv("SLURM_JOB_ID");
	ck_assert_int_eq(ig_slurm_check(true, err, sizeof(err)), -ENOTSUP);
	ck_assert_str_eq(err, "--drain needs Slurm: SLURM_JOB_ID is not set "
			      "(run ibgap-fabric under srun or in an sbatch "
			      "job)");
}
END_TEST

/* --resume alone; --drain with the rest. */
START_TEST(options)
{
	char *resume[] = { "ibgap-fabric", "--resume", NULL };
	char *resume_t[] = { "ibgap-fabric", "-t", "tcp_bw", "--resume", NULL };
	char *drain[] = { "ibgap-fabric", "-t", "tcp_bw", "--drain", NULL };
	struct ig_fab_opts o;
	char err[512] = "";

	ck_assert_int_eq(ig_fab_opts_parse(2, resume, &o, err, sizeof(err)), 0);
	ck_assert(o.resume && !o.drain);
	ck_assert_int_eq(ig_fab_opts_parse(4, resume_t, &o, err, sizeof(err)),
			 -EINVAL);
	ck_assert_str_eq(err, "--resume runs alone (ibgap-fabric --resume, "
			      "without mpirun or srun): -t is not for it");
	ck_assert_int_eq(ig_fab_opts_parse(4, drain, &o, err, sizeof(err)), 0);
	ck_assert(o.drain && !o.resume);
}
END_TEST

static Suite *slurm_suite(void)
{
	Suite *s = suite_create("fabric_slurm");
	TCase *tc = tcase_create("pure");

	tcase_add_test(tc, parse_sinfo);
	tcase_add_test(tc, parse_bad);
	tcase_add_test(tc, acts);
	tcase_add_test(tc, reason);
	tcase_add_test(tc, drain_json);
	tcase_add_test(tc, texts);
	tcase_add_test(tc, drain_why);
	tcase_add_loop_test(tc, drain_why_four, 0, ARRAY_SIZE(four_cases));
	tcase_add_test(tc, slurm_node);
	tcase_add_test(tc, options);
	suite_add_tcase(s, tc);
	tc = tcase_create("exec");
	tcase_add_test(tc, exec_plain);
	tcase_add_test(tc, check_no_job);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(slurm_suite());
}
