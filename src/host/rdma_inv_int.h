/* SPDX-License-Identifier: MIT */
/* Shared by rdma_inv*.c only. */
#ifndef IG_RDMA_INV_INT_H
#define IG_RDMA_INV_INT_H

#include <stddef.h>

#include "rdma_inv.h"

/* Fills port p's GID table (its used entries) and its netdev, for device
 * dev; 0, -EINVAL (an entry that is not a number, a GID that does not
 * parse; one line in err) or -ENOMEM. */
int ig_inv_read_gids(const char *root, const struct ig_inv_dev *dev,
		     struct ig_inv_port *p, char *err, size_t errlen);
void ig_inv_port_netdev(const char *root, const struct ig_inv_dev *dev,
			struct ig_inv_port *p);

#endif
