// SPDX-License-Identifier: MIT
/*
 * The side whose workers send drives the phases of a bandwidth test (and
 * the client those of a latency test): warm-up, confirmation, BEGIN, the
 * measured interval, the last confirmation.  The client forward, the
 * server with -R (reverse); the other side follows (engine_follow.c).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/clock.h"
#include "engine_int.h"
#include "fault.h"
#include "wire/codec.h"

bool ig_eng_interrupted(const struct ig_session *s)
{
	return s->local.interrupt && *s->local.interrupt;
}

/*
 * Between two waits, unlocked: KEEPALIVE on the control channel when it
 * is due (every third of the timeout, so that the follower's read deadline
 * holds through long phases), and a look at what the follower said there:
 * nothing, until it gives up or goes away.
 */
static int tend_ctrl(struct ig_session *s, uint64_t *next_ka, uint64_t every)
{
	uint64_t now = ig_now_ns();

	if (now >= *next_ka) {
		int ret = ig_ctrl_send(s->ctrl, IG_MSG_KEEPALIVE, NULL);

		if (ret)
			return ret;
		*next_ka = now + every;
	}
	return ig_eng_check_ctrl(s);
}

/*
 * Waits until `arrivals` workers have met, a worker failed, the follower
 * ended the session on the control channel, or (deadline != 0) the
 * monotonic clock reaches deadline.
 */
static int main_wait(struct ig_session *s, unsigned int arrivals,
		     uint64_t deadline)
{
	uint64_t ka_every = s->p.timeout_ms * IG_NSEC_PER_MSEC / 3;
	uint64_t next_ka = ig_now_ns() + ka_every;
	int ret = 0;

	pthread_mutex_lock(&s->lock);
	while (s->arrived < arrivals && !atomic_load(&s->failed)) {
		uint64_t now = ig_now_ns(), until = next_ka;
		struct timespec ts;

		if (ig_eng_interrupted(s)) {
			atomic_store(&s->stop_warm, 1);
			atomic_store(&s->stop, 1);
		}
		if (deadline && now >= deadline)
			break;
		/* look at the interrupt flag ten times a second */
		if (s->local.interrupt && now + IG_NSEC_PER_SEC / 10 < until)
			until = now + IG_NSEC_PER_SEC / 10;
		if (deadline && deadline < until)
			until = deadline;
		ts.tv_sec = until / IG_NSEC_PER_SEC;
		ts.tv_nsec = until % IG_NSEC_PER_SEC;
		pthread_cond_timedwait(&s->cond, &s->lock, &ts);
		pthread_mutex_unlock(&s->lock);
		ret = tend_ctrl(s, &next_ka, ka_every);
		pthread_mutex_lock(&s->lock);
		if (ret)
			break;
	}
	pthread_mutex_unlock(&s->lock);
	return ret;
}

/* Asks the receiver to confirm that every byte handed over so far has
 * arrived (SYNC -> SYNCED); lossy, that its count has settled. */
static int confirm_rx(struct ig_session *s)
{
	json_object *o = json_object_new_object();
	json_object *a = json_object_new_array();
	int ret;

	for (unsigned int i = 0; i < s->nstreams; i++)
		json_object_array_add(a, json_object_new_uint64(
						 s->st[i].tx_msgs * s->p.size));
	json_object_object_add(o, "rx_bytes", a);
	ret = ig_ctrl_send(s->ctrl, IG_MSG_SYNC, o);
	json_object_put(o);
	if (!ret)
		ret = ig_ctrl_expect(s->ctrl, IG_MSG_SYNCED, NULL);
	return ret;
}

/* BEGIN, with the bytes handed over before it (the warm-up's): where no
 * SYNC confirmed them, the follower starts its count there, not at what
 * it has when it reads BEGIN, which may hold measured data already. */
static int send_begin(struct ig_session *s)
{
	json_object *o = json_object_new_object();
	uint64_t sent = 0;
	int ret;

	for (unsigned int i = 0; i < s->nstreams; i++)
		sent += s->st[i].tx_msgs * s->p.size;
	json_object_object_add(o, "tx_bytes", json_object_new_uint64(sent));
	ret = ig_ctrl_send(s->ctrl, IG_MSG_BEGIN, o);
	json_object_put(o);
	return ret;
}

