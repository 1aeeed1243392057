/* SPDX-License-Identifier: MIT */
#ifndef IG_TCPINFO_H
#define IG_TCPINFO_H

#include <stdint.h>

/*
 * What the kernel says about one TCP connection (getsockopt TCP_INFO), as
 * the TCP transport reports it per stream (docs/design.md, "tcp_info").
 * Units: rtt_us and rttvar_us microseconds (the kernel's smoothed
 * estimates), snd_cwnd segments, snd_mss and pmtu bytes, reordering
 * segments; retrans_total the kernel's 32-bit count since the connect.
 */
struct ig_tcpinfo {
	uint32_t retrans_total;
	uint32_t rtt_us, rttvar_us;
	uint32_t snd_cwnd, snd_mss, pmtu, reordering;
};

/* Reads TCP_INFO of fd into ti.  0 or -errno. */
int ig_tcpinfo_read(int fd, struct ig_tcpinfo *ti);

#endif
