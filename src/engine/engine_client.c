// SPDX-License-Identifier: MIT
/* The client half of the engine: it drives every phase of a test. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/clock.h"
#include "engine_int.h"
#include "fault.h"
#include "wire/codec.h"

/*
 * Waits until `arrivals` workers have met, a worker failed, or (deadline
 * != 0) the monotonic clock reaches deadline.  Sends KEEPALIVE on the
 * control channel every third of the timeout so that the server's read
 * deadline holds through long phases.
 */
static bool interrupted(const struct ig_session *s)
{
	return s->local.interrupt && *s->local.interrupt;
}

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

		if (interrupted(s)) {
			atomic_store(&s->stop_warm, 1);
			atomic_store(&s->stop, 1);
		}
		if (deadline && now >= deadline)
			break;
		/* look at the interrupt flag ten times a second */
		if (s->local.interrupt && now + IG_NSEC_PER_SEC / 10 < until)
			until = now + IG_NSEC_PER_SEC / 10;
		if (now >= next_ka) {
			pthread_mutex_unlock(&s->lock);
			ret = ig_ctrl_send(s->ctrl, IG_MSG_KEEPALIVE, NULL);
			pthread_mutex_lock(&s->lock);
			if (ret)
				break;
			next_ka = now + ka_every;
			continue;
		}
		if (deadline && deadline < until)
			until = deadline;
		ts.tv_sec = until / IG_NSEC_PER_SEC;
		ts.tv_nsec = until % IG_NSEC_PER_SEC;
		pthread_cond_timedwait(&s->cond, &s->lock, &ts);
	}
	pthread_mutex_unlock(&s->lock);
	return ret;
}

/* Asks the receiver to confirm that every byte handed over so far has
 * arrived (SYNC -> SYNCED). */
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

struct measure {
	uint64_t t0, t1;
	struct ig_cpu_snap c0, c1;
	bool has_info; /* the transport's stream_info at t1 */
	struct ig_tcpinfo ti[IG_MAX_STREAMS];
	struct ig_zc_stats zc;
};

static int measure_phase(struct ig_session *s, struct measure *m)
{
	unsigned int n = s->nstreams;
	int ret;

	/* the warm-up is delivered and the workers wait: nothing moves */
	ig_eng_info_start(s);
	ret = ig_ctrl_send(s->ctrl, IG_MSG_BEGIN, NULL);
	if (ret)
		return ret;
	ig_cpu_snap(s->cpu_root, &m->c0);
	m->t0 = ig_now_ns();
	ig_eng_go(s, 1);
	ig_fault_point(false, IG_FAULT_MEASURE);
	if (!s->p.iterations) {
		ret = main_wait(s, 2 * n, m->t0 + s->p.duration_ns);
		atomic_store(&s->stop, 1);
	}
	if (!ret)
		ret = main_wait(s, 2 * n, 0);
	if (!ret && !atomic_load(&s->failed) && s->ops->rx_confirms)
		ret = confirm_rx(s);
	m->t1 = ig_now_ns();
	ig_cpu_snap(s->cpu_root, &m->c1);
	m->has_info = ig_eng_info_end(s, m->ti, &m->zc);
	return ret;
}

static int run_phases(struct ig_session *s, struct measure *m)
{
	unsigned int n = s->nstreams;
	int ret;

	ret = ig_eng_start_workers(s,
				   ig_test_pattern(s->p.test) == IG_PATTERN_BW
					   ? ig_eng_bw_sender
					   : ig_eng_lat_initiator);
	if (!ret && s->p.bidir)
		ret = ig_eng_start_reverse(s, ig_eng_bw_receiver);
	if (ret)
		return ret;
	if (s->p.warmup_ns)
		ret = main_wait(s, n, ig_now_ns() + s->p.warmup_ns);
	ig_fault_point(false, IG_FAULT_WARMUP);
	atomic_store(&s->stop_warm, 1);
	if (!ret)
		ret = main_wait(s, n, 0);
	if (!ret && !atomic_load(&s->failed) && s->ops->rx_confirms)
		ret = confirm_rx(s);
	if (!ret && !atomic_load(&s->failed))
		ret = measure_phase(s, m);
	atomic_store(&s->stop, 1);
	ig_eng_go(s, 2);
	return ret;
}

