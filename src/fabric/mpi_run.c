// SPDX-License-Identifier: MIT
/* The rounds of a fabric run over MPI, the retests, the verdicts, the
 * doctor on every node when one's TCP is low alone, and rank 0's report. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mpi.h>

#include "common/clock.h"
#include "doctor/doctor.h"
#include "mpi_quiet.h"
#include "mpi_run.h"
#include "plan.h"
#include "sample.h"
#include "transports/transports.h"

/* What a rank sends rank 0 at the end of a round: IG_FAB_PAIR_MAX
 * measurements a rail (one without --rails), of the rank with the most
 * rails (outsz(): the same on every rank). */
struct round_out {
	unsigned int k; /* measurements in m */
	double run_ms;	/* its pair's run, wall clock */
	struct ig_fab_meas m[];
};

/* Rank 0's state through the run. */
struct state {
	struct ig_fab *f;
	struct ig_fab_run run;
	size_t mcap;	  /* run.m's room */
	double *overhead; /* per round, ms */
	unsigned int nover;
	size_t cap;		   /* measurements a round_out holds */
	size_t outsz;		   /* its size */
	struct round_out *mine;	   /* this rank's */
	unsigned char *all;	   /* n x outsz, rank 0's gather buffer */
	struct ig_slurm_out drain; /* --drain's outcome */
	/* rank 0: the rounds of a planned pattern (plan.h), else empty */
	struct ig_fab_rounds plan;
	/* rank 0, --pattern sample: its planner, each rank's leaf (NULL
	 * without --topology) */
	struct ig_fab_sample smp;
	int *leaf;
};

static bool both_rdma(const struct ig_fab *f, unsigned int a, unsigned int b)
{
	return f->info[a].rdma && f->info[b].rdma;
}

/* The measurements of pair a -> b in round r: every test (verbs ones
 * only with verbs, TCP ones only with tcp); reverse: the bandwidth ones
 * only. */
static unsigned int plan(const struct ig_fab *f, unsigned int r, unsigned int a,
			 unsigned int b, bool reverse, bool verbs, bool tcp,
			 struct ig_fab_meas *m)
{
	unsigned int k = 0;

	for (unsigned int i = 0; i < f->o.ntests; i++) {
		enum ig_test t = f->o.tests[i];
		enum ig_xport_id x = ig_test_xport(IG_TESTS, t);

		if ((x == IG_XPORT_VERBS && !verbs) ||
		    (x == IG_XPORT_TCP && !tcp))
			continue;
		if (reverse && ig_test_pattern(IG_TESTS, t) != IG_PATTERN_BW)
			continue;
		m[k] = (struct ig_fab_meas){ .round = r,
					     .a = a,
					     .b = b,
					     .test = t,
					     .reverse = f->o.p.reverse != 0 };
		k++;
	}
	return k;
}

/* --rails: pair a -> b on each rail pair (ig_rails_pair: by subnet,
 * else index; a rail left without a peer is not measured); TCP only
 * where both rails have an address.  Returns the measurements in m (at
 * most cap). */
static unsigned int rails_plan(const struct ig_fab *f, unsigned int r,
			       unsigned int a, unsigned int b, bool reverse,
			       struct ig_fab_meas *m, size_t cap)
{
	struct ig_rails *peer = malloc(sizeof(*peer));
	int to[IG_RAILS_MAX];
	enum ig_rail_by by[IG_RAILS_MAX];
	unsigned int k = 0;

	if (!peer)
		return 0;
	ig_fab_rails_of(&f->info[b], peer);
	ig_rails_pair(f->rails, peer, to, by);
	for (size_t i = 0; i < f->rails->n; i++) {
		bool tcp = f->rails->r[i].addr[0] && to[i] >= 0 &&
			   peer->r[to[i]].addr[0];
		unsigned int n;

		if (to[i] < 0 || k + IG_FAB_PAIR_MAX > cap)
			continue;
		n = plan(f, r, a, b, reverse, true, tcp, m + k);
		for (unsigned int j = k; j < k + n; j++) {
			m[j].railed = true;
			m[j].rail_a = (unsigned int)i;
			m[j].rail_b = (unsigned int)to[i];
			m[j].rail_by = (int)by[i];
		}
		k += n;
	}
	free(peer);
	return k;
}

/* Runs m[0..k) (this rank the client, b the server): as one session, or
 * with --rails one per rail pair (a run of measurements of one rail),
 * from this rank's rail to b's. */
