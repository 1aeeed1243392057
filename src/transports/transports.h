/* SPDX-License-Identifier: MIT */
#ifndef IG_TRANSPORTS_H
#define IG_TRANSPORTS_H

#include "engine/xport.h"
#include "sockets/tcp.h"

/* Every transport built into ibgap, indexed by enum ig_xport_id: what
 * the client and the server hand to ig_engine_client/ig_engine_server,
 * with every transport's tests' rows (ig_transports.tests), which the
 * functions of common/params.h that read a test take. */
extern const struct ig_xports ig_transports;

/* The tests' rows, for the layers above this one. */
#define IG_TESTS (&ig_transports.tests)

/* Whether test t is a ping-pong (a latency test) of these transports:
 * the question every reader of a result asks before it picks a figure
 * (p50 or bandwidth). */
bool ig_test_is_lat(enum ig_test t);

/* The transports' options for a command's table (common/opttab.h): one
 * IG_OPT_ROWS row that stands for every transport's rows, in the order of
 * ig_transports; and --window, which each command names with a help of
 * its own (ibgap-fabric takes one value, the client a list). */
#define IG_XPORT_OPT_ROWS                                        \
	{                                                        \
		.kind = IG_OPT_ROWS, .rows = ig_transports.opts, \
		.nrows = IG_XPORT_COUNT                          \
	}
#define IG_XPORT_WINDOW_ROW (&ig_sock_window_row)

/* After parsing (ps): a transport's option given while none of the
 * tests[0..n) is that transport's (--events with -t tcp_bw) does nothing
 * and is refused.  0, or -EINVAL with one line in err. */
int ig_xport_opts_check(const struct ig_optparse *ps, const enum ig_test *tests,
			unsigned int n, char *err, size_t errlen);

#endif
