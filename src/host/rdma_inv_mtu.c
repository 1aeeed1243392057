// SPDX-License-Identifier: MIT
/*
 * The one fact of a port the inventory asks libibverbs for: its active
 * and largest MTU (sysfs shows neither).  The device is opened by the
 * name the inventory found.
 */
#include <errno.h>
#include <string.h>

#include <infiniband/verbs.h>

#include "rdma_inv.h"

int ig_inv_port_mtu(const char *dev, int port, int *active, int *max)
{
	struct ibv_device **list;
	struct ibv_port_attr attr;
	struct ibv_context *c = NULL;
	int n = 0, ret = -ENODEV;

	list = ibv_get_device_list(&n);
	if (!list)
		return errno ? -errno : -ENODEV;
	for (int i = 0; i < n && !c; i++)
		if (!strcmp(ibv_get_device_name(list[i]), dev)) {
			c = ibv_open_device(list[i]);
			ret = c ? 0 : (errno ? -errno : -ENODEV);
		}
	if (c) {
		ret = -ibv_query_port(c, (uint8_t)port, &attr);
		if (!ret) {
			*active = 128 << attr.active_mtu;
			*max = 128 << attr.max_mtu;
		}
		ibv_close_device(c);
	}
	ibv_free_device_list(list);
	return ret;
}
