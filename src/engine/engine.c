// SPDX-License-Identifier: MIT
/*
 * The engine: owns the clock, the phases (set-up, warm-up, measurement,
 * result exchange), the worker threads and the statistics.  Transports
 * only move messages (xport.h).
 */
#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/be.h"
#include "common/clock.h"
#include "engine.h"
#include "engine_int.h"
#include "fault.h"
#include "wire/codec.h"

int ig_session_fail(struct ig_session *s, int err, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = ig_ctrl_vfail(s->ctrl, err, fmt, ap);
	va_end(ap);
	return ret;
}

const char *ig_session_err(struct ig_session *s)
{
	return s->ctrl->err[0] ? s->ctrl->err : "unknown error";
}

void ig_eng_wake_all(struct ig_session *s)
{
	pthread_mutex_lock(&s->lock);
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->lock);
}

/* What the peer sent on the control connection when it had nothing to
 * send there (`when`: the phase we were in): its ERROR, its end (EOF, a
 * reset), or a message out of turn; always the session's error. */
static int ctrl_event(struct ig_session *s, const char *when)
{
	enum ig_msg_type type;
	const char *msg = "no reason given";
	json_object *o;
	int ret = ig_ctrl_recv(s->ctrl, &type, &o);

	if (ret)
		return ret;
	if (type == IG_MSG_ERROR) {
		char safe[200];

		ig_json_get_str(o, "message", &msg);
		ret = ig_session_fail(s, EREMOTEIO, "the %s gave up: %s",
				      s->server ? "client" : "server",
				      ig_str_safe(msg, safe, sizeof(safe),
						  199));
	} else {
		ret = ig_session_fail(s, EPROTO, "unexpected %s %s",
				      ig_msg_type_name(type), when);
	}
	json_object_put(o);
	return ret;
}

int ig_session_wait(struct ig_session *s, int fd, short events,
		    uint64_t deadline)
{
	struct pollfd pfd[2] = { { .fd = fd, .events = events },
				 { .fd = s->ctrl->fd, .events = POLLIN } };

	for (;;) {
		uint64_t now = ig_now_ns();
		int ret;

		if (now >= deadline)
			return -ETIMEDOUT;
		ret = poll(pfd, 2, (int)((deadline - now) / 1000000) + 1);
		if (ret < 0 && errno != EINTR)
			return ig_session_fail(s, errno, "poll: %s",
					       strerror(errno));
		if (ret <= 0)
			continue;
		if (pfd[0].revents)
			return 0;
		if (pfd[1].revents)
			return ctrl_event(s, "during set-up");
	}
}

int ig_eng_check_ctrl(struct ig_session *s)
{
	if (ig_ctrl_poll(s->ctrl, 0) <= 0)
		return 0;
	return ctrl_event(s, "while this side drove the test");
}

void ig_stream_tag_put(uint8_t *b, uint64_t cookie, unsigned int idx)
{
	ig_be_put(b, cookie, 8);
	ig_be_put(b + 8, idx, 4);
}

int ig_stream_tag_get(const uint8_t *b, uint64_t cookie, unsigned int nstreams)
{
	uint64_t idx = ig_be_get(b + 8, 4);

	if (ig_be_get(b, 8) != cookie || idx >= nstreams)
		return -1;
	return (int)idx;
}

void ig_stream_rx(struct ig_stream *st, uint64_t n)
{
	uint64_t rx = atomic_fetch_add(&st->rx_bytes, n) + n;

	if (rx >= atomic_load(&st->rx_target))
		ig_eng_wake_all(st->s);
}

void ig_session_stop_rx(struct ig_session *s)
{
	atomic_store(&s->rx_stop, 1);
	ig_eng_wake_all(s);
}

void ig_stream_park(struct ig_stream *st)
{
	struct ig_session *s = st->s;

	pthread_mutex_lock(&s->lock);
	while (!atomic_load(&s->rx_stop))
		pthread_cond_wait(&s->cond, &s->lock);
	pthread_mutex_unlock(&s->lock);
}

/* A worker failed: every thread stops at its next check. */
static void session_abort(struct ig_session *s, struct ig_stream *st, int err)
{
	st->err = err;
	atomic_store(&s->failed, 1);
	atomic_store(&s->stop_warm, 1);
	atomic_store(&s->stop, 1);
	ig_session_stop_rx(s);
}

