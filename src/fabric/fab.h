/* SPDX-License-Identifier: MIT */
#ifndef IG_FAB_H
#define IG_FAB_H

/*
 * ibgap-fabric's parts (docs/fabric.md) that need no MPI, in the core
 * library: options (fab_opts.c), the data address (fab_addr.c), one
 * pair's run (fab_pair.c), the document and its text (fab_doc.c), the
 * baseline (fab_base.c), the heat map (fab_plot.c), the blame in the run
 * and the report (fab_blame.c; topo.h, blame.h are its pure parts).
 * mpi_main.c and mpi_run.c tie them together with MPI, in the
 * ibgap-fabric program.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "common/params.h"
#include "blame.h"
#include "host/fingerprint.h"
#include "host/rails.h"
#include "sched.h"
#include "slurm.h"
#include "verdict.h"

#define IG_FAB_DEFAULT_PORT (IG_DEFAULT_PORT + 1)
#define IG_FAB_PORT_TRIES 64 /* ranks on one host take the next ports */
#define IG_FAB_NFIND 3	     /* doctor findings shown per node */
#define IG_FAB_NDR 16	     /* doctor findings gathered per node */

struct ig_fab_opts {
	enum ig_fab_pattern pattern;
	unsigned int rounds; /* --rounds K; 0: all */
	unsigned int root;   /* --root R (incast) */
	/* --pattern sample (sample.h): --per-node K (0: the default, or
	 * --budget's), --budget MINUTES (0: none), --seed S */
	unsigned int per_node;
	double budget;
	unsigned int seed;
	bool seed_given;
	bool both;   /* --both-directions */
	bool retest; /* --retest (default) / --no-retest */
	struct ig_fab_tol tol;
	enum ig_test tests[IG_TEST_COUNT];
	unsigned int ntests;
	bool tests_given;
	bool size_given;
	struct ig_params p;
	struct ig_local_opts local;
	int port;	     /* --port: the first port tried */
	const char *addr;    /* --addr CIDR|IFACE, or NULL */
	bool json;	     /* --format json */
	const char *outfile; /* -o */
	const char *plot;    /* --plot FILE.svg|png */
	const char *save_baseline;
	const char *baseline;
	double tolerance;	   /* --tolerance PCT */
	const char *topology;	   /* --topology FILE */
	bool drain;		   /* --drain (slurm.h) */
	bool resume;		   /* --resume: alone, no MPI */
	struct ig_repeat_opts rep; /* --repeat, --confidence */
	bool rails;		   /* --rails [all|LIST] */
	const char *rails_list;	   /* its LIST, NULL: all */
};

/* 0, 1 for --help, or -EINVAL with one line in err. */
int ig_fab_opts_parse(int argc, char **argv, struct ig_fab_opts *o, char *err,
		      size_t errlen);
void ig_fab_usage(FILE *f);
/* Rank 0's files (-o, --plot, --save-baseline), checked before the first
 * round (common/file.h): 0 or -EINVAL with one line in err. */
int ig_fab_opts_paths(const struct ig_fab_opts *o, char *err, size_t errlen);

/* A rank's rail as it announces it (--rails; host/rails.h's struct
 * ig_rail without what the pairing does not need). */
struct ig_fab_rail {
	char device[64];
	int port;
	char netdev[32];
	char addr[INET_ADDRSTRLEN]; /* "" none */
	int prefix;
};

/* What a rank tells every other at the start (MPI_Allgather, bytes). */
struct ig_fab_info {
	char host[64];
	char addr[64];	   /* the data address, numeric */
	char addr_why[96]; /* how it was chosen */
	bool rdma;	   /* an active RDMA port behind addr */
	int port;	   /* its in-process server's */
	struct ig_fingerprint fp;
	char node[64]; /* its Slurm node name (ig_fab_slurm_node) */
	/* --rails: its rails (the selection of --rails' list), 0 without */
	unsigned int nrails;
	struct ig_fab_rail rails[IG_RAILS_MAX];
};

/* ig_fab_info's rails from this host's (ig_rails_load), and back (the
 * fields ig_rails_pair needs: device, port, netdev, addr, prefix). */
void ig_fab_rails_announce(const struct ig_rails *r, struct ig_fab_info *i);
void ig_fab_rails_of(const struct ig_fab_info *i, struct ig_rails *r);
/* Node i's rail j named "node:device" (its Slurm node name). */
void ig_fab_rail_name(const struct ig_fab_info *i, unsigned int j, char *buf,
		      size_t len);

/* This rank's data address into i (addr, addr_why, rdma, fp): the first
 * active RDMA port's netdev's, else the first non-loopback address that
 * is up; want (--addr CIDR or interface name) overrides both.  0, or
 * -ENOENT with one line in err. */
int ig_fab_addr(const char *want, struct ig_fab_info *i, char *err,
		size_t errlen);

/* The measurements of one pair's session, at most */
#define IG_FAB_PAIR_MAX (2 * IG_TEST_COUNT)

