// SPDX-License-Identifier: MIT
/*
 * Live tc queries over rtnetlink (libnl-route-3's socket and attribute
 * parser): the qdiscs of one netdev (RTM_GETQDISC dump, "tc qdisc show
 * dev IF") with the rate a shaper holds in its own options (tbf: rate;
 * cake: bandwidth; fq: maxrate), and whether a filter of the ingress
 * qdisc carries a police action (RTM_GETTFILTER; the action's kind is the
 * string "police" a few nests down).  Unprivileged reads.
 */
#include <errno.h>
#include <linux/pkt_cls.h>
#include <linux/pkt_sched.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>

#include <netlink/msg.h>
#include <netlink/netlink.h>

#include "common/nlerr.h"
#include "query.h"

struct tc_dump {
	int ifindex;
	struct ig_dr_q_qdisc *q;
	size_t max, n;
	bool police;
};

static void tc_handle(uint32_t h, char *buf, size_t len)
{
	if (h == TC_H_ROOT)
		snprintf(buf, len, "root");
	else if (h == TC_H_INGRESS)
		snprintf(buf, len, "ingress");
	else if (TC_H_MIN(h))
		snprintf(buf, len, "%x:%x", TC_H_MAJ(h) >> 16, TC_H_MIN(h));
	else
		snprintf(buf, len, "%x:", TC_H_MAJ(h) >> 16);
}

static uint64_t opt_u64(struct nlattr *o, int type, int max)
{
	struct nlattr *tb[TCA_CAKE_MAX + 1];

	if (max > TCA_CAKE_MAX || nla_parse_nested(tb, max, o, NULL) < 0 ||
	    !tb[type])
		return 0;
	return nla_len(tb[type]) >= 8 ? nla_get_u64(tb[type])
				      : nla_get_u32(tb[type]);
}

/* bytes/s a tbf, cake or fq caps at (0: none) */
static uint64_t qdisc_rate(const char *kind, struct nlattr *o)
{
	struct nlattr *tb[TCA_TBF_MAX + 1];
	uint64_t r;

	if (!o)
		return 0;
	if (!strcmp(kind, "cake"))
		return opt_u64(o, TCA_CAKE_BASE_RATE64, TCA_CAKE_MAX);
	if (!strcmp(kind, "fq")) {
		r = opt_u64(o, TCA_FQ_FLOW_MAX_RATE, TCA_FQ_MAX);
		return r == ~0u ? 0 : r;
	}
	if (strcmp(kind, "tbf") ||
	    nla_parse_nested(tb, TCA_TBF_MAX, o, NULL) < 0)
		return 0;
	if (tb[TCA_TBF_RATE64])
		return nla_get_u64(tb[TCA_TBF_RATE64]);
	if (tb[TCA_TBF_PARMS] &&
	    nla_len(tb[TCA_TBF_PARMS]) >= (int)sizeof(struct tc_tbf_qopt))
		return ((struct tc_tbf_qopt *)nla_data(tb[TCA_TBF_PARMS]))
			->rate.rate;
	return 0;
}

static int qdisc_cb(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *h = nlmsg_hdr(msg);
	struct tcmsg *t = nlmsg_data(h);
	struct nlattr *tb[TCA_MAX + 1];
	struct tc_dump *x = arg;
	struct ig_dr_q_qdisc *q;

	if (nlmsg_parse(h, sizeof(*t), tb, TCA_MAX, NULL) < 0 ||
	    t->tcm_ifindex != x->ifindex || !tb[TCA_KIND] || x->n >= x->max)
		return NL_OK;
	q = &x->q[x->n++];
	memset(q, 0, sizeof(*q));
	snprintf(q->kind, sizeof(q->kind), "%s", nla_get_string(tb[TCA_KIND]));
	tc_handle(t->tcm_handle, q->handle, sizeof(q->handle));
	tc_handle(t->tcm_parent, q->parent, sizeof(q->parent));
	q->rate = qdisc_rate(q->kind, tb[TCA_OPTIONS]);
	return NL_OK;
}

/* An attribute, a few nests down, that is the string "police". */
static bool has_police(struct nlattr *nest, int depth)
{
	struct nlattr *a;
	int rem;

	if (depth > 4)
		return false;
	nla_for_each_nested(a, nest, rem)
	{
		if ((nla_len(a) == 7 && !memcmp(nla_data(a), "police", 7)) ||
		    (nla_len(a) > NLA_HDRLEN && has_police(a, depth + 1)))
			return true;
	}
	return false;
}

static int filter_cb(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *h = nlmsg_hdr(msg);
	struct nlattr *tb[TCA_MAX + 1];
	struct tc_dump *x = arg;

	if (!nlmsg_parse(h, sizeof(struct tcmsg), tb, TCA_MAX, NULL) &&
	    tb[TCA_OPTIONS] && has_police(tb[TCA_OPTIONS], 0))
		x->police = true;
	return NL_OK;
}

static int dump(int type, struct tcmsg *t, nl_recvmsg_msg_cb_t cb,
		struct tc_dump *x)
{
	struct nl_sock *sk = nl_socket_alloc();
	int ret;

	if (!sk)
		return -ENOMEM;
	ret = nl_connect(sk, NETLINK_ROUTE);
	if (!ret)
		ret = nl_send_simple(sk, type, NLM_F_DUMP, t, sizeof(*t));
	if (ret >= 0)
		ret = nl_socket_modify_cb(sk, NL_CB_VALID, NL_CB_CUSTOM, cb, x);
	if (ret >= 0)
		ret = nl_recvmsgs_default(sk);
	nl_socket_free(sk);
	return ret < 0 ? ig_nl_errno(ret) : 0;
}

int ig_dr_q_tc_qdiscs(void *ctx, const char *ifname, struct ig_dr_q_qdisc *q,
		      size_t max, size_t *n)
{
	struct tc_dump x = { .q = q, .max = max };
	struct tcmsg t = { .tcm_family = AF_UNSPEC };
	int ret;

	x.ifindex = (int)if_nametoindex(ifname);
	if (!x.ifindex)
		return -errno;
	t.tcm_ifindex = x.ifindex;
	ret = dump(RTM_GETQDISC, &t, qdisc_cb, &x);
	*n = x.n;
	for (size_t i = 0; !ret && i < x.n; i++) {
		if (strcmp(q[i].parent, "ingress"))
			continue;
		/* the ingress (or clsact's ingress) block's filters */
		t.tcm_parent = TC_H_MAKE(TC_H_CLSACT, TC_H_MIN_INGRESS);
		if (!dump(RTM_GETTFILTER, &t, filter_cb, &x))
			q[i].police = x.police;
	}
	return ret;
}
