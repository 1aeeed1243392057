// SPDX-License-Identifier: MIT
/* The verbs transport's options: rows of an option table (common/opttab.h)
 * that fill its sub-structs (ig_params.verbs, ig_local_opts.verbs);
 * src/transports/ hands them to the commands (IG_XPORT_OPT_ROWS). */
#include <errno.h>
#include <string.h>

#include "common/fail.h"
#include "common/testopt.h"
#include "verbs.h"
#include "verbs_int.h"

static int device_opt(struct ig_optparse *ps, const struct ig_opt *r,
		      const char *arg, char *err, size_t errlen)
{
	struct ig_local_opts *l = ps->obj[IG_TO_LOCAL];

	if (!*arg || strlen(arg) >= sizeof(l->verbs.device))
		return ig_fail(-EINVAL, err, errlen,
			       "--device: '%s' is not a device name: give one "
			       "that ibv_devices lists (1 to %zu characters)",
			       arg, sizeof(l->verbs.device) - 1);
	strcpy(l->verbs.device, arg);
	return 0;
}

/* --inline N: N, and no longer the per-test default. */
static int inline_opt(struct ig_optparse *ps, const struct ig_opt *r,
		      const char *arg, char *err, size_t errlen)
{
	struct ig_params *p = ps->obj[IG_TO_PARAMS];
	double v;
	int ret = ig_opt_value(r, arg, &v, err, errlen);

	if (ret)
		return ret;
	p->verbs.inline_size = (uint32_t)v;
	p->verbs.inline_auto = 0;
	return 0;
}

uint32_t ig_vb_inline_want(enum ig_test t, const struct ig_verbs_params *v)
{
	if (!v->inline_auto)
		return v->inline_size;
	switch (t) {
	case IG_TEST_SEND_LAT:
		return VB_INLINE_SEND;
	case IG_TEST_UD_SEND_LAT:
		return VB_INLINE_UD;
	case IG_TEST_WRITE_LAT:
		return VB_INLINE_WRITE;
	default:
		return 0;
	}
}

#define P(member) .obj = IG_TO_PARAMS, IG_OPT_AT(struct ig_params, member)
#define L(member) .obj = IG_TO_LOCAL, IG_OPT_AT(struct ig_local_opts, member)

/* clang-format off */
const struct ig_opt ig_vb_opt_rows[IG_VB_OPT_COUNT] = {
	[IG_VB_OPT_EVENTS] = { "events", 0, IG_OPT_FLAG, P(verbs.events),
		.help = "verbs: wait for completions on a channel instead of "
			"busy-polling (fair CPU figures; write_lat always "
			"polls)" },
	[IG_VB_OPT_TX_DEPTH] = { "tx-depth", 0, IG_OPT_UINT, P(verbs.tx_depth),
		.lo = 1, .hi = IG_MAX_TX_DEPTH, .what = "a queue depth",
		.arg = "N", .help = "verbs send queue depth (default 128)" },
	[IG_VB_OPT_CQ_MOD] = { "cq-mod", 0, IG_OPT_UINT, P(verbs.cq_mod),
		.lo = 1, .hi = IG_MAX_TX_DEPTH,
		.what = "a send count", .arg = "N",
		.help = "verbs: signal every Nth send (default 16)" },
	[IG_VB_OPT_INLINE] = { "inline", 0, IG_OPT_SIZE, P(verbs.inline_size),
		.lo = 0, .hi = 1024, .arg = "BYTES", .call = inline_opt,
		.help = "verbs: sends of at most BYTES go inline (default: "
			"perftest's for latency tests, send_lat 236, "
			"ud_send_lat 188, write_lat 220, or less where the QP "
			"takes less; 0 for the others)" },
	[IG_VB_OPT_OUTS] = { "outs", 0, IG_OPT_UINT, P(verbs.outs),
		.lo = 0, .hi = IG_MAX_OUTS,
		.what = "a number of reads (0: the devices' maximum)",
		.arg = "N",
		.help = "read_bw, read_lat: RDMA reads in flight per QP, 1 to "
			"255 (default 0: the most both devices allow, "
			"max_qp_rd_atom)" },
	[IG_VB_OPT_DEVICE] = { "device", 0, IG_OPT_STRING, .call = device_opt,
		.arg = "NAME",
		.help = "verbs: use this RDMA device (must own the address of "
			"HOST's route)" },
	[IG_VB_OPT_IB_PORT] = { "ib-port", 0, IG_OPT_UINT, L(verbs.ib_port),
		.lo = 1, .hi = 255, .what = "an HCA port", .arg = "N",
		.help = "verbs: HCA port (default: rdma_cm's choice)" },
	[IG_VB_OPT_GID_INDEX] = { "gid-index", 0, IG_OPT_UINT, L(verbs.gid_index),
		.lo = 0, .hi = 65535, .what = "a GID index", .arg = "N",
		.help = "verbs: source GID index (default: rdma_cm's)" },
};
/* clang-format on */
