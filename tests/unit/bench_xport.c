// SPDX-License-Identifier: MIT
/* The engine bench's fake transport (bench.h). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stddef.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "common/clock.h"
#include "common/json.h"

static struct fx_world *world_of(const struct ig_session *s)
{
	return (struct fx_world *)((char *)s->ops -
				   offsetof(struct fx_world, ops));
}

static int side_of(const struct ig_session *s)
{
	return s->server ? FX_SERVER : FX_CLIENT;
}

static uint64_t deadline_of(const struct ig_session *s)
{
	return ig_now_ns() + s->p.timeout_ms * IG_NSEC_PER_MSEC;
}

/* With w->lock held: waits for a change until deadline (0: none);
 * ETIMEDOUT once it has passed. */
static int wait_change(struct fx_world *w, uint64_t deadline)
{
	struct timespec ts;

	if (!deadline)
		return pthread_cond_wait(&w->cond, &w->lock);
	if (ig_now_ns() >= deadline)
		return ETIMEDOUT;
	ts.tv_sec = deadline / IG_NSEC_PER_SEC;
	ts.tv_nsec = deadline % IG_NSEC_PER_SEC;
	pthread_cond_timedwait(&w->cond, &w->lock, &ts);
	return 0;
}

/*
 * With w->lock held, at every wake-up of a call: waits while the half is
 * frozen; then 0 to go on, 1 when stop() was called, or -errno with the
 * session's line when the half was killed.
 */
static int gate(struct fx_world *w, struct ig_stream *st, const char *what)
{
	struct fx_half *h = &w->half[side_of(st->s)];

	while (h->frozen)
		pthread_cond_wait(&w->cond, &w->lock);
	if (h->dead)
		return ig_session_fail(st->s, ECONNRESET,
				       "fake stream %u: %s: this side was "
				       "killed",
				       st->idx, what);
	return h->stopped ? 1 : 0;
}

static int stalled(struct ig_stream *st, const char *what)
{
	return ig_session_fail(st->s, ETIMEDOUT,
			       "fake stream %u: %s stalled for %u ms", st->idx,
			       what, st->s->p.timeout_ms);
}

/* Why a send on c cannot go on (lock held): 0 when it can. */
static int send_check(struct fx_world *w, struct ig_stream *st,
		      struct fx_chan *c, const char *what)
{
	const struct fx_script *sc = &w->half[side_of(st->s)].sc;
	int ret = gate(w, st, what);

	if (ret == 1)
		return ig_session_fail(st->s, ECANCELED,
				       "fake stream %u: %s stopped", st->idx,
				       what);
	if (ret)
		return ret;
	if (c->reset)
		return ig_session_fail(st->s, EPIPE,
				       "fake stream %u: %s: the peer reset "
				       "the connection",
				       st->idx, what);
	if (sc->err_after && c->sent >= sc->err_after)
		return ig_session_fail(st->s, EIO,
				       "fake stream %u: %s failed (scripted)",
				       st->idx, what);
	if (sc->reset_after && c->sent >= sc->reset_after) {
		c->reset = true;
		pthread_cond_broadcast(&w->cond);
		return ig_session_fail(st->s, ECONNRESET,
				       "fake stream %u: %s: connection reset "
				       "(scripted)",
				       st->idx, what);
	}
	return 0;
}

/* Hands over up to n messages on st's outgoing channel (lock held). */
static ssize_t put(struct fx_world *w, struct ig_stream *st, uint64_t n,
		   const char *what)
{
	struct fx_chan *c = &w->ch[side_of(st->s)][st->idx];
	uint64_t deadline = deadline_of(st->s);
	bool waited = false;

	if (w->half[side_of(st->s)].sc.short_io)
		n = 1;
	for (;;) {
		uint64_t space = w->cap - c->queued, k;

		int ret = send_check(w, st, c, what);

		if (ret)
			return ret;
		if (space) {
			k = n < space ? n : space;
			c->queued += k;
			c->sent += k;
			pthread_cond_broadcast(&w->cond);
			return (ssize_t)k;
		}
		/* lossy: what does not fit after a short wait is lost */
		if (w->lossy && waited) {
			k = n < w->cap ? n : w->cap;
			c->dropped += k;
			c->sent += k;
			return (ssize_t)k;
		}
		if (w->lossy) {
			uint64_t soon = ig_now_ns() + IG_NSEC_PER_MSEC;

			wait_change(w, soon < deadline ? soon : deadline);
			waited = true;
		} else if (wait_change(w, deadline)) {
			return stalled(st, what);
		}
	}
}

