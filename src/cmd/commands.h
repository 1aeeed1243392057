/* SPDX-License-Identifier: MIT */
#ifndef IG_COMMANDS_H
#define IG_COMMANDS_H

#include <signal.h>

/*
 * The subcommands of ibgap, each called with argv[0] = its own name and
 * returning the process's exit status (0 ok, 1 a run failed or a metric
 * regressed, 2 a bad option value, 3 an unreadable baseline or a
 * comparison that compared less than it holds).
 */
int ig_cmd_server(int argc, char **argv);
int ig_cmd_client(int argc, char **argv);
int ig_cmd_version(int argc, char **argv);
int ig_cmd_help(int argc, char **argv);
/* diff_cmd.c: ibgap diff OLD.json NEW.json [--tolerance PCT], two saved
 * reports side by side */
int ig_cmd_diff(int argc, char **argv);
/* doctor_main.c: ibgap doctor [HOST] [options], why TCP is slower, on
 * this host and the server (0 ran, 1 could not run or HOST was not
 * examined, 2 bad option) */
int ig_cmd_doctor(int argc, char **argv);
/* No command, options only (argv[0] "ibgap"): the comparison on this
 * machine against a server of its own, over the first active RDMA port's
 * address (else TCP alone over loopback), with the client's options. */
int ig_cmd_local(int argc, char **argv);

/* Installs the client's SIGINT/SIGTERM handlers (the first ends the run
 * early, a second kills) and returns the flag they set: the signal's
 * number.  doctor --try's run watches it. */
volatile sig_atomic_t *ig_cmd_catch_stop(void);

#endif
