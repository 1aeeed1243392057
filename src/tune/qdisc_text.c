// SPDX-License-Identifier: MIT
/*
 * A qdisc saved in a knob's value (tune_int.h): "kind=tbf handle=8001:
 * parent=root opts=HEX", HEX the raw TCA_OPTIONS attribute of the kernel's
 * dump; and the tc command that recreates it, read with libnl's getters
 * from a message built of those options.  Pure: no socket is opened.
 */
#include <errno.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <netlink/msg.h>
#include <netlink/route/qdisc.h>
#include <netlink/route/qdisc/htb.h>
#include <netlink/route/qdisc/tbf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tune_int.h"

static int unhex(const char *h, struct ig_qdisc_saved *q)
{
	size_t n = strlen(h);

	if (n % 2 || n / 2 > sizeof(q->opts) ||
	    strspn(h, "0123456789abcdef") != n)
		return -EINVAL;
	for (size_t i = 0; i < n / 2; i++) {
		char b[3] = { h[2 * i], h[2 * i + 1], 0 };

		q->opts[i] = (unsigned char)strtoul(b, NULL, 16);
	}
	q->optlen = n / 2;
	return 0;
}

static int token(const char *t, struct ig_qdisc_saved *q, int *seen)
{
	unsigned int h;
	char colon;

	if (!strncmp(t, "kind=", 5) && strlen(t + 5) &&
	    strlen(t + 5) < sizeof(q->kind) &&
	    strspn(t + 5, "abcdefghijklmnopqrstuvwxyz0123456789_") ==
		    strlen(t + 5)) {
		snprintf(q->kind, sizeof(q->kind), "%s", t + 5);
		*seen |= 1;
	} else if (sscanf(t, "handle=%x%c", &h, &colon) == 2 && colon == ':' &&
		   strlen(t) <= 12 && h && h <= 0xffff) {
		q->handle = h << 16;
		*seen |= 2;
	} else if (!strcmp(t, "parent=root") || !strcmp(t, "parent=ingress")) {
		q->parent = t[7] == 'r' ? TC_H_ROOT : TC_H_INGRESS;
		*seen |= 4;
	} else if (!strncmp(t, "opts=", 5) && !unhex(t + 5, q)) {
		*seen |= 8;
	} else {
		return -EINVAL;
	}
	return 0;
}

int ig_qdisc_parse(const char *s, struct ig_qdisc_saved *q)
{
	char buf[IG_TUNE_VAL_LEN], *save = NULL, *t;
	int seen = 0;

	if (strlen(s) >= sizeof(buf))
		return -EINVAL;
	memset(q, 0, sizeof(*q));
	snprintf(buf, sizeof(buf), "%s", s);
	for (t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save))
		if (token(t, q, &seen))
			return -EINVAL;
	/* kind, handle and parent; opts may be absent (ingress) */
	return (seen & 7) == 7 ? 0 : -EINVAL;
}

int ig_qdisc_format(const struct ig_qdisc_saved *q, char *s, size_t len)
{
	size_t n;
	int w;

	w = snprintf(s, len, "kind=%s handle=%x: parent=%s", q->kind,
		     q->handle >> 16,
		     q->parent == TC_H_ROOT ? "root" : "ingress");
	if (w < 0 || (size_t)w >= len)
		return -ENOSPC;
	n = (size_t)w;
	if (!q->optlen)
		return 0;
	if (n + 6 + 2 * q->optlen >= len)
		return -ENOSPC;
	n += (size_t)sprintf(s + n, " opts=");
	for (size_t i = 0; i < q->optlen; i++)
		n += (size_t)sprintf(s + n, "%02x", q->opts[i]);
	return 0;
}

static void got_obj(struct nl_object *o, void *arg)
{
	nl_object_get(o);
	*(struct nl_object **)arg = o;
}

/* q as libnl's object, parsed from an RTM_NEWQDISC of its own; NULL when
 * libnl does not take it. */
static struct rtnl_qdisc *as_libnl(const struct ig_qdisc_saved *q)
{
	struct tcmsg tm = { .tcm_family = AF_UNSPEC,
			    .tcm_handle = q->handle,
			    .tcm_parent = q->parent,
			    .tcm_ifindex = 1 };
	struct nl_object *o = NULL;
	struct nl_msg *m = nlmsg_alloc_simple(RTM_NEWQDISC, 0);

	if (!m)
		return NULL;
	nlmsg_set_proto(m, NETLINK_ROUTE);
	if (nlmsg_append(m, &tm, sizeof(tm), NLMSG_ALIGNTO) ||
	    nla_put_string(m, TCA_KIND, q->kind) ||
	    (q->optlen && nla_put(m, TCA_OPTIONS, (int)q->optlen, q->opts)) ||
	    nl_msg_parse(m, got_obj, &o) < 0) {
		nlmsg_free(m);
		return NULL;
	}
	nlmsg_free(m);
	return (struct rtnl_qdisc *)o;
}

/* Nanoseconds per tick of the packet scheduler's clock (the second field
 * of /proc/net/psched; 64 since Linux 2.6.31). */
static unsigned int ns_per_tick(void)
{
	unsigned int a, b = 64;
	FILE *f = fopen("/proc/net/psched", "r");

	if (f && fscanf(f, "%x %x", &a, &b) != 2)
		b = 64;
	if (f)
		fclose(f);
	return b ? b : 64;
}

/* tbf's bucket in bytes from its buffer in ticks, to the byte (libnl's
 * rtnl_qdisc_tbf_get_rate_bucket() goes through whole microseconds). */
static unsigned long long tbf_burst(const struct ig_qdisc_saved *q,
				    unsigned long long rate)
{
	struct nlattr *a = nla_find((struct nlattr *)q->opts, (int)q->optlen,
				    TCA_TBF_PARMS);
	const struct tc_tbf_qopt *p;

	if (!a || nla_len(a) < (int)sizeof(*p))
		return 0;
	p = nla_data(a);
	return ((unsigned long long)p->buffer * ns_per_tick() * rate +
		500000000ull) /
	       1000000000ull;
}

/* The options of the kinds libnl reads, as tc spells them. */
static void opts_text(const struct ig_qdisc_saved *q, char *buf, size_t len)
{
	struct rtnl_qdisc *o = as_libnl(q);
	unsigned long long rate;

	buf[0] = 0;
	if (!o)
		return;
	if (!strcmp(q->kind, "tbf")) {
		rate = (unsigned long long)rtnl_qdisc_tbf_get_rate(o);
		snprintf(buf, len, " rate %llubit burst %llub limit %db",
			 rate * 8, tbf_burst(q, rate),
			 rtnl_qdisc_tbf_get_limit(o));
	} else if (!strcmp(q->kind, "htb")) {
		snprintf(buf, len, " default %x r2q %u", rtnl_htb_get_defcls(o),
			 rtnl_htb_get_rate2quantum(o));
	}
	rtnl_qdisc_put(o);
}

void ig_qdisc_cmd(const struct ig_qdisc_saved *q, const char *dev, char *buf,
		  size_t len)
{
	char opts[160];

	if (q->parent != TC_H_ROOT) {
		snprintf(buf, len, "tc qdisc add dev %s %s", dev, q->kind);
		return;
	}
	opts_text(q, opts, sizeof(opts));
	snprintf(buf, len, "tc qdisc add dev %s root handle %x: %s%s", dev,
		 q->handle >> 16, q->kind, opts);
}