static void run_meas(const struct ig_fab *f, unsigned int b,
		     struct ig_fab_meas *m, size_t k)
{
	size_t i = 0, j;

	if (!k || !m[0].railed || !f->rails) {
		ig_fab_pair_run(f->info[b].addr, f->info[b].port, &f->o, m, k);
		return;
	}
	for (; i < k; i = j) {
		struct ig_local_opts lo = f->o.local;
		unsigned int ra = m[i].rail_a, rb = m[i].rail_b;

		for (j = i; j < k && m[j].rail_a == ra; j++)
			;
		if (ra >= f->rails->n || rb >= f->info[b].nrails) {
			for (size_t x = i; x < j; x++)
				snprintf(m[x].why, sizeof(m[x].why),
					 "rail %u or the peer's %u unknown", ra,
					 rb);
			continue;
		}
		ig_rail_local_opts(&f->rails->r[ra], &lo);
		ig_fab_pair_run_on(f->info[b].rails[rb].addr, f->info[b].port,
				   &f->o, &lo, m + i, j - i);
	}
}

/* This rank's part of one round: its pair as the client, if any. */
static void my_pair(struct ig_fab *f, const struct ig_fab_pair *pairs,
		    unsigned int np, unsigned int r, bool reverse,
		    struct round_out *out, size_t cap)
{
	unsigned int peer;
	uint64_t t0;

	out->k = 0;
	out->run_ms = 0;
	for (unsigned int i = 0; i < np; i++) {
		unsigned int a = reverse ? pairs[i].b : pairs[i].a;
		unsigned int b = reverse ? pairs[i].a : pairs[i].b;

		if (a != f->me)
			continue;
		peer = b;
		out->k = f->rails ? rails_plan(f, r, a, b, reverse, out->m, cap)
				  : plan(f, r, a, b, reverse,
					 both_rdma(f, a, b), true, out->m);
		t0 = ig_now_ns();
		run_meas(f, peer, out->m, out->k);
		out->run_ms = (double)(ig_now_ns() - t0) / 1e6;
		return;
	}
}

static int grow(struct state *s, size_t more)
{
	struct ig_fab_meas *m;
	size_t cap = s->mcap ? s->mcap : 64;

	while (cap < s->run.k + more)
		cap *= 2;
	if (cap == s->mcap)
		return 0;
	m = realloc(s->run.m, cap * sizeof(*m));
	if (!m)
		return -ENOMEM;
	s->run.m = m;
	s->mcap = cap;
	return 0;
}

/* Rank 0: the round's results in, the overhead noted, the file out. */
static void collect(struct state *s, double wall_ms)
{
	double longest = 0;

	for (unsigned int i = 0; i < s->f->n; i++) {
		const struct round_out *o =
			(const void *)(s->all + i * s->outsz);

		if (o->run_ms > longest)
			longest = o->run_ms;
		if (!o->k || grow(s, o->k))
			continue;
		memcpy(s->run.m + s->run.k, o->m, o->k * sizeof(*o->m));
		s->run.k += o->k;
	}
	s->overhead[s->nover++] = wall_ms > longest ? wall_ms - longest : 0;
	s->run.rounds_done++;
	if (s->f->o.outfile)
		ig_fab_write(&s->run, NULL);
}

static void one_round(struct state *s, const struct ig_fab_pair *pairs,
		      unsigned int np, unsigned int r, bool reverse)
{
	struct ig_fab *f = s->f;
	uint64_t t0 = ig_now_ns();

	ig_mpi_barrier(MPI_COMM_WORLD);
	my_pair(f, pairs, np, r, reverse, s->mine, s->cap);
	ig_mpi_gather(s->mine, (int)s->outsz, s->all, (int)s->outsz, 0,
		      MPI_COMM_WORLD);
	if (!f->me) {
		collect(s, (double)(ig_now_ns() - t0) / 1e6);
		fprintf(stderr, "ibgap-fabric: round %u of %u%s: %u pair(s)\n",
			r + 1, s->run.rounds_total, reverse ? " (reverse)" : "",
			np);
	}
}

/* Round r's pairs: rank 0 takes them from its plan (its round idx), or
 * computes them (sched.h), and hands them to every rank. */