/* Worker: arrive at a meeting point, wait until the session thread says
 * go for that phase. */
static void meet(struct ig_session *s, unsigned int phase)
{
	pthread_mutex_lock(&s->lock);
	s->arrived++;
	pthread_cond_broadcast(&s->cond);
	while (s->go < phase)
		pthread_cond_wait(&s->cond, &s->lock);
	pthread_mutex_unlock(&s->lock);
}

void ig_eng_go(struct ig_session *s, unsigned int phase)
{
	pthread_mutex_lock(&s->lock);
	s->go = phase;
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->lock);
}

/* The ops of a transport this build does not have: set-up says so (the
 * test's name comes before the session's error line). */
static int absent_setup(struct ig_session *s)
{
	return ig_session_fail(s, ENOPROTOOPT,
			       "this ibgap was built without the %s "
			       "transport",
			       ig_test_transport(s->tests, s->p.test));
}

static void absent_nop(struct ig_session *s)
{
	(void)s;
}

static const struct ig_xport_ops absent_ops = {
	.name = "absent",
	.setup = absent_setup,
	.stop = absent_nop,
	.cleanup = absent_nop,
};

int ig_eng_session_init(struct ig_session *s, struct ig_ctrl *ctrl,
			const struct ig_xports *x, const struct ig_params *p,
			bool server)
{
	enum ig_xport_id xi = ig_test_xport(&x->tests, p->test);
	const struct ig_xport_ops *ops = xi < IG_XPORT_COUNT ? x->ops[xi]
							     : NULL;
	pthread_condattr_t ca;

	memset(s, 0, sizeof(*s));
	s->p = *p;
	s->ctrl = ctrl;
	s->server = server;
	s->cpu_root = "/";
	s->ops = ops ? ops : &absent_ops;
	s->tests = &x->tests;
	ig_local_opts_default(&s->local);
	s->nstreams = p->streams;
	s->st = calloc(s->nstreams, sizeof(*s->st));
	if (!s->st)
		return ig_session_fail(s, ENOMEM,
				       "out of memory for %u "
				       "streams",
				       s->nstreams);
	for (unsigned int i = 0; i < s->nstreams; i++) {
		s->st[i].s = s;
		s->st[i].idx = i;
		s->st[i].cpu = -1;
		atomic_init(&s->st[i].rx_target, UINT64_MAX);
	}
	pthread_mutex_init(&s->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&s->cond, &ca);
	pthread_condattr_destroy(&ca);
	return 0;
}

void ig_eng_session_destroy(struct ig_session *s)
{
	if (!s->st)
		return;
	for (unsigned int i = 0; i < s->nstreams; i++)
		free(s->st[i].lat);
	free(s->st);
	s->st = NULL;
	pthread_cond_destroy(&s->cond);
	pthread_mutex_destroy(&s->lock);
}

static int start_one(struct ig_session *s, unsigned int i, bool reverse,
		     void *(*fn)(void *))
{
	struct ig_stream *st = &s->st[i];
	pthread_attr_t a;
	cpu_set_t set;
	int ret;

	pthread_attr_init(&a);
	if (st->cpu >= 0) {
		CPU_ZERO(&set);
		CPU_SET(st->cpu, &set);
		pthread_attr_setaffinity_np(&a, sizeof(set), &set);
	}
	ret = pthread_create(reverse ? &st->rthread : &st->thread, &a, fn, st);
	pthread_attr_destroy(&a);
	if (ret) {
		session_abort(s, st, -ret);
		return ig_session_fail(s, ret,
				       "cannot start a thread of stream %u: %s",
				       i, strerror(ret));
	}
	if (reverse)
		st->rstarted = true;
	else
		st->started = true;
	return 0;
}

static int start_all(struct ig_session *s, bool reverse, void *(*fn)(void *))
{
	for (unsigned int i = 0; i < s->nstreams; i++) {
		int ret = start_one(s, i, reverse, fn);

		if (ret)
			return ret;
	}
	return 0;
}

/* --bidir: a second thread per stream for the other direction. */
int ig_eng_start_reverse(struct ig_session *s, void *(*fn)(void *))
{
	return start_all(s, true, fn);
}

