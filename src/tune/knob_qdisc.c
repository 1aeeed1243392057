// SPDX-License-Identifier: MIT
/*
 * The root and ingress qdiscs of a netdev over rtnetlink (libnl core).
 * A qdisc is saved as its kind, handle, parent and the raw TCA_OPTIONS of
 * the kernel's dump (qdisc_text.c) and put back by an RTM_NEWQDISC with
 * exactly those.  The kernel's own root qdisc (handle 0: noqueue, mq,
 * pfifo_fast, the default_qdisc) reads as "": writing "" deletes a qdisc
 * that someone added, so that the kernel's default comes back.  Classes
 * and filters below a qdisc are not saved.
 */
#include <errno.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <stdio.h>
#include <string.h>

#include "common/fail.h"
#include "common/nlerr.h"
#include "tune_int.h"

struct dump {
	int ifindex;
	uint32_t parent;
	bool found;
	struct ig_qdisc_saved q;
};

static int on_qdisc(struct nl_msg *m, void *arg)
{
	struct nlmsghdr *h = nlmsg_hdr(m);
	struct tcmsg *tm = nlmsg_data(h);
	struct nlattr *tb[TCA_MAX + 1];
	struct dump *d = arg;

	if (h->nlmsg_type != RTM_NEWQDISC ||
	    nlmsg_parse(h, sizeof(*tm), tb, TCA_MAX, NULL) < 0 ||
	    tm->tcm_ifindex != d->ifindex || tm->tcm_parent != d->parent ||
	    !tb[TCA_KIND] || d->found)
		return NL_OK;
	d->found = true;
	d->q.handle = tm->tcm_handle;
	d->q.parent = tm->tcm_parent;
	nla_strlcpy(d->q.kind, tb[TCA_KIND], sizeof(d->q.kind));
	if (tb[TCA_OPTIONS]) {
		d->q.optlen = (size_t)nla_len(tb[TCA_OPTIONS]);
		if (d->q.optlen > sizeof(d->q.opts))
			d->q.optlen = SIZE_MAX; /* too large to save */
		else
			memcpy(d->q.opts, nla_data(tb[TCA_OPTIONS]),
			       d->q.optlen);
	}
	return NL_OK;
}

static uint32_t parent_of(const char *name)
{
	return strcmp(name, "ingress") ? TC_H_ROOT : TC_H_INGRESS;
}

static int dump_qdisc(struct nl_sock *sk, struct dump *d)
{
	struct tcmsg tm = { .tcm_family = AF_UNSPEC,
			    .tcm_ifindex = d->ifindex };
	int ret;

	nl_socket_modify_cb(sk, NL_CB_VALID, NL_CB_CUSTOM, on_qdisc, d);
	ret = nl_send_simple(sk, RTM_GETQDISC, NLM_F_DUMP, &tm, sizeof(tm));
	if (ret >= 0)
		ret = nl_recvmsgs_default(sk);
	if (ret < 0)
		return ig_nl_errno(ret);
	if (d->found && d->q.optlen == SIZE_MAX)
		return -EOVERFLOW;
	return 0;
}

static struct nl_sock *rt_socket(void)
{
	struct nl_sock *sk = nl_socket_alloc();

	if (sk && nl_connect(sk, NETLINK_ROUTE)) {
		nl_socket_free(sk);
		return NULL;
	}
	return sk;
}

/* The qdisc of dev at name's place: d->found when one of ours is there
 * (the kernel's default root qdisc has handle 0 and is not). */
static int current(struct nl_sock *sk, const struct ig_tune_change *c,
		   struct dump *d)
{
	int ret;

	memset(d, 0, sizeof(*d));
	d->ifindex = (int)if_nametoindex(c->dev);
	d->parent = parent_of(c->name);
	if (!d->ifindex)
		return -ENOENT;
	ret = dump_qdisc(sk, d);
	if (!ret && d->found && !d->q.handle)
		d->found = false;
	return ret;
}

