// SPDX-License-Identifier: MIT
/* The subcommands main.c dispatches to, and the signal flag they share. */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "client.h"
#include "cli.h"
#include "serve/server.h"
#include "commands.h"
#include "usage.h"
#include "host/rdma_inv.h"

/* Set by SIGINT/SIGTERM (server) or SIGINT (client); nothing else writes
 * it: the one mutable global, as a signal handler needs. */
static volatile sig_atomic_t quit_flag;

static void on_signal(int sig)
{
	quit_flag = 1;
}

/* The client's first SIGINT ends the run early with partial results; a
 * second one kills at once (SA_RESETHAND). */
static void catch_sigint(void)
{
	struct sigaction sa = { .sa_handler = on_signal,
				.sa_flags = SA_RESETHAND };

	sigaction(SIGINT, &sa, NULL);
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
		return fputs(ig_usage_server, stdout), 0;
	if (ret)
		return usage_error(err, "server");
	srv = ig_server_new(&o, false, err, sizeof(err));
	if (!srv) {
		/* a refused --auth-file is a bad option value */
		ret = errno == EKEYREJECTED ? 2 : 1;
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
		return fputs(ig_usage_client, stdout), 0;
	if (ret)
		return usage_error(err, "client");
	signal(SIGPIPE, SIG_IGN);
	o.local.interrupt = &quit_flag;
	catch_sigint();
	return ig_client_run(&o);
}

struct local_server {
	struct ig_server *srv;
	volatile sig_atomic_t quit;
};

static void *local_server_thread(void *arg)
{
	struct local_server *ls = arg;

	ig_server_run(ls->srv, &ls->quit);
	return NULL;
}

static int run_local(const char *addr, bool tcp_only)
{
	struct ig_server_opts so = { .bind = addr,
				     .port = "0",
				     .timeout_ms = 10000 };
	struct local_server ls = { 0 };
	struct ig_client_opts co;
	char port[16], err[256];
	char *argv[] = { "client",	   "-p", port, (char *)addr, "-t",
			 "tcp_bw,tcp_lat", NULL };
	pthread_t t;
	int ret;

	ls.srv = ig_server_new(&so, true, err, sizeof(err));
	if (!ls.srv) {
		fprintf(stderr, "ibgap: local server on %s: %s\n", addr, err);
		return 1;
	}
	snprintf(port, sizeof(port), "%d", ig_server_port(ls.srv));
	if (ig_cli_client(tcp_only ? 6 : 4, argv, &co, err, sizeof(err)))
		return usage_error(err, "client");
	if (pthread_create(&t, NULL, local_server_thread, &ls)) {
		fprintf(stderr, "ibgap: cannot start the local server\n");
		ig_server_free(ls.srv);
		return 1;
	}
	ret = ig_client_run(&co);
	ls.quit = 1;
	pthread_join(t, NULL);
	ig_server_free(ls.srv);
	return ret;
}

/* "ibgap" alone: the comparison on this machine over its first active
 * RDMA port's IP address, against a server of our own; TCP alone over
 * loopback where there is none. */
int ig_cmd_local(void)
{
	char addr[64], ifname[64], err[256];
	const struct ig_inv_port *p;
	const struct ig_inv_dev *d;
	struct ig_inv *inv = NULL;
	int ret = -ENODEV;

	signal(SIGPIPE, SIG_IGN);
	/* an unreadable inventory is no RDMA device */
	if (!ig_inv_load("/", IG_INV_GIDS, &inv, err, sizeof(err)))
		ret = ig_inv_active_addr(inv, addr, sizeof(addr), ifname,
					 sizeof(ifname), &d, &p);
	if (!ret)
		fprintf(stderr,
			"ibgap: comparing verbs and TCP on %s through "
			"%s\n",
			d->name, addr);
	ig_inv_free(inv);
	if (!ret)
		return run_local(addr, false);
	fprintf(stderr, "ibgap: no active RDMA port with an IP address: TCP "
			"alone over loopback (to compare, create a Soft-RoCE "
			"device: rdma link add rxe0 type rxe netdev IFACE)\n");
	return run_local("127.0.0.1", true);
}

int ig_cmd_help(int argc, char **argv)
{
	fputs(ig_usage_main, stdout);
	return 0;
}
