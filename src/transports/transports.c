// SPDX-License-Identifier: MIT
/*
 * Where transports are registered: one line each.  A transport fills a
 * struct ig_xport_ops (src/engine/xport.h) and is named here.  One with
 * a data path of its own lives in a folder of its own beside src/sockets
 * and src/verbs; rsockets, which runs the socket data path over another
 * table of calls, lives in src/sockets (docs/design.md, "Shape").
 */
#include "sockets/tcp.h"
#include "transports.h"
#include "verbs/verbs.h"

const struct ig_xports ig_transports = {
	.ops = {
		[IG_XPORT_TCP] = &ig_tcp_ops,
		[IG_XPORT_VERBS] = &ig_vb_ops,
#ifdef IBGAP_HAVE_RSOCKETS /* else absent: its tests fail set-up */
		[IG_XPORT_RSOCKETS] = &ig_rs_ops,
#endif
	},
};
