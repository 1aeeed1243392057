// SPDX-License-Identifier: MIT
/* Verbs device facts: presence, port state, rate, NUMA node, local CPUs
 * (the device and its NUMA facts from the RDMA inventory, host/rdma_inv.h),
 * and the errors users meet first (no device, port down, memlock). */
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "host/cpulist.h"
#include "host/rdma_inv.h"
#include "verbs_int.h"

/* This host's RDMA inventory (host/rdma_inv.h); NULL when it cannot be
 * read, and then the verbs calls themselves say what is wrong. */
static struct ig_inv *inventory(void)
{
	struct ig_inv *inv;
	char err[256];

	return ig_inv_load("/", 0, &inv, err, sizeof(err)) ? NULL : inv;
}

int ig_vb_check_devices(struct ig_session *s)
{
	struct ig_inv *inv = inventory();
	size_t n = inv ? inv->ndevs : 1;

	ig_inv_free(inv);
	if (n > 0)
		return 0;
	return ig_session_fail(s, ENODEV,
			       "%s has no RDMA device (ibv_devices "
			       "lists none): load the HCA driver, or create a "
			       "Soft-RoCE device: rdma link add rxe0 type rxe "
			       "netdev IFACE",
			       s->server ? "the server" : "this host");
}

/* Data rate per lane in Gb/s after line encoding, from active_speed. */
static double lane_gbps(unsigned int speed)
{
	switch (speed) {
	case 1:
		return 2.5 * 0.8; /* SDR, 8b/10b */
	case 2:
		return 5.0 * 0.8; /* DDR */
	case 4:
		return 10.0 * 0.8; /* QDR */
	case 8:
		return 10.3125 * 64 / 66; /* FDR10, 64b/66b */
	case 16:
		return 14.0625 * 64 / 66; /* FDR */
	case 32:
		return 25.78125 * 64 / 66; /* EDR */
	case 64:
		return 50.0; /* HDR: 53.125 GBd PAM4, data 50 */
	case 128:
		return 100.0; /* NDR */
	case 256:
		return 200.0; /* XDR */
	default:
		return 0;
	}
}

static int lanes(uint8_t width)
{
	switch (width) {
	case 1:
		return 1;
	case 2:
		return 4;
	case 4:
		return 8;
	case 8:
		return 12;
	case 16:
		return 2;
	default:
		return 0;
	}
}

static int check_choice(struct ig_session *s, uint8_t port, const char *name,
			const struct ig_inv *inv)
{
	if (s->local.verbs.device[0] && inv &&
	    !ig_inv_dev(inv, s->local.verbs.device))
		return ig_session_fail(s, ENODEV,
				       "--device %s: no such RDMA device "
				       "here; the route to the server uses "
				       "%s (ibv_devices lists them)",
				       s->local.verbs.device, name);
	if (s->local.verbs.device[0] && strcmp(s->local.verbs.device, name))
		return ig_session_fail(s, EINVAL,
				       "the address of the route "
				       "to the server is on RDMA device %s "
				       "port %u, not on --device %s: use %s's "
				       "IP address, or drop --device",
				       name, port, s->local.verbs.device,
				       s->local.verbs.device);
	if (s->local.verbs.ib_port && s->local.verbs.ib_port != port)
		return ig_session_fail(s, EINVAL,
				       "the route to the server "
				       "leaves through %s port %u, not "
				       "--ib-port %d",
				       name, port, s->local.verbs.ib_port);
	return 0;
}

/* Fills the session's xinfo from the device and port chosen (by rdma_cm,
 * or by the rail without it). */
static int describe(struct ig_session *s, struct ibv_context *ctx, uint8_t port,
		    const struct ig_inv *inv)
{
	struct ig_xinfo *x = ig_vb_xinfo(s);
	const char *name = ibv_get_device_name(ctx->device);
	const struct ig_inv_dev *dev = ig_inv_dev(inv, name);
	struct ibv_port_attr pa;
	int ret = check_choice(s, port, name, inv);

	if (ret)
		return ret;
	ret = ibv_query_port(ctx, port, &pa);
	if (ret)
		return ig_session_fail(s, ret, "ibv_query_port %s port %u: %s",
				       name, port, strerror(ret));
	if (pa.state != IBV_PORT_ACTIVE)
		return ig_session_fail(
			s, ENETDOWN,
			"%s port %u is %s, not "
			"ACTIVE: check the link (ibstat %s) and, "
			"on InfiniBand, the subnet manager",
			name, port, ibv_port_state_str(pa.state), name);
	x->valid = true;
	snprintf(x->device, sizeof(x->device), "%s", name);
	x->port = port;
	x->lid = pa.lid;
	snprintf(x->link_layer, sizeof(x->link_layer), "%s",
		 pa.link_layer == IBV_LINK_LAYER_ETHERNET ? "Ethernet"
							  : "InfiniBand");
	x->mtu = 128 << pa.active_mtu;
	x->rate_gbps = lane_gbps(pa.active_speed) * lanes(pa.active_width);
	x->numa_node = dev ? dev->numa_node : -1;
	x->gid_index = -1;
	x->cpu = -1;
	return 0;
}

int ig_vb_describe(struct ig_session *s, struct ibv_context *ctx, uint8_t port)
{
	struct ig_inv *inv = inventory();
	int ret = describe(s, ctx, port, inv);

	ig_inv_free(inv);
	return ret;
}

int ig_vb_pick_cpu(struct ig_session *s, struct ibv_context *ctx)
{
	const struct ig_inv_dev *dev;
	struct ig_inv *inv;

	if (s->local.cpu >= 0) {
		for (unsigned int i = 0; i < s->nstreams; i++)
			s->st[i].cpu = s->local.cpu;
		ig_vb_xinfo(s)->cpu = s->local.cpu;
		return 0;
	}
	inv = inventory();
	dev = ig_inv_dev(inv, ibv_get_device_name(ctx->device));
	/* e.g. Soft-RoCE: no PCI device, no locality */
	if (dev && dev->local_cpulist[0]) {
		for (unsigned int i = 0; i < s->nstreams; i++)
			s->st[i].cpu = ig_cpulist_nth(dev->local_cpulist,
						      (int)i, s->server);
		ig_vb_xinfo(s)->cpu = s->st[0].cpu;
	}
	ig_inv_free(inv);
	return 0;
}

int ig_vb_memlock_fail(struct ig_session *s, int err, size_t len)
{
	struct rlimit rl;
	char lim[32] = "unlimited";

	if (getrlimit(RLIMIT_MEMLOCK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
		snprintf(lim, sizeof(lim), "%llu KiB",
			 (unsigned long long)rl.rlim_cur / 1024);
	if ((err == ENOMEM || err == EPERM || err == EAGAIN) &&
	    rl.rlim_cur != RLIM_INFINITY)
		return ig_session_fail(
			s, err,
			"cannot register %zu bytes of "
			"memory: %s; RLIMIT_MEMLOCK is %s: raise "
			"it (ulimit -l unlimited, or memlock in "
			"/etc/security/limits.conf, or "
			"LimitMEMLOCK= for a systemd service)",
			len, strerror(err), lim);
	return ig_session_fail(s, err,
			       "ibv_reg_mr of %zu bytes failed: %s "
			       "(RLIMIT_MEMLOCK %s)",
			       len, strerror(err), lim);
}
