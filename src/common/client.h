/* SPDX-License-Identifier: MIT */
#ifndef IG_CLIENT_H
#define IG_CLIENT_H

#include "cli.h"

/* Runs every test of o against the server and writes the report.
 * Returns 0, or 1 after printing one line on stderr. */
int ig_client_run(const struct ig_client_opts *o);

#endif
