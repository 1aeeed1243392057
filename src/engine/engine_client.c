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
	r->clock_read_ns = s->st[0].clk.read_ns;
	r->clock_basis = s->st[0].clk.basis;
	r->clock_cpus = s->st[0].clk.cpus;
	for (unsigned int i = 0; i < s->nstreams; i++) {
		if (!s->st[i].clk.why[0])
			continue;
		snprintf(line, sizeof(line), "clock: monotonic: %s",
			 s->st[i].clk.why);
		warn_add(r, line);
		return;
	}
}

static void check_window(struct ig_session *s, struct ig_result *r)
{
	uint64_t want = s->p.sock.window;

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

/* What every RESULT carries: the server's CPU and fingerprint, and the
 * counters of its streams (absent: an older server, or none). */
static void server_facts(struct ig_session *s, json_object *o,
			 struct ig_result *r)
{
	json_object *x;

	ig_ctrs_init(&r->ctrs_server, s->ops->ctrs, s->ops->nctrs, s->nstreams);
	ig_ctrs_from_json(o, &r->ctrs_server);

	if (json_object_object_get_ex(o, "cpu", &x) &&
	    ig_cpu_usage_from_json(x, &r->cpu_server) == 0)
		r->has_cpu_server = true;
	if (json_object_object_get_ex(o, "fingerprint", &x) &&
	    ig_fingerprint_from_json(x, &r->fp_server) == 0)
		r->has_fp_server = true;
}

static int get_result(struct ig_session *s, struct ig_result *r)
{
	json_object *o;
	uint64_t rev = 0, ns = 0;
	int ret;

	json_object *end = json_object_new_object();

	json_object_object_add(end, "bytes", json_object_new_uint64(r->bytes));
	ret = ig_ctrl_send(s->ctrl, IG_MSG_END, end);
	json_object_put(end);
	if (ret)
		return ret;
	ig_fault_point(s->local.fault, false, IG_FAULT_RESULT);
	ret = ig_ctrl_expect(s->ctrl, IG_MSG_RESULT, &o);
	if (ret)
		return ret;
	if (s->p.bidir && !ig_json_get_u64(o, "rev_msgs", &rev) &&
	    !ig_json_get_u64(o, "rev_ns", &ns) && ns) {
		r->has_bidir = true;
		r->rev_bytes = rev * s->p.size;
		r->rev_seconds = (double)ns / 1e9;
	}
	if (!ig_json_get_u64(o, "rx_bytes", &r->rx_bytes))
		r->has_rx_bytes = true;
	server_facts(s, o, r);
	json_object_put(o);
	return 0;
}

/* -R: the server must say it runs reverse; an older one ignores the
 * field and would run forward, measuring the other direction. */
static int check_direction(struct ig_session *s, json_object *ready)
{
	const char *dir = NULL;
	char safe[32];

	if (!s->p.reverse)
		return 0;
	ig_json_get_str(ready, "direction", &dir);
	if (dir && !strcmp(dir, "reverse"))
		return 0;
	return ig_session_fail(s, EPROTONOSUPPORT,
			       "-R: the server answered direction %s, not "
			       "reverse: its ibgap is older than -R; upgrade "
			       "it or run without -R",
			       dir ? ig_str_safe(dir, safe, sizeof(safe), 24)
				   : "(none)");
}

static int ready(struct ig_session *s, struct ig_result *r)
{
	json_object *o;
	int ret = ig_ctrl_expect(s->ctrl, IG_MSG_READY, &o);

	if (ret)
		return ret;
	json_object *x;

	ig_json_get_u64(o, "window_rcv", &r->window_rcv);
	if (s->ops->facts_key &&
	    json_object_object_get_ex(o, s->ops->facts_key, &x))
		ig_facts_from_json(x, &r->facts_server);
	ret = check_direction(s, o);
	json_object_put(o);
	if (ret)
		ig_ctrl_send_msg(s->ctrl, IG_MSG_ERROR, ig_session_err(s));
	return ret;
}

static int setup(struct ig_session *s, struct ig_result *r)
{
	json_object *o = ig_params_to_json(s->tests, &s->p);
	int ret;

	ret = ig_ctrl_send(s->ctrl, IG_MSG_SETUP, o);
	json_object_put(o);
	if (ret)
		return ret;
	ig_fault_point(s->local.fault, false, IG_FAULT_PARAMS);
	ret = s->ops->setup(s);
	if (ret) {
		/* tell the server why, so it stops waiting for us */
		ig_ctrl_send_msg(s->ctrl, IG_MSG_ERROR, ig_session_err(s));
		return ret;
	}
	ig_fault_point(s->local.fault, false, IG_FAULT_SETUP);
	r->params.size = s->p.size; /* ud_send_bw: 0 became the path MTU */
	return ready(s, r);
}

static int alloc_hists(struct ig_session *s)
{
	if (ig_test_pattern(s->tests, s->p.test) != IG_PATTERN_LAT)
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

/* Forward: we send, so we drive; then END -> RESULT. */
static int drive_server(struct ig_session *s, struct ig_result *r)
{
	struct ig_eng_measure m = { 0 };
	int ret = ig_eng_drive(s, &m);

	/* failed: ig_engine_client stops the transport before it joins (a
	 * worker may wait in a send the peer no longer reads) */
	if (!ret)
		ret = ig_eng_join_forward(s);
	if (ret)
		return ret;
	ig_eng_counts(s, &m, r);
	r->ctrs = m.info;
	if (r->has_lat)
		fill_clock(s, r);
	r->partial = ig_eng_interrupted(s);
	ret = get_result(s, r);
	if (!ret && s->lossy && r->has_rx_bytes)
		ig_result_delivered(r, s->p.size);
	return ret;
}

/* -R: the server's RESULT carries its figures; ours are the CPU and the
 * bytes our receivers counted over BEGIN..RESULT. */
static int reverse_result(struct ig_session *s, const struct ig_eng_follow *f,
			  struct ig_result *r)
{
	json_object *a = ig_json_get_array(f->last, "msgs");
	uint64_t ns = 0;

	if (!a || json_object_array_length(a) != s->nstreams ||
	    ig_json_get_u64(f->last, "ns", &ns))
		return ig_session_fail(s, EPROTO,
				       "the server's RESULT has no "
				       "message count per stream (%u) "
				       "and time",
				       s->nstreams);
	for (unsigned int i = 0; i < s->nstreams; i++)
		r->stream_msgs[i] =
			json_object_get_uint64(json_object_array_get_idx(a, i));
	ig_eng_totals(r, s->nstreams, s->p.size, ns);
	r->rx_bytes = f->rx;
	r->has_rx_bytes = !ig_test_one_sided(s->tests, s->p.test);
	if (s->lossy)
		ig_result_delivered(r, s->p.size);
	ig_cpu_usage(&f->c0, &f->c1, r->bytes, &r->cpu_client);
	r->ctrs = f->info;
	server_facts(s, f->last, r);
	return 0;
}

/* -R: our receivers count, the server drives until its RESULT. */
static int follow_server(struct ig_session *s, struct ig_result *r)
{
	struct ig_eng_follow f = { 0 };
	int ret = ig_eng_start_workers(s, ig_eng_bw_receiver);

	if (!ret)
		ret = ig_eng_follow(s, IG_MSG_RESULT, &f);
	if (!ret)
		ret = reverse_result(s, &f, r);
	json_object_put(f.last);
	return ret;
}

/* How long a client whose data connection broke looks for the server's
 * ERROR saying it was stopped, when that is not in yet: it comes on
 * another connection, which need not arrive first off the host. */
#define STOPPED_LOOK_MS 200

/*
 * A data connection was reset or closed (EPIPE, ECONNRESET): a server
 * that was stopped sent ERROR {"stopped"} on the control connection
 * before it closed everything.  Reads what the control connection holds,
 * and what comes within STOPPED_LOOK_MS, until an ERROR, its end or
 * silence; ig_ctrl_recv notes "stopped".  The session has failed, so
 * what it reads is of no other use; c->err stays the failure's line.
 */
static void look_for_stop(struct ig_ctrl *c)
{
	uint64_t end = ig_now_ns() + STOPPED_LOOK_MS * IG_NSEC_PER_MSEC;
	int timeout = c->timeout_ms;
	enum ig_msg_type type = IG_MSG_KEEPALIVE;
	char err[sizeof(c->err)];
	int claimed = atomic_load(&c->err_claimed);
	json_object *o;

	memcpy(err, c->err, sizeof(err));
	c->timeout_ms = STOPPED_LOOK_MS; /* for a message begun */
	/* a few at most: what was in flight (SYNCED, KEEPALIVE), then ERROR */
	for (int i = 0; i < 16 && type != IG_MSG_ERROR; i++) {
		uint64_t now = ig_now_ns();
		int ms = now < end ? (int)((end - now) / IG_NSEC_PER_MSEC) : 0;

		if (ig_ctrl_poll(c, ms) <= 0 || ig_ctrl_recv(c, &type, &o))
			break;
		json_object_put(o);
	}
	c->timeout_ms = timeout;
	memcpy(c->err, err, sizeof(err));
	atomic_store(&c->err_claimed, claimed);
}

/* The failure's line into err: the server's stop when it said so. */
static void fail_line(const struct ig_xports *x, const struct ig_params *p,
		      struct ig_ctrl *c, int ret, char *err, size_t errlen)
{
	const char *test = ig_test_name(&x->tests, p->test);

	if (ret == -EPIPE || ret == -ECONNRESET)
		look_for_stop(c);
	if (c->stopped[0])
		snprintf(err, errlen,
			 "%s: the server at %s stopped (%s) during the test",
			 test, c->peer, c->stopped);
	else
		snprintf(err, errlen, "%s: %s", test,
			 c->err[0] ? c->err : strerror(-ret));
}

int ig_engine_client(const struct ig_xports *x, struct ig_ctrl *ctrl,
		     const struct ig_params *p,
		     const struct ig_local_opts *local, struct ig_result *r,
		     char *err, size_t errlen)
{
	struct ig_session s;
	int ret, wret;

	memset(r, 0, sizeof(*r));
	r->params = *p;
	r->test = ig_test_name(&x->tests, p->test);
	r->transport = ig_test_transport(&x->tests, p->test);
	r->local = *local;
	ret = ig_eng_session_init(&s, ctrl, x, p, false);
	s.local = *local;
	if (!ret)
		ret = alloc_hists(&s);
	if (!ret)
		ret = setup(&s, r);
	if (!ret)
		ret = p->reverse ? follow_server(&s, r) : drive_server(&s, r);
	if (!ret) {
		r->facts = s.facts;
		check_window(&s, r);
		if (s.warning[0])
			warn_add(r, s.warning);
	}
	/* --bidir, -R: our receivers run until the server has stopped
	 * sending; a failure stops every loop and tells the transport
	 * (whose teardown may then not wait on the peer) */
	if (ret)
		atomic_store(&s.failed, 1);
	ig_session_stop_rx(&s);
	s.ops->stop(&s);
	wret = ig_eng_join_workers(&s);
	if (!ret && wret && (s.p.bidir || s.p.reverse))
		ret = wret;
	s.ops->cleanup(&s);
	ig_eng_session_destroy(&s);
	if (ret)
		fail_line(x, p, ctrl, ret, err, errlen);
	return ret;
}