static bool confirms(struct ig_session *s)
{
	return !atomic_load(&s->failed) && (s->ops->rx_confirms || s->lossy);
}

static void end_interval(struct ig_session *s, struct ig_eng_measure *m)
{
	m->t1 = ig_now_ns();
	ig_cpu_snap(s->cpu_root, &m->c1);
	ig_eng_info_end(s, &m->info);
}

static int measure_phase(struct ig_session *s, struct ig_eng_measure *m)
{
	unsigned int n = s->nstreams;
	int ret;

	/* the warm-up is delivered and the workers wait: nothing moves */
	ig_eng_info_start(s);
	ret = send_begin(s);
	if (ret)
		return ret;
	ig_cpu_snap(s->cpu_root, &m->c0);
	m->t0 = ig_now_ns();
	ig_eng_go(s, 1);
	ig_fault_point(s->local.fault, s->server, IG_FAULT_MEASURE);
	if (!s->p.iterations) {
		ret = main_wait(s, 2 * n, m->t0 + s->p.duration_ns);
		atomic_store(&s->stop, 1);
	}
	if (!ret)
		ret = main_wait(s, 2 * n, 0);
	/* lossy: the interval ends with the last send completion; the
	 * drain that follows is not timed */
	if (s->lossy)
		end_interval(s, m);
	if (!ret && confirms(s))
		ret = confirm_rx(s);
	if (!s->lossy)
		end_interval(s, m);
	return ret;
}

int ig_eng_drive(struct ig_session *s, struct ig_eng_measure *m)
{
	unsigned int n = s->nstreams;
	int ret;

	ret = ig_eng_start_workers(s, ig_test_pattern(s->tests, s->p.test) ==
						      IG_PATTERN_BW
					      ? ig_eng_bw_sender
					      : ig_eng_lat_initiator);
	if (!ret && s->p.bidir)
		ret = ig_eng_start_reverse(s, ig_eng_bw_receiver);
	if (ret)
		return ret;
	if (s->p.warmup_ns)
		ret = main_wait(s, n, ig_now_ns() + s->p.warmup_ns);
	ig_fault_point(s->local.fault, s->server, IG_FAULT_WARMUP);
	atomic_store(&s->stop_warm, 1);
	if (!ret)
		ret = main_wait(s, n, 0);
	if (!ret && confirms(s))
		ret = confirm_rx(s);
	if (!ret && !atomic_load(&s->failed))
		ret = measure_phase(s, m);
	atomic_store(&s->stop, 1);
	ig_eng_go(s, 2);
	return ret;
}

void ig_eng_totals(struct ig_result *r, unsigned int nstreams, uint64_t size,
		   uint64_t ns)
{
	uint64_t msgs = 0;

	for (unsigned int i = 0; i < nstreams; i++)
		msgs += r->stream_msgs[i];
	r->iterations = msgs;
	r->bytes = msgs * size;
	r->seconds = (double)ns / 1e9;
	if (r->seconds > 0) {
		r->bw_gbps = (double)r->bytes * 8 / r->seconds / 1e9;
		r->msg_rate = (double)msgs / r->seconds;
	}
}

void ig_eng_counts(struct ig_session *s, const struct ig_eng_measure *m,
		   struct ig_result *r)
{
	r->has_lat = ig_test_pattern(s->tests, s->p.test) == IG_PATTERN_LAT;
	ig_hist_init(&r->lat);
	for (unsigned int i = 0; i < s->nstreams; i++) {
		if (r->has_lat) {
			r->stream_msgs[i] = s->st[i].lat_rounds;
			ig_hist_merge(&r->lat, s->st[i].lat);
		} else {
			r->stream_msgs[i] =
				s->st[i].tx_msgs - s->st[i].warm_msgs;
		}
	}
	ig_eng_totals(r, s->nstreams, s->p.size, m->t1 - m->t0);
	ig_cpu_usage(&m->c0, &m->c1, r->bytes,
		     s->server ? &r->cpu_server : &r->cpu_client);
}
