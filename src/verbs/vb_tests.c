// SPDX-License-Identifier: MIT
/* The verbs transport's tests: their rows (common/params.h), which
 * src/transports/ assembles with the other transports'. */
#include "verbs.h"

/* Every verbs test may wait on a completion channel (--events) but
 * write_lat, whose reply is a flag in memory; a read_lat sample is the
 * whole round trip of one read (lat_div 1). */
static const struct ig_test_def rows[] = {
	{ .id = IG_TEST_SEND_BW,
	  .name = "send_bw",
	  .pattern = IG_PATTERN_BW,
	  .lat_div = 2,
	  .wait = IG_WAIT_EVENTS },
	{ .id = IG_TEST_WRITE_BW,
	  .name = "write_bw",
	  .pattern = IG_PATTERN_BW,
	  .one_sided = true,
	  .lat_div = 2,
	  .wait = IG_WAIT_EVENTS },
	{ .id = IG_TEST_SEND_LAT,
	  .name = "send_lat",
	  .pattern = IG_PATTERN_LAT,
	  .lat_div = 2,
	  .wait = IG_WAIT_EVENTS },
	{ .id = IG_TEST_WRITE_LAT,
	  .name = "write_lat",
	  .pattern = IG_PATTERN_LAT,
	  .lat_div = 2,
	  .wait = IG_WAIT_POLL },
	{ .id = IG_TEST_READ_BW,
	  .name = "read_bw",
	  .pattern = IG_PATTERN_BW,
	  .one_sided = true,
	  .lat_div = 2,
	  .wait = IG_WAIT_EVENTS },
	{ .id = IG_TEST_READ_LAT,
	  .name = "read_lat",
	  .pattern = IG_PATTERN_LAT,
	  .lat_div = 1,
	  .wait = IG_WAIT_EVENTS },
	{ .id = IG_TEST_UD_SEND_BW,
	  .name = "ud_send_bw",
	  .pattern = IG_PATTERN_BW,
	  .lossy = true,
	  .lat_div = 2,
	  .wait = IG_WAIT_EVENTS },
	{ .id = IG_TEST_UD_SEND_LAT,
	  .name = "ud_send_lat",
	  .pattern = IG_PATTERN_LAT,
	  .lat_div = 2,
	  .wait = IG_WAIT_EVENTS },
};

const struct ig_xport_tests ig_vb_tests = {
	.name = "verbs",
	.rows = rows,
	.n = sizeof(rows) / sizeof(rows[0]),
};