/* Runs m[0..k) (the same pair, a -> b, tests set) as the client against
 * addr:port through the run layer: one control session, each test in
 * turn with o's parameters (latency tests at 2 bytes without -s), each
 * repeated as o's --repeat and --confidence ask; fills each measurement,
 * ok false with why on a failure (the rest of the session is then failed
 * too).  Never fails as a whole. */
void ig_fab_pair_run(const char *addr, int port, const struct ig_fab_opts *o,
		     struct ig_fab_meas *m, size_t k);
/* The same on one rail (--rails): local's device, port and source
 * address (ig_rail_local_opts) in place of o's. */
void ig_fab_pair_run_on(const char *addr, int port, const struct ig_fab_opts *o,
			const struct ig_local_opts *local,
			struct ig_fab_meas *m, size_t k);

/* The doctor's findings on one node (on every node when one node's TCP
 * is low alone: what they all share explains nothing about one). */
struct ig_fab_find {
	unsigned int rank;
	bool ran; /* the doctor ran there */
	unsigned int n;
	char id[IG_FAB_NDR][40];    /* the finding's id */
	char line[IG_FAB_NDR][200]; /* "id: what" */
};

/* What rank 0 knows, for the document. */
struct ig_fab_run {
	const struct ig_fab_opts *o;
	unsigned int n;
	const struct ig_fab_info *info; /* n */
	struct ig_fab_meas *m;		/* k measurements */
	size_t k;
	unsigned int rounds_done, rounds_total;
	/* the estimate printed before the first round: the rounds planned
	 * (a sample's: at most), about how long */
	unsigned int plan_rounds;
	double estimate_s;
	/* --pattern sample: K, the seed, the suspects' phase from round
	 * suspect_from (its rounds, the suspects, the good nodes) */
	struct {
		unsigned int per_node, seed, suspect_from, suspect_rounds;
		unsigned int suspects, flagged, good, short_good;
		bool by_budget;	  /* K picked by --budget */
		bool budget_fits; /* and K + its suspects' rounds fit */
	} sample;
	double round_overhead_ms; /* median barrier + gather per round */
	/* after the verdicts */
	bool judged;
	double medians[IG_TEST_COUNT];
	struct ig_fab_node *nodes; /* n */
	unsigned int *order;	   /* n, worst first */
	unsigned int *outlier;	   /* n fingerprint masks */
	const struct ig_fab_find *find;
	unsigned int nfind;
	/* ig_fab_shared(): the finding ids every node whose doctor ran has
	 * (at least two ran), printed once; not among a node's own */
	char shared[IG_FAB_NDR][40];
	unsigned int nshared;
	/* the blame (fab_blame.c), after the verdicts: topo NULL without
	 * --topology (then groups); place[n] each rank's host vertex */
	const struct ig_topo *topo;
	int *place;
	struct ig_blame blame;
	bool blamed;
	/* --pattern leaves: each hop distance's reference (verdict.h) */
	bool per_hop;
	struct ig_fab_hopref hopref;
	/* --rails: the verdicts per rail (ig_fab_judge_rails): group g's
	 * node i is rail_nodes[g * n + i], on its rail rail_idx[g * n + i]
	 * (-1: not measured in g); NULL without */
	unsigned int nrail_groups;
	struct ig_fab_node *rail_nodes;
	int *rail_idx;
	/* --drain's outcome (ig_fab_drain), NULL before or without it */
	const struct ig_slurm_out *drain;
};

/* r->shared from r->find[0..nfind): the ids of the first node whose
 * doctor ran that every node whose doctor ran has, in its order; none
 * when fewer than two ran.  O(nfind x IG_FAB_NDR^2) compares. */
void ig_fab_shared(struct ig_fab_run *r);
/* Whether id is among r->shared. */
bool ig_fab_is_shared(const struct ig_fab_run *r, const char *id);

/*
 * The blame (docs/fabric.md "Blame"), after the verdicts: places each rank
 * on topo (a one-line warning to warn for each rank it does not name),
 * blames links, switches and nodes (topo) or groups (topo NULL), and
 * clears the flag of every node whose low pairs a blamed link, switch or
 * group explains (the worst-first order again).  0, or -ENOMEM (nothing
 * blamed).  Its parts of the report: */
int ig_fab_blame(struct ig_fab_run *r, const struct ig_topo *topo, FILE *warn);
/* Its first step, also before the rounds (--pattern leaves): r->place
 * (each rank's host vertex on topo, -1 and a one-line warning to warn
 * for a rank it does not name) and r->topo; once.  0 or -ENOMEM. */
int ig_fab_place(struct ig_fab_run *r, const struct ig_topo *topo, FILE *warn);
/* After ig_fab_place: each measurement's hop distance (hops_known,
 * hops).  0 or -ENOMEM. */
int ig_fab_hops(struct ig_fab_run *r);
void ig_fab_blame_free(struct ig_fab_run *r);
json_object *ig_fab_blame_json(const struct ig_fab_run *r);
void ig_fab_blame_text(FILE *f, const struct ig_fab_run *r);

/* Slurm (fab_slurm.c; slurm.h the rest).  The Slurm node name of a rank
 * on host: SLURMD_NODENAME (srun sets it), else the host's short name. */
