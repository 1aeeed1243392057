// SPDX-License-Identifier: MIT
/* ibgap-fabric's report: the "ibgap-fabric/1" document, its text, the
 * file written after every round, and the comparison with a baseline. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/fail.h"
#include "common/file.h"
#include "common/json.h"
#include "fab.h"
#include "report/report.h"
#include "transports/transports.h"

const char *const ig_fab_fpkeys[IG_FAB_NFPKEYS] = {
	"kernel",    "rdma_core", "fw_ver",	"driver",
	"link_rate", "mtu",	  "ipoib_mode",
};

static json_object *figures(double bw, double p50, double p99, enum ig_test t)
{
	json_object *o = json_object_new_object();

	if (!ig_test_is_lat(t)) {
		ig_json_add_double(o, "bw_gbps", bw);
		return o;
	}
	json_object *l = json_object_new_object();

	ig_json_add_double(l, "p50", p50);
	ig_json_add_double(l, "p99", p99);
	ig_json_add(o, "lat_us", l);
	return o;
}

/* The metric a repeated measurement's spread is of, as the client's. */
static const char *rep_metric(enum ig_test t)
{
	return ig_test_is_lat(t) ? "lat_us.p50" : "bw_gbps";
}

/* --repeat, --confidence: the client's "repeat" object */
static json_object *repeat_json(const struct ig_fab_meas *m)
{
	struct ig_repeat rep = m->rep;

	rep.metric = rep_metric(m->test);
	return ig_report_repeat_json(&rep);
}

static json_object *pair_json(const struct ig_fab_run *r,
			      const struct ig_fab_meas *m)
{
	json_object *o = json_object_new_object(), *fig;

	ig_json_add_int(o, "round", (int)m->round);
	ig_json_add_int(o, "a", (int)m->a);
	ig_json_add_int(o, "b", (int)m->b);
	if (ig_fab_phase(r, m))
		ig_json_add_str(o, "phase", ig_fab_phase(r, m));
	if (ig_fab_sender(m) >= 0)
		ig_json_add_int(o, "sender", ig_fab_sender(m));
	ig_json_add_str(o, "test", ig_test_name(IG_TESTS, m->test));
	if (m->hops_known)
		ig_json_add_int(o, "hops", (int)m->hops);
	if (m->railed)
		ig_json_add(o, "rails", ig_fab_meas_rails_json(r, m));
	json_object_object_add(o, "ok", json_object_new_boolean(m->ok));
	if (!m->ok)
		ig_json_add_str(o, "error", m->why);
	fig = figures(m->bw_gbps, m->lat_p50_us, m->lat_p99_us, m->test);
	json_object_object_foreach (fig, key, val)
		json_object_object_add(o, key, json_object_get(val));
	json_object_put(fig);
	json_object_object_add(o, "flagged",
			       json_object_new_boolean(m->flagged));
	if (m->ok && m->rep.n > 1)
		ig_json_add(o, "repeat", repeat_json(m));
	if (m->retested) {
		fig = figures(m->retest_bw_gbps, m->retest_p50_us,
			      m->retest_p99_us, m->test);
		json_object_object_add(fig, "ok",
				       json_object_new_boolean(m->retest_ok));
		json_object_object_add(fig, "transient",
				       json_object_new_boolean(m->transient));
		ig_json_add(o, "retest", fig);
	}
	return o;
}

/* Whether fd has a finding of that id. */
static bool has_finding(const struct ig_fab_find *fd, const char *id)
{
	for (unsigned int j = 0; j < fd->n && j < IG_FAB_NDR; j++)
		if (!strcmp(fd->id[j], id))
			return true;
	return false;
}

/* A node in no measurement: e.g. the last of an odd number of ranks
 * under --pattern bisection, or a node whose pairs were all verbs tests
 * without RDMA at both ends. */
#define NOT_MEASURED                                                     \
	"not measured: in no measurement (the pattern or --rounds gave " \
	"it no pair, or its pairs' tests need RDMA at both ends)"

