// SPDX-License-Identifier: MIT
/*
 * The engine bench (bench.h; docs/design.md, "Fault injection"): the real
 * engine, both halves in threads, a socketpair control channel and a
 * fake transport.  Good runs are checked against what the fake moved;
 * faults (every phase x side x kill/stall, the timeouts, the transport's
 * errors) by what the survivor reports: its return, one line and which,
 * and that it ends within its timeout plus a generous slack.  The fault
 * cases of one test run at the same time, each in its own threads, so
 * that the waits for timeouts overlap.  BENCH_VERBOSE=1 prints every
 * case's outcome.
 */
#include <check.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "common/clock.h"
#include "testmain.h"
#include "transports/transports.h"

#define MS 1000000ull
/* the timeout of the fault cases, and what a survivor may take beyond
 * its phase and timeout on a loaded 2-CPU machine */
#define FT_MS 1000
#define FT_TEXT "1000 ms"
#define SLACK_MS 3000
/* good runs: a timeout no healthy step comes near */
#define GOOD_MS 10000

static struct ig_params params(enum ig_test t, uint64_t n, unsigned int d_ms,
			       unsigned int w_ms, unsigned int timeout_ms)
{
	struct ig_params p;

	ig_params_default(&p);
	ig_params_set_test(IG_TESTS, &p, t);
	p.size = ig_test_pattern(IG_TESTS, t) == IG_PATTERN_LAT ? 2 : 4096;
	p.iterations = n;
	p.duration_ns = n ? 0 : d_ms * MS;
	p.warmup_ns = w_ms * MS;
	p.timeout_ms = timeout_ms;
	return p;
}

static struct bench_spec good(const char *name, struct ig_params p)
{
	return (struct bench_spec){
		.name = name, .p = { p }, .ntests = 1, .rx_confirms = true
	};
}

static bool verbose(void)
{
	const char *v = getenv("BENCH_VERBOSE");

	return v && *v == '1';
}

static void show(const struct bench_case *bc)
{
	const struct bench_spec *sp = bc->spec;

	if (!verbose())
		return;
	for (int i = 0; i < 2; i++)
		printf("%-40s %s ret %d after %7.1f ms fired %u: %s\n",
		       sp->name, i ? "server" : "client", bc->h[i].ret,
		       bench_ms(bc, i), bc->h[i].fired, bc->h[i].err);
}

/* Runs one case to its end. */
static struct bench_case *run(const struct bench_spec *sp)
{
	struct bench_case *bc = bench_start(sp);

	ck_assert_msg(bc, "%s: the bench could not start", sp->name);
	bench_finish(bc);
	show(bc);
	return bc;
}

/* Both halves ended well, the client with ntests results. */
static void check_ok(const struct bench_case *bc)
{
	const struct bench_spec *sp = bc->spec;

	ck_assert_msg(bc->h[FX_CLIENT].ret == 0, "%s: client: %s", sp->name,
		      bc->h[FX_CLIENT].err);
	ck_assert_msg(bc->h[FX_SERVER].ret == 0, "%s: server: %s", sp->name,
		      bc->h[FX_SERVER].err);
	ck_assert_uint_eq(bc->h[FX_CLIENT].done, sp->ntests);
}

/* ---- good runs ------------------------------------------------------ */

/* Iteration mode, forward: exactly n per stream measured, every message
 * taken by the receiver; with a warm-up the fake moved more. */
static void bw_iterations(bool warm, unsigned int streams, bool rx_confirms,
			  bool short_io)
{
	struct bench_spec sp =
		good("bw iterations",
		     params(IG_TEST_TCP_BW, 300, 0, warm ? 30 : 0, GOOD_MS));
	struct bench_case *bc;
	struct fx_chan tot;

	sp.p[0].streams = streams;
	sp.rx_confirms = rx_confirms;
	sp.sc[FX_CLIENT].short_io = short_io;
	sp.sc[FX_SERVER].short_io = short_io;
	bc = run(&sp);
	check_ok(bc);
	const struct ig_result *r = &bc->h[FX_CLIENT].r[0];

	ck_assert_uint_eq(r->iterations, 300ull * streams);
	ck_assert_uint_eq(r->bytes, 300ull * streams * 4096);
	for (unsigned int i = 0; i < streams; i++) {
		struct fx_chan c = fx_chan_of(&bc->w, FX_CLIENT, i);

		ck_assert_uint_eq(r->stream_msgs[i], 300);
		/* the warm-up's messages were sent and are not counted */
		ck_assert_uint_ge(c.sent, 300);
		if (!warm)
			ck_assert_uint_eq(c.sent, 300);
		ck_assert_uint_eq(c.taken, c.sent);
	}
	ck_assert(r->has_rx_bytes);
	/* the receiver's count over its own BEGIN..END: with SYNC it starts
	 * at the confirmed warm-up; without (verbs), at the bytes BEGIN says
	 * were handed over before it (the fake's flush, as an RC
	 * completion, means taken: every one is counted by END) */
	ck_assert_uint_eq(r->rx_bytes, r->bytes);
	fx_totals(&bc->w, FX_SERVER, &tot);
	ck_assert_uint_eq(tot.sent, 0); /* nothing came back */
	ck_assert(!r->partial);
	ck_assert(r->seconds > 0);
	ck_assert_uint_eq(r->window_rcv, 16 * 4096);
	bench_free(bc);
}

