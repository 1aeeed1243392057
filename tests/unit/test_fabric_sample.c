// SPDX-License-Identifier: MIT
/*
 * Unit tests for fabric/sample.c, suspects.c and fab_est.c: --pattern
 * sample's rounds (K partners a node, none twice, across leaves), the
 * estimate and --budget's K; then fabrics of 10,000 nodes (100 leaves of
 * 100 under one spine) with planted bad nodes and a bad uplink, measured
 * round by round as mpi_run.c does (a pair's figure from the plants),
 * judged by the real verdicts (verdict.h) and blamed (blame.h): the
 * planted nodes flagged, no healthy node, the link blamed (its leaf's
 * group without the topology), in K + at most 9 (13) rounds.
 */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/blame.h"
#include "fabric/sample.h"
#include "fabric/verdict.h"
#include "testmain.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ---- the sample's rounds ---- */

/* Checks the rounds of a sample of n ranks, K each: K rounds, each of
 * disjoint pairs, n / 2 of them; no pair twice; every rank in K pairs (n
 * odd: K or K - 1, resting once at most).  Returns the pairs on one
 * group (grp NULL: 0). */
static unsigned int check_sample(const struct ig_fab_rounds *r, unsigned int n,
				 unsigned int k, const unsigned int *grp)
{
	unsigned int *deg = calloc(n, sizeof(*deg)), *seen = calloc(n, 4);
	unsigned char *met = calloc((size_t)n * n, 1);
	unsigned int same = 0;

	ck_assert_ptr_nonnull(deg);
	ck_assert_ptr_nonnull(seen);
	ck_assert_ptr_nonnull(met);
	ck_assert_uint_eq(r->nrounds, k);
	for (unsigned int i = 0; i < r->nrounds; i++) {
		ck_assert_uint_eq(r->off[i + 1] - r->off[i], n / 2);
		for (unsigned int j = r->off[i]; j < r->off[i + 1]; j++) {
			unsigned int a = r->p[j].a, b = r->p[j].b;

			if (a == b || a >= n || b >= n || seen[a] == i + 1 ||
			    seen[b] == i + 1 || met[(size_t)a * n + b])
				ck_abort_msg("n %u round %u: pair %u %u", n, i,
					     a, b);
			seen[a] = seen[b] = i + 1;
			met[(size_t)a * n + b] = met[(size_t)b * n + a] = 1;
			deg[a]++;
			deg[b]++;
			same += grp && grp[a] == grp[b];
		}
	}
	for (unsigned int v = 0; v < n; v++)
		if (deg[v] != k && !(n % 2 && deg[v] + 1 == k))
			ck_abort_msg("n %u K %u: rank %u in %u pairs", n, k, v,
				     deg[v]);
	free(deg);
	free(seen);
	free(met);
	return same;
}

/* Samples of n ranks, K each, from seeds seeds. */
static void one_sample(unsigned int n, unsigned int k, unsigned int seeds)
{
	for (unsigned int sd = 0; sd < seeds; sd++) {
		struct ig_fab_sample s = { .n = n,
					   .per_node = k,
					   .rng = { n * 31 + k + 1000 * sd } };
		struct ig_fab_rounds r;

		ck_assert_int_eq(ig_fab_sample_plan(&s, &r), 0);
		check_sample(&r, n, k, NULL);
		ck_assert_uint_eq(s.repeats, 0);
		ig_fab_rounds_free(&r);
	}
}

START_TEST(sample_rounds)
{
	static const unsigned int ns[] = { 2, 3, 4, 5, 6, 7, 8, 12, 33, 100 };

	/* K near n / 2 is where a round's swaps may run out: many seeds
	 * on the small ones */
	for (size_t i = 0; i < ARRAY_SIZE(ns); i++)
		for (unsigned int k = 1; k <= ig_fab_per_node_max(ns[i]); k++)
			one_sample(ns[i], k, ns[i] <= 12 ? 50 : 1);
}
END_TEST

START_TEST(sample_bad_k)
{
	struct ig_fab_sample s = { .n = 6, .per_node = 4 };
	struct ig_fab_rounds r;

	ck_assert_int_eq(ig_fab_sample_plan(&s, &r), -EINVAL);
	s.per_node = 0;
	ck_assert_int_eq(ig_fab_sample_plan(&s, &r), -EINVAL);
	ck_assert_uint_eq(ig_fab_per_node_max(7), 3);
	ck_assert_uint_eq(ig_fab_per_node_max(1), 0);
}
END_TEST

