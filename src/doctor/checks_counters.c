// SPDX-License-Identifier: MIT
/*
 * Port error counters (ports/N/counters, ports/N/hw_counters) and TCP
 * retransmits (/proc/net/snmp): as totals in the doctor, and as what grew
 * between two snapshots around a run (ig_dr_counters_read*).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor_int.h"
#include "wire/ctrl.h"

/* index < NPORT: counters/NAME (IB PortCounters); else hw_counters/NAME
 * (transport errors; mlx5 and rxe names) */
#define NPORT 12
static const char *const counter_names[IG_DR_NCOUNTERS] = {
	"symbol_error",
	"link_error_recovery",
	"link_downed",
	"port_rcv_errors",
	"port_rcv_remote_physical_errors",
	"port_rcv_switch_relay_errors",
	"port_xmit_discards",
	"port_xmit_constraint_errors",
	"port_rcv_constraint_errors",
	"local_link_integrity_errors",
	"excessive_buffer_overrun_errors",
	"VL15_dropped",
	"out_of_sequence",
	"packet_seq_err",
	"local_ack_timeout_err",
	"rnr_nak_retry_err",
	"implied_nak_seq_err",
	"duplicate_request",
	"out_of_buffer",
	"rcvd_seq_err",
	"out_of_seq_request",
	"retry_exceeded_err",
	"completer_retry_err",
	"send_err",
};

static void counter_path(const struct ig_dr_counters *c, int i, char *buf,
			 size_t len)
{
	char leaf[64];

	snprintf(leaf, sizeof(leaf), "%s/%s",
		 i < NPORT ? "counters" : "hw_counters", counter_names[i]);
	ig_inv_path(buf, len, c->rdma_dev, c->port, leaf);
}

/* /proc/net/snmp: a "Tcp:" line of names, then one of values. */
static int read_snmp(struct ig_dr *d, uint64_t *out, uint64_t *retrans)
{
	FILE *f = ig_dr_fopen(d, "/proc/net/snmp");
	char *names = NULL, *vals = NULL, *sn, *sv, *n, *v;
	size_t c1 = 0, c2 = 0;
	int found = 0;

	if (!f)
		return -ENOENT;
	while (getline(&names, &c1, f) > 0) {
		if (strncmp(names, "Tcp:", 4) || getline(&vals, &c2, f) <= 0)
			continue;
		n = strtok_r(names, " \n", &sn);
		v = strtok_r(vals, " \n", &sv);
		for (; n && v; n = strtok_r(NULL, " \n", &sn),
			       v = strtok_r(NULL, " \n", &sv)) {
			if (!strcmp(n, "OutSegs"))
				found |= 1, *out = strtoull(v, NULL, 10);
			if (!strcmp(n, "RetransSegs"))
				found |= 2, *retrans = strtoull(v, NULL, 10);
		}
		break;
	}
	free(names);
	free(vals);
	fclose(f);
	if (found != 3)
		ig_dr_read_err(d, "/proc/net/snmp", EINVAL);
	return found == 3 ? 0 : -EINVAL;
}

static void snap(struct ig_dr *d, const struct ig_dr_path *p,
		 struct ig_dr_counters *c)
{
	char path[PATH_MAX];

	memset(c, 0, sizeof(*c));
	snprintf(c->rdma_dev, sizeof(c->rdma_dev), "%s", p->rdma_dev);
	c->port = p->port;
	for (int i = 0; p->rdma_dev[0] && i < IG_DR_NCOUNTERS; i++) {
		counter_path(c, i, path, sizeof(path));
		/* drivers expose different sets: absent ones are quiet */
		c->has[i] = !ig_dr_read_u64(d, path, &c->v[i], true);
	}
}

void ig_dr_check_counters(struct ig_dr *d, struct ig_dr_pctx *c)
{
	struct ig_dr_finding *fp = NULL, *fh = NULL;
	struct ig_dr_counters s;
	char path[PATH_MAX];

	snap(d, c->p, &s);
	for (int i = 0; i < IG_DR_NCOUNTERS; i++) {
		if (!s.has[i] || !s.v[i])
			continue;
		if (i < NPORT && !fp)
			fp = ig_dr_add(
				d, IG_DR_SEV_WARN, "port.errors",
				"%s port %d has counted link errors since "
				"its counters were last cleared: a "
				"marginal link drops or retransmits",
				s.rdma_dev, s.port);
		if (i >= NPORT && !fh)
			fh = ig_dr_add(
				d, IG_DR_SEV_INFO, "port.hw_errors",
				"%s port %d has counted transport retries "
				"or sequence errors (verbs recovered them "
				"in the HCA)",
				s.rdma_dev, s.port);
		counter_path(&s, i, path, sizeof(path));
		ig_dr_ev(i < NPORT ? fp : fh, path, "%" PRIu64, s.v[i]);
	}
	ig_dr_fix(fp,
		  "see whether they grow during a run; a rising "
		  "symbol_error or link_error_recovery means a bad cable or "
		  "transceiver (reset: perfquery -x -R)");
	ig_dr_fix(fh, "see whether they grow during a run; on RoCE check "
		      "PFC/ECN on the path");
}

void ig_dr_check_tcp_retrans(struct ig_dr *d)
{
	uint64_t out = 0, re = 0;
	struct ig_dr_finding *f;

	if (read_snmp(d, &out, &re) || !out || re * 1000 <= out)
		return;
	f = ig_dr_add(d, IG_DR_SEV_WARN, "tcp.retrans",
		      "TCP retransmitted %" PRIu64 " of %" PRIu64 " segments "
		      "(%.2f %%) since boot: losses cut TCP's rate hard, while "
		      "verbs' reliable connection recovers in the HCA",
		      re, out, 100.0 * re / out);
	ig_dr_ev(f, "/proc/net/snmp",
		 "Tcp RetransSegs %" PRIu64 " OutSegs %" PRIu64, re, out);
	ig_dr_fix(f, "see whether they grow during a run; check pause/PFC, the "
		     "ring sizes (ethtool -g) and the port counters");
}

