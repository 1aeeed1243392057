// SPDX-License-Identifier: MIT
/*
 * Socket buffers against the bandwidth-delay product (link data rate x
 * round trip) and against --window; congestion control.
 *   net.core.rmem_max/wmem_max cap what a socket may ask for (SO_RCVBUF,
 *     SO_SNDBUF: ibgap --window, iperf3 -w); autotuning ignores them.
 *   net.ipv4.tcp_rmem/tcp_wmem's third value caps autotuning; about half
 *     of a receive buffer becomes window (the rest is overhead).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "doctor_int.h"

#define MIB (1024.0 * 1024.0)

struct sock {
	uint64_t rmem_max, wmem_max;
	uint64_t tcp_rmem[3], tcp_wmem[3];
	bool has_max, has_tcp;
	double bdp; /* bytes, 0 unknown */
	char bdp_src[96], bdp_val[128];
};

static int read_triple(struct ig_dr *d, const char *path, uint64_t v[3])
{
	char buf[128];

	if (ig_dr_read(d, path, buf, sizeof(buf)))
		return -1;
	if (sscanf(buf, "%" SCNu64 " %" SCNu64 " %" SCNu64, &v[0], &v[1],
		   &v[2]) != 3) {
		ig_dr_read_err(d, path, EINVAL);
		return -1;
	}
	return 0;
}

/* 2 x BDP rounded up to whole MiB, at least 16 MiB */
static uint64_t want_bytes(double bdp)
{
	double m = 2 * bdp / MIB;
	uint64_t mib = (uint64_t)m + (m > (uint64_t)m);

	return (mib < 16 ? 16 : mib) << 20;
}

static void max_small(struct ig_dr *d, struct sock *s, const char *key,
		      uint64_t v, const char *id)
{
	char path[64];
	struct ig_dr_finding *f;

	if (!s->has_max || !s->bdp || v >= s->bdp)
		return;
	snprintf(path, sizeof(path), "/proc/sys/net/core/%s", key);
	f = ig_dr_add(
		d, IG_DR_SEV_WARN, id,
		"net.core.%s is %" PRIu64 " bytes, below the "
		"bandwidth-delay product of %.0f: a socket that sizes its "
		"own buffer (ibgap --window, iperf3 -w) is capped there",
		key, v, s->bdp);
	ig_dr_ev(f, path, "%" PRIu64, v);
	ig_dr_ev(f, s->bdp_src, "%s", s->bdp_val);
	ig_dr_fix(f, "sysctl -w net.core.%s=%" PRIu64, key, want_bytes(s->bdp));
	snprintf(path, sizeof(path), "net.core.%s", key);
	ig_dr_try(f, IG_TUNE_SYSCTL, "", path, "%" PRIu64, want_bytes(s->bdp));
}

static void tcp_small(struct ig_dr *d, struct sock *s, const char *key,
		      const uint64_t v[3], double usable, const char *id)
{
	char path[64];
	struct ig_dr_finding *f;

	if (!s->has_tcp || !s->bdp || usable >= s->bdp)
		return;
	snprintf(path, sizeof(path), "/proc/sys/net/ipv4/%s", key);
	f = ig_dr_add(d, IG_DR_SEV_WARN, id,
		      "net.ipv4.%s allows autotuning %" PRIu64 " bytes (about "
		      "%.0f of window), below the bandwidth-delay product of "
		      "%.0f: one TCP stream cannot fill the link",
		      key, v[2], usable, s->bdp);
	ig_dr_ev(f, path, "%" PRIu64 " %" PRIu64 " %" PRIu64, v[0], v[1], v[2]);
	ig_dr_ev(f, s->bdp_src, "%s", s->bdp_val);
	ig_dr_fix(f, "sysctl -w net.ipv4.%s='4096 131072 %" PRIu64 "'", key,
		  want_bytes(s->bdp));
	snprintf(path, sizeof(path), "net.ipv4.%s", key);
	ig_dr_try(f, IG_TUNE_SYSCTL, "", path, "4096 131072 %" PRIu64,
		  want_bytes(s->bdp));
}

static void window(struct ig_dr *d, struct sock *s, uint64_t w)
{
	uint64_t cap = s->rmem_max < s->wmem_max ? s->rmem_max : s->wmem_max;
	struct ig_dr_finding *f;

	if (s->has_max && w > cap) {
		f = ig_dr_add(d, IG_DR_SEV_WARN, "sock.window.capped",
			      "--window %" PRIu64 " exceeds what the kernel "
			      "grants: net.core.rmem_max %" PRIu64 ", wmem_max "
			      "%" PRIu64 " cap the socket buffers",
			      w, s->rmem_max, s->wmem_max);
		ig_dr_ev(f, "/proc/sys/net/core/rmem_max", "%" PRIu64,
			 s->rmem_max);
		ig_dr_ev(f, "/proc/sys/net/core/wmem_max", "%" PRIu64,
			 s->wmem_max);
		ig_dr_ev(f, "--window", "%" PRIu64, w);
		ig_dr_fix(f,
			  "sysctl -w net.core.rmem_max=%" PRIu64
			  " net.core.wmem_max=%" PRIu64,
			  w, w);
		ig_dr_try(f, IG_TUNE_SYSCTL, "", "net.core.rmem_max",
			  "%" PRIu64, w);
		ig_dr_try(f, IG_TUNE_SYSCTL, "", "net.core.wmem_max",
			  "%" PRIu64, w);
	}
	if (!s->bdp || w >= s->bdp)
		return;
	f = ig_dr_add(d, IG_DR_SEV_WARN, "sock.window.small",
		      "--window %" PRIu64
		      " is below the bandwidth-delay product "
		      "of %.0f: one stream cannot fill the link",
		      w, s->bdp);
	ig_dr_ev(f, "--window", "%" PRIu64, w);
	ig_dr_ev(f, s->bdp_src, "%s", s->bdp_val);
	ig_dr_fix(f,
		  "--window %" PRIu64 " or more, or no --window (autotuning)",
		  want_bytes(s->bdp) / 2);
	ig_dr_not_tried(f, "--window is this run's option, not a setting "
			   "of the host: run again with a larger one");
}

