// SPDX-License-Identifier: MIT
/* The socket transport's option: --window, a row of an option table
 * (common/opttab.h) that fills its sub-struct (ig_params.sock); each
 * command names it with a help of its own (src/transports/transports.h). */
#include "common/testopt.h"
#include "tcp.h"

/* clang-format off */
const struct ig_opt ig_sock_window_row =
	{ "window", 0, IG_OPT_SIZE, .obj = IG_TO_PARAMS,
		IG_OPT_AT(struct ig_params, sock.window),
		.lo = 1, .hi = IG_MAX_WINDOW, .call = ig_testopt_window,
		.arg = "BYTES",
		.help = "SO_SNDBUF/SO_RCVBUF of TCP streams; a list 85K,256K "
			"runs each (verbs tests too, where it does nothing); "
			"default in a list: the kernel's autotuned buffers" };
/* clang-format on */
