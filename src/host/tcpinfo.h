/* SPDX-License-Identifier: MIT */
#ifndef IG_TCPINFO_H
#define IG_TCPINFO_H

#include <stdbool.h>
#include <stdint.h>

/*
 * What the kernel says about one TCP connection (getsockopt TCP_INFO), as
 * the report shows it per stream (docs/design.md, "tcp_info").  Units:
 * rtt_us and rttvar_us microseconds (the kernel's smoothed estimates),
 * snd_cwnd segments, snd_mss and pmtu bytes, reordering segments.
 */
struct ig_tcpinfo {
	bool valid;
	uint64_t retrans_total; /* tcpi_total_retrans: since the connect */
	uint64_t retrans;	/* of which during the measured interval */
	uint32_t rtt_us, rttvar_us;
	uint32_t snd_cwnd, snd_mss, pmtu, reordering;
};

/*
 * MSG_ZEROCOPY accounting of one stream's sender (--zerocopy): sends made
 * with MSG_ZEROCOPY, how many of them the kernel completed by copying
 * (SO_EE_CODE_ZEROCOPY_COPIED), sends refused with ENOBUFS, and sends
 * that went out copying after such a refusal.
 */
struct ig_zc_stats {
	uint64_t sends, copied, enobufs, fallback;
};

/* Reads TCP_INFO of fd into ti (retrans 0).  0 or -errno. */
int ig_tcpinfo_read(int fd, struct ig_tcpinfo *ti);
/*
 * end->retrans = the retransmissions between the snapshots start and end
 * of one connection (the kernel's 32-bit counter, so modulo 2^32); 0 when
 * either is not valid.  Pure.
 */
void ig_tcpinfo_interval(struct ig_tcpinfo *end,
			 const struct ig_tcpinfo *start);
/* Sum of retrans over n snapshots (the valid ones). */
uint64_t ig_tcpinfo_retrans(const struct ig_tcpinfo *ti, unsigned int n);
/* a -= b for every counter, for the measured interval.  Pure. */
void ig_zc_stats_sub(struct ig_zc_stats *a, const struct ig_zc_stats *b);
/* a += b.  Pure. */
void ig_zc_stats_add(struct ig_zc_stats *a, const struct ig_zc_stats *b);

#endif
