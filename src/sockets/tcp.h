/* SPDX-License-Identifier: MIT */
#ifndef IG_TCP_H
#define IG_TCP_H

#include "common/opttab.h"
#include "engine/xport.h"

/* The socket transport (src/sockets), registered in src/transports:
 * over the kernel's TCP, and over rsockets when the build has them. */
extern const struct ig_xport_ops ig_tcp_ops;
#ifdef IBGAP_HAVE_RSOCKETS
extern const struct ig_xport_ops ig_rs_ops;
#define IG_RS_OPS (&ig_rs_ops)
#else
#define IG_RS_OPS NULL /* absent: its tests fail set-up */
#endif
/* Their tests' rows (sock_tests.c): rsockets' also without the ops. */
extern const struct ig_xport_tests ig_tcp_tests;
extern const struct ig_xport_tests ig_rs_tests;
/* Its option's row, --window (sock_opts.c), for tcp and rsockets. */
extern const struct ig_opt ig_sock_window_row;

#endif
