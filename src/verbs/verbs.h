/* SPDX-License-Identifier: MIT */
#ifndef IG_VERBS_H
#define IG_VERBS_H

#include "common/opttab.h"
#include "engine/xport.h"

/* The verbs transport (src/verbs: RC over libibverbs and librdmacm),
 * registered in src/transports. */
extern const struct ig_xport_ops ig_vb_ops;
/* Its tests' rows (vb_tests.c). */
extern const struct ig_xport_tests ig_vb_tests;

/* Its options' rows (vb_opts.c), in the order of --help. */
enum ig_vb_opt {
	IG_VB_OPT_EVENTS,
	IG_VB_OPT_TX_DEPTH,
	IG_VB_OPT_CQ_MOD,
	IG_VB_OPT_INLINE,
	IG_VB_OPT_OUTS,
	IG_VB_OPT_DEVICE,
	IG_VB_OPT_IB_PORT,
	IG_VB_OPT_GID_INDEX,
	IG_VB_OPT_COUNT
};
extern const struct ig_opt ig_vb_opt_rows[IG_VB_OPT_COUNT];

#endif
