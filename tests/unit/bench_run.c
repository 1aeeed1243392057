// SPDX-License-Identifier: MIT
/* The engine bench's cases: both halves in threads (bench.h). */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "common/clock.h"
#include "host/sysinfo.h"
#include "wire/codec.h"
#include "wire/hello.h"
#include "transports/transports.h"

static struct bench_half *half_of(const struct ig_fault *f)
{
	return (struct bench_half *)((char *)f -
				     offsetof(struct bench_half, hook));
}

/* A killed half: its control connection and its streams close. */
static void half_kill(struct bench_half *h)
{
	fx_kill(&h->bc->w, h->side);
	shutdown(h->ctrl.fd, SHUT_RDWR);
}

/* Stops the calling (session) thread until the case releases it. */
static void half_stall(struct bench_half *h)
{
	fx_freeze(&h->bc->w, h->side);
	fx_wait_thawed(&h->bc->w, h->side);
}

/* As src/serve/server.c's stop(): ERROR {stopped: SIGTERM} on the
 * control connection, then every connection cut; late: the streams are
 * reset first and the ERROR comes 20 ms after. */
static void half_stop(struct bench_half *h, bool late)
{
	struct timespec ms20 = { .tv_nsec = 20 * 1000000L };

	if (late) {
		fx_kill(&h->bc->w, h->side);
		nanosleep(&ms20, NULL);
	}
	ig_ctrl_send_stopped(&h->ctrl, "SIGTERM");
	half_kill(h);
}

/* The fault hook (engine/fault.h) of each half. */
static void bench_point(const struct ig_fault *f, bool server,
			enum ig_fault_phase phase)
{
	struct bench_half *h = half_of(f);
	const struct bench_spec *sp = h->bc->spec;

	if (sp->action == BA_NONE || sp->side != h->side ||
	    sp->phase != phase || h->fired++)
		return;
	h->t_fault = ig_now_ns();
	switch (sp->action) {
	case BA_KILL:
		half_kill(h);
		break;
	case BA_STALL:
		half_stall(h);
		break;
	case BA_QUIT_ERROR:
		fx_stall_rx(&h->bc->w, h->side);
		ig_ctrl_send_msg(&h->ctrl, IG_MSG_ERROR, "bench: out of disk");
		half_stall(h);
		break;
	case BA_QUIT_CLOSE:
		fx_stall_rx(&h->bc->w, h->side);
		shutdown(h->ctrl.fd, SHUT_RDWR);
		half_stall(h);
		break;
	case BA_INTERRUPT:
		h->interrupt = 1;
		break;
	case BA_PAUSE:
		nanosleep(&(struct timespec){ .tv_nsec = BENCH_PAUSE_MS *
							 1000000L },
			  NULL);
		break;
	case BA_STOP:
	case BA_STOP_LATE:
		half_stop(h, sp->action == BA_STOP_LATE);
		break;
	case BA_NONE:
		break;
	}
}

/* As src/cmd/client.c: HELLO, each test on the one connection, BYE. */
static void *client_main(void *arg)
{
	struct bench_half *h = arg;
	const struct bench_spec *sp = h->bc->spec;
	struct ig_sysinfo self, peer;

	ig_fault_point(&h->hook, false, IG_FAULT_CONNECT);
	h->ret = ig_hello(&h->ctrl, &self, &peer, NULL);
	if (h->ret)
		snprintf(h->err, sizeof(h->err), "%s", h->ctrl.err);
	for (unsigned int i = 0; !h->ret && i < sp->ntests && !h->interrupt;
	     i++) {
		h->ret = ig_engine_client(&h->table, &h->ctrl, &sp->p[i],
					  &h->local, &h->r[i], h->err,
					  sizeof(h->err));
		h->done += !h->ret;
	}
	if (!h->ret)
		ig_ctrl_send(&h->ctrl, IG_MSG_BYE, NULL);
	h->t_end = ig_now_ns();
	shutdown(h->ctrl.fd, SHUT_RDWR); /* the process ends */
	return NULL;
}

/* As src/serve/server.c's handler: the first message is in, HELLO. */
static int server_hello(struct bench_half *h)
{
	struct ig_ctrl *c = &h->ctrl;
	struct ig_sysinfo si;
	enum ig_msg_type type;
	json_object *o;
	int ret = ig_ctrl_poll(c, c->timeout_ms);

	if (ret == 0)
		return ig_ctrl_fail(c, ETIMEDOUT, "no HELLO within %d ms",
				    c->timeout_ms);
	ig_fault_point(&h->hook, true, IG_FAULT_CONNECT);
	ret = ig_ctrl_recv(c, &type, &o);
	if (ret)
		return ret;
	json_object_put(o);
	if (type != IG_MSG_HELLO)
		return ig_ctrl_fail(c, EPROTO, "expected HELLO, got %s",
				    ig_msg_type_name(type));
	ig_sysinfo_get(&si);
	o = json_object_new_object();
	json_object_object_add(o, "sysinfo", ig_sysinfo_to_json(&si));
	ret = ig_ctrl_send(c, IG_MSG_WELCOME, o);
	json_object_put(o);
	return ret;
}

