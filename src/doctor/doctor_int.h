/* SPDX-License-Identifier: MIT */
#ifndef IG_DOCTOR_INT_H
#define IG_DOCTOR_INT_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "doctor.h"
#include "query.h"

/* One doctor run. */
struct dr {
	char root[PATH_MAX]; /* "" for "/" */
	const struct ig_doctor_query_ops *q;
	void *qctx;
	const struct ig_doctor_opts *o;
	struct ig_dr_report *r;
	int nomem; /* sticky: a finding could not be stored */
};

/* What the checks of one path learn about it. */
struct dr_pctx {
	struct ig_dr_path *p;
	bool soft;	   /* rxe, siw: no PCI device */
	bool ipoib_cm;	   /* IPoIB connected mode */
	bool ipoib_legacy; /* the ib_ipoib ULP's own data path */
	int netdev_type;   /* ARPHRD_*, -1 unknown */
};

#define DR_FMT(a, b) __attribute__((format(printf, a, b)))

/* findings.c */
struct ig_finding *dr_add(struct dr *d, enum ig_sev sev, const char *id,
			  const char *fmt, ...) DR_FMT(4, 5);
void dr_fix(struct ig_finding *f, const char *fmt, ...) DR_FMT(2, 3);
void dr_ev(struct ig_finding *f, const char *source, const char *fmt, ...)
	DR_FMT(3, 4);
void dr_read_err(struct dr *d, const char *source, int err);
void dr_sort(struct ig_dr_report *r);

/* sysfs.c: every path is as seen from the root ("/sys/..."). */
int dr_read(struct dr *d, const char *path, char *buf, size_t len);
int dr_read_quiet(struct dr *d, const char *path, char *buf, size_t len);
int dr_read_u64(struct dr *d, const char *path, uint64_t *v, bool quiet);
int dr_read_int(struct dr *d, const char *path, int *v);
bool dr_exists(struct dr *d, const char *path);
/* fopen under the root ("r"); NULL and the failure recorded */
FILE *dr_fopen(struct dr *d, const char *path);
/* basename of a symlink's target (a PCI address from ".../device") */
int dr_link_base(struct dr *d, const char *path, char *buf, size_t len);
/* Calls fn for every entry of dir (no "." or ".."), sorted; stops when fn
 * returns non-zero and returns that.  A missing dir is -ENOENT, recorded
 * unless quiet. */
int dr_list(struct dr *d, const char *dir, bool quiet,
	    int (*fn)(struct dr *d, const char *name, void *arg), void *arg);
void dr_full_path(const struct dr *d, const char *path, char *buf, size_t len);

/* util.c */
#define DR_MAX_CPUS 1024
struct dr_cpus {
	uint64_t b[DR_MAX_CPUS / 64];
};
int dr_cpus_parse(const char *list, struct dr_cpus *c);
int dr_cpus_count(const struct dr_cpus *c);
bool dr_cpus_meet(const struct dr_cpus *a, const struct dr_cpus *b);
/* "100 Gb/sec (4X EDR)" -> lanes 4, per-lane data rate; 0 or -EINVAL */
int dr_ib_rate_parse(const char *s, int *lanes, double *lane_gbps,
		     const char **name, const char **coding);
/* PCIe data rate per lane after encoding, from GT/s; 0 unknown */
double dr_pcie_lane_gbps(double gts);
const char *dr_pcie_coding(double gts);
/* 16 bytes of a GID from "fe80:0000:..." or an IPoIB hardware address */
int dr_gid_parse(const char *s, uint8_t gid[16]);
int dr_ipoib_hwaddr_gid(const char *s, uint8_t gid[16]);

/* query plumbing (map_route.c) */
void dr_query_err(struct dr *d, const char *query, const char *arg, int err);

/* map.c */
int dr_map_addr(struct dr *d, const char *addr, struct dr_pctx *c);
int dr_map_all(struct dr *d);
int dr_map_netdev(struct dr *d, const char *ifname, struct ig_dr_path *p);
void dr_pctx_of(struct dr *d, struct ig_dr_path *p, struct dr_pctx *c);
int dr_netdev_type(struct dr *d, const char *ifname, bool quiet);

/* checks_*.c */
void dr_check_port(struct dr *d, struct dr_pctx *c);
void dr_check_pcie(struct dr *d, struct dr_pctx *c);
void dr_check_ipoib(struct dr *d, struct dr_pctx *c);
void dr_check_netdev(struct dr *d, struct dr_pctx *c);
void dr_check_numa(struct dr *d, struct dr_pctx *c);
void dr_check_counters(struct dr *d, struct dr_pctx *c);
void dr_check_governor(struct dr *d);
void dr_check_sock(struct dr *d, double rate_gbps);
void dr_check_tcp_retrans(struct dr *d);

/* context.c: the context for root (live or fixture queries) */
int dr_open(struct dr *d, const struct ig_doctor_opts *o,
	    struct ig_dr_report *r);
void dr_close(struct dr *d);

#endif