/* The same seed, the same rounds; another seed, others. */
START_TEST(sample_seeded)
{
	struct ig_fab_sample s1 = { .n = 40, .per_node = 3, .rng = { 7 } };
	struct ig_fab_sample s2 = s1, s3 = s1;
	struct ig_fab_rounds r1, r2, r3;

	s3.rng.s = 8;
	ck_assert_int_eq(ig_fab_sample_plan(&s1, &r1), 0);
	ck_assert_int_eq(ig_fab_sample_plan(&s2, &r2), 0);
	ck_assert_int_eq(ig_fab_sample_plan(&s3, &r3), 0);
	ck_assert_uint_eq(r1.np, r2.np);
	ck_assert_mem_eq(r1.p, r2.p, r1.np * sizeof(*r1.p));
	ck_assert_int_ne(memcmp(r1.p, r3.p, r1.np * sizeof(*r1.p)), 0);
	ig_fab_rounds_free(&r1);
	ig_fab_rounds_free(&r2);
	ig_fab_rounds_free(&r3);
}
END_TEST

/* Leaves: with none holding more than half, every pair across two;
 * the unplaced (-1) a group of their own. */
START_TEST(sample_leaves)
{
	enum { N = 60 };
	int leaf[N];
	unsigned int grp[N];
	struct ig_fab_sample s = {
		.n = N, .per_node = 5, .leaf = leaf, .rng = { 3 }
	};
	struct ig_fab_rounds r;

	for (unsigned int i = 0; i < N; i++)
		leaf[i] = i < 6 ? -1 : 100 + (int)(i / 6); /* 10 groups */
	ck_assert_uint_eq(ig_fab_leaf_groups(leaf, N, grp), 10);
	ck_assert_uint_eq(grp[0], 0);
	ck_assert_uint_eq(grp[6], 1);
	ck_assert_uint_eq(grp[59], 9);
	ck_assert_int_eq(ig_fab_sample_plan(&s, &r), 0);
	ck_assert_uint_eq(check_sample(&r, N, 5, grp), 0);
	ck_assert_uint_eq(s.same_leaf, 0);
	ig_fab_rounds_free(&r);
	/* one leaf of 40 of the 60: 10 of its nodes at least meet one
	 * another in every round */
	for (unsigned int i = 0; i < N; i++)
		leaf[i] = i < 40 ? 1 : 2;
	ck_assert_int_eq(ig_fab_sample_plan(&s, &r), 0);
	ck_assert_uint_ge(s.same_leaf, 5 * 10);
	ck_assert_uint_eq(ig_fab_leaf_groups(NULL, 3, grp), 1);
	ck_assert_uint_eq(grp[2], 0);
	ig_fab_rounds_free(&r);
}
END_TEST

/* ---- the estimate ---- */

START_TEST(estimate)
{
	struct ig_fab_opts o;
	struct ig_fab_est e;
	char *argv[] = { "ibgap-fabric", NULL }, err[256], buf[64];
	bool fits;

	ck_assert_int_eq(ig_fab_opts_parse(1, argv, &o, err, sizeof(err)), 0);
	/* 4 tests of 1 s + 0.25 s warm-up; without RDMA the 2 TCP ones */
	ig_fab_est_round(&o, true, &e);
	ck_assert_uint_eq(e.tests, 4);
	ck_assert_double_eq_tol(e.round_s, 4 * 1.25 + IG_FAB_ROUND_OVERHEAD_S,
				1e-9);
	ig_fab_est_round(&o, false, &e);
	ck_assert_uint_eq(e.tests, 2);
	ck_assert_double_eq_tol(e.round_s, 2 * 1.25 + IG_FAB_ROUND_OVERHEAD_S,
				1e-9);
	/* --both-directions: tcp_bw back, a second overhead; --repeat 3 */
	o.both = true;
	o.rep.runs = 3;
	ig_fab_est_round(&o, false, &e);
	ck_assert_uint_eq(e.back, 1);
	ck_assert_double_eq_tol(
		e.round_s, 3 * 3 * 1.25 + 2 * IG_FAB_ROUND_OVERHEAD_S, 1e-9);
	/* --budget: (K + 9) x 2.6 s within 60 s: K = 23 - 9 = 14 */
	ck_assert_uint_eq(ig_fab_budget_k(60, 2.6, 9, 100, &fits), 14);
	ck_assert(fits);
	ck_assert_uint_eq(ig_fab_budget_k(60, 2.6, 9, 5, &fits), 5);
	ck_assert_uint_eq(ig_fab_budget_k(20, 2.6, 9, 100, &fits), 1);
	ck_assert(!fits);
	ig_fab_dur_text(4.04, buf, sizeof(buf));
	ck_assert_str_eq(buf, "4.0 s");
	ig_fab_dur_text(70.2, buf, sizeof(buf));
	ck_assert_str_eq(buf, "1 min 10 s");
	ig_fab_dur_text(2 * 3600 + 5 * 60 + 10, buf, sizeof(buf));
	ck_assert_str_eq(buf, "2 h 5 min");
	ck_assert_uint_eq(ig_fab_suspect_rounds_max(10000, true), 9);
	ck_assert_uint_eq(ig_fab_suspect_rounds_max(10000, false), 13);
	ck_assert_uint_eq(ig_fab_suspect_rounds_max(4, true), 5);
}
END_TEST

