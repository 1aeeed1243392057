/* SPDX-License-Identifier: MIT */
#ifndef IG_RAILS_H
#define IG_RAILS_H

/*
 * Rails (docs/design.md, "Rails"): this host's ACTIVE RDMA ports, each
 * with its netdev, that netdev's IPv4 address and the port's fingerprint,
 * and the pairing of a client's rails with a server's: by IPv4 subnet,
 * else by index.  Loading is live (the inventory and getifaddrs); the
 * selection and the pairing are pure.
 */
#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>

#include "common/params.h"
#include "fingerprint.h"
#include "rdma_inv.h"

#define IG_RAILS_MAX 16

struct ig_rail {
	char device[64];
	int port;
	char netdev[32];
	char addr[INET_ADDRSTRLEN]; /* the netdev's first IPv4, "" none */
	int prefix;		    /* its prefix length, 0..32 */
	int numa_node;		    /* the HCA's, -1 unknown */
	char link_layer[16];
	struct ig_fingerprint fp; /* fw_ver, link_rate, mtu, ipoib_mode */
	/* the HCA's device/local_cpulist (this host's rails only; not in
	 * RAILS_INFO) */
	char local_cpulist[512];
};

struct ig_rails {
	struct ig_rail r[IG_RAILS_MAX];
	size_t n;
};

/* This host's rails: every ACTIVE port of inv (read with IG_INV_GIDS), at
 * most IG_RAILS_MAX, with the live addresses.  0 or -ENOMEM. */
int ig_rails_local(const struct ig_inv *inv, struct ig_rails *out);

/*
 * The rails of list ("rxe0,rxe1"; NULL or "all": every one) among all;
 * devs: the names of the inventory's devices, for the error.  0, or
 * -EINVAL with one line in err: a name that is no device of this host
 * (naming those found), a device without an ACTIVE port, a name twice.
 */
int ig_rails_select(const struct ig_rails *all, const char *list,
		    const char *const *devs, size_t ndevs, struct ig_rails *out,
		    char *err, size_t errlen);

/* --rails' argument (NULL: none given): *list gets the list, NULL for
 * all ("all" or none).  0, or -EINVAL with one line in err for "". */
int ig_rails_list_arg(const char *arg, const char **list, char *err,
		      size_t errlen);

/*
 * This host's rails of list (as ig_rails_select; NULL: every one) into
 * out, the inventory read here.  0; -EINVAL with one line in err for a
 * bad list; another -errno with one line (no inventory, or no ACTIVE port
 * with list NULL).
 */
int ig_rails_load(const char *list, struct ig_rails *out, char *err,
		  size_t errlen);

/* A run's local options on rail r: its device and port, its address as
 * the source of both transports' connections and, with lo->cpu < 0, its
 * HCA's local CPUs for the TCP streams. */
void ig_rail_local_opts(const struct ig_rail *r, struct ig_local_opts *lo);

/* How a rail found its peer. */
enum ig_rail_by {
	IG_RAIL_NONE = 0, /* no peer: the server has fewer rails */
	IG_RAIL_SUBNET,	  /* the server's rail on its netdev's subnet */
	IG_RAIL_INDEX,	  /* no such rail: the server's of the same index
			   * (or the first left) */
};

/*
 * Pairs each of local's rails with one of remote's: peer[i] is the index
 * in remote (-1: none), by[i] how.  First every local rail with an address
 * takes the untaken remote rail in its subnet (its own prefix); then the
 * rest take, in order, the remote rail of their own index when untaken,
 * else the first untaken.  Returns the number paired.
 */
size_t ig_rails_pair(const struct ig_rails *local,
		     const struct ig_rails *remote, int *peer,
		     enum ig_rail_by *by);

/* Whether IPv4 addresses a and b (text) share the first prefix bits. */
bool ig_rails_same_subnet(const char *a, const char *b, int prefix);

const char *ig_rail_by_name(enum ig_rail_by by);

#endif