START_TEST(test_bw_iterations)
{
	bw_iterations(false, 1, true, false);
}
END_TEST

START_TEST(test_bw_warmup_streams)
{
	bw_iterations(true, 3, true, false);
}
END_TEST

/* verbs-like (a completion means delivered: no SYNC), short transfers */
START_TEST(test_bw_no_rx_confirm_short)
{
	bw_iterations(true, 2, false, true);
}
END_TEST

/* verbs-like, the server reading BEGIN 50 ms late (a loaded host): the
 * measured messages have all arrived by then, and its count still starts
 * at what was sent before BEGIN (once, rx_bytes 0 in t_two_hosts) */
START_TEST(test_bw_begin_read_late)
{
	struct bench_spec sp = good("bw begin read late",
				    params(IG_TEST_TCP_BW, 300, 0, 0, GOOD_MS));
	struct bench_case *bc;

	sp.rx_confirms = false;
	sp.side = FX_SERVER;
	sp.phase = IG_FAULT_MEASURE;
	sp.action = BA_PAUSE;
	bc = run(&sp);
	check_ok(bc);
	ck_assert_uint_eq(bc->h[FX_SERVER].fired, 1);
	const struct ig_result *r = &bc->h[FX_CLIENT].r[0];

	ck_assert_uint_eq(r->bytes, 300ull * 4096);
	ck_assert(r->has_rx_bytes);
	ck_assert_uint_eq(r->rx_bytes, r->bytes);
	bench_free(bc);
}
END_TEST

/* Duration mode: the interval lasts at least -D; what the sender counted
 * is what the receiver confirmed. */
START_TEST(test_bw_duration)
{
	struct bench_spec sp =
		good("bw duration", params(IG_TEST_TCP_BW, 0, 80, 20, GOOD_MS));
	struct bench_case *bc;
	struct fx_chan tot;

	sp.sc[FX_SERVER].pace_us = 500;
	sp.sc[FX_CLIENT].flush_ms = 5; /* slow flush */
	bc = run(&sp);
	check_ok(bc);
	const struct ig_result *r = &bc->h[FX_CLIENT].r[0];

	ck_assert(r->seconds >= 0.08);
	ck_assert_uint_eq(r->bytes, r->iterations * 4096);
	ck_assert_uint_eq(r->rx_bytes, r->bytes);
	ck_assert_uint_eq(r->stream_msgs[0], r->iterations);
	fx_totals(&bc->w, FX_CLIENT, &tot);
	ck_assert_uint_ge(tot.sent, r->iterations);
	ck_assert_uint_eq(tot.taken, tot.sent);
	bench_free(bc);
}
END_TEST

/* Latency: n round trips on each stream, every sample in the histogram,
 * the fake saw exactly n pings and n pongs (no warm-up).  n = 1101 spans
 * two of the engine's batches of 512 samples and part of a third. */
START_TEST(test_lat_iterations)
{
	struct bench_spec sp = good(
		"lat iterations", params(IG_TEST_TCP_LAT, 1101, 0, 0, GOOD_MS));
	struct bench_case *bc;

	sp.p[0].streams = 2;
	bc = run(&sp);
	check_ok(bc);
	const struct ig_result *r = &bc->h[FX_CLIENT].r[0];

	ck_assert(r->has_lat);
	ck_assert_uint_eq(r->iterations, 2202);
	ck_assert_uint_eq(r->lat.count, 2202);
	for (unsigned int i = 0; i < 2; i++) {
		ck_assert_uint_eq(r->stream_msgs[i], 1101);
		ck_assert_uint_eq(fx_chan_of(&bc->w, FX_CLIENT, i).sent, 1101);
		ck_assert_uint_eq(fx_chan_of(&bc->w, FX_SERVER, i).sent, 1101);
	}
	ck_assert(r->clock != NULL);
	bench_free(bc);
}
END_TEST

