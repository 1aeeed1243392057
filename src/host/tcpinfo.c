// SPDX-License-Identifier: MIT
/* TCP_INFO of a connection. */
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <string.h>
#include <sys/socket.h>

#include "tcpinfo.h"

int ig_tcpinfo_read(int fd, struct ig_tcpinfo *ti)
{
	struct tcp_info k;
	socklen_t len = sizeof(k);

	memset(ti, 0, sizeof(*ti));
	memset(&k, 0, sizeof(k));
	if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &k, &len))
		return -errno;
	ti->retrans_total = k.tcpi_total_retrans;
	ti->rtt_us = k.tcpi_rtt;
	ti->rttvar_us = k.tcpi_rttvar;
	ti->snd_cwnd = k.tcpi_snd_cwnd;
	ti->snd_mss = k.tcpi_snd_mss;
	ti->pmtu = k.tcpi_pmtu;
	ti->reordering = k.tcpi_reordering;
	return 0;
}