void ig_fab_shared(struct ig_fab_run *r)
{
	const struct ig_fab_find *first = NULL;
	unsigned int nran = 0;

	r->nshared = 0;
	for (unsigned int i = 0; r->find && i < r->nfind; i++)
		if (r->find[i].ran && !nran++)
			first = &r->find[i];
	if (nran < 2)
		return;
	for (unsigned int j = 0; j < first->n && j < IG_FAB_NDR; j++) {
		bool all = true;

		for (unsigned int i = 0; all && i < r->nfind; i++)
			all = !r->find[i].ran ||
			      has_finding(&r->find[i], first->id[j]);
		if (all && !ig_fab_is_shared(r, first->id[j]))
			snprintf(r->shared[r->nshared++], sizeof(r->shared[0]),
				 "%s", first->id[j]);
	}
}

bool ig_fab_is_shared(const struct ig_fab_run *r, const char *id)
{
	for (unsigned int i = 0; i < r->nshared && i < IG_FAB_NDR; i++)
		if (!strcmp(r->shared[i], id))
			return true;
	return false;
}

/* A flagged node's own findings, up to IG_FAB_NFIND of those not every
 * node has; a line saying so when the doctor found only shared ones. */
static void own_findings(json_object *a, const struct ig_fab_run *r,
			 const struct ig_fab_find *fd)
{
	unsigned int shown = 0;

	for (unsigned int j = 0; j < fd->n && j < IG_FAB_NDR; j++) {
		if (ig_fab_is_shared(r, fd->id[j]) || shown >= IG_FAB_NFIND)
			continue;
		json_object_array_add(a, json_object_new_string(fd->line[j]));
		shown++;
	}
	if (!shown && fd->n)
		json_object_array_add(
			a, json_object_new_string(
				   "the doctor's findings on it are all "
				   "ones every node has"));
}

/* "send", "receive", "both": the side(s) that flag a node; NULL none. */
static const char *dir_name(unsigned int dir)
{
	static const char *const name[] = { NULL, "send", "receive", "both" };

	return name[dir & (IG_FAB_DIR_SEND | IG_FAB_DIR_RECV)];
}

/* One side's count: "tcp_bw 5 of 5", or "none". */
static void dirc_text(char *buf, size_t len, const struct ig_fab_dirc *d)
{
	if (d->test < 0)
		snprintf(buf, len, "none");
	else
		snprintf(buf, len, "%s %u of %u",
			 ig_test_name(IG_TESTS, (enum ig_test)d->test),
			 d->nflagged, d->n);
}

/* "; receive side (flagged as sender: tcp_bw 1 of 6; as receiver:
 * tcp_bw 5 of 5)", or "" when no side flags the node. */
static void side_text(char *buf, size_t len, const struct ig_fab_node *nd)
{
	char snd[64], rcv[64];

	buf[0] = '\0';
	if (!dir_name(nd->dir))
		return;
	dirc_text(snd, sizeof(snd), &nd->send);
	dirc_text(rcv, sizeof(rcv), &nd->recv);
	snprintf(buf, len,
		 "; %s side%s (flagged as sender: %s; as receiver: %s)",
		 dir_name(nd->dir),
		 nd->dir == (IG_FAB_DIR_SEND | IG_FAB_DIR_RECV) ? "s" : "", snd,
		 rcv);
}

/* Node i's reasons, one string each. */
static json_object *reasons(const struct ig_fab_run *r, unsigned int i)
{
	json_object *a = json_object_new_array();
	const struct ig_fab_node *nd = &r->nodes[i];
	char buf[448], sides[200];

	if (!nd->npairs)
		json_object_array_add(a, json_object_new_string(NOT_MEASURED));
	if (nd->flagged) {
		side_text(sides, sizeof(sides), nd);
		snprintf(buf, sizeof(buf),
			 "%u of its %u measurements flagged%s: %s",
			 nd->nflagged, nd->npairs, sides,
			 ig_fab_cause_text(nd->cause));
		json_object_array_add(a, json_object_new_string(buf));
	}
	for (unsigned int j = 0; j < IG_FAB_NFPKEYS; j++) {
		if (!(r->outlier[i] & (1u << j)))
			continue;
		snprintf(buf, sizeof(buf),
			 "fingerprint: its %s differs from "
			 "most nodes'",
			 ig_fab_fpkeys[j]);
		json_object_array_add(a, json_object_new_string(buf));
	}
	if (nd->flagged && r->find)
		own_findings(a, r, &r->find[i]);
	return a;
}

