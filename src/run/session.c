// SPDX-License-Identifier: MIT
/* A plan's session: connect, HELLO, the plan, BYE; and the in-process
 * server that "ibgap" alone and ibgap-fabric run a plan against. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "engine/fault.h"
#include "run.h"
#include "wire/hello.h"
#include "wire/net.h"

int ig_run_connect(const struct ig_run_peer *peer, struct ig_ctrl *c,
		   struct ig_sysinfo *self, struct ig_sysinfo *srv, char *err,
		   size_t errlen)
{
	char port[16];
	int fd, ret;

	if (peer->port)
		snprintf(port, sizeof(port), "%s", peer->port);
	else
		snprintf(port, sizeof(port), "%d", IG_DEFAULT_PORT);
	fd = ig_net_connect_from(peer->host, port, peer->src, peer->timeout_ms,
				 err, errlen);
	if (fd < 0)
		return fd;
	ig_ctrl_init(c, fd, peer->timeout_ms);
	ig_fault_point(peer->fault, false, IG_FAULT_CONNECT);
	ret = ig_hello_group(c, self, srv, peer->key, peer->group);
	if (ret) {
		snprintf(err, errlen, "%s", c->err);
		ig_ctrl_close(c);
	}
	return ret;
}

void ig_run_bye(struct ig_ctrl *c, bool ok, bool wait)
{
	struct pollfd pfd = { .fd = c->fd, .events = POLLIN };
	char buf[256];

	if (ok)
		ig_ctrl_send(c, IG_MSG_BYE, NULL);
	/* until the server closes (within the timeout), so that its session
	 * has ended before the next one opens (else BUSY) */
	while (ok && wait && poll(&pfd, 1, c->timeout_ms) > 0 &&
	       recv(c->fd, buf, sizeof(buf), 0) > 0)
		;
	ig_ctrl_close(c);
}

int ig_run_at(const struct ig_run_opts *o, const struct ig_run_peer *peer,
	      struct ig_sysinfo *self, struct ig_sysinfo *srv,
	      struct ig_result *res, size_t *done)
{
	struct ig_sysinfo me, them;
	struct ig_ctrl c;
	char err[512];
	int ret = ig_run_connect(peer, &c, self ? self : &me, srv ? srv : &them,
				 err, sizeof(err));

	if (ret) {
		if (!o->quiet)
			fprintf(stderr, "ibgap: %s%s%s\n",
				o->column ? o->column : "",
				o->column ? ": " : "", err);
		ig_run_fail(o, res, 0, err);
		*done = ig_run_count(o);
		return ret;
	}
	ret = ig_run_plan(o, &c, res, done);
	ig_run_bye(&c, !ret, false);
	return ret;
}

static void *serve(void *arg)
{
	struct ig_run_server *s = arg;

	ig_server_run(s->srv, &s->quit);
	return NULL;
}

int ig_run_server_start(struct ig_run_server *s, const struct ig_server_opts *o,
			char *err, size_t errlen)
{
	int ret;

	s->quit = 0;
	s->srv = ig_server_new(o, true, err, errlen);
	if (!s->srv)
		return errno ? -errno : -EINVAL;
	ret = pthread_create(&s->thread, NULL, serve, s);
	if (ret) {
		ig_server_free(s->srv);
		s->srv = NULL;
		snprintf(err, errlen, "cannot start the server thread: %s",
			 strerror(ret));
		return -ret;
	}
	return 0;
}

int ig_run_server_port(const struct ig_run_server *s)
{
	return ig_server_port(s->srv);
}

void ig_run_server_stop(struct ig_run_server *s)
{
	s->quit = 1;
	pthread_join(s->thread, NULL);
	ig_server_free(s->srv);
	s->srv = NULL;
}
