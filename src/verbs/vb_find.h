/* SPDX-License-Identifier: MIT */
#ifndef IG_VB_FIND_H
#define IG_VB_FIND_H

#include <stddef.h>

/* The IPv4 address (and device name) of the first active RDMA port of
 * this host that has one; -ENODEV when there is none. */
int ig_vb_find_rdma_addr(char *addr, size_t addrlen, char *dev, size_t devlen);

#endif