void ig_fab_slurm_node(const char *host, char *out, size_t len);
/* Why node i is flagged, for its drain reason (without "ibgap:"). */
void ig_fab_drain_why(const struct ig_fab_run *r, unsigned int i, char *buf,
		      size_t len);
/* --drain: every flagged node of r (worst first; a node of several ranks
 * once) drained through ig_slurm_drain(); out for r->drain.  0 or
 * -ENOMEM; the failed calls counted in out->failed, one line each to
 * log. */
int ig_fab_drain(const struct ig_fab_run *r, struct ig_slurm_out *out,
		 FILE *log);
/* The plan's part of the report (fab_plan.c): "sample" or "suspects",
 * the phase of a measurement of --pattern sample (NULL for another
 * pattern); the "plan" object; the text's line of the sample. */
const char *ig_fab_phase(const struct ig_fab_run *r,
			 const struct ig_fab_meas *m);
json_object *ig_fab_plan_json(const struct ig_fab_run *r);
void ig_fab_plan_text(FILE *f, const struct ig_fab_run *r);

/* --rails' parts of the report (fab_rails.c): a measurement's "rails"
 * object (NULL without), a node's "rails" array (NULL without), the
 * text's rails block (nothing without). */
json_object *ig_fab_meas_rails_json(const struct ig_fab_run *r,
				    const struct ig_fab_meas *m);
json_object *ig_fab_node_rails_json(const struct ig_fab_run *r, unsigned int i);
void ig_fab_rails_text(FILE *f, const struct ig_fab_run *r);
/* The rails flagged, of *total announced. */
unsigned int ig_fab_rails_flagged(const struct ig_fab_run *r,
				  unsigned int *total);
/* A node's (or a rail's) medians per test: "bw_gbps" and "lat_us"
 * objects into o (empty for nd NULL); "  tcp_bw 9.10 Gb/s ..." to f. */
void ig_fab_node_figs_json(json_object *o, const struct ig_fab_node *nd);
void ig_fab_node_figs_text(FILE *f, const struct ig_fab_node *nd);
/* " (rxe0 -> rxe0)": a railed measurement's rails, the sender's first
 * when back (-R: b sent). */
void ig_fab_meas_rails_text(const struct ig_fab_run *r,
			    const struct ig_fab_meas *m, bool back, char *buf,
			    size_t len);

/* The "ibgap-fabric/1" document (NULL when out of memory). */
json_object *ig_fab_doc(const struct ig_fab_run *r);
void ig_fab_text(FILE *f, const struct ig_fab_run *r);
/* Nothing was measured (r->k is 0: e.g. -t write_bw where no pair has
 * RDMA at both ends): -ENODATA with one line in err saying why; else 0.
 * Nothing measured is not a passed run (exit 1). */
int ig_fab_nothing(const struct ig_fab_run *r, char *err, size_t errlen);
/* Writes the report (text or JSON as o says) to o->outfile, replaced
 * atomically, or to f when there is none; 0 or -errno. */
int ig_fab_write(const struct ig_fab_run *r, FILE *f);
/* --baseline: reads and checks the "ibgap-fabric/1" document in path
 * (before any test runs); 0, or -EINVAL with one line in err. */
int ig_fab_baseline_load(const char *path, json_object **doc, char *err,
			 size_t errlen);
/* The regressions of r against doc (loaded from path), one line each to
 * f, and a last line; returns their number, or -ENODATA (with its line)
 * when nothing of doc was measured in r: nothing compared is no pass. */
int ig_fab_baseline_cmp(const struct ig_fab_run *r, json_object *doc,
			const char *path, double tol_pct, FILE *f);
/* The fingerprint keys compared for outliers, and node i's value. */
#define IG_FAB_NFPKEYS 7
extern const char *const ig_fab_fpkeys[IG_FAB_NFPKEYS];
/* --plot's heat maps (fab_plot.c): one panel per transport (verbs left,
 * TCP right) and kind (bandwidth above, latency below) measured, the
 * colour scale under them; the layout is its own function for the tests. */
struct ig_fab_panel {
	int test;    /* enum ig_test */
	double x, y; /* its top left cell's corner, px */
};
struct ig_fab_layout {
	struct ig_fab_panel p[4];
	unsigned int np;
	double cell;		 /* a cell's side, px */
	double w, h;		 /* the picture */
	double scale_x, scale_y; /* the colour scale's top left */
	double scale_w;		 /* its width: red at the left, green */
};
void ig_fab_plot_layout(const struct ig_fab_run *r, struct ig_fab_layout *l);
/* A cell's place on the colour scale, 0 (red: bandwidth half the median
 * or less, latency twice or more) to 1 (green: at the median or better),
 * of the figure the verdict used: the retest's for a transient
 * (*transient set); -1 (black) when the pair failed. */
double ig_fab_cell(const struct ig_fab_meas *m, double median, bool *transient);
/* Draws them to path (.svg or .png); 0 or -errno with one line in err. */
int ig_fab_plot(const struct ig_fab_run *r, const char *path, char *err,
		size_t errlen);

#endif