static json_object *node_json(const struct ig_fab_run *r, unsigned int i)
{
	const struct ig_fab_info *in = &r->info[i];
	json_object *o = json_object_new_object();

	ig_json_add_int(o, "rank", (int)i);
	ig_json_add_str(o, "host", in->host);
	ig_json_add_str(o, "addr", in->addr);
	ig_json_add_str(o, "addr_from", in->addr_why);
	json_object_object_add(o, "rdma", json_object_new_boolean(in->rdma));
	json_object_object_add(o, "flagged",
			       json_object_new_boolean(r->judged &&
						       r->nodes[i].flagged));
	if (r->judged)
		json_object_object_add(
			o, "measured",
			json_object_new_boolean(r->nodes[i].npairs > 0));
	if (r->judged && dir_name(r->nodes[i].dir))
		ig_json_add_str(o, "direction", dir_name(r->nodes[i].dir));
	ig_json_add(o, "reasons",
		    r->judged ? reasons(r, i) : json_object_new_array());
	ig_fab_node_figs_json(o, r->judged ? &r->nodes[i] : NULL);
	ig_json_add(o, "fingerprint", ig_fingerprint_to_json(&in->fp));
	if (r->o->rails)
		ig_json_add(o, "rails", ig_fab_node_rails_json(r, i));
	return o;
}

/* The doctor's finding ids every node whose doctor ran has. */
static json_object *shared_json(const struct ig_fab_run *r)
{
	json_object *a = json_object_new_array();

	for (unsigned int i = 0; i < r->nshared && i < IG_FAB_NDR; i++)
		json_object_array_add(a, json_object_new_string(r->shared[i]));
	return a;
}

/* --pattern leaves: each test's medians by hop distance, and the
 * reference a distance's pairs were held against (verdict.h). */
static json_object *hops_json(const struct ig_fab_run *r)
{
	const struct ig_fab_hopref *h = &r->hopref;
	json_object *a = json_object_new_array();

	for (int t = 0; t < IG_TEST_COUNT; t++)
		for (unsigned int d = 0; d < IG_FAB_HOPS_MAX; d++) {
			json_object *o;

			if (!h->n[t][d])
				continue;
			o = json_object_new_object();
			ig_json_add_str(o, "test", ig_test_name(IG_TESTS, t));
			ig_json_add_int(o, "hops", (int)d);
			ig_json_add_int(o, "n", (int)h->n[t][d]);
			ig_json_add_double(o, "median", h->median[t][d]);
			ig_json_add_double(o, "reference",
					   h->ref[t][d] > 0 ? h->ref[t][d]
							    : r->medians[t]);
			json_object_array_add(a, o);
		}
	return a;
}

/* The same in the text, a line per test. */
static void text_hops(FILE *f, const struct ig_fab_run *r)
{
	const struct ig_fab_hopref *h = &r->hopref;

	for (int t = 0; r->per_hop && t < IG_TEST_COUNT; t++) {
		const char *unit = ig_test_is_lat(t) ? "us" : "Gb/s";
		bool any = false;

		for (unsigned int d = 0; d < IG_FAB_HOPS_MAX; d++) {
			if (!h->n[t][d])
				continue;
			fprintf(f, "%s%u hops %.2f %s (%u)",
				any ? ", " : "  by hop distance: ", d,
				h->median[t][d], unit, h->n[t][d]);
			if (h->ref[t][d] > 0)
				fprintf(f, " held against %.2f", h->ref[t][d]);
			any = true;
		}
		if (any)
			fprintf(f, " [%s]\n", ig_test_name(IG_TESTS, t));
	}
}

