// SPDX-License-Identifier: MIT
/*
 * UD send (ud_send_bw, ud_send_lat): what does not touch the device.  A
 * UD message is one packet, so its size is at most the path MTU; the
 * send requests vb_res.c prepares get the peer's address here.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "verbs_int.h"

int ig_vb_ud_size_check(uint64_t size, unsigned int mtu, const char *dev,
			unsigned int port, char *err, size_t errlen)
{
	if (size <= mtu)
		return 0;
	snprintf(err, errlen,
		 "-s %" PRIu64 " is more than the path MTU (%u bytes on %s "
		 "port %u): a UD message is one packet; allowed 1 to %u",
		 size, mtu, dev, port, mtu);
	return -EINVAL;
}

void ig_vb_ud_address(struct vb_stream *vs)
{
	for (int i = 0; i < VB_POST_BATCH; i++) {
		vs->wr[i].wr.ud.ah = vs->ah;
		vs->wr[i].wr.ud.remote_qpn = vs->rqpn;
		vs->wr[i].wr.ud.remote_qkey = vs->rqkey;
	}
}