/* bbr is a word of the list */
static bool has_bbr(const char *list)
{
	for (const char *p = list; (p = strstr(p, "bbr")); p += 3)
		if ((p == list || p[-1] == ' ') && (!p[3] || p[3] == ' '))
			return true;
	return false;
}

static void congestion(struct ig_dr *d)
{
	const char *path = "/proc/sys/net/ipv4/tcp_congestion_control",
		   *avail = "/proc/sys/net/ipv4/"
			    "tcp_available_congestion_control";
	struct ig_dr_finding *f;
	char cc[64], list[256] = "";

	if (ig_dr_read(d, path, cc, sizeof(cc))) {
		ig_dr_not_examined(d, "socket", "%s is not readable", path);
		return;
	}
	f = ig_dr_add(d, IG_DR_SEV_INFO, "sock.cc",
		      "TCP congestion control is '%s' (for both TCP tests and "
		      "IPoIB traffic)",
		      cc);
	ig_dr_ev(f, path, "%s", cc);
	if (!strcmp(cc, "bbr"))
		return;
	if (!ig_dr_read(d, avail, list, sizeof(list)) && has_bbr(list)) {
		ig_dr_fix(f, "sysctl -w net.ipv4.tcp_congestion_control=bbr "
			     "(try it: it often holds more of a fast link)");
		ig_dr_try(f, IG_TUNE_SYSCTL, "",
			  "net.ipv4.tcp_congestion_control", "bbr");
		return;
	}
	ig_dr_fix(f, "modprobe tcp_bbr; sysctl -w "
		     "net.ipv4.tcp_congestion_control=bbr (try it: it often "
		     "holds more of a fast link)");
	ig_dr_not_tried(f, "bbr is not in %s ('%s'): modprobe tcp_bbr first",
			avail, list);
}

/* busy polling: a latency knob, off by default */
static void busy_poll(struct ig_dr *d)
{
	const char *poll = "/proc/sys/net/core/busy_poll",
		   *read = "/proc/sys/net/core/busy_read";
	struct ig_dr_finding *f;
	uint64_t p, r;

	if (ig_dr_read_u64(d, poll, &p, true) ||
	    ig_dr_read_u64(d, read, &r, true)) {
		ig_dr_not_examined(d, "socket",
				   "no %s (a kernel without busy polling?)",
				   poll);
		return;
	}
	if (p || r)
		return;
	f = ig_dr_add(
		d, IG_DR_SEV_INFO, "sock.busy_poll.off",
		"busy polling is off: a socket waiting for data sleeps "
		"until the interrupt; polling the queue for a few tens of "
		"microseconds cuts latency at the cost of CPU");
	ig_dr_ev(f, poll, "%" PRIu64, p);
	ig_dr_ev(f, read, "%" PRIu64, r);
	ig_dr_fix(f, "sysctl -w net.core.busy_poll=50 net.core.busy_read=50");
	ig_dr_try(f, IG_TUNE_SYSCTL, "", "net.core.busy_poll", "50");
	ig_dr_try(f, IG_TUNE_SYSCTL, "", "net.core.busy_read", "50");
}

void ig_dr_check_sock(struct ig_dr *d, double rate_gbps)
{
	struct sock s = { 0 };
	double rtt = d->r->rtt_us;

	s.has_max = !ig_dr_read_u64(d, "/proc/sys/net/core/rmem_max",
				    &s.rmem_max, false) &&
		    !ig_dr_read_u64(d, "/proc/sys/net/core/wmem_max",
				    &s.wmem_max, false);
	s.has_tcp =
		!read_triple(d, "/proc/sys/net/ipv4/tcp_rmem", s.tcp_rmem) &&
		!read_triple(d, "/proc/sys/net/ipv4/tcp_wmem", s.tcp_wmem);
	if (!s.has_max || !s.has_tcp)
		ig_dr_not_examined(d, "socket",
				   "the socket buffer limits are not readable "
				   "(/proc/sys/net/core, /proc/sys/net/ipv4)");
	if (rate_gbps > 0) {
		s.bdp = rate_gbps * 1e9 / 8 * rtt * 1e-6;
		snprintf(s.bdp_src, sizeof(s.bdp_src),
			 "bandwidth-delay product (round trip %s)",
			 d->o->rtt_us > 0 ? "measured, TCP_INFO" : "assumed");
		snprintf(s.bdp_val, sizeof(s.bdp_val),
			 "%.1f Gb/s x %.0f us = %.0f bytes", rate_gbps, rtt,
			 s.bdp);
	}
	max_small(d, &s, "rmem_max", s.rmem_max, "sock.rmem_max.small");
	max_small(d, &s, "wmem_max", s.wmem_max, "sock.wmem_max.small");
	tcp_small(d, &s, "tcp_rmem", s.tcp_rmem, s.tcp_rmem[2] / 2.0,
		  "sock.tcp_rmem.small");
	tcp_small(d, &s, "tcp_wmem", s.tcp_wmem, (double)s.tcp_wmem[2],
		  "sock.tcp_wmem.small");
	if (d->o->window)
		window(d, &s, d->o->window);
	congestion(d);
	busy_poll(d);
}