int ig_eng_start_workers(struct ig_session *s, void *(*fn)(void *))
{
	return start_all(s, false, fn);
}

static int join(struct ig_session *s, bool reverse_too)
{
	int err = 0;

	for (unsigned int i = 0; i < s->nstreams; i++) {
		struct ig_stream *st = &s->st[i];

		if (st->started)
			pthread_join(st->thread, NULL);
		st->started = false;
		if (reverse_too && st->rstarted)
			pthread_join(st->rthread, NULL);
		if (reverse_too)
			st->rstarted = false;
		if (st->err && !err)
			err = st->err;
	}
	return err;
}

int ig_eng_join_forward(struct ig_session *s)
{
	return join(s, false);
}

int ig_eng_join_workers(struct ig_session *s)
{
	return join(s, true);
}

void ig_eng_info_start(struct ig_session *s)
{
	for (unsigned int i = 0; s->ops->stream_ctrs && i < s->nstreams; i++)
		s->st[i].ctr_start.have =
			s->ops->stream_ctrs(&s->st[i], s->st[i].ctr_start.v);
}

void ig_eng_info_end(struct ig_session *s, struct ig_ctrs *c)
{
	const struct ig_xport_ops *o = s->ops;

	ig_ctrs_init(c, o->ctrs, o->nctrs, s->nstreams);
	for (unsigned int i = 0; o->stream_ctrs && i < s->nstreams; i++) {
		c->st[i].have = o->stream_ctrs(&s->st[i], c->st[i].v);
		ig_ctr_interval(c->def, c->n, &c->st[i], &s->st[i].ctr_start);
	}
}

/* ---- client workers ------------------------------------------------- */

static int send_until(struct ig_stream *st, atomic_int *flag)
{
	struct ig_session *s = st->s;

	while (!atomic_load_explicit(flag, memory_order_relaxed)) {
		ssize_t n = s->ops->bw_send(st, UINT64_MAX);

		if (n < 0)
			return (int)n;
		st->tx_msgs += n;
	}
	return 0;
}

static int send_count(struct ig_stream *st, uint64_t count)
{
	struct ig_session *s = st->s;

	/* stop: a failure, or an interrupt (SIGINT) ending the run early */
	while (count && !atomic_load_explicit(&s->stop, memory_order_relaxed)) {
		ssize_t n = s->ops->bw_send(st, count);

		if (n < 0)
			return (int)n;
		st->tx_msgs += n;
		count -= n;
	}
	return 0;
}

void *ig_eng_bw_sender(void *arg)
{
	struct ig_stream *st = arg;
	struct ig_session *s = st->s;
	int ret = 0;

	if (s->p.warmup_ns)
		ret = send_until(st, &s->stop_warm);
	if (!ret)
		ret = s->ops->bw_flush(st);
	st->warm_msgs = st->tx_msgs;
	if (ret)
		session_abort(s, st, ret);
	meet(s, 1);
	if (!atomic_load(&s->failed)) {
		if (s->p.iterations)
			ret = send_count(st, s->p.iterations);
		else
			ret = send_until(st, &s->stop);
		if (!ret)
			ret = s->ops->bw_flush(st);
		if (ret)
			session_abort(s, st, ret);
	}
	meet(s, 2);
	return NULL;
}

static int ping_until(struct ig_stream *st, atomic_int *flag)
{
	while (!atomic_load_explicit(flag, memory_order_relaxed)) {
		int ret = st->s->ops->lat_ping(st);

		if (ret)
			return ret;
	}
	return 0;
}

/*
 * Round trips timed before their samples go into the histogram.  Turning
 * ticks into nanoseconds and the histogram's running mean are floating
 * point, which an emulated guest (QEMU TCG) runs through a helper per
 * operation: done at every round trip, it put about 1% on rs_lat's mean
 * there (docs/lab/2026-12-03-lat-batch.md).  The batch keeps the raw
 * counts (4 KiB on the stack) and goes into the histogram between two
 * round trips.
 */
#define LAT_BATCH 512