json_object *ig_fab_doc(const struct ig_fab_run *r)
{
	json_object *d = json_object_new_object();
	json_object *nodes = json_object_new_array();
	json_object *pairs = json_object_new_array();

	if (!d || !nodes || !pairs) {
		json_object_put(d);
		json_object_put(nodes);
		json_object_put(pairs);
		return NULL;
	}
	ig_json_add_str(d, "schema", "ibgap-fabric/1");
	ig_json_add_str(d, "pattern", ig_fab_pattern_name(r->o->pattern));
	ig_json_add_int(d, "ranks", (int)r->n);
	ig_json_add_int(d, "rounds_done", (int)r->rounds_done);
	ig_json_add_int(d, "rounds", (int)r->rounds_total);
	json_object_object_add(d, "complete",
			       json_object_new_boolean(r->judged));
	ig_json_add_double(d, "round_overhead_ms", r->round_overhead_ms);
	ig_json_add(d, "plan", ig_fab_plan_json(r));
	if (r->judged)
		ig_json_add(d, "shared_findings", shared_json(r));
	if (r->judged && r->per_hop)
		ig_json_add(d, "medians_by_hops", hops_json(r));
	for (unsigned int i = 0; i < r->n; i++)
		json_object_array_add(nodes, node_json(r, i));
	for (size_t i = 0; i < r->k; i++)
		json_object_array_add(pairs, pair_json(r, &r->m[i]));
	if (r->judged)
		ig_json_add(d, "blamed", ig_fab_blame_json(r));
	if (r->drain)
		ig_slurm_drain_json(d, r->drain);
	ig_json_add(d, "nodes", nodes);
	ig_json_add(d, "pairs", pairs);
	return d;
}

/* One measurement's figure, with its test's median. */
static void text_figure(FILE *f, const struct ig_fab_run *r,
			const struct ig_fab_meas *m)
{
	if (!m->ok)
		fprintf(f, "%s FAILED: %s", ig_test_name(IG_TESTS, m->test),
			m->why);
	else if (ig_test_is_lat(m->test))
		fprintf(f, "%s p50 %.2f us (median %.2f), p99 %.2f us",
			ig_test_name(IG_TESTS, m->test), m->lat_p50_us,
			r->medians[m->test], m->lat_p99_us);
	else
		fprintf(f, "%s %.2f Gb/s (median %.2f)",
			ig_test_name(IG_TESTS, m->test), m->bw_gbps,
			r->medians[m->test]);
	if (m->ok && m->rep.n > 1)
		fprintf(f, " [%u runs, %u%% interval %.4g to %.4g]", m->rep.n,
			m->rep.level, m->rep.ci_lo, m->rep.ci_hi);
}

/* --repeat, --confidence: the measurements repeated, and how often the
 * interval was narrow enough. */
static void text_repeats(FILE *f, const struct ig_fab_run *r)
{
	const struct ig_repeat_opts *o = &r->o->rep;
	size_t n = 0, met = 0, runs = 0;

	if (!o->runs && !o->level)
		return;
	for (size_t i = 0; i < r->k; i++) {
		if (!r->m[i].ok || r->m[i].rep.n < 2)
			continue;
		n++;
		runs += r->m[i].rep.n;
		met += r->m[i].rep.met;
	}
	fprintf(f, "  repeats: %zu measurements repeated, %.1f runs each", n,
		n ? (double)runs / (double)n : 0.0);
	if (o->level)
		fprintf(f,
			"; the %u%% interval within +/-%.3g%% in %zu of them",
			o->level, o->width / 2, met);
	fputc('\n', f);
}

/* The same pair's measurement of the same kind on the other transport
 * (write_bw for tcp_bw...), or NULL. */
static const struct ig_fab_meas *other(const struct ig_fab_run *r,
				       const struct ig_fab_meas *m)
{
	for (size_t i = 0; i < r->k; i++) {
		const struct ig_fab_meas *o = &r->m[i];

		if (o->round == m->round && o->a == m->a && o->b == m->b &&
		    o->rail_a == m->rail_a &&
		    ig_test_is_lat(o->test) == ig_test_is_lat(m->test) &&
		    ig_test_xport(IG_TESTS, o->test) !=
			    ig_test_xport(IG_TESTS, m->test))
			return o;
	}
	return NULL;
}

/* A flagged measurement, and the other transport's figure of the pair. */
static void text_pair(FILE *f, const struct ig_fab_run *r,
		      const struct ig_fab_meas *m)
{
	const struct ig_fab_meas *o = other(r, m);
	bool back = ig_fab_sender(m) == (int)m->b; /* -R: b sent */
	char rails[160] = "";

	if (m->railed)
		ig_fab_meas_rails_text(r, m, back, rails, sizeof(rails));
	fprintf(f, "  round %u%s  %s -> %s%s  ", m->round,
		ig_fab_phase(r, m) && !strcmp(ig_fab_phase(r, m), "suspects")
			? " (suspects)"
			: "",
		r->info[back ? m->b : m->a].host,
		r->info[back ? m->a : m->b].host, rails);
	text_figure(f, r, m);
	if (m->retested && m->retest_ok)
		fprintf(f,
			ig_test_is_lat(m->test) ? "; again: p50 %.2f us"
						: "; again: %.2f Gb/s",
			ig_test_is_lat(m->test) ? m->retest_p50_us
						: m->retest_bw_gbps);
	if (o) {
		fputs("; ", f);
		text_figure(f, r, o);
	}
	fputc('\n', f);
}