/* As server.c's session(): tests until BYE or an error. */
static int server_session(struct bench_half *h)
{
	enum ig_msg_type type;
	json_object *o;
	int ret = server_hello(h);

	while (!ret) {
		ret = ig_ctrl_recv(&h->ctrl, &type, &o);
		if (ret)
			break;
		if (type == IG_MSG_BYE) {
			json_object_put(o);
			return 0;
		}
		if (type != IG_MSG_SETUP)
			ret = ig_ctrl_fail(&h->ctrl, EPROTO,
					   "expected SETUP or BYE, got %s",
					   ig_msg_type_name(type));
		else
			ret = ig_engine_server(&h->table, &h->ctrl, o, &h->hook,
					       h->err, sizeof(h->err));
		json_object_put(o);
		if (ret && h->err[0])
			return ret;
	}
	snprintf(h->err, sizeof(h->err), "%s", h->ctrl.err);
	return ret;
}

static void *server_main(void *arg)
{
	struct bench_half *h = arg;

	h->ret = server_session(h);
	h->t_end = ig_now_ns();
	shutdown(h->ctrl.fd, SHUT_RDWR);
	return NULL;
}

static void half_init(struct bench_case *bc, int side, int fd)
{
	struct bench_half *h = &bc->h[side];
	const struct bench_spec *sp = bc->spec;

	h->bc = bc;
	h->side = side;
	ig_ctrl_init(&h->ctrl, fd, (int)sp->p[0].timeout_ms);
	snprintf(h->ctrl.peer, sizeof(h->ctrl.peer), "%s",
		 side == FX_CLIENT ? "server" : "client");
	h->hook.point = bench_point;
	ig_local_opts_default(&h->local);
	h->local.fault = &h->hook;
	h->local.interrupt = &h->interrupt; /* as ibgap client's SIGINT */
	for (unsigned int i = 0; i < IG_XPORT_COUNT; i++)
		h->table.ops[i] = sp->absent[side] ? NULL : &bc->w.ops;
	/* the real tests' rows: the fake runs every test's pattern */
	h->table.tests = ig_transports.tests;
}

struct bench_case *bench_start(const struct bench_spec *sp)
{
	struct bench_case *bc = calloc(1, sizeof(*bc));
	int fds[2];

	if (!bc)
		return NULL;
	bc->spec = sp;
	if (fx_init(&bc->w, sp->rx_confirms, sp->lossy, sp->cap ? sp->cap : 16,
		    sp->sc)) {
		free(bc);
		return NULL;
	}
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds)) {
		fx_destroy(&bc->w);
		free(bc);
		return NULL;
	}
	half_init(bc, FX_CLIENT, fds[0]);
	half_init(bc, FX_SERVER, fds[1]);
	bc->t0 = ig_now_ns();
	bc->h[FX_SERVER].started = !pthread_create(
		&bc->h[FX_SERVER].thread, NULL, server_main, &bc->h[FX_SERVER]);
	bc->h[FX_CLIENT].started = !pthread_create(
		&bc->h[FX_CLIENT].thread, NULL, client_main, &bc->h[FX_CLIENT]);
	return bc;
}

static void join(struct bench_half *h)
{
	if (h->started)
		pthread_join(h->thread, NULL);
	h->started = false;
}

void bench_finish(struct bench_case *bc)
{
	const struct bench_spec *sp = bc->spec;
	bool fault = sp->action != BA_NONE && sp->action != BA_INTERRUPT &&
		     sp->action != BA_PAUSE;

	if (!fault) {
		join(&bc->h[FX_CLIENT]);
		join(&bc->h[FX_SERVER]);
		return;
	}
	/* the survivor ends by itself; then the victim is released as a
	 * stopped process is killed (SIGCONT and SIGKILL) */
	join(&bc->h[!sp->side]);
	half_kill(&bc->h[sp->side]);
	fx_thaw(&bc->w, sp->side);
	join(&bc->h[sp->side]);
}

void bench_free(struct bench_case *bc)
{
	if (!bc)
		return;
	bench_finish(bc);
	ig_ctrl_close(&bc->h[FX_CLIENT].ctrl);
	ig_ctrl_close(&bc->h[FX_SERVER].ctrl);
	fx_destroy(&bc->w);
	free(bc);
}

double bench_ms(const struct bench_case *bc, int side)
{
	return (double)(bc->h[side].t_end - bc->t0) / 1e6;
}
