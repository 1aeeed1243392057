/* SPDX-License-Identifier: MIT */
#ifndef IG_XINFO_H
#define IG_XINFO_H

#include <stdbool.h>

/* What the verbs transport used, for the report (valid = false on TCP). */
struct ig_xinfo {
	bool valid;
	char device[64];
	int port;
	char link_layer[16]; /* "InfiniBand" or "Ethernet" */
	int mtu;	     /* active path MTU, bytes */
	char gid[48];	     /* GID in IPv6 notation */
	int gid_index;
	double rate_gbps; /* port data rate after line encoding */
	int numa_node;	  /* the HCA's, -1 unknown */
	int cpu;	  /* CPU the test thread ran on, -1 not pinned */
	int outs;	  /* read tests: RDMA reads in flight per QP, 0 else */
};

#endif