/* The measurements flagged at first and fine when measured again, with
 * both figures; returns how many. */
static size_t text_transients(FILE *f, const struct ig_fab_run *r)
{
	size_t n = 0;

	for (size_t i = 0; i < r->k; i++) {
		if (!r->m[i].transient)
			continue;
		if (!n++)
			fprintf(f, "\ntransient measurements (flagged, then "
				   "within the tolerance when measured "
				   "again):\n");
		text_pair(f, r, &r->m[i]);
	}
	return n;
}

/* The nodes whose fingerprint differs from the majority, key by key. */
static void text_outliers(FILE *f, const struct ig_fab_run *r)
{
	unsigned int n = 0;

	fprintf(f, "\nfingerprint outliers:\n");
	for (unsigned int i = 0; i < r->n; i++) {
		if (!r->outlier[i])
			continue;
		fprintf(f, "  %-3u %-20s differs in:", i, r->info[i].host);
		for (unsigned int j = 0; j < IG_FAB_NFPKEYS; j++)
			if (r->outlier[i] & (1u << j))
				fprintf(f, " %s", ig_fab_fpkeys[j]);
		fputc('\n', f);
		n++;
	}
	if (!n)
		fprintf(f, "  none\n");
}

/* The doctor's findings every node has, once (not in a node's own). */
static void text_shared(FILE *f, const struct ig_fab_run *r)
{
	unsigned int nran = 0;

	if (!r->nshared)
		return;
	for (unsigned int i = 0; r->find && i < r->nfind; i++)
		nran += r->find[i].ran;
	fprintf(f, "  every node:");
	for (unsigned int i = 0; i < r->nshared && i < IG_FAB_NDR; i++)
		fprintf(f, "%s %s", i ? "," : "", r->shared[i]);
	fprintf(f, " (the doctor's findings on all %u nodes it ran on)\n",
		nran);
}

static unsigned int rdma_nodes(const struct ig_fab_run *r)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < r->n; i++)
		n += r->info[i].rdma;
	return n;
}

static void text_node(FILE *f, const struct ig_fab_run *r, unsigned int i)
{
	const struct ig_fab_node *nd = &r->nodes[i];
	json_object *why = reasons(r, i);
	size_t nw = json_object_array_length(why);

	fprintf(f, "  %-3u %-20s %-15s ", i, r->info[i].host, r->info[i].addr);
	if (!nd->npairs)
		fputs("not measured", f);
	else
		fprintf(f, "%-7s  %u/%u flagged",
			nd->flagged ? "FLAGGED" : "ok", nd->nflagged,
			nd->npairs);
	if (nd->bw_ratio >= 0)
		fprintf(f, "  bw %.2f x median", nd->bw_ratio);
	ig_fab_node_figs_text(f, nd);
	fputc('\n', f);
	if (!r->info[i].rdma && rdma_nodes(r))
		fprintf(f, "      TCP only: %s\n", r->info[i].addr_why);
	for (size_t j = 0; j < nw; j++)
		fprintf(f, "      %s\n",
			json_object_get_string(
				json_object_array_get_idx(why, j)));
	json_object_put(why);
}