static unsigned int round_get(struct state *s, unsigned int idx, unsigned int r,
			      struct ig_fab_pair *pairs)
{
	struct ig_fab *f = s->f;
	unsigned int np = 0;

	if (!f->me)
		np = s->plan.nrounds ? ig_fab_rounds_get(&s->plan, idx, pairs)
				     : ig_fab_round(f->o.pattern, f->n,
						    f->o.root, r, pairs);
	ig_mpi_bcast(&np, 1, MPI_UNSIGNED, 0, MPI_COMM_WORLD);
	ig_mpi_bcast(pairs, (int)(np * sizeof(*pairs)), MPI_BYTE, 0,
		     MPI_COMM_WORLD);
	return np;
}

/* nr rounds, numbered from from on. */
static void rounds(struct state *s, struct ig_fab_pair *pairs,
		   unsigned int from, unsigned int nr)
{
	struct ig_fab *f = s->f;

	for (unsigned int i = 0; i < nr; i++) {
		unsigned int np = round_get(s, i, from + i, pairs);

		one_round(s, pairs, np, from + i, false);
		if (f->o.both)
			one_round(s, pairs, np, from + i, true);
	}
}

/* Rank 0: the sample's verdicts so far, the suspects' rounds planned
 * from them (sample.h); returns how many. */
static unsigned int suspects_plan(struct state *s, unsigned int from)
{
	struct ig_fab_run *r = &s->run;

	ig_fab_rounds_free(&s->plan);
	ig_fab_judge_pairs(r->m, r->k, &s->f->o.tol, r->medians);
	ig_fab_judge_nodes(r->m, r->k, r->medians, r->nodes, r->n);
	if (ig_fab_sample_suspects(&s->smp, r->m, r->k, r->medians, r->nodes,
				   &s->plan))
		fprintf(stderr, "ibgap-fabric: out of memory for the "
				"suspects' rounds: the sample's verdicts "
				"alone\n");
	r->sample.suspect_from = from;
	r->sample.suspect_rounds = s->plan.nrounds;
	r->sample.suspects = s->smp.nsuspects;
	r->sample.flagged = s->smp.nflagged;
	r->sample.good = s->smp.ngood;
	r->sample.short_good = s->smp.short_good;
	r->rounds_total = from + s->plan.nrounds;
	fprintf(stderr,
		"ibgap-fabric: sample: %u suspect(s) (%u flagged) measured "
		"again against %u good node(s): %u round(s) of at most %u\n",
		s->smp.nsuspects, s->smp.nflagged, s->smp.ngood,
		s->plan.nrounds, ig_fab_suspect_rounds_max(r->n, s->leaf));
	return s->plan.nrounds;
}

/* The sample's second phase: the suspects against nodes known good,
 * rounds numbered from from on. */
static void suspects(struct state *s, struct ig_fab_pair *pairs,
		     unsigned int from)
{
	unsigned int nr = s->f->me ? 0 : suspects_plan(s, from);

	ig_mpi_bcast(&nr, 1, MPI_UNSIGNED, 0, MPI_COMM_WORLD);
	rounds(s, pairs, from, nr);
}

/* One retest: rank a measures test again against b; the figures go to
 * rank 0. */
static void retest_one(struct state *s, const unsigned int *w,
		       struct ig_fab_meas *res)
{
	struct ig_fab *f = s->f;
	unsigned int a = w[0], b = w[1];

	*res = (struct ig_fab_meas){ .a = a,
				     .b = b,
				     .test = (enum ig_test)w[2],
				     .railed = w[3] != 0,
				     .rail_a = w[4],
				     .rail_b = w[5] };
	ig_mpi_barrier(MPI_COMM_WORLD);
	if (f->me == a)
		run_meas(f, b, res, 1);
	if (a == 0)
		return;
	if (f->me == a)
		MPI_Send(res, sizeof(*res), MPI_BYTE, 0, 0, MPI_COMM_WORLD);
	else if (!f->me)
		ig_mpi_recv(res, sizeof(*res), (int)a, 0, MPI_COMM_WORLD);
}