/* ---- 10,000 nodes, planted faults ---- */

#define LEAVES 100
#define PER_LEAF 100
#define NODES (LEAVES * PER_LEAF)
#define GOOD_BW 10.0
#define LOW_BW 2.0

struct plant {
	const char *name;
	unsigned int per_node;
	unsigned int bad[4], nbad;
	int bad_leaf; /* its uplink bad; -1 none */
	bool topo;
	uint64_t seed;
};

static const struct plant plants[] = {
	{ "3 bad nodes, leaf 57's uplink, topology",
	  3,
	  { 17, 4242, 9001 },
	  3,
	  57,
	  true,
	  1 },
	{ "the same without the topology",
	  3,
	  { 17, 4242, 9001 },
	  3,
	  57,
	  false,
	  1 },
	{ "K = 1, 4 bad nodes, leaf 3's uplink",
	  1,
	  { 5, 999, 5001, 9999 },
	  4,
	  3,
	  true,
	  2 },
	{ "K = 5, 2 bad nodes, no bad link, no topology",
	  5,
	  { 100, 7000 },
	  2,
	  -1,
	  false,
	  3 },
};

struct sim {
	const struct plant *pl;
	bool *bad;
	struct ig_fab_meas *m;
	size_t k, cap;
};

/* The figure of a -> b from the plants: low when either end is a bad
 * node, or the pair crosses the bad uplink (one end on its leaf, the
 * other not); a small spread otherwise. */
static double figure(const struct sim *sm, unsigned int a, unsigned int b)
{
	int la = (int)(a / PER_LEAF), lb = (int)(b / PER_LEAF);

	if (sm->bad[a] || sm->bad[b])
		return LOW_BW;
	if (la != lb && (la == sm->pl->bad_leaf || lb == sm->pl->bad_leaf))
		return LOW_BW;
	return GOOD_BW + (double)((a * 7 + b * 13) % 11) * 0.05;
}

/* The rounds of r measured, numbered from from on, as mpi_run.c's
 * rounds() gathers them. */
static void measure(struct sim *sm, const struct ig_fab_rounds *r,
		    unsigned int from)
{
	struct ig_fab_pair *pairs = malloc(NODES * sizeof(*pairs));

	ck_assert_ptr_nonnull(pairs);
	for (unsigned int i = 0; i < r->nrounds; i++) {
		unsigned int np = ig_fab_rounds_get(r, i, pairs);

		if (sm->k + np > sm->cap) {
			sm->cap = 2 * (sm->k + np);
			sm->m = realloc(sm->m, sm->cap * sizeof(*sm->m));
			ck_assert_ptr_nonnull(sm->m);
		}
		for (unsigned int j = 0; j < np; j++)
			sm->m[sm->k++] = (struct ig_fab_meas){
				.round = from + i,
				.a = pairs[j].a,
				.b = pairs[j].b,
				.test = IG_TEST_TCP_BW,
				.ok = true,
				.bw_gbps = figure(sm, pairs[j].a, pairs[j].b),
			};
	}
	free(pairs);
}

static void judge(struct sim *sm, double *med, struct ig_fab_node *nodes)
{
	ck_assert_int_ge(ig_fab_judge_pairs(sm->m, sm->k, NULL, med), 0);
	ck_assert_int_ge(ig_fab_judge_nodes(sm->m, sm->k, med, nodes, NODES),
			 0);
}

