// SPDX-License-Identifier: MIT
/* HOST:PORT and [IPV6]:PORT on a command line (hostport.h). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "hostport.h"
#include "params.h"

int ig_port_parse(const char *s)
{
	uint64_t v;

	if (ig_parse_u64(s, &v) || v < 1 || v > 65535)
		return -EINVAL;
	return (int)v;
}

/* host[0..n) into hp->host, and the port after it (NULL: none). */
static int fill(const char *host, size_t n, const char *port,
		struct ig_hostport *hp)
{
	int p = 0;

	if (!n || n >= sizeof(hp->host) || memchr(host, '[', n) ||
	    memchr(host, ']', n))
		return -EINVAL;
	if (port) {
		p = ig_port_parse(port);
		if (p < 0)
			return p;
	}
	memcpy(hp->host, host, n);
	hp->host[n] = '\0';
	hp->port[0] = '\0';
	if (port)
		snprintf(hp->port, sizeof(hp->port), "%hu", (unsigned short)p);
	return 0;
}

/* "[IPV6]" or "[IPV6]:PORT" */
static int bracketed(const char *s, struct ig_hostport *hp)
{
	const char *end = strchr(s, ']');

	if (!end || !memchr(s + 1, ':', (size_t)(end - s - 1)))
		return -EINVAL;
	if (end[1] && end[1] != ':')
		return -EINVAL;
	return fill(s + 1, (size_t)(end - s - 1), end[1] ? end + 2 : NULL, hp);
}

int ig_hostport_split(const char *s, struct ig_hostport *hp)
{
	const char *colon;

	if (!s)
		return -EINVAL;
	if (s[0] == '[')
		return bracketed(s, hp);
	colon = strchr(s, ':');
	if (!colon || strchr(colon + 1, ':')) /* none, or a bare IPv6 */
		return fill(s, strlen(s), NULL, hp);
	return fill(s, (size_t)(colon - s), colon + 1, hp);
}