/* Latency in duration mode with a warm-up. */
START_TEST(test_lat_duration)
{
	struct bench_spec sp = good("lat duration", params(IG_TEST_TCP_LAT, 0,
							   40, 20, GOOD_MS));
	struct bench_case *bc = run(&sp);
	struct fx_chan c, s;

	check_ok(bc);
	const struct ig_result *r = &bc->h[FX_CLIENT].r[0];

	ck_assert(r->has_lat);
	ck_assert_uint_eq(r->lat.count, r->iterations);
	fx_totals(&bc->w, FX_CLIENT, &c);
	fx_totals(&bc->w, FX_SERVER, &s);
	ck_assert_uint_eq(c.sent, s.sent); /* every ping answered */
	ck_assert_uint_ge(c.sent, r->iterations);
	ck_assert(r->seconds >= 0.04);
	bench_free(bc);
}
END_TEST

/* -R: the server drives; its per-stream counts are the client's figures
 * and the client's receivers counted every byte of them. */
START_TEST(test_reverse)
{
	struct bench_spec sp =
		good("reverse", params(IG_TEST_TCP_BW, 250, 0, 20, GOOD_MS));
	struct bench_case *bc;
	struct fx_chan fwd;

	sp.p[0].reverse = 1;
	sp.p[0].streams = 2;
	bc = run(&sp);
	check_ok(bc);
	const struct ig_result *r = &bc->h[FX_CLIENT].r[0];

	ck_assert_uint_eq(r->iterations, 500);
	ck_assert_uint_eq(r->stream_msgs[0], 250);
	ck_assert_uint_eq(r->stream_msgs[1], 250);
	ck_assert_uint_eq(r->rx_bytes, 500ull * 4096);
	for (unsigned int i = 0; i < 2; i++) {
		struct fx_chan c = fx_chan_of(&bc->w, FX_SERVER, i);

		ck_assert_uint_ge(c.sent, 250);
		ck_assert_uint_eq(c.taken, c.sent);
	}
	fx_totals(&bc->w, FX_CLIENT, &fwd);
	ck_assert_uint_eq(fwd.sent, 0);
	bench_free(bc);
}
END_TEST

/* --bidir: forward figures exact; the reverse figure is what the
 * server's senders handed over between BEGIN and END, no more than the
 * fake carried that way. */
START_TEST(test_bidir)
{
	struct bench_spec sp =
		good("bidir", params(IG_TEST_TCP_BW, 0, 60, 20, GOOD_MS));
	struct bench_case *bc;
	struct fx_chan back;

	sp.p[0].bidir = 1;
	sp.sc[FX_CLIENT].pace_us = 500;
	sp.sc[FX_SERVER].pace_us = 500;
	bc = run(&sp);
	check_ok(bc);
	const struct ig_result *r = &bc->h[FX_CLIENT].r[0];

	ck_assert(r->has_bidir);
	ck_assert_uint_eq(r->rx_bytes, r->bytes);
	ck_assert_uint_eq(r->rev_bytes % 4096, 0);
	fx_totals(&bc->w, FX_SERVER, &back);
	ck_assert_uint_le(r->rev_bytes, back.sent * 4096);
	ck_assert(r->rev_seconds > 0);
	bench_free(bc);
}
END_TEST

/* Lossy (UD): the receiver's count is the result; what it never got
 * (dropped when the channel was full, or left in it: its receiver stops
 * reading after 20 messages, and the drain settles) is what was lost:
 * at least 80 of 100. */
START_TEST(test_lossy)
{
	struct bench_spec sp =
		good("lossy", params(IG_TEST_UD_SEND_BW, 100, 0, 0, GOOD_MS));
	struct bench_case *bc;
	struct fx_chan tot;

	sp.lossy = true;
	sp.rx_confirms = false;
	sp.sc[FX_SERVER].rx_stall_after = 20;
	bc = run(&sp);
	check_ok(bc);
	const struct ig_result *r = &bc->h[FX_CLIENT].r[0];

	fx_totals(&bc->w, FX_CLIENT, &tot);
	ck_assert(r->lossy);
	ck_assert_uint_eq(tot.sent, 100);
	ck_assert_uint_le(tot.taken, 20); /* fewer when it dropped first */
	ck_assert_uint_eq(r->sent, 100);
	ck_assert_uint_eq(r->rx_bytes, tot.taken * 4096);
	ck_assert_uint_eq(r->iterations, tot.taken);
	ck_assert_uint_eq(r->lost, 100 - tot.taken);
	ck_assert_uint_eq(tot.dropped + tot.queued, 100 - tot.taken);
	bench_free(bc);
}
END_TEST