/* The two-level tree as a topology.conf: leaf1..leaf100 of 100 nodes
 * n00000.. under one spine; place[rank] its host vertex. */
static void tree(struct ig_topo *t, int *place)
{
	size_t len = 0;
	char *text = NULL, err[256];
	FILE *f = open_memstream(&text, &len);

	ck_assert_ptr_nonnull(f);
	fprintf(f, "SwitchName=spine Switches=leaf[1-%d]\n", LEAVES);
	for (int l = 0; l < LEAVES; l++)
		fprintf(f, "SwitchName=leaf%d Nodes=n[%05d-%05d]\n", l + 1,
			l * PER_LEAF, (l + 1) * PER_LEAF - 1);
	fclose(f);
	f = fmemopen(text, len, "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_msg(!ig_topo_parse(f, "tree.conf", t, err, sizeof(err)), "%s",
		      err);
	fclose(f);
	free(text);
	for (unsigned int v = 0; v < t->nv; v++) {
		unsigned int r;

		if (t->v[v].kind == IG_TOPO_HOST &&
		    sscanf(t->v[v].name, "n%u", &r) == 1 && r < NODES)
			place[r] = (int)v;
	}
}

/* The link of leaf l's uplink in t, or -1. */
static int uplink(const struct ig_topo *t, int l)
{
	char name[32];
	int sp = ig_topo_vertex(t, IG_TOPO_SWITCH, "spine"), lv;

	snprintf(name, sizeof(name), "leaf%d", l + 1);
	lv = ig_topo_vertex(t, IG_TOPO_SWITCH, name);
	for (unsigned int i = 0; i < t->nl; i++)
		if ((t->l[i].a == (unsigned int)sp &&
		     t->l[i].b == (unsigned int)lv) ||
		    (t->l[i].b == (unsigned int)sp &&
		     t->l[i].a == (unsigned int)lv))
			return (int)i;
	return -1;
}

/* The blame over the measurements: with the topology the bad leaf's
 * uplink and the bad nodes, nothing else; without, its leaf as a
 * group.  explained[] as the run's blame leaves it. */
static void blame(struct sim *sm, const double *med, const struct ig_topo *t,
		  const int *place, struct ig_blame *b)
{
	struct ig_blame_pair *p;
	ssize_t np = ig_blame_pairs(sm->m, sm->k, med, &p);
	const struct plant *pl = sm->pl;
	unsigned int nodes = 0, links = 0, groups = 0;

	ck_assert_int_ge(np, 0);
	if (pl->topo)
		ck_assert_int_eq(
			ig_blame_topo(t, place, NODES, p, (size_t)np, b), 0);
	else
		ck_assert_int_eq(ig_blame_groups(NODES, p, (size_t)np, b), 0);
	free(p);
	for (size_t i = 0; i < b->nitems; i++) {
		const struct ig_blame_item *it = &b->items[i];

		if (it->what.kind == IG_BLAME_NODE) {
			ck_assert_msg(sm->bad[it->what.id],
				      "%s: node %u blamed", pl->name,
				      it->what.id);
			nodes++;
		} else if (it->what.kind == IG_BLAME_LINK) {
			ck_assert_int_eq((int)it->what.id,
					 uplink(t, pl->bad_leaf));
			links++;
		} else if (it->what.kind == IG_BLAME_GROUP) {
			for (unsigned int r = 0; r < NODES; r++)
				if ((b->group[r] == it->what.id) !=
				    ((int)(r / PER_LEAF) == pl->bad_leaf))
					ck_abort_msg("%s: rank %u in group %u",
						     pl->name, r, b->group[r]);
			groups++;
		} else {
			ck_abort_msg("%s: a switch blamed", pl->name);
		}
	}
	if (pl->topo)
		ck_assert_uint_eq(nodes, pl->nbad);
	ck_assert_uint_eq(links, pl->topo && pl->bad_leaf >= 0);
	ck_assert_uint_eq(groups, !pl->topo && pl->bad_leaf >= 0);
	printf("  blame: %zu item(s): %u node(s), %u link(s), %u group(s); "
	       "%u of %u low pairs explained\n",
	       b->nitems, nodes, links, groups, b->nexpl, b->nlow);
}

/* Flagged after the blame, as fab_blame.c's unflag_explained leaves
 * them: exactly the planted nodes. */
