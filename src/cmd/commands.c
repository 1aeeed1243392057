// SPDX-License-Identifier: MIT
/* The subcommands main.c dispatches to, and the signal flag they share. */
#include <errno.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "client.h"
#include "cli.h"
#include "run/run.h"
#include "serve/server.h"
#include "commands.h"
#include "usage.h"
#include "host/rdma_inv.h"

/* Set by SIGINT/SIGTERM, to the signal's number; nothing else writes it:
 * the one mutable global, as a signal handler needs. */
static volatile sig_atomic_t quit_flag;

static void on_signal(int sig)
{
	quit_flag = sig;
}

/* The client's: the first SIGINT or SIGTERM ends the run early with
 * partial results; a second one of either kills at once. */
static void on_client_signal(int sig)
{
	quit_flag = sig;
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
}

/* Also where SIGINT was ignored on entry (a script's background job). */
static void catch_stop_signals(void)
{
	struct sigaction sa = { .sa_handler = on_client_signal };

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

volatile sig_atomic_t *ig_cmd_catch_stop(void)
{
	catch_stop_signals();
	return &quit_flag;
}

static int usage_error(const char *err, const char *cmd)
{
	fprintf(stderr, "ibgap: %s\n", err);
	return 2;
}

int ig_cmd_server(int argc, char **argv)
{
	struct ig_server_opts o;
	struct ig_server *srv;
	struct sigaction sa = { .sa_handler = on_signal };
	char err[512];
	int ret = ig_cli_server(argc, argv, &o, err, sizeof(err));

	if (ret == 1)
		return ig_cli_server_usage(stdout), 0;
	if (ret)
		return usage_error(err, "server");
	srv = ig_server_new(&o, false, err, sizeof(err));
	if (!srv) {
		/* a refused --auth-file, a -B that is no address: bad
		 * option values */
		ret = errno == EKEYREJECTED || errno == EINVAL ? 2 : 1;
		fprintf(stderr, "ibgap server: %s\n", err);
		return ret;
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	ret = ig_server_run(srv, &quit_flag);
	ig_server_free(srv);
	return ret ? 1 : 0;
}

int ig_cmd_client(int argc, char **argv)
{
	struct ig_client_opts o;
	char err[256];
	int ret = ig_cli_client(argc, argv, &o, err, sizeof(err));

	if (ret == 1)
		return ig_cli_client_usage(stdout), 0;
	if (ret)
		return usage_error(err, "client");
	signal(SIGPIPE, SIG_IGN);
	o.local.interrupt = &quit_flag;
	catch_stop_signals();
	return ig_client_run(&o);
}

/* co (ig_cli_local's) against a server of our own on addr (port chosen
 * by the kernel; --rails: on every address, each rail's its own peer);
 * tcp_only: without -t, tcp_bw and tcp_lat, else the client's default
 * tests. */
static int run_local(const char *addr, bool tcp_only, struct ig_client_opts *co)
{
	struct ig_server_opts so = { .bind = co->rails ? NULL : addr,
				     .port = "0",
				     .timeout_ms = IG_DEFAULT_TIMEOUT_MS };
	struct ig_run_server ls;
	char port[16], err[256];
	int ret;

	if (ig_run_server_start(&ls, &so, err, sizeof(err))) {
		fprintf(stderr, "ibgap: local server on %s: %s\n", addr, err);
		return 1;
	}
	snprintf(port, sizeof(port), "%d", ig_run_server_port(&ls));
	co->host = addr;
	co->port = port;
	if (tcp_only)
		co->tests_given = true; /* -t's, or the defaults: tcp_bw,
					   tcp_lat */
	co->local.interrupt = &quit_flag;
	ret = ig_client_run(co);
	ig_run_server_stop(&ls);
	return ret;
}

/* "ibgap [options]": the comparison on this machine over its first
 * active RDMA port's IP address, against a server of our own; TCP alone
 * over loopback where there is none.  The client's options. */
int ig_cmd_local(int argc, char **argv)
{
	char addr[64], ifname[64], err[256];
	const struct ig_inv_port *p;
	const struct ig_inv_dev *d;
	struct ig_inv *inv = NULL;
	struct ig_client_opts co;
	int ret = ig_cli_local(argc, argv, &co, err, sizeof(err));

	if (ret == 1)
		return ig_cli_local_usage(stdout), 0;
	if (ret)
		return usage_error(err, "");
	signal(SIGPIPE, SIG_IGN);
	/* as the client's: Ctrl-C ends the run with the partial table */
	catch_stop_signals();
	/* an unreadable inventory is no RDMA device */
	ret = -ENODEV;
	if (!ig_inv_load("/", IG_INV_GIDS, &inv, err, sizeof(err)))
		ret = ig_inv_active_addr(inv, addr, sizeof(addr), ifname,
					 sizeof(ifname), &d, &p);
	if (!ret && co.rails)
		fprintf(stderr,
			"ibgap: comparing verbs and TCP on each rail, against "
			"a server of our own on every address\n");
	else if (!ret)
		fprintf(stderr,
			"ibgap: comparing verbs and TCP on %s through "
			"%s\n",
			d->name, addr);
	ig_inv_free(inv);
	if (!ret)
		return run_local(addr, false, &co);
	fprintf(stderr, "ibgap: no active RDMA port with an IP address: TCP "
			"alone over loopback (to compare, create a Soft-RoCE "
			"device: rdma link add rxe0 type rxe netdev IFACE)\n");
	return run_local("127.0.0.1", true, &co);
}

int ig_cmd_help(int argc, char **argv)
{
	fputs(ig_usage_main, stdout);
	return 0;
}
