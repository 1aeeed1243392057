// SPDX-License-Identifier: MIT
/*
 * The side whose workers receive follows the driver's phases
 * (engine_drive.c): confirms byte counts (SYNC), notes BEGIN, and ends at
 * the driver's last message.  The server forward, the client with -R.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/clock.h"
#include "common/json.h"
#include "engine_int.h"
#include "fault.h"
#include "wire/codec.h"

static bool all_reached(struct ig_session *s)
{
	for (unsigned int i = 0; i < s->nstreams; i++)
		if (atomic_load(&s->st[i].rx_bytes) <
		    atomic_load(&s->st[i].rx_target))
			return false;
	return true;
}

/* Bytes our receivers have counted so far, all streams. */
static uint64_t rx_count(struct ig_session *s)
{
	uint64_t n = 0;

	for (unsigned int i = 0; i < s->nstreams; i++)
		n += atomic_load(&s->st[i].rx_bytes);
	return n;
}

static struct timespec abs_ts(uint64_t ns)
{
	return (struct timespec){ .tv_sec = ns / IG_NSEC_PER_SEC,
				  .tv_nsec = ns % IG_NSEC_PER_SEC };
}

/* Lossy (s->lossy, called with s->lock held): true once the count has
 * not moved for IG_DRAIN_MS; else *until is when to look again. */
static bool settled(struct ig_session *s, uint64_t *last, uint64_t *since,
		    uint64_t *until)
{
	uint64_t now = ig_now_ns(), n = rx_count(s);

	if (n != *last) {
		*last = n;
		*since = now;
	}
	*until = *since + IG_DRAIN_MS * IG_NSEC_PER_MSEC;
	return now >= *until;
}

static int wait_targets(struct ig_session *s)
{
	uint64_t deadline = ig_now_ns() + s->p.timeout_ms * IG_NSEC_PER_MSEC;
	uint64_t last = UINT64_MAX, since = 0, until = deadline;
	struct timespec ts;
	int ret = 0;

	pthread_mutex_lock(&s->lock);
	while (!all_reached(s) && !atomic_load(&s->failed) && !ret) {
		if (s->lossy && settled(s, &last, &since, &until))
			break;
		ts = abs_ts(until < deadline ? until : deadline);
		ret = pthread_cond_timedwait(&s->cond, &s->lock, &ts);
		if (ret == ETIMEDOUT && ig_now_ns() < deadline)
			ret = 0;
	}
	pthread_mutex_unlock(&s->lock);
	for (unsigned int i = 0; i < s->nstreams; i++)
		atomic_store(&s->st[i].rx_target, UINT64_MAX);
	if (atomic_load(&s->failed))
		return ig_session_fail(s, EIO,
				       "a data stream failed while "
				       "the peer waited for confirmation");
	if (ret)
		return ig_session_fail(s, ETIMEDOUT,
				       "data did not arrive "
				       "within %u ms of the peer's last "
				       "send",
				       s->p.timeout_ms);
	return 0;
}

/* SYNC: the driver asks us to confirm a byte count per stream; *sum is
 * their total (lossy: what arrived of it). */
static int on_sync(struct ig_session *s, json_object *o, uint64_t *sum)
{
	json_object *a;
	int ret;

	a = ig_json_get_array(o, "rx_bytes");
	if (!a || json_object_array_length(a) != s->nstreams)
		return ig_session_fail(s, EPROTO,
				       "SYNC without one byte "
				       "count per stream (%u streams)",
				       s->nstreams);
	for (unsigned int i = 0; i < s->nstreams; i++) {
		json_object *e = json_object_array_get_idx(a, i);

		if (!json_object_is_type(e, json_type_int))
			return ig_session_fail(s, EPROTO,
					       "SYNC byte count "
					       "%u is not an integer",
					       i);
		atomic_store(&s->st[i].rx_target, json_object_get_uint64(e));
		*sum += json_object_get_uint64(e);
	}
	ret = wait_targets(s);
	if (s->lossy)
		*sum = rx_count(s);
	if (!ret)
		ret = ig_ctrl_send(s->ctrl, IG_MSG_SYNCED, NULL);
	return ret;
}

/* --bidir: messages our reverse senders have handed over so far. */
static uint64_t reverse_count(struct ig_session *s)
{
	uint64_t n = 0;

	for (unsigned int i = 0; i < s->nstreams; i++)
		n += atomic_load_explicit(&s->st[i].tx_pub,
					  memory_order_relaxed);
	return n;
}

static void on_begin(struct ig_session *s, struct ig_eng_follow *f,
		     json_object *o)
{
	uint64_t sent;

	ig_fault_point(s->local.fault, s->server, IG_FAULT_MEASURE);
	ig_cpu_snap(s->cpu_root, &f->c0);
	ig_eng_info_start(s);
	f->rev = reverse_count(s);
	/* the warm-up's confirmed count, when there is one, else what the
	 * driver handed over before BEGIN (an older one says nothing: our
	 * count now): the data that follows BEGIN may arrive before we read
	 * it, all of it in a short run */
	if (f->has_synced)
		f->rx = f->synced;
	else if (!ig_json_get_u64(o, "tx_bytes", &sent))
		f->rx = sent;
	else
		f->rx = rx_count(s);
	f->ns = ig_now_ns();
}

/* The driver's last message: our figures over BEGIN..now, and every data
 * loop of ours stopped. */
static void on_last(struct ig_session *s, struct ig_eng_follow *f)
{
	ig_fault_point(s->local.fault, s->server, IG_FAULT_RESULT);
	f->rev = reverse_count(s) - f->rev;
	f->rx = rx_count(s) - f->rx;
	f->ns = ig_now_ns() - f->ns;
	ig_cpu_snap(s->cpu_root, &f->c1);
	/* the transport's counters before the shutdown */
	ig_eng_info_end(s, &f->info);
	atomic_store(&s->stop, 1);
	ig_session_stop_rx(s);
	s->ops->stop(s);
}

static int peer_error(struct ig_session *s, json_object *o)
{
	const char *msg = "no reason given";
	char safe[200];

	ig_json_get_str(o, "message", &msg);
	return ig_session_fail(s, EREMOTEIO, "%s aborted the test: %s",
			       s->server ? "client" : "server",
			       ig_str_safe(msg, safe, sizeof(safe), 199));
}

int ig_eng_follow(struct ig_session *s, enum ig_msg_type last,
		  struct ig_eng_follow *f)
{
	enum ig_msg_type type;
	json_object *o;
	int ret;

	for (;;) {
		ret = ig_ctrl_recv(s->ctrl, &type, &o);
		if (ret)
			return ret;
		if (type == last) {
			on_last(s, f);
			f->last = o;
			return 0;
		}
		switch (type) {
		case IG_MSG_KEEPALIVE:
			break;
		case IG_MSG_SYNC:
			f->synced = 0;
			f->has_synced = true;
			ret = on_sync(s, o, &f->synced);
			break;
		case IG_MSG_BEGIN:
			on_begin(s, f, o);
			break;
		case IG_MSG_ERROR:
			ret = peer_error(s, o);
			break;
		default:
			ret = ig_session_fail(s, EPROTO,
					      "unexpected %s "
					      "during a test",
					      ig_msg_type_name(type));
		}
		json_object_put(o);
		if (ret)
			return ret;
	}
}
