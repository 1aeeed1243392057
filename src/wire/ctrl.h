/* SPDX-License-Identifier: MIT */
#ifndef IG_CTRL_H
#define IG_CTRL_H

#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include <json-c/json.h>

#include "proto.h"

/*
 * One control connection.  Every read has a deadline of timeout_ms; on any
 * failure the functions return a negative errno and leave one line in err
 * saying what failed (the first error wins; callers print it once).
 */
struct ig_ctrl {
	int fd;
	int timeout_ms;
	char peer[64]; /* "host:port" for messages */
	char err[256];
	/* set by the one failure that writes err: the session's threads
	 * (its workers, its control) may fail at once */
	atomic_int err_claimed;
	/* the peer's message when it sent ERROR or BUSY */
	char remote_msg[256];
	/* what stopped the server, when an ERROR that ig_ctrl_recv read
	 * says so ("stopped": "SIGTERM"; docs/design.md, "Signals"), else
	 * "" */
	char stopped[16];
};

void ig_ctrl_init(struct ig_ctrl *c, int fd, int timeout_ms);
void ig_ctrl_close(struct ig_ctrl *c);
/* Records the first error of the connection; returns -err (err > 0)
 * passed through, so callers can write: return ig_ctrl_fail(c, e, ...). */
int ig_ctrl_fail(struct ig_ctrl *c, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The same with a va_list (ig_session_fail).  Safe from several threads:
 * the first to claim err writes it, whole. */
int ig_ctrl_vfail(struct ig_ctrl *c, int err, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

/* Sends one message; body may be NULL (sent as {}).  Does not consume the
 * caller's reference. */
int ig_ctrl_send(struct ig_ctrl *c, enum ig_msg_type type, json_object *body);
/* Sends {"message": msg}: ERROR or BUSY. */
int ig_ctrl_send_msg(struct ig_ctrl *c, enum ig_msg_type type, const char *msg);
/* What a server that was stopped mid-session (by why: "SIGTERM") tells
 * its client: ERROR {message, stopped: why} (docs/design.md, "Signals"). */
int ig_ctrl_send_stopped(struct ig_ctrl *c, const char *why);
/*
 * Receives one message within timeout_ms.  On success *type and *body (a
 * new reference the caller puts) are set; an ERROR's "stopped" is noted
 * in c->stopped.  -ETIMEDOUT, -ECONNRESET (peer closed), -EPROTO/
 * -EPROTONOSUPPORT/-EMSGSIZE/-EBADMSG (bad message).
 */
int ig_ctrl_recv(struct ig_ctrl *c, enum ig_msg_type *type, json_object **body);
/*
 * Receives and requires type want.  ERROR or BUSY from the peer gives
 * -EREMOTEIO (the peer's text in remote_msg and err); another type gives
 * -EPROTO.  body may be NULL when the caller needs none.
 */
int ig_ctrl_expect(struct ig_ctrl *c, enum ig_msg_type want,
		   json_object **body);
/* The same, accepting want or alt; *got (may be NULL) says which. */
int ig_ctrl_expect2(struct ig_ctrl *c, enum ig_msg_type want,
		    enum ig_msg_type alt, enum ig_msg_type *got,
		    json_object **body);
/* Waits up to ms for the control socket to become readable: 1 readable,
 * 0 not yet, negative errno. */
int ig_ctrl_poll(struct ig_ctrl *c, int ms);

/* Socket address of fd's peer or local end as "host:port" / "[v6]:port". */
void ig_sockaddr_str(const struct sockaddr_storage *ss, char *buf, size_t len);
/* The numeric host of sa alone (an IPv4-mapped IPv6 address as IPv4), for
 * a route lookup; 0 or -EINVAL. */
int ig_sockaddr_host(const struct sockaddr *sa, char *buf, size_t len);

/* Turns an IPv4-mapped IPv6 address (::ffff:a.b.c.d, what a dual-stack
 * listener sees) into plain AF_INET, port kept; *len updated. */
void ig_sockaddr_unmap(struct sockaddr_storage *ss, socklen_t *len);

/* The netdev holding the control connection's local address into dev
 * (getifaddrs), or "" when not found. */
void ig_ctrl_netdev(const struct ig_ctrl *c, char *dev, size_t len);

/* The address a transport's data path uses (port 0), unmapped: data_addr
 * (a numeric address, the parameter of `--ctrl`: the server's address for
 * data when the control connection runs over another) when not "", else
 * the control connection's own end (local: this end, for a listener; else
 * the peer's, to connect to).  0, or -errno with one line in err. */
int ig_ctrl_data_addr(const struct ig_ctrl *c, const char *data_addr,
		      bool local, struct sockaddr_storage *ss, socklen_t *sl,
		      char *err, size_t len);

#endif
