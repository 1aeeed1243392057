/* SPDX-License-Identifier: MIT */
#ifndef IG_HOSTPORT_H
#define IG_HOSTPORT_H

/* a DNS name (253 characters), or an IPv6 address with a zone (%eth0) */
#define IG_HOST_MAX 256
/* "65535" */
#define IG_PORT_MAX 6

/* The forms ig_hostport_split() takes, as errors name them. */
#define IG_HOSTPORT_FORMS \
	"HOST, HOST:PORT, IPV6, [IPV6] or [IPV6]:PORT (PORT 1 to 65535)"

struct ig_hostport {
	char host[IG_HOST_MAX]; /* without the brackets */
	char port[IG_PORT_MAX]; /* "" when none was given */
};

/* A decimal port, 1 to 65535: the port, or -EINVAL. */
int ig_port_parse(const char *s);

/*
 * Splits a server address as a command line gives it: HOST, HOST:PORT,
 * [IPV6] or [IPV6]:PORT; an address with two colons or more and no
 * brackets ("::1", "fe80::1%eth0") is an IPv6 host without a port.
 * Pure.  0, or -EINVAL (hp undefined) for anything else: an empty host,
 * "[::1" (no closing bracket), "[::1]x", "[name]" (no IPv6 inside),
 * "host:" (no port), "host:99999", a bracket elsewhere, a host longer
 * than IG_HOST_MAX - 1.
 */
int ig_hostport_split(const char *s, struct ig_hostport *hp);

#endif