static void judge(struct state *s)
{
	struct ig_fab_run *r = &s->run;

	if (r->per_hop && !ig_fab_hops(r))
		ig_fab_judge_pairs_hops(r->m, r->k, &s->f->o.tol, r->medians,
					&r->hopref);
	else
		ig_fab_judge_pairs(r->m, r->k, &s->f->o.tol, r->medians);
	if (r->rail_nodes &&
	    ig_fab_judge_rails(r->m, r->k, &s->f->o.tol, r->medians, r->n,
			       r->nrail_groups, r->rail_nodes, r->rail_idx) < 0)
		fprintf(stderr, "ibgap-fabric: out of memory for the rails' "
				"verdicts: the fabric's alone\n");
	ig_fab_judge_nodes(r->m, r->k, r->medians, r->nodes, r->n);
	ig_fab_rank_nodes(r->nodes, r->n, r->order);
	r->judged = true;
}

/* Flagged measurements measured once more (--retest), then judged
 * again: a pair that is fine now was a transient. */
static void retests(struct state *s)
{
	unsigned int idx[IG_FAB_MAX_RETEST], cnt = 0;

	if (!s->f->me) {
		judge(s);
		for (size_t i = 0; i < s->run.k && cnt < IG_FAB_MAX_RETEST; i++)
			if (s->run.m[i].flagged)
				idx[cnt++] = (unsigned int)i;
	}
	ig_mpi_bcast(&cnt, 1, MPI_UNSIGNED, 0, MPI_COMM_WORLD);
	for (unsigned int i = 0; i < cnt; i++) {
		struct ig_fab_meas *m = s->f->me ? NULL : &s->run.m[idx[i]];
		unsigned int w[6] = { m ? m->a : 0,
				      m ? m->b : 0,
				      m ? (unsigned int)m->test : 0,
				      m ? m->railed : 0,
				      m ? m->rail_a : 0,
				      m ? m->rail_b : 0 };
		struct ig_fab_meas res;

		ig_mpi_bcast(w, 6, MPI_UNSIGNED, 0, MPI_COMM_WORLD);
		retest_one(s, w, &res);
		if (!m)
			continue;
		m->retested = true;
		m->retest_ok = res.ok;
		m->retest_bw_gbps = res.bw_gbps;
		m->retest_p50_us = res.lat_p50_us;
		m->retest_p99_us = res.lat_p99_us;
	}
	if (!s->f->me)
		fprintf(stderr,
			"ibgap-fabric: %u flagged measurement(s) "
			"measured again\n",
			cnt);
}

/* The doctor's findings on this node for the path to its first peer. */
static void doctor_here(struct ig_fab *f, struct ig_fab_find *out)
{
	struct ig_dr_finding fd[IG_FAB_NDR];
	struct sockaddr_in sin = { .sin_family = AF_INET };
	unsigned int peer = (f->me + 1) % f->n;
	int n;

	inet_pton(AF_INET, f->info[peer].addr, &sin.sin_addr);
	n = ig_dr_top(NULL, (struct sockaddr *)&sin, f->o.p.sock.window, fd,
		      IG_FAB_NDR);
	out->ran = n >= 0;
	/* the id whole, what cut to the line's room (which an -O0 build's
	 * format-truncation check then sees) */
	for (int i = 0; i < n; i++) {
		snprintf(out->id[out->n], sizeof(out->id[0]), "%s", fd[i].id);
		snprintf(out->line[out->n++], sizeof(out->line[0]), "%s: %.*s",
			 fd[i].id,
			 (int)(sizeof(out->line[0]) - sizeof(fd[i].id) - 2),
			 fd[i].what);
	}
}

/* When a node's TCP is low alone, the doctor on every node: the
 * findings they all share are set apart (ig_fab_shared()). */
static void doctors(struct state *s)
{
	struct ig_fab *f = s->f;
	struct ig_fab_find mine = { .rank = f->me }, *all = NULL;
	int tcp_low = 0;

	for (unsigned int i = 0; !f->me && i < f->n; i++)
		tcp_low |= s->run.nodes[i].flagged &&
			   s->run.nodes[i].cause == IG_FAB_TCP_LOW;
	ig_mpi_bcast(&tcp_low, 1, MPI_INT, 0, MPI_COMM_WORLD);
	if (!tcp_low)
		return; /* every rank knows: no gather of nothing */
	doctor_here(f, &mine);
	if (!f->me && !(all = calloc(f->n, sizeof(*all))))
		MPI_Abort(MPI_COMM_WORLD, 1);
	ig_mpi_gather(&mine, sizeof(mine), all, sizeof(mine), 0,
		      MPI_COMM_WORLD);
	s->run.find = all;
	s->run.nfind = all ? f->n : 0;
	if (all)
		ig_fab_shared(&s->run);
}