/* Two tests on one control connection, as the client's plan runs them. */
START_TEST(test_two_tests)
{
	struct bench_spec sp =
		good("two tests", params(IG_TEST_TCP_BW, 100, 0, 10, GOOD_MS));
	struct bench_case *bc;

	sp.p[1] = params(IG_TEST_TCP_LAT, 100, 0, 10, GOOD_MS);
	sp.ntests = 2;
	bc = run(&sp);
	check_ok(bc);
	ck_assert_uint_eq(bc->h[FX_CLIENT].r[0].iterations, 100);
	ck_assert_uint_eq(bc->h[FX_CLIENT].r[1].lat.count, 100);
	bench_free(bc);
}
END_TEST

/* SIGINT on the client in the measured interval: -D 20 ends at once,
 * partial, its figures what was confirmed. */
START_TEST(test_sigint_partial)
{
	struct bench_spec sp =
		good("sigint", params(IG_TEST_TCP_BW, 0, 20000, 20, GOOD_MS));
	struct bench_case *bc;

	sp.sc[FX_SERVER].pace_us = 500;
	sp.side = FX_CLIENT;
	sp.phase = IG_FAULT_MEASURE;
	sp.action = BA_INTERRUPT;
	bc = run(&sp);
	check_ok(bc);
	const struct ig_result *r = &bc->h[FX_CLIENT].r[0];

	ck_assert(r->partial);
	ck_assert(r->seconds < 20);
	ck_assert_uint_eq(r->rx_bytes, r->bytes);
	ck_assert_msg(bench_ms(bc, FX_CLIENT) < SLACK_MS, "took %.0f ms",
		      bench_ms(bc, FX_CLIENT));
	bench_free(bc);
}
END_TEST

/* ---- faults --------------------------------------------------------- */

/* The survivor's lines.  Where two deadlines of the same length race (a
 * stalled peer: the control read and the data stream's), or a killed
 * peer is seen first on one connection or the other, either is right,
 * as over TCP. */
#define GONE "closed the control connection"
#define EPIPE_GONE "went away (the control connection was closed"
#define NO_REPLY "no reply from"
#define RECV_STALL "recv stalled for"
#define SEND_STALL "send stalled for"
#define RESET "the peer reset the connection"

struct fault_case {
	char name[80];
	struct bench_spec sp;
	int who;	       /* the side judged: the survivor */
	const char *any[4];    /* its line holds one of these */
	char line[128];	       /* a line of its own for any */
	unsigned int bound_ms; /* 0: phase + timeout + SLACK_MS */
};

static const char *const phase_name[IG_FAULT_NPHASES] = {
	"connect", "params", "setup", "warmup", "measure", "result",
};

/* The survivor's outcome against fc: "" or why not, into why. */
static void judge(const struct fault_case *fc, const struct bench_case *bc,
		  char *why, size_t len)
{
	const struct bench_spec *sp = &fc->sp;
	const struct bench_half *s = &bc->h[fc->who];
	const struct ig_params *p = &sp->p[0];
	double ms = bench_ms(bc, fc->who);
	unsigned int bound = fc->bound_ms;
	bool known = false;

	if (!bound)
		bound = (unsigned int)((p->warmup_ns + p->duration_ns) / MS) +
			p->timeout_ms + SLACK_MS;
	for (unsigned int i = 0; i < 4 && fc->any[i]; i++)
		known |= strstr(s->err, fc->any[i]) != NULL;
	why[0] = 0;
	if (sp->action != BA_NONE && bc->h[sp->side].fired != 1)
		snprintf(why, len, "the fault fired %u times (%.200s; %.200s)",
			 bc->h[sp->side].fired, bc->h[FX_CLIENT].err,
			 bc->h[FX_SERVER].err);
	else if (s->ret >= 0 || s->ret == -IG_EBADVALUE)
		snprintf(why, len, "survivor returned %d", s->ret);
	else if (!s->err[0] || strchr(s->err, '\n'))
		snprintf(why, len, "not one line: '%s'", s->err);
	else if (!known)
		snprintf(why, len, "unexpected line '%s'", s->err);
	else if (ms > bound)
		snprintf(why, len, "took %.0f ms, more than %u", ms, bound);
}

