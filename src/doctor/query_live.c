// SPDX-License-Identifier: MIT
/*
 * Live queries: routes and addresses over rtnetlink (libnl-route-3), the
 * port's active MTU from ibv_query_port (host/rdma_inv_mtu.c); ethtool is in
 * query_ethtool.c. All are unprivileged reads.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>

#include <netlink/netlink.h>
#include <netlink/route/addr.h>
#include <netlink/route/route.h>
#include <netlink/route/rtnl.h>

#include "common/nlerr.h"
#include "host/rdma_inv.h"
#include "query.h"

struct bin_addr {
	int family;
	int len;
	unsigned char b[16];
};

static int parse_addr(const char *s, struct bin_addr *a)
{
	a->family = strchr(s, ':') ? AF_INET6 : AF_INET;
	a->len = a->family == AF_INET ? 4 : 16;
	return inet_pton(a->family, s, a->b) == 1 ? 0 : -EINVAL;
}

static void addr_str(struct nl_addr *a, char *buf, size_t len)
{
	buf[0] = 0;
	if (a && nl_addr_get_len(a))
		inet_ntop(nl_addr_get_family(a), nl_addr_get_binary_addr(a),
			  buf, (socklen_t)len);
}

struct rt_ctx {
	struct ig_dr_q_route *r;
	int err;
	bool got;
};

static int rt_valid(struct nl_msg *msg, void *arg)
{
	struct rt_ctx *c = arg;
	struct rtnl_route *route;
	struct rtnl_nexthop *nh;

	if (rtnl_route_parse(nlmsg_hdr(msg), &route) < 0) {
		c->err = -EBADMSG;
		return NL_STOP;
	}
	nl_rtntype2str(rtnl_route_get_type(route), c->r->type,
		       sizeof(c->r->type));
	nh = rtnl_route_get_nnexthops(route) > 0
		     ? rtnl_route_nexthop_n(route, 0)
		     : NULL;
	if (!nh || !if_indextoname((unsigned int)rtnl_route_nh_get_ifindex(nh),
				   c->r->oif))
		c->r->oif[0] = 0;
	addr_str(rtnl_route_get_pref_src(route), c->r->src, sizeof(c->r->src));
	rtnl_route_put(route);
	c->got = true;
	return NL_STOP;
}

static int rt_error(struct sockaddr_nl *nla, struct nlmsgerr *e, void *arg)
{
	struct rt_ctx *c = arg;

	c->err = e->error ? e->error : -EIO;
	return NL_STOP;
}

static int send_get_route(struct nl_sock *sk, const struct bin_addr *a)
{
	struct rtmsg rtm = { .rtm_family = (unsigned char)a->family,
			     .rtm_dst_len = (unsigned char)(a->len * 8) };
	struct nl_msg *msg = nlmsg_alloc_simple(RTM_GETROUTE, NLM_F_REQUEST);
	int ret;

	if (!msg)
		return -ENOMEM;
	ret = nlmsg_append(msg, &rtm, sizeof(rtm), NLMSG_ALIGNTO);
	if (!ret)
		ret = nla_put(msg, RTA_DST, a->len, a->b);
	if (!ret)
		ret = nl_send_auto(sk, msg);
	nlmsg_free(msg);
	return ret < 0 ? ig_nl_errno(ret) : 0;
}

/* "ip route get ADDR" */
static int live_route(void *ctx, const char *addr, struct ig_dr_q_route *r)
{
	struct rt_ctx c = { .r = r };
	struct nl_sock *sk;
	struct nl_cb *cb;
	struct bin_addr a;
	int ret;

	memset(r, 0, sizeof(*r));
	if (parse_addr(addr, &a))
		return -EINVAL;
	sk = nl_socket_alloc();
	if (!sk)
		return -ENOMEM;
	nl_socket_disable_auto_ack(sk);
	ret = nl_connect(sk, NETLINK_ROUTE);
	ret = ret < 0 ? ig_nl_errno(ret) : send_get_route(sk, &a);
	cb = ret ? NULL : nl_cb_alloc(NL_CB_DEFAULT);
	if (cb) {
		nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, rt_valid, &c);
		nl_cb_err(cb, NL_CB_CUSTOM, rt_error, &c);
		nl_recvmsgs(sk, cb);
		nl_cb_put(cb);
		ret = c.err ? c.err : c.got ? 0 : -EIO;
	} else if (!ret) {
		ret = -ENOMEM;
	}
	nl_socket_free(sk);
	return ret;
}

/* The netdev holding the local address addr (RTM_GETADDR dump). */
static int live_owner(void *ctx, const char *addr, char *ifname, size_t len)
{
	struct nl_cache *cache = NULL;
	struct nl_object *o;
	struct nl_sock *sk;
	struct bin_addr a;
	int ret;

	if (parse_addr(addr, &a))
		return -EINVAL;
	sk = nl_socket_alloc();
	if (!sk)
		return -ENOMEM;
	ret = nl_connect(sk, NETLINK_ROUTE);
	if (!ret)
		ret = rtnl_addr_alloc_cache(sk, &cache);
	ret = ret < 0 ? ig_nl_errno(ret) : -EADDRNOTAVAIL;
	for (o = cache ? nl_cache_get_first(cache) : NULL; o;
	     o = nl_cache_get_next(o)) {
		struct rtnl_addr *ra = (struct rtnl_addr *)o;
		struct nl_addr *l = rtnl_addr_get_local(ra);
		char name[IF_NAMESIZE];

		if (!l || nl_addr_get_family(l) != a.family ||
		    (int)nl_addr_get_len(l) != a.len ||
		    memcmp(nl_addr_get_binary_addr(l), a.b, (size_t)a.len) ||
		    !if_indextoname((unsigned int)rtnl_addr_get_ifindex(ra),
				    name))
			continue;
		snprintf(ifname, len, "%s", name);
		ret = 0;
		break;
	}
	nl_cache_free(cache);
	nl_socket_free(sk);
	return ret;
}

/* ibv_query_port through the inventory (sysfs has no MTU). */
static int live_port(void *ctx, const char *dev, int port,
		     struct ig_dr_q_port *pa)
{
	return ig_inv_port_mtu(dev, port, &pa->active_mtu, &pa->max_mtu);
}

const struct ig_dr_query_ops ig_dr_q_live_ops = {
	.name = "live",
	.route_lookup = live_route,
	.addr_owner = live_owner,
	.port_attr = live_port,
	.ethtool_drvinfo = ig_dr_q_eth_drvinfo,
	.ethtool_features = ig_dr_q_eth_features,
	.ethtool_coalesce = ig_dr_q_eth_coalesce,
	.ethtool_pause = ig_dr_q_eth_pause,
	.ethtool_channels = ig_dr_q_eth_channels,
	.ethtool_link = ig_dr_q_eth_link,
	.ethtool_ring = ig_dr_q_eth_ring,
	.qdiscs = ig_dr_q_tc_qdiscs,
	.nft_ruleset = ig_dr_q_nft_ruleset,
};
