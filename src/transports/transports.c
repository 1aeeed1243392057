// SPDX-License-Identifier: MIT
/*
 * Where transports are registered: one line each, its ops (struct
 * ig_xport_ops, src/engine/xport.h; NULL when this build lacks it) and
 * its tests' rows (struct ig_xport_tests, common/params.h), both from its
 * own folder.  One with a data path of its own lives in a folder of its
 * own beside src/sockets and src/verbs; rsockets, which runs the socket
 * data path over another table of calls, lives in src/sockets
 * (docs/design.md, "Shape").
 */
#include "sockets/tcp.h"
#include "transports.h"
#include "verbs/verbs.h"

/* A transport's ops, its tests' rows, its options' rows (r[0..n)) */
#define XPORT(id, o, t, r, n)                \
	.ops[id] = (o), .tests.xp[id] = (t), \
	.opts[id] = { .kind = IG_OPT_ROWS, .rows = (r), .nrows = (n) }

/* --window, the socket transport's option, is its rows' alone: each
 * command words its help (IG_XPORT_WINDOW_ROW) */
const struct ig_xports ig_transports = {
	XPORT(IG_XPORT_TCP, &ig_tcp_ops, &ig_tcp_tests, NULL, 0),
	XPORT(IG_XPORT_VERBS, &ig_vb_ops, &ig_vb_tests, ig_vb_opt_rows,
	      IG_VB_OPT_COUNT),
	XPORT(IG_XPORT_RSOCKETS, IG_RS_OPS, &ig_rs_tests, NULL, 0),
};