/* Appends one clause to the result's warning, "; " between clauses. */
static void warn_add(struct ig_result *r, const char *what)
{
	size_t n = strlen(r->warning);

	snprintf(r->warning + n, sizeof(r->warning) - n, "%s%s", n ? "; " : "",
		 what);
}

/* The latency clock of the first stream, and the first reason why a
 * stream's samples were read with clock_gettime. */
static void fill_clock(struct ig_session *s, struct ig_result *r)
{
	char line[sizeof(s->st[0].clk.why) + 32];

	r->clock = s->st[0].clk.name;
	r->clock_ghz = s->st[0].clk.ghz;
	for (unsigned int i = 0; i < s->nstreams; i++) {
		if (!s->st[i].clk.why[0])
			continue;
		snprintf(line, sizeof(line), "clock: monotonic: %s",
			 s->st[i].clk.why);
		warn_add(r, line);
		return;
	}
}

static void fill_counts(struct ig_session *s, const struct measure *m,
			struct ig_result *r)
{
	uint64_t msgs = 0;

	r->has_lat = ig_test_pattern(s->p.test) == IG_PATTERN_LAT;
	ig_hist_init(&r->lat);
	for (unsigned int i = 0; i < s->nstreams; i++) {
		if (r->has_lat) {
			r->stream_msgs[i] = s->st[i].lat_rounds;
			ig_hist_merge(&r->lat, s->st[i].lat);
		} else {
			r->stream_msgs[i] =
				s->st[i].tx_msgs - s->st[i].warm_msgs;
		}
		msgs += r->stream_msgs[i];
	}
	r->iterations = msgs;
	r->bytes = msgs * s->p.size;
	r->seconds = (double)(m->t1 - m->t0) / 1e9;
	if (r->seconds > 0) {
		r->bw_gbps = (double)r->bytes * 8 / r->seconds / 1e9;
		r->msg_rate = (double)msgs / r->seconds;
	}
	ig_cpu_usage(&m->c0, &m->c1, r->bytes, &r->cpu_client);
	r->has_tcpinfo = m->has_info;
	memcpy(r->tcpinfo, m->ti, sizeof(m->ti[0]) * s->nstreams);
	r->zc = m->zc;
	if (r->has_lat)
		fill_clock(s, r);
}

static void check_window(struct ig_session *s, struct ig_result *r)
{
	uint64_t want = s->p.window;

	r->window_requested = want;
	r->window_snd = s->window_snd;
	/* Linux doubles SO_SNDBUF/SO_RCVBUF for its bookkeeping and caps
	 * the request at net.core.wmem_max / rmem_max. */
	if (!want || (s->window_snd >= 2 * want && r->window_rcv >= 2 * want))
		return;
	char line[200];

	snprintf(line, sizeof(line),
		 "--window %" PRIu64 " was capped by the kernel: send buffer "
		 "%" PRIu64 ", receive buffer %" PRIu64 " (raise "
		 "net.core.wmem_max / net.core.rmem_max)",
		 want, s->window_snd, r->window_rcv);
	warn_add(r, line);
}

static int get_result(struct ig_session *s, struct ig_result *r)
{
	json_object *o, *cpu;
	uint64_t rev = 0, ns = 0;
	int ret;

	json_object *end = json_object_new_object();

	json_object_object_add(end, "bytes", json_object_new_uint64(r->bytes));
	ret = ig_ctrl_send(s->ctrl, IG_MSG_END, end);
	json_object_put(end);
	if (ret)
		return ret;
	ig_fault_point(false, IG_FAULT_RESULT);
	ret = ig_ctrl_expect(s->ctrl, IG_MSG_RESULT, &o);
	if (ret)
		return ret;
	if (json_object_object_get_ex(o, "cpu", &cpu) &&
	    ig_cpu_usage_from_json(cpu, &r->cpu_server) == 0)
		r->has_cpu_server = true;
	if (s->p.bidir && !ig_json_get_u64(o, "rev_msgs", &rev) &&
	    !ig_json_get_u64(o, "rev_ns", &ns) && ns) {
		r->has_bidir = true;
		r->rev_bytes = rev * s->p.size;
		r->rev_seconds = (double)ns / 1e9;
	}
	/* absent (an older server, verbs): none */
	if (!ig_tcpinfo_array_from_json(ig_json_get_array(o, "tcp_info"),
					r->tcpinfo_server, s->nstreams))
		r->has_tcpinfo_server = true;
	if (json_object_object_get_ex(o, "fingerprint", &cpu) &&
	    ig_fingerprint_from_json(cpu, &r->fp_server) == 0)
		r->has_fp_server = true;
	json_object_put(o);
	return 0;
}