/* Reports k messages, in thirds when the script says short. */
static void deliver(struct ig_stream *st, uint64_t k, bool short_io)
{
	uint64_t bytes = k * st->s->p.size;

	if (short_io && bytes >= 3) {
		ig_stream_rx(st, bytes / 3);
		ig_stream_rx(st, bytes / 3);
		bytes -= 2 * (bytes / 3);
	}
	ig_stream_rx(st, bytes);
}

/*
 * Takes what st's incoming channel holds (lock held) and reports it to
 * the engine before the sender can see it taken (so a flush that waits
 * for delivery means counted): the count, 0 at EOF (the peer closed or
 * was killed, everything taken) or when stopped, -errno after the
 * timeout.  A stalled receiver waits without one.
 */
static int64_t take(struct fx_world *w, struct ig_stream *st, uint64_t max,
		    bool count, const char *what)
{
	struct fx_half *h = &w->half[side_of(st->s)];
	struct fx_chan *c = &w->ch[!side_of(st->s)][st->idx];
	uint64_t deadline = deadline_of(st->s);

	for (;;) {
		int ret = gate(w, st, what);
		bool rx_stalled = h->rx_stalled ||
				  (h->sc.rx_stall_after &&
				   c->taken >= h->sc.rx_stall_after);

		if (ret)
			return ret == 1 ? 0 : ret;
		if (atomic_load(&st->s->rx_stop))
			return 0;
		if (rx_stalled) {
			wait_change(w, 0);
			continue;
		}
		if (h->sc.rx_stall_after &&
		    h->sc.rx_stall_after - c->taken < max)
			max = h->sc.rx_stall_after - c->taken;
		if (c->queued) {
			uint64_t k = c->queued < max ? c->queued : max;

			c->queued -= k;
			c->taken += k;
			if (count)
				deliver(st, k, h->sc.short_io);
			pthread_cond_broadcast(&w->cond);
			return (int64_t)k;
		}
		if (c->closed || c->reset)
			return 0;
		if (wait_change(w, deadline))
			return stalled(st, what);
	}
}

static void pause_us(unsigned int us)
{
	struct timespec ts = { .tv_sec = us / 1000000,
			       .tv_nsec = (us % 1000000) * 1000L };

	if (us)
		nanosleep(&ts, NULL);
}

static ssize_t fx_bw_send(struct ig_stream *st, uint64_t n)
{
	struct fx_world *w = world_of(st->s);
	ssize_t k;

	pthread_mutex_lock(&w->lock);
	k = put(w, st, n, "send");
	pthread_mutex_unlock(&w->lock);
	return k;
}

/* rx_confirms (TCP): handed over is all it can tell; else (an RC
 * completion) every message must have been taken by the receiver. */
static int fx_bw_flush(struct ig_stream *st)
{
	struct fx_world *w = world_of(st->s);
	struct fx_chan *c = &w->ch[side_of(st->s)][st->idx];
	uint64_t slow = ig_now_ns() +
			w->half[side_of(st->s)].sc.flush_ms * IG_NSEC_PER_MSEC;
	uint64_t deadline = deadline_of(st->s);
	int ret = 0;

	pthread_mutex_lock(&w->lock);
	for (;;) {
		ret = send_check(w, st, c, "flush");
		if (ret)
			break;
		if (ig_now_ns() < slow) {
			wait_change(w, slow);
			continue;
		}
		if (w->ops.rx_confirms || w->lossy || !c->queued)
			break;
		if (wait_change(w, deadline)) {
			ret = stalled(st, "flush");
			break;
		}
	}
	pthread_mutex_unlock(&w->lock);
	return ret;
}

