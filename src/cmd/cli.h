/* SPDX-License-Identifier: MIT */
#ifndef IG_CLI_H
#define IG_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/fail.h"
#include "common/opttab.h"
#include "common/hostport.h"
#include "common/params.h"
#include "common/testopt.h"
#include "report/report.h"
#include "serve/server.h"

#define IG_MAX_SIZES 64
/* sizes x streams x windows: the measurements of each test */
#define IG_MAX_COMBOS 256
/* "tcp@" and a numeric IPv6 address (INET6_ADDRSTRLEN) */
#define IG_ALSO_LABEL_LEN 52

/* --rails-cpu's CPUs: one per rail (host/rails.h's IG_RAILS_MAX) */
#define IG_RAILS_CPU_MAX 16

/* --rails-mode */
enum ig_rails_mode {
	IG_RAILS_EACH,	   /* each rail in turn */
	IG_RAILS_TOGETHER, /* each in turn, then all at once */
};

struct ig_client_opts {
	const char *host;
	const char *port;
	struct ig_hostport server; /* HOST split; host (and port) point here */
	enum ig_test tests[IG_TEST_COUNT];
	unsigned int ntests;
	struct ig_params p; /* applies to every test */
	struct ig_local_opts local;
	bool size_given;  /* else latency tests use IG_DEFAULT_LAT_SIZE */
	bool tests_given; /* else: the comparison (or TCP alone) */
	uint64_t sizes[IG_MAX_SIZES]; /* -s list or range (sweep) */
	unsigned int nsizes;
	char sizes_buf[512];
	struct ig_testopt_lists lists; /* -P and --window (the matrix) */
	struct ig_repeat_opts rep;     /* --repeat, --confidence */
	const char *plot;	       /* --plot FILE.svg|png */
	const char *save_baseline;
	const char *baseline;
	double tolerance; /* --tolerance PCT, default 5 */
	enum ig_format format;
	const char *outfile;
	const char *auth_file; /* --auth-file: the shared secret, or NULL */
	/* --also ADDR: the tcp tests again against ADDR (another address of
	 * the server), reported as transport also_label, "tcp@ADDR" */
	const char *also;
	const char *also_port; /* ADDR:PORT's, else NULL: HOST's port */
	struct ig_hostport also_addr;
	char also_label[IG_ALSO_LABEL_LEN];
	/* --rails [all|LIST]: every ACTIVE RDMA port (rails_list NULL) or
	 * those of LIST's devices, each against the server's rail */
	bool rails;
	const char *rails_list;
	bool rails_word; /* rails_list was the next word (maybe HOST) */
	enum ig_rails_mode rails_mode;
	/* --rails-cpu CPUS: rail i's client threads on CPU rails_cpu[i] */
	int rails_cpu[IG_RAILS_CPU_MAX];
	unsigned int nrails_cpu;
	/* the transport name of this plan's results: NULL for the run's
	 * own, also_label for --also's second connection */
	const char *column;
};

/*
 * Parse the arguments of "ibgap client" / "ibgap server" (argv[0] is the
 * subcommand).  Return 0, 1 when -h or --help was given (the caller prints
 * the help), or -EINVAL with one line in err naming the option, the value
 * and what is allowed.
 */
int ig_cli_client(int argc, char **argv, struct ig_client_opts *o, char *err,
		  size_t errlen);
int ig_cli_server(int argc, char **argv, struct ig_server_opts *o, char *err,
		  size_t errlen);
/* "ibgap [options]" (argv[0] is "ibgap"): the client's options without
 * HOST, -p, --also and --auth-file; returns as ig_cli_client(). */
int ig_cli_local(int argc, char **argv, struct ig_client_opts *o, char *err,
		 size_t errlen);

/* What ig_cli_client() starts from: the options' defaults, tcp_bw and
 * tcp_lat, no HOST. */
void ig_cli_client_defaults(struct ig_client_opts *o);

/* The option lines of their --help, after the usage line. */
void ig_cli_client_usage(FILE *f);
void ig_cli_local_usage(FILE *f);
void ig_cli_server_usage(FILE *f);

/* -p PORT of a command whose struct type has const char *port. */
#define IG_CLI_PORT_ROW(type, help_)                                           \
	{                                                                      \
		"port", 'p', IG_OPT_UINT,                                      \
			.obj = 0, IG_OPT_AT(type, port), .lo = 1, .hi = 65535, \
			.what = "a port", .call = ig_opt_keep_text,            \
			.arg = "PORT", .help = help_                           \
	}
/*
 * A server address on the command line (what: "HOST", "--also"), split
 * into hp (common/hostport.h): *host points to its host and, when it
 * names a port, *port to that port.  A port already in *port (-p) must be
 * the same.  0, or -EINVAL with one line in err.
 */
int ig_cli_hostport(const char *what, const char *arg, struct ig_hostport *hp,
		    const char **host, const char **port, char *err,
		    size_t errlen);

#endif
