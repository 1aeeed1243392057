/* SPDX-License-Identifier: MIT */
#ifndef IG_DR_DOCTOR_H
#define IG_DR_DOCTOR_H

/*
 * ibgap doctor: why TCP (IPoIB or the RoCE netdev) reaches less than verbs
 * on the same HCA, from what the hosts themselves report (docs/design.md,
 * "Doctor").  Every file is read under a root prefix (opts.root) and every
 * other query (netlink, ethtool ioctls, ibv_query_port) goes through an ops
 * table (query.h), so that a test can point the doctor at a fixture tree.
 * A read that fails is recorded in the report and never stops the checks.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/socket.h>

#include <json-c/json.h>

#include "tune/tune.h"

enum ig_dr_sev {
	IG_DR_SEV_INFO,
	IG_DR_SEV_WARN,
	IG_DR_SEV_CRIT,
};

#define IG_DR_MAX_EV 4
#define IG_DR_MAX_PATHS 8
/* round trip assumed for the bandwidth-delay product when none is
 * measured (a data-centre TCP round trip, stack included) */
#define IG_DR_DEFAULT_RTT_US 100.0

/* One fact behind a finding: where it was read, and what it said. */
struct ig_dr_evidence {
	char source[160]; /* "/sys/..." as seen from the root, or a query:
			     "ethtool_features(ib0)", "ibv_query_port(...)" */
	char value[128];
};

#define IG_DR_MAX_CHANGES 4

/* What `ibgap doctor --try` changes to test a finding's fix on the side
 * where it was found (docs/design.md, "Trials"): n changes made together
 * (and put back together), or n == 0 and not_tried saying why no program
 * tries it ("" when the finding has no fix at all). */
struct ig_dr_trial {
	unsigned int n;
	struct ig_tune_change c[IG_DR_MAX_CHANGES];
	char not_tried[160];
};

struct ig_dr_finding {
	enum ig_dr_sev sev;
	char id[40]; /* stable, e.g. "ipoib.mtu.partition" */
	char what[320];
	char fix[256]; /* "" when there is nothing to do */
	unsigned int nev;
	struct ig_dr_evidence ev[IG_DR_MAX_EV];
	struct ig_dr_trial trial;
};

/* A read or query that failed, and why (strerror). */
struct ig_dr_read_err {
	char source[160];
	char error[96];
};

/* A layer a packet crosses that the checks could not see, and why:
 * layer "socket", "qdisc", "filter", "conntrack", "offloads", "rings",
 * "coalescing", "channels", "rps", "irqs", "cpufreq", "ipoib", "port",
 * "pcie"; never skipped silently. */
struct ig_dr_not_examined {
	char layer[16];
	char reason[160];
};

/* Address -> route -> netdev -> RDMA device and port. */
struct ig_dr_path {
	char addr[64];	     /* "" when a netdev is examined on its own */
	char route_type[16]; /* "unicast", "local", "" when not looked up */
	char route_dev[32];  /* netdev the route leaves through */
	char src[64];	     /* source address the route picks, "" */
	char netdev[32];     /* the netdev that carries the traffic */
	char kind[16];	     /* "ipoib", "roce", "loopback", "none" */
	char rdma_dev[64];   /* "" when kind is not ipoib or roce */
	int port;	     /* HCA port, 0 unknown */
	char link_layer[16]; /* "InfiniBand", "Ethernet", "" */
	double rate_gbps;    /* port data rate after encoding, 0 unknown */
};

struct ig_dr_report {
	struct ig_dr_finding *f; /* sorted: crit, warn, info; stable */
	size_t n, cap;
	struct ig_dr_read_err *err;
	size_t nerr, errcap;
	struct ig_dr_not_examined *ne;
	size_t nne, necap;
	struct ig_dr_path paths[IG_DR_MAX_PATHS];
	size_t npaths;
	bool fixture; /* the fixture queries answered (root/.ibgap-fixture) */
	double rtt_us;
	size_t dropped; /* findings left out to fit a message (remote) */
};