static int fx_bw_recv(struct ig_stream *st)
{
	struct fx_world *w = world_of(st->s);
	const struct fx_script *sc = &w->half[side_of(st->s)].sc;

	for (;;) {
		int64_t k;

		pthread_mutex_lock(&w->lock);
		k = take(w, st, sc->short_io ? 1 : UINT64_MAX, true, "recv");
		pthread_mutex_unlock(&w->lock);
		if (k <= 0)
			return (int)k;
		pause_us(sc->pace_us);
	}
}

static int fx_lat_ping(struct ig_stream *st)
{
	struct fx_world *w = world_of(st->s);
	int64_t k;

	pthread_mutex_lock(&w->lock);
	k = put(w, st, 1, "ping");
	if (k > 0)
		k = take(w, st, 1, false, "ping");
	if (k == 0)
		k = ig_session_fail(st->s, ECONNRESET,
				    "fake stream %u: ping: %s", st->idx,
				    w->ch[FX_SERVER][st->idx].reset
					    ? "the peer reset the connection"
					    : "no reply: stopped");
	pthread_mutex_unlock(&w->lock);
	return k < 0 ? (int)k : 0;
}

static int fx_lat_pong(struct ig_stream *st)
{
	struct fx_world *w = world_of(st->s);
	int64_t k;

	pthread_mutex_lock(&w->lock);
	for (;;) {
		k = take(w, st, 1, false, "pong");
		if (k > 0)
			k = put(w, st, 1, "pong");
		if (k <= 0 || w->half[side_of(st->s)].stopped)
			break;
	}
	pthread_mutex_unlock(&w->lock);
	return k < 0 && !atomic_load(&st->s->stop) ? (int)k : 0;
}

static void fx_stop(struct ig_session *s)
{
	struct fx_world *w = world_of(s);

	pthread_mutex_lock(&w->lock);
	w->half[side_of(s)].stopped = true;
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
}

static void fx_cleanup(struct ig_session *s)
{
	struct fx_world *w = world_of(s);

	pthread_mutex_lock(&w->lock);
	for (unsigned int i = 0; i < s->nstreams; i++)
		w->ch[side_of(s)][i].closed = true;
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
}

/* Server: new channels, XPORT, then the client's "connection". */
static int setup_server(struct fx_world *w, struct ig_session *s)
{
	json_object *o;
	char b;
	int ret;

	if (w->half[FX_SERVER].sc.setup_fail)
		return ig_session_fail(s, EIO,
				       "fake: set-up failed (scripted)");
	while (read(w->attach[0], &b, 1) == 1) /* a failed session's */
		;
	pthread_mutex_lock(&w->lock);
	memset(w->ch, 0, sizeof(w->ch));
	pthread_mutex_unlock(&w->lock);
	o = json_object_new_object();
	json_object_object_add(o, "streams",
			       json_object_new_uint64(s->nstreams));
	ret = ig_ctrl_send(s->ctrl, IG_MSG_XPORT, o);
	json_object_put(o);
	if (ret)
		return ret;
	ret = ig_session_wait(s, w->attach[0], POLLIN, deadline_of(s));
	if (ret == -ETIMEDOUT)
		return ig_session_fail(s, ETIMEDOUT,
				       "fake: no data connection within %u ms",
				       s->p.timeout_ms);
	if (!ret && read(w->attach[0], &b, 1) != 1)
		ret = ig_session_fail(s, EIO, "fake: reading the pipe failed");
	return ret;
}

static int setup_client(struct fx_world *w, struct ig_session *s)
{
	json_object *o;
	uint64_t n = 0;
	int ret = ig_ctrl_expect(s->ctrl, IG_MSG_XPORT, &o);

	if (ret)
		return ret;
	ig_json_get_u64(o, "streams", &n);
	json_object_put(o);
	if (n != s->nstreams)
		return ig_session_fail(s, EPROTO,
				       "fake: XPORT for %llu streams, not %u",
				       (unsigned long long)n, s->nstreams);
	if (w->half[FX_CLIENT].sc.setup_fail)
		return ig_session_fail(s, EIO,
				       "fake: set-up failed (scripted)");
	if (write(w->attach[1], "c", 1) != 1)
		return ig_session_fail(s, EIO, "fake: writing the pipe failed");
	return 0;
}