/* The most rails of any rank (0 without --rails). */
static unsigned int max_rails(const struct ig_fab *f)
{
	unsigned int m = 0;

	for (unsigned int i = 0; f->rails && i < f->n; i++)
		if (f->info[i].nrails > m)
			m = f->info[i].nrails;
	return m;
}

/* Every rank: its round_out. */
static int out_alloc(struct state *s)
{
	unsigned int g = max_rails(s->f);

	s->cap = (size_t)IG_FAB_PAIR_MAX * (g ? g : 1);
	s->outsz = sizeof(*s->mine) + s->cap * sizeof(s->mine->m[0]);
	s->mine = calloc(1, s->outsz);
	return s->mine ? 0 : -ENOMEM;
}

/* Rank 0, --rails: the verdicts per rail's room. */
static int rails_alloc(struct state *s)
{
	struct ig_fab_run *r = &s->run;
	size_t cells = (size_t)max_rails(s->f) * r->n;

	if (!cells)
		return 0;
	r->nrail_groups = max_rails(s->f);
	r->rail_nodes = calloc(cells, sizeof(*r->rail_nodes));
	r->rail_idx = calloc(cells, sizeof(*r->rail_idx));
	return r->rail_nodes && r->rail_idx ? 0 : -ENOMEM;
}

static int rank0_alloc(struct state *s)
{
	struct ig_fab_run *r = &s->run;
	unsigned int n = s->f->n;

	if (rails_alloc(s))
		return -ENOMEM;
	s->all = calloc(n, s->outsz);
	r->nodes = calloc(n, sizeof(*r->nodes));
	r->order = calloc(n, sizeof(*r->order));
	r->outlier = calloc(n, sizeof(*r->outlier));
	s->overhead = calloc(2 * (size_t)r->rounds_total + 1, sizeof(double));
	return s->all && s->overhead && r->nodes && r->order && r->outlier
		       ? 0
		       : -ENOMEM;
}

static void state_free(struct state *s)
{
	free(s->all);
	free(s->mine);
	free(s->run.rail_nodes);
	free(s->run.rail_idx);
	free(s->overhead);
	free(s->run.nodes);
	free(s->run.order);
	free(s->run.outlier);
	free((void *)s->run.find);
	ig_fab_blame_free(&s->run);
	ig_slurm_out_free(&s->drain);
	free(s->run.m);
	ig_fab_rounds_free(&s->plan);
	free(s->leaf);
}

/* The fingerprint's field named key ("" when there is none). */
static const char *fp_value(const struct ig_fingerprint *fp, const char *key)
{
	const char *name, *v;

	for (unsigned int i = 0; (v = ig_fingerprint_field(fp, i, &name)); i++)
		if (!strcmp(name, key))
			return v;
	return "";
}

static void outliers(struct state *s)
{
	unsigned int n = s->f->n;
	const char **v = calloc((size_t)n * IG_FAB_NFPKEYS, sizeof(*v));

	if (!v)
		return;
	for (unsigned int i = 0; i < n; i++)
		for (unsigned int j = 0; j < IG_FAB_NFPKEYS; j++) {
			const char *x =
				fp_value(&s->f->info[i].fp, ig_fab_fpkeys[j]);

			v[i * IG_FAB_NFPKEYS + j] = x && *x ? x : NULL;
		}
	ig_fab_outliers(v, n, IG_FAB_NFPKEYS, s->run.outlier);
	free(v);
}

/* Rank 0: the report, the baselines; the exit status. */
static int finish(struct state *s)
{
	const struct ig_fab_opts *o = &s->f->o;
	char err[512];
	int ret = 0;

	s->run.round_overhead_ms = ig_fab_median(s->overhead, s->nover);
	outliers(s);
	ig_fab_blame(&s->run, s->f->have_topo ? &s->f->topo : NULL, stderr);
	/* drained before the report is written: it says what was done */
	if (o->drain && ig_fab_drain(&s->run, &s->drain, stderr)) {
		fprintf(stderr, "ibgap-fabric: --drain: out of memory\n");
		ret = 1;
	}
	if (o->drain)
		s->run.drain = &s->drain;
	if (s->drain.failed)
		ret = 1;
	if (ig_fab_write(&s->run, stdout))
		ret = 1;
	if (ig_fab_nothing(&s->run, err, sizeof(err))) {
		fprintf(stderr, "ibgap-fabric: %s\n", err);
		return 1; /* no plot, no baseline of nothing */
	}
	if (o->plot && ig_fab_plot(&s->run, o->plot, err, sizeof(err))) {
		fprintf(stderr, "ibgap-fabric: %s\n", err);
		ret = 1;
	}
	if (o->save_baseline) {
		struct ig_fab_opts so = *o;
		struct ig_fab_run sr = s->run;

		so.json = true;
		so.outfile = o->save_baseline;
		sr.o = &so;
		if (ig_fab_write(&sr, NULL))
			ret = 1;
	}
	if (s->f->baseline &&
	    ig_fab_baseline_cmp(&s->run, s->f->baseline, o->baseline,
				o->tolerance, stdout))
		return 1;
	return ret;
}

