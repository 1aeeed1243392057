/* SPDX-License-Identifier: MIT */
#ifndef IG_DR_DOCTOR_INT_H
#define IG_DR_DOCTOR_INT_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "doctor.h"
#include "host/rdma_inv.h"
#include "query.h"

/* One doctor run. */
struct ig_dr {
	char root[PATH_MAX]; /* "" for "/" */
	const struct ig_dr_query_ops *q;
	void *qctx;
	const struct ig_dr_opts *o;
	struct ig_dr_report *r;
	struct ig_inv *inv; /* the RDMA inventory under root; NULL unreadable */
	int nomem;	    /* sticky: a finding could not be stored */
};

/* What the checks of one path learn about it. */
struct ig_dr_pctx {
	struct ig_dr_path *p;
	const struct ig_inv_dev *dev;	/* p's device and port in d->inv; */
	const struct ig_inv_port *port; /* NULL when it has none */
	bool soft;			/* rxe, siw: no PCI device */
	bool ipoib_cm;			/* IPoIB connected mode */
	bool ipoib_legacy;		/* the ib_ipoib ULP's own data path */
	int netdev_type;		/* ARPHRD_*, -1 unknown */
};

#define IG_DR_FMT(a, b) __attribute__((format(printf, a, b)))

/* findings.c */
struct ig_dr_finding *ig_dr_add(struct ig_dr *d, enum ig_dr_sev sev,
				const char *id, const char *fmt, ...)
	IG_DR_FMT(4, 5);
void ig_dr_fix(struct ig_dr_finding *f, const char *fmt, ...) IG_DR_FMT(2, 3);
void ig_dr_ev(struct ig_dr_finding *f, const char *source, const char *fmt, ...)
	IG_DR_FMT(3, 4);
void ig_dr_read_err(struct ig_dr *d, const char *source, int err);
/* layer (doctor.h's list) could not be examined: reason, one line */
void ig_dr_not_examined(struct ig_dr *d, const char *layer, const char *fmt,
			...) IG_DR_FMT(3, 4);

/* trial.c: what `doctor --try` changes to test f's fix.  ig_dr_try adds
 * one change (to: a format; dev "" for host-wide knobs); a trial already
 * holding IG_DR_MAX_CHANGES keeps them and returns -ENOSPC. */
int ig_dr_try(struct ig_dr_finding *f, enum ig_tune_kind k, const char *dev,
	      const char *name, const char *fmt, ...) IG_DR_FMT(5, 6);
void ig_dr_not_tried(struct ig_dr_finding *f, const char *fmt, ...)
	IG_DR_FMT(2, 3);
/* the reason of port, link and PCIe findings */
#define IG_DR_HARDWARE "hardware: not changed by a program"
void ig_dr_trials_default(struct ig_dr_report *r);
json_object *ig_dr_trial_to_json(const struct ig_dr_trial *t);
int ig_dr_trial_from_json(json_object *o, struct ig_dr_trial *t);
void ig_dr_sort(struct ig_dr_report *r);

/* sysfs.c: every path is as seen from the root ("/sys/..."). */
int ig_dr_read(struct ig_dr *d, const char *path, char *buf, size_t len);
int ig_dr_read_quiet(struct ig_dr *d, const char *path, char *buf, size_t len);
int ig_dr_read_u64(struct ig_dr *d, const char *path, uint64_t *v, bool quiet);
int ig_dr_read_int(struct ig_dr *d, const char *path, int *v);
/* The RDMA inventory's value of path (value; NULL when the inventory has
 * no such device or port) into buf; when it is "", path is read so that a
 * failure is recorded with its errno, as ig_dr_read does.  The _int form
 * for a number (the inventory's "" or -1: read). */
int ig_dr_inv_str(struct ig_dr *d, const char *value, const char *path,
		  char *buf, size_t len);