static int fx_setup(struct ig_session *s)
{
	struct fx_world *w = world_of(s);
	struct fx_half *h = &w->half[side_of(s)];

	pthread_mutex_lock(&w->lock);
	h->stopped = false;
	pthread_mutex_unlock(&w->lock);
	s->lossy = w->lossy;
	s->window_snd = s->window_rcv = w->cap * s->p.size;
	return s->server ? setup_server(w, s) : setup_client(w, s);
}

static const struct ig_xport_ops fx_ops = {
	.name = "fake",
	.setup = fx_setup,
	.stop = fx_stop,
	.cleanup = fx_cleanup,
	.bw_send = fx_bw_send,
	.bw_flush = fx_bw_flush,
	.bw_recv = fx_bw_recv,
	.lat_ping = fx_lat_ping,
	.lat_pong = fx_lat_pong,
};

int fx_init(struct fx_world *w, bool rx_confirms, bool lossy, uint64_t cap,
	    const struct fx_script sc[2])
{
	pthread_condattr_t ca;

	memset(w, 0, sizeof(*w));
	w->ops = fx_ops;
	w->ops.rx_confirms = rx_confirms;
	w->lossy = lossy;
	w->cap = cap;
	w->half[FX_CLIENT].sc = sc[FX_CLIENT];
	w->half[FX_SERVER].sc = sc[FX_SERVER];
	if (pipe2(w->attach, O_CLOEXEC | O_NONBLOCK))
		return -errno;
	pthread_mutex_init(&w->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&w->cond, &ca);
	pthread_condattr_destroy(&ca);
	return 0;
}

void fx_destroy(struct fx_world *w)
{
	close(w->attach[0]);
	close(w->attach[1]);
	pthread_cond_destroy(&w->cond);
	pthread_mutex_destroy(&w->lock);
}

/* Changes one half under the lock and wakes every wait. */
static void set_flag(struct fx_world *w, bool *flag, bool v)
{
	pthread_mutex_lock(&w->lock);
	*flag = v;
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
}

void fx_kill(struct fx_world *w, int side)
{
	pthread_mutex_lock(&w->lock);
	w->half[side].dead = true;
	for (unsigned int i = 0; i < IG_MAX_STREAMS; i++) {
		w->ch[side][i].reset = true;
		w->ch[!side][i].reset = true;
	}
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
}

void fx_freeze(struct fx_world *w, int side)
{
	set_flag(w, &w->half[side].frozen, true);
}

void fx_thaw(struct fx_world *w, int side)
{
	set_flag(w, &w->half[side].frozen, false);
}

void fx_stall_rx(struct fx_world *w, int side)
{
	set_flag(w, &w->half[side].rx_stalled, true);
}

void fx_wait_thawed(struct fx_world *w, int side)
{
	pthread_mutex_lock(&w->lock);
	while (w->half[side].frozen)
		pthread_cond_wait(&w->cond, &w->lock);
	pthread_mutex_unlock(&w->lock);
}

void fx_totals(struct fx_world *w, int side, struct fx_chan *sum)
{
	memset(sum, 0, sizeof(*sum));
	pthread_mutex_lock(&w->lock);
	for (unsigned int i = 0; i < IG_MAX_STREAMS; i++) {
		sum->sent += w->ch[side][i].sent;
		sum->taken += w->ch[side][i].taken;
		sum->dropped += w->ch[side][i].dropped;
		sum->queued += w->ch[side][i].queued;
	}
	pthread_mutex_unlock(&w->lock);
}

struct fx_chan fx_chan_of(struct fx_world *w, int side, unsigned int idx)
{
	struct fx_chan c;

	pthread_mutex_lock(&w->lock);
	c = w->ch[side][idx];
	pthread_mutex_unlock(&w->lock);
	return c;
}