/* Rank 0: the rounds of --pattern leaves into s->plan, their number
 * (--rounds cuts them); 0, or -errno after one line. */
static int plan_leaves(struct state *s)
{
	struct ig_fab *f = s->f;
	struct ig_fab_pair *list = NULL;
	size_t k = 0;
	int ret = ig_fab_place(&s->run, &f->topo, stderr);

	if (!ret)
		ret = ig_fab_leaves(&f->topo, s->run.place, f->n, &list, &k);
	if (!ret)
		ret = ig_fab_pack(list, k, f->n, &s->plan);
	free(list);
	if (ret == -E2BIG)
		fprintf(stderr,
			"ibgap-fabric: --pattern leaves: the ranks are on "
			"more than %d leaves: use --pattern pairs\n",
			IG_FAB_LEAVES_MAX);
	else if (ret)
		fprintf(stderr, "ibgap-fabric: out of memory planning the "
				"leaves pattern\n");
	s->run.per_hop = true;
	s->run.rounds_total = s->plan.nrounds;
	if (f->o.rounds && f->o.rounds < s->plan.nrounds)
		s->run.rounds_total = f->o.rounds;
	return ret;
}

/* Whether a pair may run verbs tests: two ranks have an RDMA port. */
static bool rdma_pairs(const struct ig_fab *f)
{
	unsigned int c = 0;

	for (unsigned int i = 0; i < f->n; i++)
		c += f->info[i].rdma;
	return c >= 2;
}

/* Rank 0: each rank's leaf on --topology (sample.h); NULL without. */
static int *leaves(const struct ig_fab *f)
{
	int *leaf = f->have_topo ? calloc(f->n, sizeof(*leaf)) : NULL;

	for (unsigned int i = 0; leaf && i < f->n; i++)
		leaf[i] = ig_topo_leaf(&f->topo,
				       ig_topo_place(&f->topo, f->info[i].host,
						     f->info[i].addr));
	return leaf;
}

/* --rails: a round runs the plan once per rail (of the rank with the
 * most rails): its tests' time that many times. */
static void rails_est(const struct ig_fab *f, struct ig_fab_est *e)
{
	unsigned int g = max_rails(f);
	double over = IG_FAB_ROUND_OVERHEAD_S * (f->o.both ? 2 : 1);

	if (g < 2)
		return;
	e->round_s = (e->round_s - over) * g + over;
	e->tests *= g;
	e->back *= g;
}

/* Rank 0, --pattern sample: K (--per-node, or the most --budget
 * fits), the seed, the sample's rounds planned.  0 or -errno. */
static int sample_start(struct state *s, const struct ig_fab_est *e)
{
	struct ig_fab *f = s->f;
	unsigned int m;
	unsigned int kmax = ig_fab_per_node_max(f->n), k = f->o.per_node;
	unsigned int seed =
		f->o.seed_given
			? f->o.seed
			: (unsigned int)(ig_now_ns() ^ (uint64_t)getpid());
	bool fits = true;

	s->leaf = leaves(f);
	m = ig_fab_suspect_rounds_max(f->n, s->leaf);
	if (f->o.budget > 0)
		k = ig_fab_budget_k(f->o.budget * 60, e->round_s, m, kmax,
				    &fits);
	else if (!k)
		k = IG_FAB_PER_NODE_DEFAULT < kmax ? IG_FAB_PER_NODE_DEFAULT
						   : kmax;
	s->smp = (struct ig_fab_sample){
		.n = f->n, .per_node = k, .leaf = s->leaf, .rng = { seed }
	};
	s->run.sample.per_node = k;
	s->run.sample.seed = seed;
	s->run.sample.by_budget = f->o.budget > 0;
	s->run.sample.budget_fits = fits;
	s->run.rounds_total = k + m;
	return ig_fab_sample_plan(&s->smp, &s->plan);
}

