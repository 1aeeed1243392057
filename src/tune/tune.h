/* SPDX-License-Identifier: MIT */
#ifndef IG_TUNE_H
#define IG_TUNE_H

/*
 * The tune layer: one setting of this host (a "knob") read, changed and
 * put back, for `ibgap doctor --try` (docs/design.md, "Trials").  A change
 * names its knob by kind, netdev and name; the knobs are a closed list (no
 * path or command comes from outside: a server that applies a client's
 * change builds every path itself and refuses any other name).  Every
 * change made goes first into a journal (journal.h) so that it can be
 * put back after a crash.  Includes common only.
 */
#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

enum ig_tune_kind {
	IG_TUNE_SYSCTL,	    /* name: "net.ipv4.tcp_rmem" (a listed sysctl) */
	IG_TUNE_FEATURE,    /* dev; name: gro, gso, tso, lro, rx-csum,
			       tx-csum, sg; value: "on" or "off" */
	IG_TUNE_RING,	    /* dev; name: rx, tx; value: entries */
	IG_TUNE_COALESCE,   /* dev; name: adaptive-rx ("on"/"off"),
			       rx-usecs, rx-frames, tx-usecs, tx-frames */
	IG_TUNE_CHANNELS,   /* dev; name: combined, rx, tx; value: count */
	IG_TUNE_RPS,	    /* dev; name: rx-N; value: rps_cpus hex mask */
	IG_TUNE_XPS,	    /* dev; name: tx-N; value: xps_cpus hex mask */
	IG_TUNE_IRQ,	    /* name: IRQ number; value: smp_affinity_list */
	IG_TUNE_GOVERNOR,   /* name: "all" or cpuN; value: a governor (the
			       old value of "all": "cpu0=x cpu1=y ...") */
	IG_TUNE_MTU,	    /* dev; value: bytes (down/up) */
	IG_TUNE_IPOIB_MODE, /* dev; value: datagram, connected (down/up) */
	IG_TUNE_QDISC,	    /* dev; name: root, ingress; value: "" (none,
			       the kernel's default) or the qdisc as
			       saved by this layer (ig_tune_read) */
	IG_TUNE_KIND_MAX,
};

#define IG_TUNE_DEV_LEN 32
#define IG_TUNE_NAME_LEN 64
#define IG_TUNE_VAL_LEN 512
/* what ig_tune_cmd() writes at most (a value, a netdev and a name in a
 * command line) */
#define IG_TUNE_CMD_LEN \
	(IG_TUNE_VAL_LEN + IG_TUNE_DEV_LEN + IG_TUNE_NAME_LEN + 128)

/* One change of one knob.  to is what the change sets; from is filled by
 * ig_tune_apply() (the value read just before) and is what a revert puts
 * back. */
struct ig_tune_change {
	enum ig_tune_kind kind;
	char dev[IG_TUNE_DEV_LEN];   /* netdev, "" for host-wide knobs */
	char name[IG_TUNE_NAME_LEN]; /* which knob of the kind, see above */
	char to[IG_TUNE_VAL_LEN];
	char from[IG_TUNE_VAL_LEN];
};

/* "sysctl", "feature", "ring", "coalesce", "channels", "rps", "xps",
 * "irq", "governor", "mtu", "ipoib_mode", "qdisc"; NULL out of range. */
const char *ig_tune_kind_name(enum ig_tune_kind k);
/* -EINVAL for an unknown name. */
int ig_tune_kind_parse(const char *s, enum ig_tune_kind *k);

/* The change is one this layer knows (kind, name in its list, dev a
 * plausible netdev name, values of the right shape): 0, or -EINVAL with
 * one line in err naming what is wrong.  Run on every change that comes
 * over the wire. */
int ig_tune_check(const struct ig_tune_change *c, char *err, size_t len);

/* The change takes its netdev down and up (MTU, IPoIB mode): a
 * connection over that netdev may break. */
bool ig_tune_down_up(const struct ig_tune_change *c);

/* The command a person would type for the change (revert false: set to;
 * true: put from back), e.g. "sysctl -w net.ipv4.tcp_rmem='4096 131072
 * 6291456'", "ethtool -K ib0 gro on", "tc qdisc del dev ib0 root". */
void ig_tune_cmd(const struct ig_tune_change *c, bool revert, char *buf,
		 size_t len);

/* Live system.  root is the prefix for /proc and /sys (NULL: "/"); the
 * netlink and ioctl knobs act on the caller's network namespace. */

/* The knob's current value, as this layer writes it (sysctl text with
 * single spaces, "on"/"off", numbers, the saved qdisc).  0 or -errno
 * (-ENOENT no such knob here, -EOPNOTSUPP the driver lacks it). */
int ig_tune_read(const char *root, const struct ig_tune_change *c, char *val,
		 size_t len);
/* Reads c->from, then sets c->to.  0, or -errno with one line in err; on
 * failure nothing is left changed (a partial write is put back). */
int ig_tune_apply(const char *root, struct ig_tune_change *c, char *err,
		  size_t len);
/* Puts c->from back.  0 or -errno with one line in err. */
int ig_tune_revert(const char *root, const struct ig_tune_change *c, char *err,
		   size_t len);
/* This process may change knobs of this kind (root, or CAP_NET_ADMIN for
 * the network knobs, CAP_SYS_ADMIN for governor and IRQs): 0 or -EPERM. */
int ig_tune_allowed(const struct ig_tune_change *c);

/* {"kind", "dev", "name", "to", "from"?, "cmd", "revert"} ("from" and
 * "revert" once known); from_json checks the change (ig_tune_check) and
 * returns 0 or -EINVAL with one line in err. */
json_object *ig_tune_to_json(const struct ig_tune_change *c);
int ig_tune_from_json(json_object *o, struct ig_tune_change *c, char *err,
		      size_t len);

#endif