struct ig_dr_opts {
	const char *root; /* NULL or "/": the live system */
	/* numeric address of the peer (client side) or of this end of the
	 * control connection (server side, addr_is_local); NULL: examine
	 * every netdev that has an RDMA device */
	const char *addr;
	bool addr_is_local;
	uint64_t window;   /* --window, 0 none */
	double rtt_us;	   /* measured round trip, 0: IG_DR_DEFAULT_RTT_US */
	bool no_inventory; /* the RDMA inventory not read (nothing mapped) */
};

/*
 * Runs every check.  Returns 0 (findings and failed reads in r, which the
 * caller frees with ig_dr_report_free), -ENOENT when root is not a
 * directory, or -ENOMEM.
 */
int ig_dr_run(const struct ig_dr_opts *o, struct ig_dr_report *r);
void ig_dr_report_free(struct ig_dr_report *r);

/*
 * For the comparison report: the most severe findings (crit, then warn;
 * never info) for the path to addr (the server's address as the client
 * connected to it), with the live queries, or the fixture ones when
 * root/.ibgap-fixture exists (root NULL = "/").  window is --window (0
 * none).  Copies at most max findings into out; returns how many, or a
 * negative errno.
 */
int ig_dr_top(const char *root, const struct sockaddr *addr, uint64_t window,
	      struct ig_dr_finding *out, size_t max);

/*
 * The IPoIB mode of the path to addr, from the doctor's IPoIB checks:
 * "datagram" (legacy datagram or enhanced IPoIB, which is datagram only),
 * "connected", or "" (not IPoIB, or the mode could not be read).  Returns
 * 0 or a negative errno (mode is then "").
 */
int ig_dr_ipoib_mode(const char *root, const struct sockaddr *addr, char *mode,
		     size_t len);

/*
 * Error counters of the HCA port behind addr and the host's TCP
 * retransmits, for a before/after comparison around a run.
 */
#define IG_DR_NCOUNTERS 24
struct ig_dr_counters {
	char rdma_dev[64];
	int port;
	uint64_t v[IG_DR_NCOUNTERS];
	bool has[IG_DR_NCOUNTERS];
	bool has_tcp;
	uint64_t tcp_out_segs, tcp_retrans_segs;
	bool loopback; /* the path is the loopback device: no NIC on it */
};

/* Snapshot; 0 or a negative errno (a counter that cannot be read is only
 * absent: has[i] false). */
int ig_dr_counters_read(const char *root, const struct sockaddr *addr,
			struct ig_dr_counters *c);
/* Snapshot again of a's device and port (and TCP): no address mapped, no
 * RDMA inventory read, for the end of the run a began; as above. */
int ig_dr_counters_again(const char *root, const struct ig_dr_counters *a,
			 struct ig_dr_counters *b);
/* Findings "run.port_errors" and "run.tcp_retrans" for what grew between
 * a and b; returns how many were written into out (at most max). */
size_t ig_dr_counters_diff(const struct ig_dr_counters *a,
			   const struct ig_dr_counters *b,
			   struct ig_dr_finding *out, size_t max);

/* Report <-> JSON: {"paths": [...], "findings": [...], "read_errors":
 * [...], "not_examined": [{layer, reason}]}; a finding's "trial" is
 * {"changes": [change...]} or {"not_tried": "..."}; from_json checks each
 * change and returns 0 or -EINVAL (-ENOMEM). */
json_object *ig_dr_report_to_json(const struct ig_dr_report *r);
int ig_dr_report_from_json(json_object *o, struct ig_dr_report *r);
json_object *ig_dr_finding_to_json(const struct ig_dr_finding *f);
const char *ig_dr_sev_name(enum ig_dr_sev s);

/* Text for people; title names the host. */
void ig_dr_report_print(FILE *f, const char *title,
			const struct ig_dr_report *r);

struct ig_ctrl;
/* Server side of DOCTOR: runs the checks for the control socket's local
 * address and answers FINDINGS.  0 or a negative errno (c->err says). */
int ig_dr_serve(struct ig_ctrl *c, json_object *body);

#endif
