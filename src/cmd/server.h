/* SPDX-License-Identifier: MIT */
#ifndef IG_SERVER_H
#define IG_SERVER_H

#include <signal.h>
#include <stddef.h>

#include "cli.h"

struct ig_server;

/* Loads o->auth_file's secret and listens as o says; NULL and errno set,
 * with one line in err, on error: EKEYREJECTED when the auth file is
 * refused (a bad option value), the listener's errno otherwise. */
struct ig_server *ig_server_new(const struct ig_server_opts *o, bool quiet,
				char *err, size_t errlen);
int ig_server_port(const struct ig_server *srv);
/* Serves until *quit becomes non-zero (or after one session with --once).
 * Returns 0 or a negative errno. */
int ig_server_run(struct ig_server *srv, volatile sig_atomic_t *quit);
void ig_server_free(struct ig_server *srv);

#endif
