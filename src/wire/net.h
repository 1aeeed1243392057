/* SPDX-License-Identifier: MIT */
#ifndef IG_NET_H
#define IG_NET_H

#include <stddef.h>

/* Connects to host:port (IPv4 or IPv6) within timeout_ms.  Returns the
 * socket or a negative errno with one line in err. */
int ig_net_connect(const char *host, const char *port, int timeout_ms,
		   char *err, size_t errlen);
/* The same, leaving from the numeric IPv4 address src (NULL: the
 * routing table's choice; a host of another family is not bound). */
int ig_net_connect_from(const char *host, const char *port, const char *src,
			int timeout_ms, char *err, size_t errlen);
/* Listens on bind:port (bind NULL: every address, IPv6 dual stack when
 * available).  port "0" picks a free port; *bound receives it. */
int ig_net_listen(const char *bind, const char *port, int *bound, char *err,
		  size_t errlen);

#endif
