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
/* The same, HELLO carrying group (NULL: none): a server that runs a
 * session of the same group takes this one beside it (--rails-mode
 * together's sessions, one per rail). */
int ig_hello_group(struct ig_ctrl *c, struct ig_sysinfo *self,
		   struct ig_sysinfo *peer, const struct ig_auth_key *key,
		   const char *group);

#endif
