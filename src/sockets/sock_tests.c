// SPDX-License-Identifier: MIT
/* The socket transport's tests: their rows (common/params.h), which
 * src/transports/ assembles with the other transports'. */
#include "tcp.h"

static const struct ig_test_def tcp_rows[] = {
	{ .id = IG_TEST_TCP_BW,
	  .name = "tcp_bw",
	  .pattern = IG_PATTERN_BW,
	  .one_buffer = true,
	  .lat_div = 2 },
	{ .id = IG_TEST_TCP_LAT,
	  .name = "tcp_lat",
	  .pattern = IG_PATTERN_LAT,
	  .one_buffer = true,
	  .lat_div = 2 },
};

const struct ig_xport_tests ig_tcp_tests = {
	.name = "tcp",
	.rows = tcp_rows,
	.n = sizeof(tcp_rows) / sizeof(tcp_rows[0]),
};

/* rsockets' buffers count as verbs' (size x streams x tx-depth) */
static const struct ig_test_def rs_rows[] = {
	{ .id = IG_TEST_RS_BW,
	  .name = "rs_bw",
	  .pattern = IG_PATTERN_BW,
	  .lat_div = 2 },
	{ .id = IG_TEST_RS_LAT,
	  .name = "rs_lat",
	  .pattern = IG_PATTERN_LAT,
	  .lat_div = 2 },
};

/* Also in a build without rsockets: -t rs_bw parses, set-up says why it
 * cannot run. */
const struct ig_xport_tests ig_rs_tests = {
	.name = "rsockets",
	.rows = rs_rows,
	.n = sizeof(rs_rows) / sizeof(rs_rows[0]),
};
