// SPDX-License-Identifier: MIT
/*
 * Verbs transport.  Not implemented yet (issue 3): every operation fails
 * with a clear message, so a verbs test can never report a figure it did
 * not measure.
 */
#include <errno.h>

#include "engine.h"

static int verbs_setup(struct ig_session *s)
{
	return ig_session_fail(s, EOPNOTSUPP, "the verbs transport is not "
			       "implemented in this build of ibgap");
}

static void verbs_nop(struct ig_session *s)
{
}

static ssize_t verbs_bw_send(struct ig_stream *st, uint64_t n)
{
	return -EOPNOTSUPP;
}

static int verbs_stream_op(struct ig_stream *st)
{
	return -EOPNOTSUPP;
}

const struct ig_xport_ops ig_verbs_ops = {
	.name = "verbs",
	.setup = verbs_setup,
	.stop = verbs_nop,
	.cleanup = verbs_nop,
	.bw_send = verbs_bw_send,
	.bw_flush = verbs_stream_op,
	.bw_recv = verbs_stream_op,
	.lat_ping = verbs_stream_op,
	.lat_pong = verbs_stream_op,
};
