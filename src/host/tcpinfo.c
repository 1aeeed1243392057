// SPDX-License-Identifier: MIT
/* TCP_INFO of a connection, and the interval arithmetic on its counters. */
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
	ti->valid = true;
	ti->retrans_total = k.tcpi_total_retrans;
	ti->rtt_us = k.tcpi_rtt;
	ti->rttvar_us = k.tcpi_rttvar;
	ti->snd_cwnd = k.tcpi_snd_cwnd;
	ti->snd_mss = k.tcpi_snd_mss;
	ti->pmtu = k.tcpi_pmtu;
	ti->reordering = k.tcpi_reordering;
	return 0;
}

void ig_tcpinfo_interval(struct ig_tcpinfo *end, const struct ig_tcpinfo *start)
{
	end->retrans = 0;
	if (!end->valid || !start->valid)
		return;
	end->retrans = (uint32_t)(end->retrans_total - start->retrans_total);
}

uint64_t ig_tcpinfo_retrans(const struct ig_tcpinfo *ti, unsigned int n)
{
	uint64_t sum = 0;

	for (unsigned int i = 0; i < n; i++)
		if (ti[i].valid)
			sum += ti[i].retrans;
	return sum;
}

void ig_zc_stats_sub(struct ig_zc_stats *a, const struct ig_zc_stats *b)
{
	a->sends -= b->sends;
	a->copied -= b->copied;
	a->enobufs -= b->enobufs;
	a->fallback -= b->fallback;
}

void ig_zc_stats_add(struct ig_zc_stats *a, const struct ig_zc_stats *b)
{
	a->sends += b->sends;
	a->copied += b->copied;
	a->enobufs += b->enobufs;
	a->fallback += b->fallback;
}
