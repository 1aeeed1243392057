// SPDX-License-Identifier: MIT
/*
 * The knobs this layer knows (tune.h): their kinds, names and value
 * shapes.  Pure: nothing here touches the system.
 */
#include <ctype.h>
#include <errno.h>
#include <linux/pkt_sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fail.h"
#include "tune_int.h"

static const char *const kind_names[IG_TUNE_KIND_MAX] = {
	[IG_TUNE_SYSCTL] = "sysctl",
	[IG_TUNE_FEATURE] = "feature",
	[IG_TUNE_RING] = "ring",
	[IG_TUNE_COALESCE] = "coalesce",
	[IG_TUNE_CHANNELS] = "channels",
	[IG_TUNE_RPS] = "rps",
	[IG_TUNE_XPS] = "xps",
	[IG_TUNE_IRQ] = "irq",
	[IG_TUNE_GOVERNOR] = "governor",
	[IG_TUNE_MTU] = "mtu",
	[IG_TUNE_IPOIB_MODE] = "ipoib_mode",
	[IG_TUNE_QDISC] = "qdisc",
};

const char *ig_tune_kind_name(enum ig_tune_kind k)
{
	return (unsigned)k < IG_TUNE_KIND_MAX ? kind_names[k] : NULL;
}

int ig_tune_kind_parse(const char *s, enum ig_tune_kind *k)
{
	for (int i = 0; i < IG_TUNE_KIND_MAX; i++)
		if (!strcmp(s, kind_names[i])) {
			*k = (enum ig_tune_kind)i;
			return 0;
		}
	return -EINVAL;
}

/* The value shapes. */
enum shape {
	SH_U32,	    /* a decimal number */
	SH_ONOFF,   /* on, off */
	SH_TRIPLE,  /* three numbers: tcp_rmem */
	SH_WORD,    /* [a-z0-9_], 1-15: a congestion control, a governor */
	SH_PROBING, /* 0, 1, 2 */
	SH_MASK,    /* hex digits and commas: a cpu mask */
	SH_CPULIST, /* 0-3,5 */
	SH_MTU,	    /* 68-65535 */
	SH_MODE,    /* datagram, connected */
	SH_QDISC,   /* "" or a saved qdisc */
};

struct knob_name {
	const char *name;
	enum shape shape;
};

static const struct knob_name sysctls[] = {
	{ "net.core.rmem_max", SH_U32 },
	{ "net.core.wmem_max", SH_U32 },
	{ "net.core.rmem_default", SH_U32 },
	{ "net.core.wmem_default", SH_U32 },
	{ "net.core.netdev_max_backlog", SH_U32 },
	{ "net.core.busy_poll", SH_U32 },
	{ "net.core.busy_read", SH_U32 },
	{ "net.ipv4.tcp_rmem", SH_TRIPLE },
	{ "net.ipv4.tcp_wmem", SH_TRIPLE },
	{ "net.ipv4.tcp_congestion_control", SH_WORD },
	{ "net.ipv4.tcp_mtu_probing", SH_PROBING },
	{ NULL, 0 },
};

static const struct knob_name coalesce[] = {
	{ "adaptive-rx", SH_ONOFF }, { "rx-usecs", SH_U32 },
	{ "rx-frames", SH_U32 },     { "tx-usecs", SH_U32 },
	{ "tx-frames", SH_U32 },     { NULL, 0 },
};

static const struct knob_name rings[] = {
	{ "rx", SH_U32 },
	{ "tx", SH_U32 },
	{ NULL, 0 },
};

static const struct knob_name channels[] = {
	{ "combined", SH_U32 },
	{ "rx", SH_U32 },
	{ "tx", SH_U32 },
	{ NULL, 0 },
};

static const struct knob_name qdiscs[] = {
	{ "root", SH_QDISC },
	{ "ingress", SH_QDISC },
	{ NULL, 0 },
};

/* Our feature names and the kernel's strings (ETH_SS_FEATURES) behind
 * each, as ethtool -K maps them. */
static const char *const f_gro[] = { "rx-gro", NULL };
static const char *const f_gso[] = { "tx-generic-segmentation", NULL };
static const char *const f_tso[] = { "tx-tcp-segmentation",
				     "tx-tcp-ecn-segmentation",
				     "tx-tcp-mangleid-segmentation",
				     "tx-tcp6-segmentation", NULL };
