/* SPDX-License-Identifier: MIT */
#ifndef IG_FAB_TOPO_H
#define IG_FAB_TOPO_H

/*
 * The fabric's topology (--topology FILE, docs/fabric.md "Topology"): a
 * graph of hosts and switches read from Slurm's topology.conf or from the
 * text output of ibnetdiscover (topo.c), the path between two hosts and
 * its hop distance (topo_path.c).  Pure but for the one call that opens
 * the file.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum ig_topo_kind { IG_TOPO_HOST, IG_TOPO_SWITCH };
enum ig_topo_format { IG_TOPO_SLURM, IG_TOPO_IBNET };

struct ig_topo_vert {
	char name[64]; /* a host's short name (or address), a switch's */
	enum ig_topo_kind kind;
};

/* One link (several cables between the same two are one link); a < b. */
struct ig_topo_link {
	unsigned int a, b; /* vertex indices */
};

struct ig_topo {
	enum ig_topo_format format;
	struct ig_topo_vert *v;
	unsigned int nv;
	struct ig_topo_link *l; /* sorted by (a, b) */
	unsigned int nl;
	/* each vertex's links, by the other end's index: adj[off[i] ..
	 * off[i + 1]) are link indices */
	unsigned int *off, *adj;
};

/*
 * Reads a topology from f (name: the file's name, for the errors).  The
 * format is decided by the first line that is not blank nor a comment:
 * "SwitchName=" is Slurm's topology.conf (SwitchName, Switches, Nodes,
 * LinkSpeed ignored; hostlists such as node[01-16],n[1-3,7]), anything
 * ibnetdiscover writes (vendid=, Switch, Ca, ...) is ibnetdiscover's
 * output: switches by their node description (their "S-GUID" when that
 * is empty or not unique), hosts by the first word of their CAs' node
 * descriptions ("n01 HCA-1": n01), links from the port lines.  Returns 0,
 * -EINVAL with one line in err ("FILE:LINE: what is wrong"), or -ENOMEM.
 * t is cleared first, and freed on a failure.
 */
int ig_topo_parse(FILE *f, const char *name, struct ig_topo *t, char *err,
		  size_t errlen);
/* The same from the file at path; -errno with one line when it cannot
 * be opened. */
int ig_topo_read(const char *path, struct ig_topo *t, char *err, size_t errlen);
void ig_topo_free(struct ig_topo *t);

/* A vertex by kind and name, or -1.  O(nv). */
int ig_topo_vertex(const struct ig_topo *t, enum ig_topo_kind kind,
		   const char *name);

/* The host vertex of a rank: its address (addr, numeric) when the file
 * names it, else its short host name (host up to the first '.'; a file's
 * names are compared the same way), or -1 (unplaced).  O(nv). */
int ig_topo_place(const struct ig_topo *t, const char *host, const char *addr);

/* ---- paths (topo_path.c) ---- */

/* A host vertex's leaf: the first switch it links to (in the order of
 * its links), or -1 (v not a vertex, or no switch among its links). */
int ig_topo_leaf(const struct ig_topo *t, int v);

#define IG_TOPO_PATH_MAX 64 /* links on a path, at most */

/* A breadth-first search from one host: the shortest paths from it,
 * through switches only; deterministic: a vertex's links are taken in the
 * order of the other end's index, and the first to reach a vertex wins
 * (of several equal spines, the one of the lowest index: ECMP or adaptive
 * routing may take another). */
struct ig_topo_bfs {
	const struct ig_topo *t;
	unsigned int src;
	unsigned int *via;   /* nv: the link a vertex was reached by */
	unsigned int *dist;  /* nv: links from src, UINT_MAX unreached */
	unsigned int *queue; /* nv */
};

int ig_topo_bfs_init(struct ig_topo_bfs *b, const struct ig_topo *t);
void ig_topo_bfs_free(struct ig_topo_bfs *b);
/* The paths from src (a vertex); O(nv + nl). */
void ig_topo_bfs_from(struct ig_topo_bfs *b, unsigned int src);
/*
 * The links from b's src to dst, src's end first, into links[0..max);
 * returns how many (the path's length, also when more than max), or -1
 * when dst is not reachable.
 */
int ig_topo_bfs_path(const struct ig_topo_bfs *b, unsigned int dst,
		     unsigned int *links, unsigned int max);
/* The switch-to-switch links among links[0..n): the hop distance (same
 * leaf 0, via one spine level 2, ...). */
unsigned int ig_topo_hops(const struct ig_topo *t, const unsigned int *links,
			  unsigned int n);

/* Pairs of ranks for the two calls below: pair i's ranks are at
 * a + i * stride and b + i * stride (bytes: a member of the caller's
 * struct), place[rank] its host vertex, -1 unplaced. */
struct ig_topo_pairs {
	const struct ig_topo *t;
	const int *place;
	const unsigned int *a, *b;
	size_t stride, k;
};

/* Called with pair i's path: src its lower vertex, links[0..n) from src
 * (n -1: an end unplaced, or the two not connected); non-zero stops. */
typedef int (*ig_topo_path_fn)(void *ctx, size_t i, unsigned int src,
			       const unsigned int *links, int n);
/* fn for every pair, in the order of their lower vertex (one search
 * each); fn's non-zero return, or -ENOMEM, else 0. */
int ig_topo_pair_paths(const struct ig_topo_pairs *ps, ig_topo_path_fn fn,
		       void *ctx);

/*
 * The hop distance of each pair (a[i], b[i]) of ranks, i < k, into
 * hops[i] (-1 when a rank is unplaced, place[rank] < 0, or the two are
 * not connected); place[] maps a rank to its host vertex.  For the
 * verdicts per hop distance.  0 or -ENOMEM.
 */
int ig_topo_pair_hops(const struct ig_topo *t, const int *place,
		      const unsigned int *a, const unsigned int *b, size_t k,
		      int *hops);

#endif