static int qd_read(const char *root, const struct ig_tune_change *c, char *val,
		   size_t len)
{
	struct nl_sock *sk = rt_socket();
	struct dump d;
	int ret;

	if (!sk)
		return -ENOMEM;
	ret = current(sk, c, &d);
	nl_socket_free(sk);
	if (ret)
		return ret;
	val[0] = 0;
	return d.found ? ig_qdisc_format(&d.q, val, len) : 0;
}

/* RTM_DELQDISC of q, or RTM_NEWQDISC (created, never replacing) of q,
 * acknowledged. */
static int send_qdisc(struct nl_sock *sk, int type, int ifindex,
		      const struct ig_qdisc_saved *q)
{
	struct tcmsg tm = { .tcm_family = AF_UNSPEC,
			    .tcm_ifindex = ifindex,
			    .tcm_handle = q->handle,
			    .tcm_parent = q->parent };
	int flags = type == RTM_NEWQDISC ? NLM_F_CREATE | NLM_F_EXCL : 0;
	struct nl_msg *m = nlmsg_alloc_simple(type, flags);
	int ret = -NLE_NOMEM;

	if (!m)
		return -ENOMEM;
	if (nlmsg_append(m, &tm, sizeof(tm), NLMSG_ALIGNTO) ||
	    nla_put_string(m, TCA_KIND, q->kind) ||
	    (q->optlen && nla_put(m, TCA_OPTIONS, (int)q->optlen, q->opts)))
		goto out;
	ret = nl_send_auto(sk, m);
	if (ret >= 0)
		ret = nl_wait_for_ack(sk);
out:
	nlmsg_free(m);
	return ret < 0 ? ig_nl_errno(ret) : 0;
}

/* Puts val (a saved qdisc, or "": none of ours) at c's place on sk. */
static int qd_set(struct nl_sock *sk, const struct ig_tune_change *c,
		  const char *val, char *err, size_t len)
{
	struct ig_qdisc_saved want = { 0 };
	struct dump d;
	char now[IG_TUNE_VAL_LEN] = "";
	int ret;

	if (*val && ig_qdisc_parse(val, &want))
		return ig_fail(
			-EINVAL, err, len,
			"tune: qdisc \"%.80s\" for %s %s is not one saved by ibgap",
			val, c->dev, c->name);
	if (*val && want.parent != parent_of(c->name))
		return ig_fail(-EINVAL, err, len,
			       "tune: qdisc \"%.80s\" is not for the %s of %s",
			       val, c->name, c->dev);
	ret = current(sk, c, &d);
	if (!ret && d.found)
		ret = ig_qdisc_format(&d.q, now, sizeof(now));
	if (ret)
		return ig_fail(ret, err, len,
			       "tune: reading the %s qdisc of %s: %s", c->name,
			       c->dev, strerror(-ret));
	if (!strcmp(now, val))
		return 0;
	if (d.found)
		ret = send_qdisc(sk, RTM_DELQDISC, d.ifindex, &d.q);
	if (ret)
		return ig_fail(ret, err, len,
			       "tune: deleting the %s qdisc %s of %s: %s",
			       c->name, d.q.kind, c->dev, strerror(-ret));
	if (*val)
		ret = send_qdisc(sk, RTM_NEWQDISC, d.ifindex, &want);
	if (ret)
		return ig_fail(ret, err, len,
			       "tune: adding the %s qdisc %s to %s: %s",
			       c->name, want.kind, c->dev, strerror(-ret));
	return 0;
}

static int qd_write(const char *root, const struct ig_tune_change *c,
		    const char *val, char *err, size_t len)
{
	struct nl_sock *sk = rt_socket();
	int ret;

	if (!sk)
		return ig_fail(-ENOMEM, err, len,
			       "tune: no rtnetlink socket for the qdisc of %s",
			       c->dev);
	ret = qd_set(sk, c, val, err, len);
	nl_socket_free(sk);
	return ret;
}

const struct ig_knob_ops ig_knob_qdisc = { qd_read, qd_write };
