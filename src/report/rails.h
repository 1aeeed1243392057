/* SPDX-License-Identifier: MIT */
#ifndef IG_REPORT_RAILS_H
#define IG_REPORT_RAILS_H

/*
 * The rails' report (docs/design.md, "Rails"): one block per rail, its
 * verbs and TCP figures side by side, and the rails that differ from the
 * others flagged.  ig_rails_figures and ig_rails_flag are pure.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <json-c/json.h>

#include "doctor/doctor.h"
#include "engine/result.h"
#include "host/rails.h"

/* A rail is low below this share of the median rail. */
#define IG_RAIL_LOW 0.9
#define IG_RAIL_FINDINGS 8

enum {
	IG_RAILF_VERBS_LOW = 1u << 0, /* verbs below IG_RAIL_LOW x median */
	IG_RAILF_TCP_LOW = 1u << 1,   /* TCP below it */
	IG_RAILF_FP = 1u << 2,	      /* its fingerprint differs */
};

struct ig_rail_run {
	struct ig_rail local, remote; /* remote: the server's rail */
	enum ig_rail_by by;	      /* IG_RAIL_NONE: no peer */
	int cpu;		      /* --cpu, else -1 */
	int cpu_node;		      /* threads placed on the HCA's local
				       * CPUs, of this NUMA node; -1 not */
	const struct ig_result *res;  /* this rail's results (each alone) */
	size_t n;
	char error[256]; /* the rail's session failed: why; "" ok */
	/* figures: the best bandwidth of each transport, Gb/s (0 none) */
	double verbs_gbps, tcp_gbps;
	unsigned int flags;
	char why[256];		 /* what the flags say, "" none */
	struct ig_dr_finding *f; /* the doctor's, TCP low alone */
	size_t nf;
	size_t nshared; /* findings left out: a rail not odd has them too */
};

/* --rails-mode together: each transport's figures at once. */
struct ig_rails_sum {
	double each, together; /* Gb/s: the sum of each alone, at once */
};

struct ig_rails_report {
	struct ig_rail_run *r;
	size_t n;
	bool together; /* the rails also ran at once */
	/* together: each rail's best figures when all ran at once */
	double *verbs_together, *tcp_together;
	struct ig_rails_sum verbs, tcp;
};

/* A rail without an IPv4 address, here or on its peer, runs no TCP test
 * (and its verbs connect without rdma_cm). */
static inline bool ig_rail_no_addr(const struct ig_rail_run *r)
{
	return !r->local.addr[0] ||
	       (r->by != IG_RAIL_NONE && !r->remote.addr[0]);
}

/* The rail's best figures from its results. */
void ig_rails_figures(struct ig_rail_run *r);
/* Flags the rails that differ from the others (below IG_RAIL_LOW of the
 * median rail, or a fingerprint field that differs: fw_ver, link_rate,
 * mtu, ipoib_mode), with their why. */
void ig_rails_flag(struct ig_rail_run *r, size_t n);
/* TCP is low and verbs is not. */
bool ig_rail_tcp_low_alone(const struct ig_rail_run *r);

/* The report's "rails" array (NULL when out of memory). */
json_object *ig_rails_json(const struct ig_rails_report *rep);
/* together: {verbs: {each_gbps, together_gbps, ratio}, tcp: ...}. */
json_object *ig_rails_together_json(const struct ig_rails_report *rep);
void ig_rails_text(FILE *f, const struct ig_rails_report *rep);

#endif