/* Runs every case at once; fails naming every case that went wrong. */
static void run_faults(const struct fault_case *fc, unsigned int n)
{
	struct bench_case **bc = calloc(n, sizeof(*bc));
	char msg[8192] = "", why[700];
	size_t len = 0;

	ck_assert(bc);
	for (unsigned int i = 0; i < n; i++) {
		bc[i] = bench_start(&fc[i].sp);
		ck_assert_msg(bc[i], "%s: the bench could not start",
			      fc[i].sp.name);
	}
	for (unsigned int i = 0; i < n; i++) {
		bench_finish(bc[i]);
		show(bc[i]);
		judge(&fc[i], bc[i], why, sizeof(why));
		if (why[0] && len < sizeof(msg))
			len += (size_t)snprintf(msg + len, sizeof(msg) - len,
						"\n  %s: %s", fc[i].sp.name,
						why);
		bench_free(bc[i]);
	}
	free(bc);
	ck_assert_msg(!msg[0], "%s", msg);
}

/* A case of test t (duration mode, -D 100 ms, warm-up 50 ms, timeout
 * FT_MS): side killed (or stalled) at phase, the other judged. */
static void fault(struct fault_case *c, const char *tag, struct ig_params p,
		  int side, enum ig_fault_phase phase, bool kill)
{
	snprintf(c->name, sizeof(c->name), "%s: %s %s at %s", tag,
		 side == FX_SERVER ? "server" : "client",
		 kill ? "kill" : "stall", phase_name[phase]);
	c->sp = good(c->name, p);
	c->sp.sc[FX_CLIENT].pace_us = 500;
	c->sp.sc[FX_SERVER].pace_us = 500;
	c->sp.side = side;
	c->sp.phase = phase;
	c->sp.action = kill ? BA_KILL : BA_STALL;
	c->who = !side;
}

static void any(struct fault_case *c, const char *a, const char *b)
{
	c->any[0] = a;
	c->any[1] = b;
}

/* tcp_bw's matrix, as tests/faults.sh.inc ran it: what the survivor of
 * [phase][victim's side][kill] says. */
static const char *const matrix_lines[IG_FAULT_NPHASES][2][2][3] = {
	[IG_FAULT_CONNECT] = {
		[FX_CLIENT] = { { "no HELLO within" }, { GONE } },
		[FX_SERVER] = { { NO_REPLY }, { GONE } },
	},
	[IG_FAULT_PARAMS] = {
		[FX_CLIENT] = { { "no data connection within" },
				{ GONE, EPIPE_GONE } },
		[FX_SERVER] = { { NO_REPLY }, { GONE } },
	},
	[IG_FAULT_SETUP] = {
		[FX_CLIENT] = { { NO_REPLY, RECV_STALL },
				{ GONE, EPIPE_GONE } },
		[FX_SERVER] = { { NO_REPLY }, { GONE } },
	},
	[IG_FAULT_WARMUP] = {
		[FX_CLIENT] = { { NO_REPLY, RECV_STALL }, { GONE } },
		[FX_SERVER] = { { SEND_STALL, NO_REPLY },
				{ RESET, GONE, EPIPE_GONE } },
	},
	[IG_FAULT_MEASURE] = {
		[FX_CLIENT] = { { NO_REPLY, RECV_STALL }, { GONE } },
		[FX_SERVER] = { { SEND_STALL, NO_REPLY },
				{ RESET, GONE, EPIPE_GONE } },
	},
	[IG_FAULT_RESULT] = {
		[FX_CLIENT] = { { NO_REPLY }, { GONE, EPIPE_GONE } },
		[FX_SERVER] = { { NO_REPLY }, { GONE } },
	},
};

START_TEST(test_fault_matrix)
{
	struct fault_case fc[2 * 2 * IG_FAULT_NPHASES];
	unsigned int n = 0;

	memset(fc, 0, sizeof(fc));
	for (int ph = 0; ph < IG_FAULT_NPHASES; ph++)
		for (int side = 0; side < 2; side++)
			for (int kill = 0; kill < 2; kill++) {
				const char *const *l =
					matrix_lines[ph][side][kill];

				fault(&fc[n], "tcp_bw",
				      params(IG_TEST_TCP_BW, 0, 100, 50, FT_MS),
				      side, ph, kill);
				any(&fc[n], l[0], l[1]);
				fc[n++].any[2] = l[2];
			}
	run_faults(fc, n);
}
END_TEST