static const char *const f_lro[] = { "rx-lro", NULL };
static const char *const f_rxcsum[] = { "rx-checksum", NULL };
static const char *const f_txcsum[] = {
	"tx-checksum-ipv4",	"tx-checksum-ip-generic", "tx-checksum-ipv6",
	"tx-checksum-fcoe-crc", "tx-checksum-sctp",	  NULL
};
static const char *const f_sg[] = { "tx-scatter-gather", NULL };

static const struct {
	const char *name;
	const char *const *strings;
} features[] = {
	{ "gro", f_gro }, { "gso", f_gso },	   { "tso", f_tso },
	{ "lro", f_lro }, { "rx-csum", f_rxcsum }, { "tx-csum", f_txcsum },
	{ "sg", f_sg },
};

const char *const *ig_tune_feature_strings(const char *name)
{
	for (size_t i = 0; i < sizeof(features) / sizeof(features[0]); i++)
		if (!strcmp(name, features[i].name))
			return features[i].strings;
	return NULL;
}

int ig_tune_onoff(const char *s)
{
	if (!strcmp(s, "on"))
		return 1;
	return strcmp(s, "off") ? -1 : 0;
}

int ig_tune_u32(const char *s, uint32_t *v)
{
	unsigned long long u;
	char *end;

	if (!isdigit((unsigned char)*s) || strlen(s) > 10)
		return -EINVAL;
	errno = 0;
	u = strtoull(s, &end, 10);
	if (errno || *end || u > UINT32_MAX)
		return -EINVAL;
	*v = (uint32_t)u;
	return 0;
}

int ig_tune_cpu_range(const char *t, uint32_t *a, uint32_t *b)
{
	char buf[32], *dash;

	if (strncmp(t, "cpu", 3) || strlen(t + 3) >= sizeof(buf))
		return -EINVAL;
	snprintf(buf, sizeof(buf), "%s", t + 3);
	dash = strchr(buf, '-');
	if (dash)
		*dash++ = 0;
	if (ig_tune_u32(buf, a) || ig_tune_u32(dash ? dash : buf, b) ||
	    *a > *b || *b >= 4096)
		return -EINVAL;
	return 0;
}

static const struct knob_name *find(const struct knob_name *t, const char *name)
{
	for (; t->name; t++)
		if (!strcmp(t->name, name))
			return t;
	return NULL;
}

/* s holds only characters of set, and 1 to max of them. */
static bool only(const char *s, const char *set, size_t max)
{
	size_t n = strlen(s);

	return n && n <= max && strspn(s, set) == n;
}

/* A queue name: prefix then a number, "rx-0". */
static bool queue_name(const char *name, const char *prefix)
{
	size_t n = strlen(prefix);
	uint32_t q;

	return !strncmp(name, prefix, n) && !ig_tune_u32(name + n, &q) &&
	       q < 65536;
}

/* Three numbers with one space between: "4096 131072 6291456". */
static bool triple(const char *v)
{
	char buf[64], *save = NULL, *t;
	int n = 0;
	uint32_t u;

	if (strlen(v) >= sizeof(buf) || strstr(v, "  ") || *v == ' ')
		return false;
	snprintf(buf, sizeof(buf), "%s", v);
	for (t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save))
		if (ig_tune_u32(t, &u) || ++n > 3)
			return false;
	return n == 3;
}

static bool shape_ok(enum shape sh, const char *v)
{
	struct ig_qdisc_saved q;
	uint32_t u;

	switch (sh) {
	case SH_U32:
		return !ig_tune_u32(v, &u);
	case SH_ONOFF:
		return ig_tune_onoff(v) >= 0;
	case SH_TRIPLE:
		return triple(v);
	case SH_WORD:
		return only(v, "abcdefghijklmnopqrstuvwxyz0123456789_-", 15);
	case SH_PROBING:
		return !ig_tune_u32(v, &u) && u <= 2;
	case SH_MASK:
		return only(v, "0123456789abcdefABCDEF,", IG_TUNE_VAL_LEN - 1);
	case SH_CPULIST:
		return only(v, "0123456789,-", IG_TUNE_VAL_LEN - 1);
	case SH_MTU:
		return !ig_tune_u32(v, &u) && u >= 68 && u <= 65535;
	case SH_MODE:
		return !strcmp(v, "datagram") || !strcmp(v, "connected");
	case SH_QDISC:
		return !*v || !ig_qdisc_parse(v, &q);
	}
	return false;
}

