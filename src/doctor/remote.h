/* SPDX-License-Identifier: MIT */
#ifndef IG_DR_REMOTE_H
#define IG_DR_REMOTE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "wire/auth.h"
#include "doctor.h"
#include "host/sysinfo.h"

/* What the server's doctor said, or why it could not be asked. */
struct ig_dr_remote {
	bool ok;
	char err[512];	    /* when !ok: one line */
	char peer_addr[64]; /* the server's address as connected (numeric) */
	double rtt_us;	    /* control connection's round trip, 0 unknown */
	struct ig_sysinfo host;
	struct ig_dr_report r;
};

/* Connects, HELLO (proving key, NULL for none, when the server asks),
 * DOCTOR {window}, FINDINGS, BYE.  0 or a negative errno (rm->err says
 * why; rm->peer_addr is set when the connection was made). */
int ig_dr_remote_fetch(const char *host, const char *port, int timeout_ms,
		       uint64_t window, const struct ig_auth_key *key,
		       struct ig_dr_remote *rm);

#endif