/* Rank 0, before the first round: how many rounds, about how long
 * (sample.h's estimate), one line. */
static void announce(struct state *s, const struct ig_fab_est *e,
		     struct ig_fab_pair *pairs)
{
	struct ig_fab *f = s->f;
	struct ig_fab_run *r = &s->run;
	bool smp = f->o.pattern == IG_FAB_SAMPLE;
	unsigned int k = smp ? r->sample.per_node : r->rounds_total;
	unsigned int np = s->plan.nrounds ? s->plan.off[1] - s->plan.off[0]
					  : ig_fab_round(f->o.pattern, f->n,
							 f->o.root, 0, pairs);
	char dur[64], how[160] = "", head[320];

	r->plan_rounds = r->rounds_total;
	r->estimate_s = r->rounds_total * e->round_s;
	ig_fab_dur_text(r->estimate_s, dur, sizeof(dur));
	if (smp && r->sample.by_budget)
		snprintf(how, sizeof(how), ", the most --budget %g min %s",
			 f->o.budget,
			 r->sample.budget_fits ? "fits" : "fits: none does");
	if (smp)
		snprintf(head, sizeof(head),
			 "sample, seed %u: %u round(s) of %u pairs (%u "
			 "partner(s) a node%s) + up to %u suspect rounds",
			 r->sample.seed, k, np, k, how, r->rounds_total - k);
	else
		snprintf(head, sizeof(head), "%u round(s) of %u pairs", k, np);
	fprintf(stderr, "ibgap-fabric: %s%s, %u test(s) each: about %s%s%s\n",
		head, f->o.both ? " and back" : "", e->tests, dur,
		smp ? " at most" : "",
		e->timed ? " (retests not counted)"
			 : " (-n: the tests' own time not counted)");
}

int ig_fab_mpi_run(struct ig_fab *f)
{
	struct state s = { .f = f };
	struct ig_fab_pair *pairs = calloc(f->n, sizeof(*pairs));
	unsigned int total = ig_fab_nrounds(f->o.pattern, f->n, f->o.root);
	bool smp = f->o.pattern == IG_FAB_SAMPLE;
	bool planned = smp || f->o.pattern == IG_FAB_LEAVES;
	struct ig_fab_est e;
	int ret = 0, bad = 0;

	if (f->o.rounds && f->o.rounds < total)
		total = f->o.rounds;
	s.run = (struct ig_fab_run){
		.o = &f->o, .n = f->n, .info = f->info, .rounds_total = total
	};
	ig_fab_est_round(&f->o, rdma_pairs(f) || f->rails, &e);
	rails_est(f, &e);
	if (!f->me && smp && sample_start(&s, &e))
		bad = 1;
	if (!f->me && f->o.pattern == IG_FAB_LEAVES && plan_leaves(&s))
		bad = 2;
	if (!pairs || out_alloc(&s) || (!f->me && rank0_alloc(&s)))
		bad = 1;
	ig_mpi_bcast(&bad, 1, MPI_INT, 0, MPI_COMM_WORLD);
	if (bad) {
		if (!f->me && bad == 1)
			fprintf(stderr,
				"ibgap-fabric: out of memory for %u "
				"ranks\n",
				f->n);
		free(pairs);
		state_free(&s);
		return 1;
	}
	if (!f->me)
		announce(&s, &e, pairs);
	/* a planned pattern's rounds (a sample's first phase): rank 0's */
	if (planned && !f->me)
		total = smp ? s.plan.nrounds : s.run.rounds_total;
	if (planned)
		ig_mpi_bcast(&total, 1, MPI_UNSIGNED, 0, MPI_COMM_WORLD);
	rounds(&s, pairs, 0, total);
	if (smp)
		suspects(&s, pairs, total);
	if (f->o.retest)
		retests(&s);
	if (!f->me)
		judge(&s);
	doctors(&s);
	if (!f->me)
		ret = finish(&s);
	ig_mpi_bcast(&ret, 1, MPI_INT, 0, MPI_COMM_WORLD);
	free(pairs);
	state_free(&s);
	return ret;
}