/* Kill and stall of either side in the measured interval: latency,
 * a transport whose completion means delivered (verbs), a one-sided test
 * (RDMA read), a lossy one (UD), -R (the server drives), --bidir. */
/* test_fault_measure's kinds: a test, and what the fake is. */
static const struct measure_kind {
	const char *tag;
	enum ig_test test;
	bool no_confirm, lossy, reverse, bidir;
} measure_kinds[] = {
	{ .tag = "tcp_lat", .test = IG_TEST_TCP_LAT },
	{ .tag = "send_bw (verbs-like)",
	  .test = IG_TEST_SEND_BW,
	  .no_confirm = true },
	{ .tag = "read_bw (one-sided)",
	  .test = IG_TEST_READ_BW,
	  .no_confirm = true },
	{ .tag = "ud_send_bw (lossy)",
	  .test = IG_TEST_UD_SEND_BW,
	  .no_confirm = true,
	  .lossy = true },
	{ .tag = "tcp_bw -R", .test = IG_TEST_TCP_BW, .reverse = true },
	{ .tag = "tcp_bw --bidir", .test = IG_TEST_TCP_BW, .bidir = true },
};

#define NKINDS (sizeof(measure_kinds) / sizeof(measure_kinds[0]))

/* Kind mk's test (duration mode, timeout FT_MS) and transport.  Lossy: no
 * warm-up, whose drain takes IG_DRAIN_MS of the timeout before the
 * measured interval. */
static struct ig_params kind_params(const struct measure_kind *mk)
{
	struct ig_params p =
		params(mk->test, 0, 100, mk->lossy ? 0 : 50, FT_MS);

	p.reverse = mk->reverse;
	p.bidir = mk->bidir;
	return p;
}

static void kind_fake(struct fault_case *c, const struct measure_kind *mk)
{
	c->sp.rx_confirms = !mk->no_confirm;
	c->sp.lossy = mk->lossy;
}

START_TEST(test_fault_measure)
{
	struct fault_case fc[NKINDS * 4];
	unsigned int n = 0;

	memset(fc, 0, sizeof(fc));
	for (unsigned int k = 0; k < NKINDS * 4; k++) {
		const struct measure_kind *mk = &measure_kinds[k / 4];
		struct fault_case *c = &fc[n++];
		bool kill = k & 1;

		fault(c, mk->tag, kind_params(mk), (k >> 1) & 1,
		      IG_FAULT_MEASURE, kill);
		kind_fake(c, mk);
		/* a killed peer is gone (on a stream or the control
		 * connection); a stalled one lets a deadline pass (a read or
		 * a stream's wait) */
		any(c, kill ? RESET : NO_REPLY, kill ? GONE : "stalled for");
		c->any[2] = kill ? EPIPE_GONE : NULL;
	}
	run_faults(fc, n);
}
END_TEST

/* One case whose fault is the transport's script (sc of side), or the
 * fault hook's action on side; who is judged. */
static struct fault_case *scripted(struct fault_case *c, const char *name,
				   struct ig_params p, int who)
{
	snprintf(c->name, sizeof(c->name), "%s", name);
	c->sp = good(c->name, p);
	c->who = who;
	return c;
}

/*
 * Every timeout:
 * - a receiver that stops reading (its session alive): the sender's
 *   send stalls for the timeout (TCP: a zero window);
 * - the confirmation that never comes: SYNC while the receiver has
 *   stopped reading; the server says the data did not arrive, the
 *   client's read deadline passes, or it sees the server go (a server
 *   sends no ERROR after a timeout of its own);
 * - a delivery completion that never comes (verbs: the CQ stall check).
 * (The control read deadline: the stalls of the matrix.)
 */