static int ready(struct ig_session *s, struct ig_result *r)
{
	json_object *o;
	int ret = ig_ctrl_expect(s->ctrl, IG_MSG_READY, &o);

	if (ret)
		return ret;
	json_object *x;

	ig_json_get_u64(o, "window_rcv", &r->window_rcv);
	if (json_object_object_get_ex(o, "xinfo", &x))
		ig_xinfo_from_json(x, &r->xinfo_server);
	json_object_put(o);
	return 0;
}

static int setup(struct ig_session *s, struct ig_result *r)
{
	json_object *o = ig_params_to_json(&s->p);
	int ret;

	ret = ig_ctrl_send(s->ctrl, IG_MSG_SETUP, o);
	json_object_put(o);
	if (ret)
		return ret;
	ig_fault_point(false, IG_FAULT_PARAMS);
	ret = s->ops->setup(s);
	if (ret) {
		/* tell the server why, so it stops waiting for us */
		ig_ctrl_send_msg(s->ctrl, IG_MSG_ERROR, ig_session_err(s));
		return ret;
	}
	ig_fault_point(false, IG_FAULT_SETUP);
	return ready(s, r);
}

static int alloc_hists(struct ig_session *s)
{
	if (ig_test_pattern(s->p.test) != IG_PATTERN_LAT)
		return 0;
	for (unsigned int i = 0; i < s->nstreams; i++) {
		s->st[i].lat = malloc(sizeof(*s->st[i].lat));
		if (!s->st[i].lat)
			return ig_session_fail(s, ENOMEM,
					       "out of memory for "
					       "a latency histogram");
		ig_hist_init(s->st[i].lat);
	}
	return 0;
}

int ig_engine_client(const struct ig_xports *x, struct ig_ctrl *ctrl,
		     const struct ig_params *p,
		     const struct ig_local_opts *local, struct ig_result *r,
		     char *err, size_t errlen)
{
	struct ig_session s;
	struct measure m = { 0 };
	int ret, wret;

	memset(r, 0, sizeof(*r));
	r->params = *p;
	r->test = ig_test_name(p->test);
	r->transport = ig_test_transport(p->test);
	ret = ig_eng_session_init(&s, ctrl, x->ops[ig_test_xport(p->test)], p,
				  false);
	s.local = *local;
	if (!ret)
		ret = alloc_hists(&s);
	if (!ret)
		ret = setup(&s, r);
	if (!ret)
		ret = run_phases(&s, &m);
	wret = ig_eng_join_forward(&s);
	if (!ret && wret)
		ret = wret;
	if (!ret) {
		fill_counts(&s, &m, r);
		r->partial = interrupted(&s);
		r->xinfo = s.xinfo;
		ret = get_result(&s, r);
		check_window(&s, r);
		if (!r->warning[0])
			snprintf(r->warning, sizeof(r->warning), "%s",
				 s.warning);
	}
	/* --bidir: our receivers run until the server has stopped sending */
	atomic_store(&s.rx_stop, 1);
	wret = ig_eng_join_workers(&s);
	if (!ret && wret && s.p.bidir)
		ret = wret;
	s.ops->cleanup(&s);
	ig_eng_session_destroy(&s);
	if (ret)
		snprintf(err, errlen, "%s: %s", ig_test_name(p->test),
			 ctrl->err[0] ? ctrl->err : strerror(-ret));
	return ret;
}
