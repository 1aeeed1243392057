/* SPDX-License-Identifier: MIT */
#ifndef IG_SERVER_H
#define IG_SERVER_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

struct ig_server_opts {
	const char *port;
	const char *bind;
	bool once;
	int timeout_ms;
	const char *auth_file; /* --auth-file: clients must prove they hold it */
	/* --allow-try: TRY changes this host for an authenticated client
	 * (needs auth_file); its journal file (NULL: IG_JOURNAL_DIR
	 * "/server-PORT.journal") */
	bool allow_try;
	const char *journal;
	/* sessions at once (0 or 1: one; more: ibgap-fabric's in-process
	 * server, which several ranks test at once in its incast and ring
	 * patterns) */
	unsigned int max_sessions;
};

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
