// SPDX-License-Identifier: MIT
/*
 * The doctor over the control channel.  Client: HELLO/WELCOME (client.c,
 * with the --auth-file handshake when the server asks), DOCTOR {window},
 * FINDINGS {host, paths, findings, read_errors}, BYE. Server: the checks for
 * the address the client connected to (the control socket's local address),
 * answered as FINDINGS.
 */
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "wire/ctrl.h"
#include "doctor_int.h"
#include "wire/net.h"
#include "remote.h"
#include "wire/codec.h"
#include "wire/hello.h"
#include "host/sysinfo.h"

/* TCP_INFO's smoothed round trip of fd in us, 0 unknown */
static double tcp_rtt_us(int fd)
{
	struct tcp_info ti;
	socklen_t len = sizeof(ti);

	if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len) || !ti.tcpi_rtt)
		return 0;
	return ti.tcpi_rtt;
}

static int end_addr(int fd, bool local, char *buf, size_t len)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	int ret = local ? getsockname(fd, (struct sockaddr *)&ss, &sl)
			: getpeername(fd, (struct sockaddr *)&ss, &sl);

	if (ret)
		return -errno;
	return ig_sockaddr_host((struct sockaddr *)&ss, buf, len);
}

/* FINDINGS body within the message cap: the least severe findings go
 * first (the list is sorted), then the failed reads. */
static json_object *findings_body(struct ig_dr_report *r)
{
	struct ig_sysinfo si;
	json_object *o;

	ig_sysinfo_get(&si);
	for (;;) {
		o = ig_dr_report_to_json(r);
		if (!o)
			return NULL;
		json_object_object_add(o, "host", ig_sysinfo_to_json(&si));
		if (strlen(json_object_to_json_string_ext(
			    o, JSON_C_TO_STRING_PLAIN)) < IG_MSG_MAX_BODY ||
		    (!r->n && !r->nerr))
			return o;
		json_object_put(o);
		if (r->n) {
			r->n--;
			r->dropped++;
		} else {
			r->nerr--;
		}
	}
}

/* The address examined: DOCTOR's "addr" (the server's data address of a
 * client with --ctrl), else this end of the control connection. */
static int doctor_addr(struct ig_ctrl *c, json_object *body, char *host,
		       size_t len)
{
	struct sockaddr_storage ss;
	socklen_t sl;
	const char *a = NULL;
	char err[160];
	int ret;

	if (json_object_object_get_ex(body, "addr", NULL) &&
	    (ig_json_get_str(body, "addr", &a) ||
	     ig_ctrl_data_addr(c, a, true, &ss, &sl, err, sizeof(err)))) {
		ig_ctrl_fail(c, EINVAL,
			     "DOCTOR from %s: 'addr' is not a numeric IPv4 "
			     "or IPv6 address",
			     c->peer);
		ig_ctrl_send_msg(c, IG_MSG_ERROR, c->err);
		return -EINVAL;
	}
	if (a) {
		snprintf(host, len, "%s", a);
		return 0;
	}
	ret = end_addr(c->fd, true, host, len);
	if (ret)
		return ig_ctrl_fail(c, -ret,
				    "DOCTOR: no local address of the "
				    "control connection: %s",
				    strerror(-ret));
	return 0;
}

int ig_dr_serve(struct ig_ctrl *c, json_object *body)
{
	struct ig_dr_opts o = { .addr_is_local = true };
	struct ig_dr_report r;
	uint64_t window = 0;
	char host[64];
	json_object *reply;
	int ret;

	if (json_object_object_get_ex(body, "window", NULL) &&
	    (ig_json_get_u64(body, "window", &window) ||
	     window > (1ull << 30))) {
		ig_ctrl_fail(c, EINVAL,
			     "DOCTOR from %s: 'window' is not a byte count "
			     "from 0 to 1G",
			     c->peer);
		ig_ctrl_send_msg(c, IG_MSG_ERROR, c->err);
		return -EINVAL;
	}
	ret = doctor_addr(c, body, host, sizeof(host));
	if (ret)
		return ret;
	o.addr = host;
	o.window = window;
	o.rtt_us = tcp_rtt_us(c->fd);
	ret = ig_dr_run(&o, &r);
	if (ret) {
		ig_ctrl_fail(c, -ret, "doctor: %s", strerror(-ret));
		ig_ctrl_send_msg(c, IG_MSG_ERROR, c->err);
		return ret;
	}
	reply = findings_body(&r);
	ret = reply ? ig_ctrl_send(c, IG_MSG_FINDINGS, reply)
		    : ig_ctrl_fail(c, ENOMEM, "out of memory for FINDINGS");
	json_object_put(reply);
	ig_dr_report_free(&r);
	return ret;
}

static int exchange(struct ig_ctrl *c, uint64_t window,
		    const struct ig_auth_key *key, struct ig_dr_remote *rm)
{
	struct ig_sysinfo self;
	json_object *o = json_object_new_object(), *fb, *si;
	int ret;

	json_object_object_add(o, "window", json_object_new_uint64(window));
	ret = ig_hello(c, &self, &rm->host, key);
	if (!ret)
		ret = ig_ctrl_send(c, IG_MSG_DOCTOR, o);
	json_object_put(o);
	if (!ret)
		ret = ig_ctrl_expect(c, IG_MSG_FINDINGS, &fb);
	if (ret)
		return ret;
	if (json_object_object_get_ex(fb, "host", &si))
		ig_sysinfo_from_json(si, &rm->host);
	ret = ig_dr_report_from_json(fb, &rm->r);
	if (!ret && json_object_object_get_ex(fb, "dropped", &si))
		rm->r.dropped = (size_t)json_object_get_int64(si);
	json_object_put(fb);
	if (ret)
		return ig_ctrl_fail(c, -ret,
				    "FINDINGS from %s is not a doctor "
				    "report",
				    c->peer);
	ig_ctrl_send(c, IG_MSG_BYE, NULL);
	return 0;
}

int ig_dr_remote_fetch(const char *host, const char *port, int timeout_ms,
		       uint64_t window, const struct ig_auth_key *key,
		       struct ig_dr_remote *rm)
{
	struct ig_ctrl c;
	int fd, ret;

	memset(rm, 0, sizeof(*rm));
	fd = ig_net_connect(host, port, timeout_ms, rm->err, sizeof(rm->err));
	if (fd < 0)
		return fd;
	ig_ctrl_init(&c, fd, timeout_ms);
	end_addr(fd, false, rm->peer_addr, sizeof(rm->peer_addr));
	ret = exchange(&c, window, key, rm);
	/* after the exchange the kernel has a few round trips measured */
	rm->rtt_us = tcp_rtt_us(fd);
	if (ret) {
		snprintf(rm->err, sizeof(rm->err), "%s", c.err);
		ig_dr_report_free(&rm->r);
	}
	ig_ctrl_close(&c);
	rm->ok = !ret;
	return ret;
}