START_TEST(test_fault_timeouts)
{
	struct fault_case fc[4];
	struct fault_case *c;
	unsigned int n = 0;

	memset(fc, 0, sizeof(fc));
	c = scripted(&fc[n++], "send stall: the server stops reading",
		     params(IG_TEST_TCP_BW, 1000000, 0, 0, FT_MS), FX_CLIENT);
	c->sp.sc[FX_SERVER].rx_stall_after = 40;
	any(c, SEND_STALL, NULL);
	for (int who = 0; who < 2; who++) {
		c = scripted(&fc[n++],
			     who ? "no SYNCED: the server stops reading"
				 : "no SYNCED: what the client hears",
			     params(IG_TEST_TCP_BW, 200, 0, 0, FT_MS), who);
		c->sp.cap = 1000;
		c->sp.sc[FX_SERVER].rx_stall_after = 50;
		if (who)
			any(c,
			    "data did not arrive within " FT_TEXT " of the "
			    "peer's last send",
			    NULL);
		else /* the server sends no ERROR after a timeout */
			any(c, GONE, NO_REPLY);
	}
	c = scripted(&fc[n++], "no completion: the verbs-like flush",
		     params(IG_TEST_SEND_BW, 10, 0, 0, FT_MS), FX_CLIENT);
	c->sp.rx_confirms = false;
	c->sp.sc[FX_SERVER].rx_stall_after = 5;
	any(c, "fake stream 0: flush stalled for " FT_TEXT, NULL);
	run_faults(fc, n);
}
END_TEST

/* The transport's failures: a send that fails (and what the server sees
 * of it), a stream reset, set-up failing on either side (the other is
 * told why: ERROR), a transport this build lacks, parameters the server
 * refuses. */
START_TEST(test_fault_errors)
{
	struct fault_case fc[8];
	struct fault_case *c;
	unsigned int n = 0;

	memset(fc, 0, sizeof(fc));
	for (int who = 0; who < 2; who++) {
		c = scripted(&fc[n++],
			     who ? "a send fails: what the server sees"
				 : "a send fails",
			     params(IG_TEST_TCP_BW, 1000, 0, 20, FT_MS), who);
		c->sp.sc[FX_CLIENT].err_after = 30;
		any(c,
		    who ? "tcp_bw: client " GONE
			: "tcp_bw: fake stream 0: send failed (scripted)",
		    NULL);
	}
	c = scripted(&fc[n++], "a stream is reset",
		     params(IG_TEST_TCP_LAT, 1000, 0, 0, FT_MS), FX_CLIENT);
	c->sp.sc[FX_CLIENT].reset_after = 10;
	any(c, "fake stream 0: ping: connection reset (scripted)", NULL);
	c = scripted(&fc[n++], "server set-up fails",
		     params(IG_TEST_TCP_BW, 100, 0, 0, FT_MS), FX_CLIENT);
	c->sp.sc[FX_SERVER].setup_fail = true;
	any(c, "tcp_bw: peer reported: fake: set-up failed (scripted)", NULL);
	c = scripted(&fc[n++], "client set-up fails",
		     params(IG_TEST_TCP_BW, 100, 0, 0, FT_MS), FX_SERVER);
	c->sp.sc[FX_CLIENT].setup_fail = true;
	any(c, "tcp_bw: the client gave up: fake: set-up failed (scripted)",
	    NULL);
	c = scripted(&fc[n++], "the server lacks the transport",
		     params(IG_TEST_RS_BW, 100, 0, 0, FT_MS), FX_CLIENT);
	c->sp.absent[FX_SERVER] = true;
	any(c,
	    "rs_bw: peer reported: this ibgap was built without the "
	    "rsockets transport",
	    NULL);
	c = scripted(&fc[n++], "the server refuses the parameters",
		     params(IG_TEST_TCP_BW, 100, 0, 0, FT_MS), FX_CLIENT);
	c->sp.p[0].size = 0;
	any(c, "tcp_bw: peer reported: refused parameters: size", NULL);
	run_faults(fc, n);
}
END_TEST

/*
 * The follower ends the session on the control connection alone while
 * the driver's stream is stalled (its receivers stop reading): it gives
 * up (ERROR) or closes the connection.  The driver notices at its next
 * look at the control connection, fails at once and wakes its blocked
 * worker (stop()), long before its send timeout (10 s here); before
 * d8ee698 it heard of it only at that timeout, with the send's line
 * (tests/integ/server_quits.sh over real TCP).  The same with -R: the
 * server drives and looks at least every third of its timeout.
 */