static const char *const shape_text[] = {
	[SH_U32] = "a decimal number below 2^32",
	[SH_ONOFF] = "on or off",
	[SH_TRIPLE] = "three numbers with one space between",
	[SH_WORD] = "a name of 1-15 characters [a-z0-9_-]",
	[SH_PROBING] = "0, 1 or 2",
	[SH_MASK] = "a hex cpu mask (0-9a-f and commas)",
	[SH_CPULIST] = "a cpu list like 0-3,5",
	[SH_MTU] = "68 to 65535",
	[SH_MODE] = "datagram or connected",
	[SH_QDISC] = "\"\" or a qdisc saved by ibgap",
};

static bool in_list(const char *const *l, const char *s)
{
	for (; l && *l; l++)
		if (!strcmp(*l, s))
			return true;
	return false;
}

/* The old value of a feature whose strings differed: "tx-tcp-segmentation=on
 * tx-tcp6-segmentation=off" (names of its group only); of governor "all"
 * whose cpus differed: "cpu0=performance cpu1=powersave". */
static bool pairs_ok(const struct ig_tune_change *c, const char *v)
{
	char buf[IG_TUNE_VAL_LEN], *save = NULL, *t, *eq;
	bool feat = c->kind == IG_TUNE_FEATURE;
	uint32_t u, w;

	snprintf(buf, sizeof(buf), "%s", v);
	for (t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
		eq = strchr(t, '=');
		if (!eq)
			return false;
		*eq = 0;
		if (feat && (ig_tune_onoff(eq + 1) < 0 ||
			     !in_list(ig_tune_feature_strings(c->name), t)))
			return false;
		if (!feat && (ig_tune_cpu_range(t, &u, &w) ||
			      !shape_ok(SH_WORD, eq + 1)))
			return false;
	}
	return true;
}

/* The shape of the values of c's knob, or -1 when its name is not one
 * of its kind's; *names: what is allowed, for the error line. */
static int name_shape(const struct ig_tune_change *c, const char **names)
{
	static const struct {
		const struct knob_name *t;
		const char *names;
	} tabs[IG_TUNE_KIND_MAX] = {
		[IG_TUNE_SYSCTL] = { sysctls,
				     "net.core.{r,w}mem_{max,default}, net.core.netdev_max_backlog, net.core.busy_{poll,read}, net.ipv4.tcp_{r,w}mem, net.ipv4.tcp_congestion_control, net.ipv4.tcp_mtu_probing" },
		[IG_TUNE_RING] = { rings, "rx, tx" },
		[IG_TUNE_COALESCE] = { coalesce,
				       "adaptive-rx, rx-usecs, rx-frames, tx-usecs, tx-frames" },
		[IG_TUNE_CHANNELS] = { channels, "combined, rx, tx" },
		[IG_TUNE_QDISC] = { qdiscs, "root, ingress" },
	};
	const struct knob_name *k;
	uint32_t u;

	*names = tabs[c->kind].names;
	switch (c->kind) {
	case IG_TUNE_FEATURE:
		*names = "gro, gso, tso, lro, rx-csum, tx-csum, sg";
		return ig_tune_feature_strings(c->name) ? SH_ONOFF : -1;
	case IG_TUNE_RPS:
		*names = "rx-N";
		return queue_name(c->name, "rx-") ? SH_MASK : -1;
	case IG_TUNE_XPS:
		*names = "tx-N";
		return queue_name(c->name, "tx-") ? SH_MASK : -1;
	case IG_TUNE_IRQ:
		*names = "an IRQ number";
		return ig_tune_u32(c->name, &u) || u > 1u << 20 ? -1
								: SH_CPULIST;
	case IG_TUNE_GOVERNOR:
		*names = "all or cpuN";
		return !strcmp(c->name, "all") || queue_name(c->name, "cpu")
			       ? SH_WORD
			       : -1;
	case IG_TUNE_MTU:
		*names = "\"\"";
		return *c->name ? -1 : SH_MTU;
	case IG_TUNE_IPOIB_MODE:
		*names = "\"\"";
		return *c->name ? -1 : SH_MODE;
	default:
		k = find(tabs[c->kind].t, c->name);
		return k ? (int)k->shape : -1;
	}
}