int ig_dr_inv_num(struct ig_dr *d, const char *value, const char *path, int *v);
int ig_dr_inv_int(struct ig_dr *d, int value, const char *path, int *v);
bool ig_dr_exists(struct ig_dr *d, const char *path);
/* fopen under the root ("r"); NULL and the failure recorded */
FILE *ig_dr_fopen(struct ig_dr *d, const char *path);
/* basename of a symlink's target (a PCI address from ".../device") */
int ig_dr_link_base(struct ig_dr *d, const char *path, char *buf, size_t len);
/* Calls fn for every entry of dir (no "." or ".."), sorted; stops when fn
 * returns non-zero and returns that.  A missing dir is -ENOENT, recorded
 * unless quiet. */
int ig_dr_list(struct ig_dr *d, const char *dir, bool quiet,
	       int (*fn)(struct ig_dr *d, const char *name, void *arg),
	       void *arg);

/* util.c */
#define IG_DR_MAX_CPUS 1024
struct ig_dr_cpus {
	uint64_t b[IG_DR_MAX_CPUS / 64];
};
int ig_dr_cpus_parse(const char *list, struct ig_dr_cpus *c);
int ig_dr_cpus_count(const struct ig_dr_cpus *c);
bool ig_dr_cpus_meet(const struct ig_dr_cpus *a, const struct ig_dr_cpus *b);
void ig_dr_cpus_mask(const struct ig_dr_cpus *c, char *buf, size_t len);
/* "100 Gb/sec (4X EDR)" -> lanes 4, per-lane data rate; 0 or -EINVAL */
int ig_dr_ib_rate_parse(const char *s, int *lanes, double *lane_gbps,
			const char **name, const char **coding);
/* PCIe data rate per lane after encoding, from GT/s; 0 unknown */
double ig_dr_pcie_lane_gbps(double gts);
const char *ig_dr_pcie_coding(double gts);

/* query plumbing (map_route.c) */
void ig_dr_query_err(struct ig_dr *d, const char *query, const char *arg,
		     int err);

/* map.c, map_route.c */
int ig_dr_map_addr(struct ig_dr *d, const char *addr, struct ig_dr_pctx *c);
int ig_dr_map_all(struct ig_dr *d);
int ig_dr_map_netdev(struct ig_dr *d, const char *ifname, struct ig_dr_path *p);
void ig_dr_pctx_of(struct ig_dr *d, struct ig_dr_path *p, struct ig_dr_pctx *c);
int ig_dr_netdev_type(struct ig_dr *d, const char *ifname, bool quiet);

/* checks_*.c */
void ig_dr_check_port(struct ig_dr *d, struct ig_dr_pctx *c);
void ig_dr_check_pcie(struct ig_dr *d, struct ig_dr_pctx *c);
void ig_dr_check_ipoib(struct ig_dr *d, struct ig_dr_pctx *c);
void ig_dr_check_netdev(struct ig_dr *d, struct ig_dr_pctx *c);
void ig_dr_check_queues(struct ig_dr *d, struct ig_dr_pctx *c);
void ig_dr_check_rings(struct ig_dr *d, struct ig_dr_pctx *c);
void ig_dr_check_numa(struct ig_dr *d, struct ig_dr_pctx *c);
void ig_dr_check_counters(struct ig_dr *d, struct ig_dr_pctx *c);
void ig_dr_check_governor(struct ig_dr *d);
void ig_dr_check_sock(struct ig_dr *d, double rate_gbps);
void ig_dr_check_tcp_retrans(struct ig_dr *d);
void ig_dr_check_qdisc(struct ig_dr *d, struct ig_dr_pctx *c);
void ig_dr_check_filter(struct ig_dr *d);

/* context.c: the context for root (live or fixture queries) */
int ig_dr_open(struct ig_dr *d, const struct ig_dr_opts *o,
	       struct ig_dr_report *r);
void ig_dr_close(struct ig_dr *d);

#endif
