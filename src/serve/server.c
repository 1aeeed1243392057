// SPDX-License-Identifier: MIT
/*
 * The persistent server: accepts control connections into the lobby
 * (lobby.h), where they wait without a thread until their HELLO is in;
 * then one handler thread each (at most MAX_HANDLERS, or max_sessions + 4)
 * and one session at a
 * time (or max_sessions).  A client that arrives while a session runs (or
 * max_sessions) is told BUSY; a
 * connection that says nothing is dropped after the timeout, or sooner
 * when newer ones need its place, without ever holding a thread.  With
 * --auth-file a client must prove it holds the shared secret before the
 * busy check: a stranger learns nothing of a running session and makes the
 * server allocate nothing.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "wire/auth.h"
#include "common/clock.h"
#include "common/json.h"
#include "wire/ctrl.h"
#include "doctor/doctor.h"
#include "engine/engine.h"
#include "transports/transports.h"
#include "engine/fault.h"
#include "lobby.h"
#include "wire/net.h"
#include "wire/railmsg.h"
#include "report/report.h"
#include "server.h"
#include "slog.h"
#include "trial.h"
#include "host/sysinfo.h"

#define MAX_HANDLERS 16

/* a HELLO group: up to 64 characters; sessions of one group */
#define GROUP_LEN 65
#define GROUP_MAX 16

struct ig_server {
	struct ig_server_opts o;
	bool quiet;
	int max_handlers;
	int lfd;
	int port;
	atomic_int handlers;
	atomic_uint busy;    /* sessions running */
	atomic_int sessions; /* completed sessions, for --once */
	/* control fd of the running session, -1 (max_sessions > 1: of the
	 * latest; ibgap-fabric stops its server when none runs) */
	atomic_int session_fd;
	/* what stopped the server (*quit: a signal's number), 0 while it
	 * serves; set before the running session is cut */
	atomic_int stop_sig;
	char busy_peer[64];
	/* HELLO's group (--rails-mode together): its sessions run beside
	 * the first, at most GROUP_MAX; group_lock guards both and the
	 * taking of a slot */
	pthread_mutex_t group_lock;
	char group[GROUP_LEN];
	unsigned int group_n;
	bool auth;	    /* --auth-file given: key holds its secret */
	char journal[4096]; /* --allow-try: the sessions' journal */
	struct ig_auth_key key;
	/* test builds: IBGAP_FAULT's hook (engine/fault.h), else NULL */
	struct ig_fault_env fault_env;
	const struct ig_fault *fault;
};

struct handler {
	struct ig_server *srv;
	int fd;
};

