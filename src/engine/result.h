/* SPDX-License-Identifier: MIT */
#ifndef IG_RESULT_H
#define IG_RESULT_H

#include <stdbool.h>
#include <stdint.h>

#include "host/cpu.h"
#include "host/fingerprint.h"
#include "common/counters.h"
#include "common/facts.h"
#include "common/hist.h"
#include "common/params.h"
#include "common/repeat.h"
#include "host/sysinfo.h"

/*
 * The result of one test, as the engine computed it.  Units:
 *   bytes      payload bytes delivered in the measured interval
 *   seconds    first post -> last delivery confirmation, sender's clock
 *   bw_gbps    bytes * 8 / seconds / 1e9   (Gb/s = 10^9 bit/s)
 *   msg_rate   messages / seconds          (messages per second)
 *   lat        half round trip (read_lat: the whole read), nanoseconds,
 *              in the histogram
 */
struct ig_result {
	struct ig_params params;
	const char *test;      /* ig_test_name() */
	const char *transport; /* "tcp", "verbs", "rsockets" or "tcp@ADDR" */
	/* --rails: the client's device of the rail it ran on; else NULL */
	const char *rail;
	uint64_t iterations; /* messages (bw) or round trips (lat), all streams */
	uint64_t bytes;
	double seconds;
	double bw_gbps;
	double msg_rate;
	bool has_lat;
	struct ig_hist lat; /* nanoseconds */
	/* latency tests: the samples' clock, "tsc", "cntvct" or "monotonic"
	 * ("mixed" when pooled runs differ); NULL for bandwidth tests */
	const char *clock;
	double clock_ghz;     /* the counter's calibrated rate; 0: monotonic */
	double clock_read_ns; /* one read of that clock, at the start */
	/* why the counter was trusted (lat_clock.h's basis), NULL for the
	 * monotonic clock; cpus: how many CPUs "ordered" checked */
	const char *clock_basis;
	unsigned int clock_cpus;
	struct ig_cpu_usage cpu_client;
	struct ig_cpu_usage cpu_server;
	bool has_cpu_server;
	uint64_t window_requested;
	uint64_t window_snd; /* as read back with getsockopt */
	uint64_t window_rcv; /* the receiver's, as it read it back */
	char warning[256];   /* e.g. the kernel capped the window; "" if none */
	bool partial;	     /* ended early by SIGINT */
	bool has_bidir;	     /* --bidir: the server->client direction too */
	uint64_t rev_bytes;  /* handed over by the server, BEGIN to END */
	double rev_seconds;  /* on the server's clock */
	bool has_rx_bytes;   /* the receiver counted (not write_bw) */
	uint64_t rx_bytes;   /* received in its BEGIN..END interval */
	/* lossy (ud_send_bw): iterations and bytes are what the receiver
	 * got (rx_bytes); sent = iterations + lost */
	bool lossy;
	uint64_t sent, lost;
	double loss_rate;     /* lost / sent, 0 to 1 */
	struct ig_repeat rep; /* rep.n > 1: pooled over rep.n runs */
	uint64_t stream_msgs[IG_MAX_STREAMS]; /* per stream, measured */
	bool has_fp_server;
	struct ig_fingerprint fp_server; /* from the server's RESULT */
	/* the transport's named facts (verbs: the device), this host's
	 * (client) and the server's (READY) */
	struct ig_facts facts, facts_server;
	/* the transport's named values of each stream over the measured
	 * interval, this side's and the server's (RESULT) */
	struct ig_ctrs ctrs, ctrs_server;
	/* this host's options as the run used them (the client's plan sets
	 * what differs between runs of one test) */
	struct ig_local_opts local;
	/* the client's --also column: this measurement did not run or did
	 * not finish, and why (one line); only params, test and transport
	 * are then meaningful */
	bool failed;
	char error[256];
};

/*
 * Pools a repeated run into acc: counts, bytes and seconds add up, the
 * latency histograms merge, CPU figures are averaged by ig_result_pool_end
 * (k = number of runs pooled), the transport's values pool by their rules.
 * Every figure covers the same runs: rx_bytes and the reverse direction
 * (rev_bytes, rev_seconds) add up too, and are dropped (has_rx_bytes,
 * has_bidir false) when a run lacks them; partial when any run was.
 */
void ig_result_pool(struct ig_result *acc, const struct ig_result *r);
void ig_result_pool_end(struct ig_result *acc, unsigned int k);

/*
 * A lossy test (ud_send_bw): r holds the sender's counts and rx_bytes
 * what the receiver got of them; the delivered messages (rx_bytes /
 * size) become iterations, bytes and the rates, sent keeps the sender's
 * count and lost = sent - delivered (0 when more arrived).
 */
void ig_result_delivered(struct ig_result *r, uint64_t size);

#endif
