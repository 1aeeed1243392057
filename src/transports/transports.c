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
#include <errno.h>
#include <stdio.h>

#include "common/fail.h"
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

bool ig_test_is_lat(enum ig_test t)
{
	return ig_test_pattern(IG_TESTS, t) == IG_PATTERN_LAT;
}

int ig_xport_opts_check(const struct ig_optparse *ps, const enum ig_test *tests,
			unsigned int n, char *err, size_t errlen)
{
	for (int x = 0; x < IG_XPORT_COUNT; x++) {
		const struct ig_opt *o = &ig_transports.opts[x], *g;
		const char *name = ig_transports.tests.xp[x]->name;
		char opt[40];
		unsigned int i = 0;

		while (i < n && (int)ig_test_xport(IG_TESTS, tests[i]) != x)
			i++;
		g = i == n ? ig_opt_given_of(ps, o, 1) : NULL;
		if (g)
			return ig_fail(-EINVAL, err, errlen,
				       "%s: a %s option, and -t has no %s "
				       "test: add one or leave %s out",
				       ig_opt_label(g, opt, sizeof(opt)), name,
				       name, opt);
	}
	return 0;
}