static void slog(struct ig_server *srv, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void slog(struct ig_server *srv, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ig_vslog(srv->quiet, fmt, ap);
	va_end(ap);
}

/* proof: the server's MAC for an authenticated client, else "". */
static int welcome(struct ig_ctrl *c, const char *proof)
{
	struct ig_sysinfo si;
	json_object *o = json_object_new_object();
	int ret;

	ig_sysinfo_get(&si);
	json_object_object_add(o, "sysinfo", ig_sysinfo_to_json(&si));
	if (proof[0])
		json_object_object_add(o, "auth",
				       json_object_new_string(proof));
	ret = ig_ctrl_send(c, IG_MSG_WELCOME, o);
	json_object_put(o);
	return ret;
}

/* What stopped the server, as ERROR's "stopped" and the log name it. */
static const char *stop_name(int sig)
{
	if (sig == SIGTERM)
		return "SIGTERM";
	return sig == SIGINT ? "SIGINT" : "quit";
}

/* A session's last line: the server's stop when that cut it, not what
 * the cut looked like from here (the client closing the connection). */
static void log_end(struct ig_server *srv, struct ig_ctrl *c, const char *what)
{
	int sig = atomic_load(&srv->stop_sig);

	if (sig)
		slog(srv,
		     "%s: the server was stopped (%s) and ended this session",
		     c->peer, stop_name(sig));
	else
		slog(srv, "%s: %s", c->peer, what);
}

/* Runs tests until BYE, an error, or the client goes away. */
static void session(struct ig_server *srv, struct ig_ctrl *c, const char *proof,
		    struct ig_trial *t)
{
	char err[512];
	enum ig_msg_type type;
	json_object *o;

	if (welcome(c, proof))
		goto out;
	for (;;) {
		if (ig_ctrl_recv(c, &type, &o))
			goto out;
		if (type == IG_MSG_BYE) {
			json_object_put(o);
			slog(srv, "%s: session ended", c->peer);
			return;
		}
		if (type == IG_MSG_DOCTOR) {
			int ret = ig_dr_serve(c, o);

			json_object_put(o);
			if (ret)
				goto out;
			slog(srv, "%s: doctor findings sent", c->peer);
			continue;
		}
		if (type == IG_MSG_RAILS) {
			json_object_put(o);
			if (ig_rails_serve(c))
				goto out;
			slog(srv, "%s: rails sent", c->peer);
			continue;
		}
		if (type == IG_MSG_TRY || type == IG_MSG_UNTRY) {
			int ret = ig_trial_serve(t, c, type, o);

			json_object_put(o);
			if (ret)
				goto out;
			continue;
		}
		if (type != IG_MSG_SETUP) {
			ig_ctrl_fail(
				c, EPROTO,
				"expected SETUP, DOCTOR, TRY, UNTRY, RAILS or "
				"BYE, "
				"got %s",
				ig_msg_type_name(type));
			ig_ctrl_send_msg(c, IG_MSG_ERROR, c->err);
			json_object_put(o);
			goto out;
		}
		err[0] = 0;
		if (ig_engine_server(&ig_transports, c, o, srv->fault, err,
				     sizeof(err))) {
			json_object_put(o);
			log_end(srv, c, err);
			return;
		}
		json_object_put(o);
	}
out:
	snprintf(err, sizeof(err), "session failed: %s",
		 c->err[0] ? c->err : "unknown error");
	log_end(srv, c, err);
}

/* An AUTH_REPLY with a well-formed nonce and a mac string: 0, or -EACCES
 * after telling the client what it sent instead. */
static int reply_shape(struct ig_ctrl *c, enum ig_msg_type type, json_object *o,
		       const char **cn, const char **mac)
{
	if (type != IG_MSG_AUTH_REPLY)
		ig_ctrl_fail(c, EACCES, "expected AUTH_REPLY, got %s",
			     ig_msg_type_name(type));
	else if (ig_json_get_str(o, "nonce", cn) || !ig_auth_hex_ok(*cn) ||
		 ig_json_get_str(o, "mac", mac))
		ig_ctrl_fail(c, EACCES,
			     "AUTH_REPLY lacks 'nonce' or 'mac' (%d lowercase "
			     "hex digits each)",
			     IG_AUTH_HEX_LEN);
	else
		return 0;
	ig_ctrl_send_msg(c, IG_MSG_ERROR, c->err);
	return -EACCES;
}

/* The client's answer to our nonce sn: proof = our own MAC for WELCOME.
 * -EACCES when refused (c->err says why, for the log). */
static int check_reply(struct ig_server *srv, struct ig_ctrl *c,
		       enum ig_msg_type type, json_object *o, const char *sn,
		       char *proof)
{
	const char *cn = NULL, *mac = NULL;
	int ret;

	if (type == IG_MSG_ERROR)
		return ig_ctrl_fail(c, EACCES, "client has no key");
	ret = reply_shape(c, type, o, &cn, &mac);
	if (ret)
		return ret;
	ret = ig_auth_verify(&srv->key, IG_AUTH_CLIENT, sn, cn, mac);
	if (!ret)
		ret = ig_auth_mac(&srv->key, IG_AUTH_SERVER, sn, cn, proof);
	if (ret == -EACCES || ret == -EBADMSG) {
		ig_ctrl_send_msg(c, IG_MSG_ERROR,
				 "authentication failed: the client's key does "
				 "not match this server's --auth-file");
		return ig_ctrl_fail(c, EACCES, "authentication failed (%s)",
				    ret == -EACCES ? "wrong key"
						   : "malformed mac");
	}
	if (ret)
		return ig_ctrl_fail(c, -ret, "computing the proof: %s",
				    strerror(-ret));
	return 0;
}

/* --auth-file: AUTH {nonce}, then the client's AUTH_REPLY checked. */
static int authenticate(struct ig_server *srv, struct ig_ctrl *c, char *proof)
{
	char sn[IG_AUTH_HEX_LEN + 1];
	enum ig_msg_type type;
	json_object *o;
	int ret = ig_auth_nonce(sn);

	if (ret)
		return ig_ctrl_fail(c, -ret, "no random bytes for a nonce");
	o = json_object_new_object();
	json_object_object_add(o, "nonce", json_object_new_string(sn));
	ret = ig_ctrl_send(c, IG_MSG_AUTH, o);
	json_object_put(o);
	if (!ret)
		ret = ig_ctrl_recv(c, &type, &o);
	if (ret)
		return ret;
	ret = check_reply(srv, c, type, o, sn, proof);
	json_object_put(o);
	return ret;
}

/* HELLO and, with --auth-file, the handshake that fills proof.  -EACCES
 * when the client is refused, another negative errno when it is dropped;
 * c->err says why. */
static int hello(struct ig_server *srv, struct ig_ctrl *c, char *proof,
		 char *group)
{
	enum ig_msg_type type;
	json_object *o;
	int ret = ig_ctrl_recv(c, &type, &o);

	proof[0] = 0;
	group[0] = 0;
	if (ret == -EPROTONOSUPPORT)
		ig_ctrl_send_msg(c, IG_MSG_ERROR, c->err);
	if (ret)
		return ret;
	if (type == IG_MSG_HELLO)
		ig_json_copy_str_opt(o, "group", group, GROUP_LEN);
	json_object_put(o);
	if (type != IG_MSG_HELLO) {
		ret = ig_ctrl_fail(c, EPROTO, "expected HELLO, got %s",
				   ig_msg_type_name(type));
		ig_ctrl_send_msg(c, IG_MSG_ERROR, c->err);
		return ret;
	}
	return srv->auth ? authenticate(srv, c, proof) : 0;
}

/* A session slot: max_sessions at once (0 counts as 1), and beside
 * them the sessions of the running group (group "" none). */
static bool take_slot(struct ig_server *srv, const char *group)
{
	unsigned int max = srv->o.max_sessions ? srv->o.max_sessions : 1;
	bool mine, ok;

	pthread_mutex_lock(&srv->group_lock);
	mine = group[0] && srv->group_n && !strcmp(group, srv->group);
	ok = atomic_load(&srv->busy) < max ||
	     (mine && srv->group_n < GROUP_MAX);
	if (ok) {
		atomic_fetch_add(&srv->busy, 1);
		if (group[0] && !srv->group_n)
			snprintf(srv->group, sizeof(srv->group), "%s", group);
		if (group[0] && !strcmp(group, srv->group))
			srv->group_n++;
	}
	pthread_mutex_unlock(&srv->group_lock);
	return ok;
}

static void put_slot(struct ig_server *srv, const char *group)
{
	pthread_mutex_lock(&srv->group_lock);
	if (group[0] && srv->group_n && !strcmp(group, srv->group) &&
	    !--srv->group_n)
		srv->group[0] = 0;
	atomic_fetch_sub(&srv->busy, 1);
	pthread_mutex_unlock(&srv->group_lock);
}

/* Why this session may not TRY (NULL: it may): --allow-try, and the
 * client proved it holds the secret. */
static const char *trial_refusal(const struct ig_server *srv, const char *proof)
{
	if (!srv->o.allow_try)
		return "the server was started without --allow-try";
	if (!proof[0])
		return "the client did not authenticate (the server's "
		       "--auth-file)";
	return NULL;
}

static void *handle(void *arg)
{
	struct handler *h = arg;
	struct ig_server *srv = h->srv;
	char proof[IG_AUTH_HEX_LEN + 1], group[GROUP_LEN];
	struct ig_trial t;
	struct ig_ctrl c;
	int ret;

	ig_ctrl_init(&c, h->fd, srv->o.timeout_ms);
	free(h);
	ig_fault_point(srv->fault, true, IG_FAULT_CONNECT);
	ret = hello(srv, &c, proof, group);
	if (ret) {
		slog(srv, "%s: %s: %s", c.peer,
		     ret == -EACCES ? "refused" : "dropped", c.err);
		goto out;
	}
	if (!take_slot(srv, group)) {
		char msg[160];

		snprintf(msg, sizeof(msg),
			 "another session (from %s) is "
			 "running; try again when it ends",
			 srv->busy_peer);
		ig_ctrl_send_msg(&c, IG_MSG_BUSY, msg);
		slog(srv, "%s: told busy", c.peer);
		goto out;
	}
	snprintf(srv->busy_peer, sizeof(srv->busy_peer), "%s", c.peer);
	slog(srv, "%s: session started%s", c.peer,
	     srv->auth ? " (authenticated)" : "");
	atomic_store(&srv->session_fd, c.fd);
	ig_trial_init(&t, trial_refusal(srv, proof), srv->journal, srv->quiet);
	session(srv, &c, proof, &t);
	ig_trial_end(&t, c.peer);
	atomic_store(&srv->session_fd, -1);
	atomic_fetch_add(&srv->sessions, 1);
	put_slot(srv, group);
out:
	ig_ctrl_close(&c);
	atomic_fetch_sub(&srv->handlers, 1);
	return NULL;
}

static void spawn(struct ig_server *srv, int fd)
{
	struct handler *h;
	pthread_attr_t a;
	pthread_t t;

	if (atomic_fetch_add(&srv->handlers, 1) >= srv->max_handlers)
		goto drop;
	h = malloc(sizeof(*h));
	if (!h)
		goto drop;
	h->srv = srv;
	h->fd = fd;
	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	if (pthread_create(&t, &a, handle, h)) {
		free(h);
		pthread_attr_destroy(&a);
		goto drop;
	}
	pthread_attr_destroy(&a);
	return;
drop:
	atomic_fetch_sub(&srv->handlers, 1);
	close(fd);
}

struct ig_server *ig_server_new(const struct ig_server_opts *o, bool quiet,
				char *err, size_t errlen)
{
	struct ig_server *srv = calloc(1, sizeof(*srv));
	char port[16];
	int ret;

	if (!srv) {
		snprintf(err, errlen, "out of memory for the server");
		return NULL;
	}
	srv->o = *o;
	srv->quiet = quiet;
	srv->fault = ig_fault_env(&srv->fault_env);
	srv->max_handlers = MAX_HANDLERS;
	if (o->max_sessions + 4 > MAX_HANDLERS)
		srv->max_handlers = (int)o->max_sessions + 4;
	atomic_init(&srv->session_fd, -1);
	pthread_mutex_init(&srv->group_lock, NULL);
	/* the secret first: a bad file must not open the port */
	if (o->auth_file &&
	    ig_auth_load(o->auth_file, &srv->key, err, errlen)) {
		free(srv);
		errno = EKEYREJECTED;
		return NULL;
	}
	srv->auth = o->auth_file != NULL;
	if (o->port)
		snprintf(port, sizeof(port), "%s", o->port);
	else
		snprintf(port, sizeof(port), "%d", IG_DEFAULT_PORT);
	srv->lfd = ig_net_listen(o->bind, port, &srv->port, err, errlen);
	if (srv->lfd < 0) {
		errno = -srv->lfd;
		goto err_key;
	}
	/* before any client: an earlier server's changes put back */
	ret = o->allow_try ? ig_trial_setup(o->journal, srv->port, quiet,
					    srv->journal, sizeof(srv->journal),
					    err, errlen)
			   : 0;
	if (ret) {
		errno = -ret;
		close(srv->lfd);
		goto err_key;
	}
	return srv;
err_key:
	ig_auth_wipe(&srv->key);
	free(srv);
	return NULL;
}

int ig_server_port(const struct ig_server *srv)
{
	return srv->port;
}

static bool done(struct ig_server *srv, volatile sig_atomic_t *quit)
{
	return *quit || (srv->o.once && atomic_load(&srv->sessions) > 0);
}

/* Closes a lobby member with one log line saying why. */
static void turn_away(struct ig_server *srv, int fd, const char *why)
{
	struct ig_ctrl c;

	ig_ctrl_init(&c, fd, 0);
	slog(srv, "%s: dropped: %s", c.peer, why);
	ig_ctrl_close(&c);
}

/* Lobby members whose first message is in: a handler each, while there
 * are free slots; the silent ones past their deadline: closed. */
static void hand_over(struct ig_server *srv, struct ig_lobby *l,
		      const struct pollfd *p)
{
	int ready[IG_LOBBY_MAX], expired[IG_LOBBY_MAX];
	unsigned int nr, ne, slots;
	char why[96];

	slots = (unsigned int)(srv->max_handlers - atomic_load(&srv->handlers));
	ig_lobby_sweep(l, p, ig_now_ns(), slots, ready, &nr, expired, &ne);
	for (unsigned int i = 0; i < nr; i++)
		spawn(srv, ready[i]);
	snprintf(why, sizeof(why), "no HELLO within %d ms", srv->o.timeout_ms);
	for (unsigned int i = 0; i < ne; i++)
		turn_away(srv, expired[i], why);
}

static void admit(struct ig_server *srv, struct ig_lobby *l)
{
	int fd = accept4(srv->lfd, NULL, NULL, SOCK_CLOEXEC);
	char why[96];

	if (fd < 0)
		return;
	fd = ig_lobby_add(l, fd, ig_now_ns());
	if (fd < 0)
		return;
	snprintf(why, sizeof(why),
		 "the oldest of %d connections without a HELLO, to make room "
		 "for a new one",
		 IG_LOBBY_MAX);
	turn_away(srv, fd, why);
}

/* The running session's client is told why it ends: ERROR {message,
 * stopped}, written here (its handler may be waiting anywhere) before the
 * connection is shut down, so that it comes before every reset. */
static void tell_stopped(int fd, int sig)
{
	struct ig_ctrl c;

	ig_ctrl_init(&c, fd, 100); /* a full send buffer: give up */
	ig_ctrl_send_stopped(&c, stop_name(sig));
}

/* SIGTERM/SIGINT: end the running session now (its client told why, its
 * reads fail, the engine aborts and frees everything); idle handlers end
 * within the timeout. */
static void stop(struct ig_server *srv, struct ig_lobby *l,
		 volatile sig_atomic_t *quit)
{
	int fds[IG_LOBBY_MAX];
	unsigned int n = ig_lobby_drain(l, fds);

	for (unsigned int i = 0; i < n; i++)
		close(fds[i]);
	if (*quit) {
		int fd = atomic_load(&srv->session_fd);

		/* first: the session's last line comes after it */
		slog(srv, "signal: stopping");
		atomic_store(&srv->stop_sig, *quit);
		if (fd >= 0) {
			tell_stopped(fd, *quit);
			shutdown(fd, SHUT_RDWR);
		}
	}
	for (int i = 0; atomic_load(&srv->handlers) > 0 &&
			i < srv->o.timeout_ms / 10 + 100;
	     i++)
		usleep(10000);
}

int ig_server_run(struct ig_server *srv, volatile sig_atomic_t *quit)
{
	struct pollfd p[1 + IG_LOBBY_MAX];
	struct ig_lobby lobby;

	ig_lobby_init(&lobby, (unsigned int)srv->o.timeout_ms);
	slog(srv, "listening on port %d", srv->port);
	while (!done(srv, quit)) {
		/* no free handler: leave the lobby be (its ready members
		 * would wake us at once) and look again soon */
		bool full = atomic_load(&srv->handlers) >= srv->max_handlers;
		unsigned int n = full ? 0 : ig_lobby_pollfds(&lobby, p + 1);

		p[0] = (struct pollfd){ .fd = srv->lfd, .events = POLLIN };
		if (poll(p, 1 + n, full ? 10 : 100) < 0)
			continue;
		if (!full)
			hand_over(srv, &lobby, p + 1);
		if (p[0].revents & POLLIN)
			admit(srv, &lobby);
	}
	stop(srv, &lobby, quit);
	return 0;
}

void ig_server_free(struct ig_server *srv)
{
	if (!srv)
		return;
	close(srv->lfd);
	ig_auth_wipe(&srv->key);
	pthread_mutex_destroy(&srv->group_lock);
	free(srv);
}
