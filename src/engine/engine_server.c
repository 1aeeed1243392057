// SPDX-License-Identifier: MIT
/* The server half of the engine: it follows the client's phases, or with
 * -R drives them (it sends). */
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

/* RESULT: our CPU and fingerprint; forward, what our receivers counted
 * (and with --bidir what our senders handed over); with -R the figures
 * of the measurement, which we drove. */
static int send_result(struct ig_session *s, const struct ig_cpu_usage *u,
		       const struct ig_ctrs *info, json_object *extra)
{
	struct ig_fingerprint fp;
	json_object *r = extra ? extra : json_object_new_object();
	int ret;

	ig_ctrs_to_json(r, info);
	json_object_object_add(r, "cpu", ig_cpu_usage_to_json(u));
	ig_fingerprint_collect("/", ig_facts_str(&s->facts, IG_FACT_DEVICE),
			       (int)ig_facts_int(&s->facts, IG_FACT_PORT, 0),
			       &fp);
	json_object_object_add(r, "fingerprint", ig_fingerprint_to_json(&fp));
	ret = ig_ctrl_send(s->ctrl, IG_MSG_RESULT, r);
	json_object_put(r);
	return ret;
}

static int on_end(struct ig_session *s, const struct ig_eng_follow *f)
{
	json_object *r = json_object_new_object();
	struct ig_cpu_usage u;
	uint64_t bytes = 0;

	ig_json_get_u64(f->last, "bytes", &bytes);
	ig_cpu_usage(&f->c0, &f->c1, bytes, &u);
	if (s->p.bidir) {
		json_object_object_add(r, "rev_msgs",
				       json_object_new_uint64(f->rev));
		json_object_object_add(r, "rev_ns",
				       json_object_new_uint64(f->ns));
	}
	/* a write's target, a read's source: no completion, nothing counted */
	if (ig_test_pattern(s->tests, s->p.test) == IG_PATTERN_BW &&
	    !ig_test_one_sided(s->tests, s->p.test))
		json_object_object_add(r, "rx_bytes",
				       json_object_new_uint64(f->rx));
	return send_result(s, &u, &f->info, r);
}

/* -R: we sent; the client needs the figures (ig_eng_counts). */
static int send_reverse_result(struct ig_session *s,
			       const struct ig_eng_measure *m)
{
	struct ig_result *r = calloc(1, sizeof(*r));
	struct ig_cpu_usage u;
	json_object *o, *a;

	if (!r)
		return ig_session_fail(s, ENOMEM, "out of memory for a result");
	ig_eng_counts(s, m, r);
	o = json_object_new_object();
	a = json_object_new_array();
	for (unsigned int i = 0; i < s->nstreams; i++)
		json_object_array_add(
			a, json_object_new_uint64(r->stream_msgs[i]));
	json_object_object_add(o, "msgs", a);
	json_object_object_add(o, "ns", json_object_new_uint64(m->t1 - m->t0));
	u = r->cpu_server;
	free(r);
	return send_result(s, &u, &m->info, o);
}

static int send_ready(struct ig_session *s)
{
	json_object *o = json_object_new_object();
	int ret;

	json_object_object_add(o, "window_rcv",
			       json_object_new_uint64(s->window_rcv));
	json_object_object_add(o, "window_snd",
			       json_object_new_uint64(s->window_snd));
	if (s->ops->facts_key && s->facts.n)
		json_object_object_add(o, s->ops->facts_key,
				       ig_facts_to_json(&s->facts));
	/* the direction we will run: a client that asked for -R learns that
	 * we know it (an older server says nothing) */
	if (ig_params_direction(s->tests, &s->p))
		json_object_object_add(
			o, "direction",
			json_object_new_string(
				ig_params_direction(s->tests, &s->p)));
	ret = ig_ctrl_send(s->ctrl, IG_MSG_READY, o);
	json_object_put(o);
	return ret;
}

/* Forward: our receivers (or responders) follow the client to END. */
static int follow_client(struct ig_session *s)
{
	struct ig_eng_follow f = { 0 };
	int ret;

	ret = ig_eng_start_workers(s, ig_test_pattern(s->tests, s->p.test) ==
						      IG_PATTERN_BW
					      ? ig_eng_bw_receiver
					      : ig_eng_lat_responder);
	if (!ret && s->p.bidir)
		ret = ig_eng_start_reverse(s, ig_eng_bw_sender_free);
	if (ret)
		return ret;
	ig_fault_point(s->local.fault, true, IG_FAULT_WARMUP);
	ret = ig_eng_follow(s, IG_MSG_END, &f);
	if (!ret)
		ret = on_end(s, &f);
	json_object_put(f.last);
	return ret;
}

/* -R: we send, so we drive; the client follows. */
static int drive_client(struct ig_session *s)
{
	struct ig_eng_measure m = { 0 };
	int ret = ig_eng_drive(s, &m);

	/* failed: serve() stops the transport, ig_engine_server then joins */
	if (!ret)
		ret = ig_eng_join_forward(s);
	if (!ret)
		ret = send_reverse_result(s, &m);
	return ret;
}

static int serve(struct ig_session *s)
{
	int ret = s->ops->setup(s);

	if (ret)
		return ret;
	ig_fault_point(s->local.fault, true, IG_FAULT_SETUP);
	ret = send_ready(s);
	if (!ret)
		ret = s->p.reverse ? drive_client(s) : follow_client(s);
	if (ret) /* as on the client: see ig_engine_client */
		atomic_store(&s->failed, 1);
	atomic_store(&s->stop, 1);
	ig_session_stop_rx(s);
	s->ops->stop(s);
	return ret;
}

int ig_engine_server(const struct ig_xports *x, struct ig_ctrl *ctrl,
		     json_object *setup, const struct ig_fault *fault,
		     char *err, size_t errlen)
{
	struct ig_params p;
	struct ig_session s;
	char why[256] = "";
	int ret;

	ig_params_default(&p);
	ret = ig_params_from_json(&x->tests, setup, &p, why, sizeof(why));
	if (!ret)
		ret = ig_params_check(&x->tests, &p, why, sizeof(why));
	if (ret) {
		snprintf(err, errlen, "refused parameters: %s", why);
		ig_ctrl_send_msg(ctrl, IG_MSG_ERROR, err);
		return ret;
	}
	ctrl->timeout_ms = p.timeout_ms;
	ig_fault_point(fault, true, IG_FAULT_PARAMS);
	ret = ig_eng_session_init(&s, ctrl, x, &p, true);
	s.local.fault = fault;
	if (!ret)
		ret = serve(&s);
	ig_eng_join_workers(&s);
	if (ret && ret != -EREMOTEIO && ret != -ECONNRESET &&
	    ret != -ETIMEDOUT && ret != -EPIPE)
		ig_ctrl_send_msg(ctrl, IG_MSG_ERROR, ig_session_err(&s));
	s.ops->cleanup(&s);
	if (ret)
		snprintf(err, errlen, "%s: %s", ig_test_name(&x->tests, p.test),
			 ig_session_err(&s));
	ig_eng_session_destroy(&s);
	return ret;
}