/* The port's counters of p and the host's TCP ones into c. */
static void take(struct ig_dr *d, const struct ig_dr_path *p,
		 struct ig_dr_counters *c)
{
	snap(d, p, c);
	c->has_tcp = !read_snmp(d, &c->tcp_out_segs, &c->tcp_retrans_segs);
}

int ig_dr_counters_read(const char *root, const struct sockaddr *addr,
			struct ig_dr_counters *c)
{
	struct ig_dr_opts o = { .root = root };
	struct ig_dr_report r = { 0 };
	struct ig_dr_pctx pc;
	char host[64];
	struct ig_dr d;
	int ret = ig_sockaddr_host(addr, host, sizeof(host));

	if (ret)
		return ret;
	o.addr = host;
	ret = ig_dr_open(&d, &o, &r);
	if (ret)
		return ret;
	ig_dr_map_addr(&d, host, &pc);
	take(&d, &r.paths[0], c);
	c->loopback = !strcmp(r.paths[0].kind, "loopback");
	ig_dr_close(&d);
	ig_dr_report_free(&r);
	return 0;
}

int ig_dr_counters_again(const char *root, const struct ig_dr_counters *a,
			 struct ig_dr_counters *b)
{
	struct ig_dr_opts o = { .root = root, .no_inventory = true };
	struct ig_dr_report r = { 0 };
	struct ig_dr_path p = { .port = a->port };
	struct ig_dr d;
	int ret = ig_dr_open(&d, &o, &r);

	if (ret)
		return ret;
	snprintf(p.rdma_dev, sizeof(p.rdma_dev), "%s", a->rdma_dev);
	take(&d, &p, b);
	b->loopback = a->loopback;
	ig_dr_close(&d);
	ig_dr_report_free(&r);
	return 0;
}

static struct ig_dr_finding *put(struct ig_dr_finding *out, size_t *n,
				 size_t max, enum ig_dr_sev sev, const char *id)
{
	struct ig_dr_finding *f;

	if (*n >= max)
		return NULL;
	f = &out[(*n)++];
	memset(f, 0, sizeof(*f));
	f->sev = sev;
	snprintf(f->id, sizeof(f->id), "%s", id);
	return f;
}

static void diff_port(const struct ig_dr_counters *a,
		      const struct ig_dr_counters *b, struct ig_dr_finding *out,
		      size_t *n, size_t max)
{
	struct ig_dr_finding *f = NULL;
	char path[PATH_MAX];

	for (int i = 0; i < IG_DR_NCOUNTERS; i++) {
		if (!a->has[i] || !b->has[i] || b->v[i] <= a->v[i])
			continue;
		if (!f) {
			f = put(out, n, max, IG_DR_SEV_WARN, "run.port_errors");
			if (!f)
				return;
			snprintf(f->what, sizeof(f->what),
				 "%s port %d counted errors during the run: "
				 "the link or the fabric lost or corrupted "
				 "packets",
				 b->rdma_dev, b->port);
			ig_dr_fix(f,
				  "a rising symbol_error or "
				  "link_error_recovery means a bad cable; "
				  "sequence errors and timeouts on RoCE mean "
				  "drops: check PFC/ECN");
		}
		counter_path(b, i, path, sizeof(path));
		ig_dr_ev(f, path, "+%" PRIu64 " (%" PRIu64 " -> %" PRIu64 ")",
			 b->v[i] - a->v[i], a->v[i], b->v[i]);
	}
}

size_t ig_dr_counters_diff(const struct ig_dr_counters *a,
			   const struct ig_dr_counters *b,
			   struct ig_dr_finding *out, size_t max)
{
	uint64_t dout, dre;
	struct ig_dr_finding *f;
	size_t n = 0;

	if (!strcmp(a->rdma_dev, b->rdma_dev) && a->port == b->port)
		diff_port(a, b, out, &n, max);
	if (!a->has_tcp || !b->has_tcp || b->tcp_out_segs < a->tcp_out_segs ||
	    b->tcp_retrans_segs < a->tcp_retrans_segs)
		return n;
	dout = b->tcp_out_segs - a->tcp_out_segs;
	dre = b->tcp_retrans_segs - a->tcp_retrans_segs;
	if (!dout || dre * 1000 <= dout)
		return n;
	f = put(out, &n, max, IG_DR_SEV_WARN, "run.tcp_retrans");
	if (!f)
		return n;
	snprintf(f->what, sizeof(f->what),
		 "TCP retransmitted %" PRIu64 " of %" PRIu64 " segments "
		 "(%.2f %%) during the run (all sockets of this host): losses "
		 "cut TCP's rate",
		 dre, dout, 100.0 * dre / dout);
	ig_dr_ev(f, "/proc/net/snmp",
		 "RetransSegs +%" PRIu64 ", OutSegs +%" PRIu64, dre, dout);
	if (b->loopback) /* no NIC, no pause frames or rings to check */
		ig_dr_fix(f, "the path is loopback: these are tail-loss "
			     "probes and timeouts of senders and receivers "
			     "that compete for the CPUs (fewer streams, or "
			     "--cpu), or other sockets of this host");
	else
		ig_dr_fix(f, "check pause/PFC, the ring sizes (ethtool -g) "
			     "and the port counters");
	return n;
}