static void check_flagged(const struct sim *sm, const struct ig_fab_node *nd,
			  const struct ig_blame *b)
{
	for (unsigned int r = 0; r < NODES; r++) {
		bool fl = nd[r].flagged && !b->explained[r];

		if (fl != sm->bad[r])
			ck_abort_msg("%s: rank %u flagged %d, bad %d "
				     "(%u of %u low)",
				     sm->pl->name, r, fl, sm->bad[r],
				     nd[r].nflagged, nd[r].npairs);
	}
}

START_TEST(planted_10000)
{
	const struct plant *pl = &plants[_i];
	struct sim sm = { .pl = pl };
	int *leaf = malloc(NODES * sizeof(*leaf));
	int *place = malloc(NODES * sizeof(*place));
	struct ig_fab_node *nodes = calloc(NODES, sizeof(*nodes));
	struct ig_topo t = { 0 };
	struct ig_fab_sample s = { .n = NODES,
				   .per_node = pl->per_node,
				   .rng = { pl->seed } };
	struct ig_fab_rounds r1, r2;
	struct ig_blame b;
	double med[IG_TEST_COUNT];
	unsigned int total, bound;

	sm.bad = calloc(NODES, sizeof(*sm.bad));
	ck_assert(leaf && place && nodes && sm.bad);
	for (unsigned int i = 0; i < pl->nbad; i++)
		sm.bad[pl->bad[i]] = true;
	tree(&t, place);
	for (unsigned int i = 0; i < NODES; i++)
		leaf[i] = ig_topo_leaf(&t, place[i]);
	ck_assert_int_eq(leaf[0], ig_topo_vertex(&t, IG_TOPO_SWITCH, "leaf1"));
	s.leaf = pl->topo ? leaf : NULL;
	/* the sample, judged; the suspects' rounds from its verdicts */
	ck_assert_int_eq(ig_fab_sample_plan(&s, &r1), 0);
	ck_assert_uint_eq(r1.nrounds, pl->per_node);
	ck_assert_uint_eq(s.repeats, 0);
	measure(&sm, &r1, 0);
	judge(&sm, med, nodes);
	ck_assert_int_eq(
		ig_fab_sample_suspects(&s, sm.m, sm.k, med, nodes, &r2), 0);
	measure(&sm, &r2, r1.nrounds);
	/* every pair once over both phases */
	{
		struct ig_blame_pair *p;
		ssize_t np = ig_blame_pairs(sm.m, sm.k, med, &p);

		ck_assert_int_eq(np, (ssize_t)sm.k);
		free(p);
	}
	judge(&sm, med, nodes);
	blame(&sm, med, &t, place, &b);
	check_flagged(&sm, nodes, &b);
	/* the rounds: K + the suspects' bound, which is below K +
	 * log2(N) at 10,000 nodes */
	total = r1.nrounds + r2.nrounds;
	bound = pl->per_node + ig_fab_suspect_rounds_max(NODES, pl->topo);
	printf("%s: %u nodes, K %u: %u + %u rounds (bound %u, K + log2 N "
	       "%.1f); %u suspects (%u flagged), %u good, %u short of good, "
	       "%zu measurements (all pairs: %u rounds)\n",
	       pl->name, NODES, pl->per_node, r1.nrounds, r2.nrounds, bound,
	       pl->per_node + log2(NODES), s.nsuspects, s.nflagged, s.ngood,
	       s.short_good, sm.k, NODES - 1);
	ck_assert_uint_le(total, bound);
	ck_assert_double_le(bound, pl->per_node + log2(NODES));
	ck_assert_uint_eq(s.short_good, 0);
	ig_blame_free(&b);
	ig_fab_rounds_free(&r1);
	ig_fab_rounds_free(&r2);
	ig_topo_free(&t);
	free(sm.m);
	free(sm.bad);
	free(leaf);
	free(place);
	free(nodes);
}
END_TEST

static Suite *sample_suite(void)
{
	Suite *s = suite_create("fabric_sample");
	TCase *tc = tcase_create("rounds");

	tcase_add_test(tc, sample_rounds);
	tcase_add_test(tc, sample_bad_k);
	tcase_add_test(tc, sample_seeded);
	tcase_add_test(tc, sample_leaves);
	tcase_add_test(tc, estimate);
	suite_add_tcase(s, tc);
	tc = tcase_create("planted");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, planted_10000, 0, ARRAY_SIZE(plants));
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(sample_suite());
}
