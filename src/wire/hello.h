/* SPDX-License-Identifier: MIT */
#ifndef IG_HELLO_H
#define IG_HELLO_H

#include "auth.h"
#include "ctrl.h"
#include "host/sysinfo.h"

/* HELLO, then WELCOME: fills self (this host) and peer (the server).
 * When the server answers AUTH (its --auth-file), proves that key (NULL:
 * none, and the server is told so) holds the shared secret and checks the
 * server's proof in WELCOME; with a key, a server that does not
 * authenticate is refused.  0 or a negative errno (c->err says why;
 * -EACCES when authentication failed). */
int ig_hello(struct ig_ctrl *c, struct ig_sysinfo *self,
	     struct ig_sysinfo *peer, const struct ig_auth_key *key);

#endif
