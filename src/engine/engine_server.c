// SPDX-License-Identifier: MIT
/* The server half of the engine: it follows the client's phases. */
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

static int wait_targets(struct ig_session *s)
{
	uint64_t deadline = ig_now_ns() + s->p.timeout_ms * IG_NSEC_PER_MSEC;
	struct timespec ts = { .tv_sec = deadline / IG_NSEC_PER_SEC,
			       .tv_nsec = deadline % IG_NSEC_PER_SEC };
	int ret = 0;

	pthread_mutex_lock(&s->lock);
	while (!all_reached(s) && !atomic_load(&s->failed) && !ret)
		ret = pthread_cond_timedwait(&s->cond, &s->lock, &ts);
	pthread_mutex_unlock(&s->lock);
	for (unsigned int i = 0; i < s->nstreams; i++)
		atomic_store(&s->st[i].rx_target, UINT64_MAX);
	if (atomic_load(&s->failed))
		return ig_session_fail(s, EIO,
				       "a data stream failed while "
				       "the client waited for confirmation");
	if (ret)
		return ig_session_fail(s, ETIMEDOUT,
				       "data did not arrive "
				       "within %u ms of the client's last "
				       "send",
				       s->p.timeout_ms);
	return 0;
}

/* SYNC: the client asks us to confirm a byte count per stream. */
static int on_sync(struct ig_session *s, json_object *o)
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
	}
	ret = wait_targets(s);
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

static int on_end(struct ig_session *s, json_object *o,
		  const struct ig_cpu_snap *c0, uint64_t rev, uint64_t ns,
		  const struct ig_tcpinfo *ti)
{
	struct ig_cpu_snap c1;
	struct ig_cpu_usage u;
	struct ig_fingerprint fp;
	uint64_t bytes = 0;
	json_object *r = json_object_new_object();
	int ret;

	ig_cpu_snap(s->cpu_root, &c1);
	ig_json_get_u64(o, "bytes", &bytes);
	if (ti)
		json_object_object_add(r, "tcp_info",
				       ig_tcpinfo_array_to_json(ti,
								s->nstreams));
	ig_cpu_usage(c0, &c1, bytes, &u);
	json_object_object_add(r, "cpu", ig_cpu_usage_to_json(&u));
	if (s->p.bidir) {
		json_object_object_add(r, "rev_msgs",
				       json_object_new_uint64(rev));
		json_object_object_add(r, "rev_ns", json_object_new_uint64(ns));
	}
	ig_fingerprint_collect("/", s->xinfo.valid ? s->xinfo.device : "",
			       s->xinfo.port, &fp);
	json_object_object_add(r, "fingerprint", ig_fingerprint_to_json(&fp));
	ret = ig_ctrl_send(s->ctrl, IG_MSG_RESULT, r);
	json_object_put(r);
	return ret;
}

/* Follows the client's messages until END (done) or an error. */
static int follow(struct ig_session *s)
{
	struct ig_cpu_snap c0 = { 0 };
	struct ig_tcpinfo ti[IG_MAX_STREAMS];
	struct ig_zc_stats zc;
	uint64_t rev0 = 0, rev1, t0 = 0, t1;
	bool has_ti;
	enum ig_msg_type type;
	json_object *o;
	int ret;

	for (;;) {
		ret = ig_ctrl_recv(s->ctrl, &type, &o);
		if (ret)
			return ret;
		switch (type) {
		case IG_MSG_KEEPALIVE:
			break;
		case IG_MSG_SYNC:
			ret = on_sync(s, o);
			break;
		case IG_MSG_BEGIN:
			ig_fault_point(true, IG_FAULT_MEASURE);
			ig_cpu_snap(s->cpu_root, &c0);
			ig_eng_info_start(s);
			rev0 = reverse_count(s);
			t0 = ig_now_ns();
			break;
		case IG_MSG_END:
			ig_fault_point(true, IG_FAULT_RESULT);
			rev1 = reverse_count(s);
			t1 = ig_now_ns();
			/* TCP_INFO before the shutdown */
			has_ti = ig_eng_info_end(s, ti, &zc);
			atomic_store(&s->stop, 1);
			atomic_store(&s->rx_stop, 1);
			s->ops->stop(s);
			ret = on_end(s, o, &c0, rev1 - rev0, t1 - t0,
				     has_ti ? ti : NULL);
			json_object_put(o);
			return ret;
		case IG_MSG_ERROR:
			ret = ig_session_fail(s, EREMOTEIO,
					      "client aborted "
					      "the test");
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

static int send_ready(struct ig_session *s)
{
	json_object *o = json_object_new_object();
	int ret;

	json_object_object_add(o, "window_rcv",
			       json_object_new_uint64(s->window_rcv));
	json_object_object_add(o, "window_snd",
			       json_object_new_uint64(s->window_snd));
	if (s->xinfo.valid)
		json_object_object_add(o, "xinfo", ig_xinfo_to_json(&s->xinfo));
	ret = ig_ctrl_send(s->ctrl, IG_MSG_READY, o);
	json_object_put(o);
	return ret;
}

static int serve(struct ig_session *s)
{
	int ret = s->ops->setup(s);

	if (ret)
		return ret;
	ig_fault_point(true, IG_FAULT_SETUP);
	ret = send_ready(s);
	if (!ret)
		ret = ig_eng_start_workers(s, ig_test_pattern(s->p.test) ==
							      IG_PATTERN_BW
						      ? ig_eng_bw_receiver
						      : ig_eng_lat_responder);
	if (!ret && s->p.bidir)
		ret = ig_eng_start_reverse(s, ig_eng_bw_sender_free);
	if (!ret) {
		ig_fault_point(true, IG_FAULT_WARMUP);
		ret = follow(s);
	}
	atomic_store(&s->stop, 1);
	atomic_store(&s->rx_stop, 1);
	s->ops->stop(s);
	return ret;
}

int ig_engine_server(const struct ig_xports *x, struct ig_ctrl *ctrl,
		     json_object *setup, char *err, size_t errlen)
{
	struct ig_params p;
	struct ig_session s;
	char why[256] = "";
	int ret;

	ig_params_default(&p);
	ret = ig_params_from_json(setup, &p, why, sizeof(why));
	if (!ret)
		ret = ig_params_check(&p, why, sizeof(why));
	if (ret) {
		snprintf(err, errlen, "refused parameters: %s", why);
		ig_ctrl_send_msg(ctrl, IG_MSG_ERROR, err);
		return ret;
	}
	ctrl->timeout_ms = p.timeout_ms;
	ig_fault_point(true, IG_FAULT_PARAMS);
	ret = ig_eng_session_init(&s, ctrl, x->ops[ig_test_xport(p.test)], &p,
				  true);
	if (!ret)
		ret = serve(&s);
	ig_eng_join_workers(&s);
	if (ret && ret != -EREMOTEIO && ret != -ECONNRESET &&
	    ret != -ETIMEDOUT && ret != -EPIPE)
		ig_ctrl_send_msg(ctrl, IG_MSG_ERROR, ig_session_err(&s));
	s.ops->cleanup(&s);
	if (ret)
		snprintf(err, errlen, "%s: %s", ig_test_name(p.test),
			 ig_session_err(&s));
	ig_eng_session_destroy(&s);
	return ret;
}