START_TEST(test_fault_quits)
{
	struct fault_case fc[4];
	unsigned int n = 0;

	memset(fc, 0, sizeof(fc));
	for (int rev = 0; rev < 2; rev++)
		for (int close = 0; close < 2; close++) {
			struct fault_case *c = &fc[n++];
			struct ig_params p = params(IG_TEST_TCP_BW, 1000000, 0,
						    0, rev ? 3000 : 10000);

			p.reverse = (uint32_t)rev;
			snprintf(c->name, sizeof(c->name), "%s%s while %s",
				 rev ? "-R: the client " : "the server ",
				 close ? "closes the control connection"
				       : "gives up",
				 "the stream is stalled");
			c->sp = good(c->name, p);
			c->sp.side = rev ? FX_CLIENT : FX_SERVER;
			c->sp.phase = IG_FAULT_MEASURE;
			c->sp.action = close ? BA_QUIT_CLOSE : BA_QUIT_ERROR;
			c->who = !c->sp.side;
			/* forward: long before the timeout, with room for a
			 * loaded host; -R: its line says it */
			c->bound_ms = rev ? 0 : SLACK_MS;
			any(c, close ? GONE : "gave up: bench: out of disk",
			    close && rev ? EPIPE_GONE : NULL);
		}
	run_faults(fc, n);
}
END_TEST

/*
 * The server is stopped (SIGTERM) mid-session: it sends ERROR {stopped}
 * and cuts every connection, as src/serve/server.c's stop() does.  The
 * client's line says that, not the reset or broken pipe it saw: in the
 * measured interval of each kind of test, and of tcp_bw in set-up,
 * warm-up and before RESULT; late, its streams break 20 ms before the
 * ERROR comes, which the client still waits for (STOPPED_LOOK_MS in
 * engine_client.c).  Before, the line was the data connection's (`the
 * peer reset the connection`) or `the server gave up: ...`.
 */
static void stopped_case(struct fault_case *c, const char *tag,
			 struct ig_params p, enum ig_fault_phase phase,
			 bool late)
{
	fault(c, tag, p, FX_SERVER, phase, true);
	snprintf(c->name, sizeof(c->name), "%s: server stopped%s at %s", tag,
		 late ? " (ERROR late)" : "", phase_name[phase]);
	c->sp.action = late ? BA_STOP_LATE : BA_STOP;
	snprintf(c->line, sizeof(c->line),
		 "%s: the server at server stopped (SIGTERM) during the test",
		 ig_test_name(IG_TESTS, p.test));
	c->any[0] = c->line;
}

START_TEST(test_fault_stopped)
{
	static const enum ig_fault_phase phases[] = { IG_FAULT_SETUP,
						      IG_FAULT_WARMUP,
						      IG_FAULT_RESULT };
	struct fault_case fc[NKINDS * 2 + 3];
	unsigned int n = 0;

	memset(fc, 0, sizeof(fc));
	for (unsigned int k = 0; k < NKINDS * 2; k++) {
		const struct measure_kind *mk = &measure_kinds[k / 2];

		stopped_case(&fc[n], mk->tag, kind_params(mk), IG_FAULT_MEASURE,
			     k & 1);
		kind_fake(&fc[n++], mk);
	}
	for (unsigned int i = 0; i < 3; i++)
		stopped_case(&fc[n++], "tcp_bw",
			     params(IG_TEST_TCP_BW, 0, 100, 50, FT_MS),
			     phases[i], false);
	run_faults(fc, n);
}
END_TEST

static Suite *engine_suite(void)
{
	Suite *s = suite_create("engine");
	TCase *tc = tcase_create("good");
	TCase *tf = tcase_create("faults");

	tcase_add_test(tc, test_bw_iterations);
	tcase_add_test(tc, test_bw_warmup_streams);
	tcase_add_test(tc, test_bw_no_rx_confirm_short);
	tcase_add_test(tc, test_bw_begin_read_late);
	tcase_add_test(tc, test_bw_duration);
	tcase_add_test(tc, test_lat_iterations);
	tcase_add_test(tc, test_lat_duration);
	tcase_add_test(tc, test_reverse);
	tcase_add_test(tc, test_bidir);
	tcase_add_test(tc, test_lossy);
	tcase_add_test(tc, test_two_tests);
	tcase_add_test(tc, test_sigint_partial);
	suite_add_tcase(s, tc);
	tcase_add_test(tf, test_fault_matrix);
	tcase_add_test(tf, test_fault_measure);
	tcase_add_test(tf, test_fault_timeouts);
	tcase_add_test(tf, test_fault_errors);
	tcase_add_test(tf, test_fault_quits);
	tcase_add_test(tf, test_fault_stopped);
	suite_add_tcase(s, tf);
	return s;
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	return run_suite(engine_suite());
}