static void lat_flush(struct ig_stream *st, const uint64_t *ticks,
		      unsigned int n, double half)
{
	for (unsigned int i = 0; i < n; i++)
		ig_hist_add(st->lat, (uint64_t)((double)ticks[i] * half));
	st->lat_rounds += n;
}

/*
 * Measures `left` round trips (UINT64_MAX: until *stop) on the stream's
 * clock.  One clock read per round trip, as perftest does: a round trip
 * starts where the previous one ended (storing the previous count costs
 * nanoseconds; a clock_gettime costs microseconds in an emulated guest,
 * which is why the counter is read where it can be trusted).  After a
 * batch goes into the histogram the clock is read again, so that no
 * round trip holds that work.  Samples already timed are kept on failure.
 */
static int ping_timed(struct ig_stream *st, uint64_t left, atomic_int *stop)
{
	const struct ig_xport_ops *ops = st->s->ops;
	uint64_t (*now)(void) = st->clk.read;
	/* half a round trip; read_lat: the whole read (docs/design.md) */
	double half = st->clk.ns_per_tick /
		      ig_test_lat_div(st->s->tests, st->s->p.test);
	uint64_t ticks[LAT_BATCH];
	unsigned int n = 0;
	uint64_t t0 = now(), t1;
	int ret = 0;

	while (left-- && !atomic_load_explicit(stop, memory_order_relaxed)) {
		ret = ops->lat_ping(st);
		if (ret)
			break;
		t1 = now();
		ticks[n++] = t1 - t0;
		t0 = t1;
		if (n == LAT_BATCH) {
			lat_flush(st, ticks, n, half);
			n = 0;
			t0 = now();
		}
	}
	lat_flush(st, ticks, n, half);
	return ret;
}

/*
 * The measurement; when the counter did not hold its rate, the same number
 * of round trips again on CLOCK_MONOTONIC (lat_rounds counts both passes,
 * as the measured interval and its CPU time hold both).  The second pass
 * ends only on failure: by then stop is set in duration mode.
 */
static int ping_measure(struct ig_stream *st)
{
	struct ig_session *s = st->s;
	uint64_t n = s->p.iterations ? s->p.iterations : UINT64_MAX;
	int ret = ping_timed(st, n, &s->stop);

	if (ret || ig_lclk_check(&st->clk, ig_fault_clock_skew(s->local.fault)))
		return ret;
	ig_hist_init(st->lat);
	return ping_timed(st, st->lat_rounds, &s->failed);
}

void *ig_eng_lat_initiator(void *arg)
{
	struct ig_stream *st = arg;
	struct ig_session *s = st->s;
	int ret = 0;

	ig_lclk_start(&st->clk, s->cpu_root);
	if (s->p.warmup_ns)
		ret = ping_until(st, &s->stop_warm);
	ig_lclk_calibrate(&st->clk);
	if (ret)
		session_abort(s, st, ret);
	meet(s, 1);
	if (!atomic_load(&s->failed)) {
		ret = ping_measure(st);
		if (ret)
			session_abort(s, st, ret);
	}
	meet(s, 2);
	return NULL;
}

/* --bidir, server: sends until END, publishing the count it has handed
 * over; errors once the test is stopped are the teardown's, not real. */
void *ig_eng_bw_sender_free(void *arg)
{
	struct ig_stream *st = arg;
	struct ig_session *s = st->s;

	while (!atomic_load_explicit(&s->stop, memory_order_relaxed)) {
		ssize_t n = s->ops->bw_send(st, UINT64_MAX);

		if (n < 0) {
			if (!atomic_load(&s->stop))
				session_abort(s, st, (int)n);
			break;
		}
		st->tx_msgs += n;
		atomic_store_explicit(&st->tx_pub, st->tx_msgs,
				      memory_order_relaxed);
	}
	return NULL;
}

/* ---- server workers ------------------------------------------------- */

void *ig_eng_bw_receiver(void *arg)
{
	struct ig_stream *st = arg;
	int ret = st->s->ops->bw_recv(st);

	if (ret)
		session_abort(st->s, st, ret);
	return NULL;
}

void *ig_eng_lat_responder(void *arg)
{
	struct ig_stream *st = arg;
	int ret = st->s->ops->lat_pong(st);

	if (ret)
		session_abort(st->s, st, ret);
	return NULL;
}