void ig_fab_text(FILE *f, const struct ig_fab_run *r)
{
	size_t nflag = 0, ntrans;
	unsigned int nodes = 0, idle = 0;

	fprintf(f,
		"ibgap-fabric: %u ranks, pattern %s, %u of %u rounds, %zu "
		"measurements\n",
		r->n, ig_fab_pattern_name(r->o->pattern), r->rounds_done,
		r->rounds_total, r->k);
	if (!rdma_nodes(r))
		fprintf(f, "  no node has an active RDMA port: TCP only\n");
	ig_fab_plan_text(f, r);
	if (!r->judged) {
		fprintf(f, "(incomplete: no verdicts yet)\n");
		return;
	}
	for (int t = 0; t < IG_TEST_COUNT; t++)
		if (r->medians[t] > 0)
			fprintf(f, "  median %-9s %.2f %s\n",
				ig_test_name(IG_TESTS, t), r->medians[t],
				ig_test_is_lat(t) ? "us (p50)" : "Gb/s");
	text_hops(f, r);
	text_repeats(f, r);
	text_shared(f, r);
	ig_fab_blame_text(f, r);
	fprintf(f,
		"\nnodes, worst first (flagged, then flagged share, then lowest "
		"bandwidth x median):\n");
	for (unsigned int i = 0; i < r->n; i++) {
		text_node(f, r, r->order[i]);
		nodes += r->nodes[r->order[i]].flagged;
		idle += !r->nodes[r->order[i]].npairs;
	}
	fprintf(f, "\nflagged measurements:\n");
	for (size_t i = 0; i < r->k; i++)
		if (r->m[i].flagged) {
			text_pair(f, r, &r->m[i]);
			nflag++;
		}
	if (!nflag)
		fprintf(f, "  none\n");
	ntrans = text_transients(f, r);
	ig_fab_rails_text(f, r);
	text_outliers(f, r);
	fprintf(f, "\nverdict: %u of %u nodes flagged", nodes, r->n);
	if (idle)
		fprintf(f, " (%u not measured)", idle);
	if (r->o->rails) {
		unsigned int total, fl = ig_fab_rails_flagged(r, &total);

		fprintf(f, ", %u of %u rails", fl, total);
	}
	fprintf(f, ", %zu of %zu measurements flagged", nflag, r->k);
	if (ntrans)
		fprintf(f, " (%zu more transient)", ntrans);
	fprintf(f, "; overhead %.2f ms a round\n", r->round_overhead_ms);
	if (r->drain)
		ig_slurm_drain_text(f, r->drain);
}

/* "write_bw,send_lat": the tests of -t, into buf. */
static void test_list(const struct ig_fab_opts *o, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	for (unsigned int i = 0; i < o->ntests && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s", i ? "," : "",
				       ig_test_name(IG_TESTS, o->tests[i]));
}

static bool verbs_only(const struct ig_fab_opts *o)
{
	for (unsigned int i = 0; i < o->ntests; i++)
		if (ig_test_xport(IG_TESTS, o->tests[i]) != IG_XPORT_VERBS)
			return false;
	return true;
}

int ig_fab_nothing(const struct ig_fab_run *r, char *err, size_t errlen)
{
	char tests[256];

	if (r->k)
		return 0;
	test_list(r->o, tests, sizeof(tests));
	if (verbs_only(r->o))
		return ig_fail(-ENODATA, err, errlen,
			       "nothing measured: -t %s has only verbs "
			       "tests, which need an active RDMA port at both "
			       "ends of a pair; %u of %u nodes have one",
			       tests, rdma_nodes(r), r->n);
	return ig_fail(-ENODATA, err, errlen,
		       "nothing measured: no pair of pattern %s in %u "
		       "round(s) ran a test of -t %s",
		       ig_fab_pattern_name(r->o->pattern), r->rounds_done,
		       tests);
}

static int emit(const struct ig_fab_run *r, FILE *f)
{
	if (!r->o->json) {
		ig_fab_text(f, r);
		return ferror(f) ? -EIO : 0;
	}
	json_object *d = ig_fab_doc(r);

	if (!d)
		return -ENOMEM;
	fprintf(f, "%s\n",
		json_object_to_json_string_ext(
			d, JSON_C_TO_STRING_PRETTY |
				   JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(d);
	return ferror(f) ? -EIO : 0;
}

/* path.tmp, then rename: a reader never sees half a file. */
static int write_file(const struct ig_fab_run *r, const char *path)
{
	char tmp[4096];
	FILE *f;
	int ret;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f)
		return -errno;
	ret = emit(r, f);
	if (fclose(f) && !ret)
		ret = -errno;
	if (!ret && rename(tmp, path))
		ret = -errno;
	if (ret)
		unlink(tmp);
	return ret;
}

int ig_fab_write(const struct ig_fab_run *r, FILE *f)
{
	const char *path = r->o->outfile;
	int ret = path ? write_file(r, path) : f ? emit(r, f) : 0;

	if (ret)
		fprintf(stderr,
			"ibgap-fabric: writing the report to %s "
			"failed: %s\n",
			path ? path : "stdout", strerror(-ret));
	return ret;
}