/* v is "" or a qdisc saved for c's place (root or ingress). */
static bool qdisc_here(const struct ig_tune_change *c, const char *v)
{
	struct ig_qdisc_saved q;

	if (!*v || ig_qdisc_parse(v, &q))
		return true; /* the shape is checked apart */
	return q.parent == (strcmp(c->name, "root") ? TC_H_INGRESS : TC_H_ROOT);
}

static bool has_dev(enum ig_tune_kind k)
{
	return k != IG_TUNE_SYSCTL && k != IG_TUNE_IRQ && k != IG_TUNE_GOVERNOR;
}

/* The kernel's rule for a netdev name (dev_valid_name). */
static bool dev_ok(const char *d)
{
	size_t n = strnlen(d, IG_TUNE_DEV_LEN);

	if (!n || n > 15 || !strcmp(d, ".") || !strcmp(d, ".."))
		return false;
	for (; *d; d++)
		if (*d == '/' || *d == ':' || isspace((unsigned char)*d) ||
		    !isprint((unsigned char)*d))
			return false;
	return true;
}

static int check_dev(const struct ig_tune_change *c, const char *kn, char *err,
		     size_t len)
{
	if (!has_dev(c->kind) && *c->dev)
		return ig_fail(
			-EINVAL, err, len,
			"tune: %s %s has no netdev, but \"%.32s\" was given",
			kn, c->name, c->dev);
	if (has_dev(c->kind) && !dev_ok(c->dev))
		return ig_fail(
			-EINVAL, err, len,
			"tune: netdev \"%.32s\" of %s %s: a name of 1-15 characters without '/', ':' or spaces, not \".\" or \"..\"",
			c->dev, kn, c->name);
	return 0;
}

int ig_tune_check(const struct ig_tune_change *c, char *err, size_t len)
{
	const char *kn = ig_tune_kind_name(c->kind), *names;
	int sh, ret;

	if (!kn)
		return ig_fail(
			-EINVAL, err, len,
			"tune: kind %d is unknown; allowed: sysctl, feature, ring, coalesce, channels, rps, xps, irq, governor, mtu, ipoib_mode, qdisc",
			(int)c->kind);
	ret = check_dev(c, kn, err, len);
	if (ret)
		return ret;
	sh = name_shape(c, &names);
	if (sh < 0)
		return ig_fail(
			-EINVAL, err, len,
			"tune: %s name \"%.64s\" is not known; allowed: %s", kn,
			c->name, names);
	if (!shape_ok((enum shape)sh, c->to))
		return ig_fail(-EINVAL, err, len,
			       "tune: %s %s: value \"%.80s\" to set is not %s",
			       kn, c->name, c->to, shape_text[sh]);
	if (*c->from && !shape_ok((enum shape)sh, c->from) &&
	    !((c->kind == IG_TUNE_FEATURE ||
	       (c->kind == IG_TUNE_GOVERNOR && !strcmp(c->name, "all"))) &&
	      pairs_ok(c, c->from)))
		return ig_fail(-EINVAL, err, len,
			       "tune: %s %s: old value \"%.80s\" is not %s", kn,
			       c->name, c->from, shape_text[sh]);
	if (c->kind == IG_TUNE_QDISC &&
	    (!qdisc_here(c, c->to) || !qdisc_here(c, c->from)))
		return ig_fail(
			-EINVAL, err, len,
			"tune: a qdisc of %s saved for another place than %s (root qdiscs go to root, ingress and clsact to ingress)",
			c->dev, c->name);
	return 0;
}

bool ig_tune_down_up(const struct ig_tune_change *c)
{
	return c->kind == IG_TUNE_MTU || c->kind == IG_TUNE_IPOIB_MODE;
}
