/* SPDX-License-Identifier: MIT */
#ifndef IG_DR_QUERY_H
#define IG_DR_QUERY_H

/*
 * The doctor's queries that are not files: netlink (routes, addresses),
 * ethtool ioctls and ibv_query_port.  Two implementations: live
 * (query_live.c, query_ethtool.c) and fixture (query_fixture.c, JSON files
 * under ROOT/.ibgap-fixture/, documented in docs/design.md).  Every
 * operation returns 0 or a negative errno; the caller records a failure.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ig_dr_q_route {
	char type[16]; /* "unicast", "local", "blackhole", ... */
	char oif[32];  /* netdev the route leaves through */
	char src[64];  /* preferred source address, "" none */
};

struct ig_dr_q_port {
	int active_mtu; /* bytes: 256..4096 */
	int max_mtu;
};

struct ig_dr_q_drvinfo {
	char driver[32]; /* "ib_ipoib", "mlx5_core[ib_ipoib]", "mlx5_core" */
	char bus_info[32];
};

/* 1 on, 0 off, -1 not reported */
struct ig_dr_q_features {
	int tso, gso, gro, lro, rx_csum, tx_csum, sg;
};

struct ig_dr_q_coalesce {
	bool adaptive_rx;
	uint32_t rx_usecs, rx_frames, tx_usecs, tx_frames;
};

struct ig_dr_q_pause {
	bool autoneg, rx, tx;
};

struct ig_dr_q_channels {
	uint32_t rx, tx, combined, max_rx, max_tx, max_combined;
};

struct ig_dr_q_link {
	uint32_t speed_mbps;	 /* 0 unknown */
	uint32_t max_speed_mbps; /* fastest supported link mode, 0 unknown */
};

struct ig_dr_q_ring {
	uint32_t rx, tx, rx_max, tx_max;
};

/* One qdisc of a netdev (like "tc qdisc show dev IF"). */
#define IG_DR_MAX_QDISCS 16
struct ig_dr_q_qdisc {
	char kind[16];	 /* "tbf", "htb", "ingress", "mq", ... */
	char handle[16]; /* "8001:" */
	char parent[16]; /* "root", "ingress", or the class "1:2" */
	uint64_t rate;	 /* bytes/s the qdisc itself caps at, 0 none or
			    kept in its classes (htb, hfsc, cbq) */
	bool police;	 /* ingress: a filter has a police action */
};

struct ig_dr_query_ops {
	const char *name;
	/* like "ip route get ADDR" (numeric address) */
	int (*route_lookup)(void *ctx, const char *addr,
			    struct ig_dr_q_route *r);
	/* the netdev that holds the local address addr */
	int (*addr_owner)(void *ctx, const char *addr, char *ifname,
			  size_t len);
	int (*port_attr)(void *ctx, const char *dev, int port,
			 struct ig_dr_q_port *pa);
	int (*ethtool_drvinfo)(void *ctx, const char *ifname,
			       struct ig_dr_q_drvinfo *di);
	int (*ethtool_features)(void *ctx, const char *ifname,
				struct ig_dr_q_features *f);
	int (*ethtool_coalesce)(void *ctx, const char *ifname,
				struct ig_dr_q_coalesce *c);
	int (*ethtool_pause)(void *ctx, const char *ifname,
			     struct ig_dr_q_pause *p);
	int (*ethtool_channels)(void *ctx, const char *ifname,
				struct ig_dr_q_channels *ch);
	int (*ethtool_link)(void *ctx, const char *ifname,
			    struct ig_dr_q_link *l);
	int (*ethtool_ring)(void *ctx, const char *ifname,
			    struct ig_dr_q_ring *r);
	/* the qdiscs of ifname, at most max into q, *n of them */
	int (*qdiscs)(void *ctx, const char *ifname, struct ig_dr_q_qdisc *q,
		      size_t max, size_t *n);
	/* the nftables ruleset as `nft -j list ruleset` prints it (a
	 * string the caller frees); -EPERM without CAP_NET_ADMIN */
	int (*nft_ruleset)(void *ctx, char **json);
	void (*free)(void *ctx);
};

/* ctx for the live queries: none (NULL). */
extern const struct ig_dr_query_ops ig_dr_q_live_ops;
/* ctx: the root directory (a string the caller keeps alive). */
extern const struct ig_dr_query_ops ig_dr_q_fixture_ops;

/* Live ethtool (query_ethtool.c), shared by the live ops table. */
int ig_dr_q_eth_drvinfo(void *ctx, const char *ifname,
			struct ig_dr_q_drvinfo *di);
int ig_dr_q_eth_features(void *ctx, const char *ifname,
			 struct ig_dr_q_features *f);
int ig_dr_q_eth_coalesce(void *ctx, const char *ifname,
			 struct ig_dr_q_coalesce *c);
int ig_dr_q_eth_pause(void *ctx, const char *ifname, struct ig_dr_q_pause *p);
int ig_dr_q_eth_channels(void *ctx, const char *ifname,
			 struct ig_dr_q_channels *ch);
int ig_dr_q_eth_link(void *ctx, const char *ifname, struct ig_dr_q_link *l);
int ig_dr_q_eth_ring(void *ctx, const char *ifname, struct ig_dr_q_ring *r);
/* Live tc (query_tc.c) and nftables (query_nft.c). */
int ig_dr_q_tc_qdiscs(void *ctx, const char *ifname, struct ig_dr_q_qdisc *q,
		      size_t max, size_t *n);
int ig_dr_q_nft_ruleset(void *ctx, char **json);

#endif
