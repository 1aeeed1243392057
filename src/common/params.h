/* SPDX-License-Identifier: MIT */
#ifndef IG_PARAMS_H
#define IG_PARAMS_H

#include <stdbool.h>
#include <stddef.h>
#include <signal.h>
#include <stdint.h>

/* Default TCP port of the server's control channel. */
#define IG_DEFAULT_PORT 18515
/* Default deadline of every control-channel read, milliseconds. */
#define IG_DEFAULT_TIMEOUT_MS 10000
/* perftest's default for latency tests; bandwidth tests default to 64K */
#define IG_DEFAULT_LAT_SIZE 2

/* Caps enforced on every parameter, by the client on input and by the
 * server again before it allocates anything. */
#define IG_MAX_SIZE (64ull << 20) /* one message */
#define IG_MAX_STREAMS 64
#define IG_MAX_DURATION_S 3600
#define IG_MAX_ITERATIONS 1000000000ull
#define IG_MAX_WARMUP_S 60
#define IG_MAX_WINDOW (1ull << 30)
#define IG_MAX_TOTAL_MEM (1ull << 30) /* buffers of all streams */
#define IG_MAX_TIMEOUT_MS 3600000
#define IG_MAX_TX_DEPTH 8192
/* --outs: rdma_cm carries the read depth in 8 bits */
#define IG_MAX_OUTS 255

enum ig_test {
	IG_TEST_TCP_BW,
	IG_TEST_TCP_LAT,
	IG_TEST_SEND_BW,
	IG_TEST_WRITE_BW,
	IG_TEST_SEND_LAT,
	IG_TEST_WRITE_LAT,
	/* beyond the default six: run with -t NAME or -t all */
	IG_TEST_READ_BW,
	IG_TEST_READ_LAT,
	IG_TEST_UD_SEND_BW,
	IG_TEST_UD_SEND_LAT,
	IG_TEST_RS_BW,
	IG_TEST_RS_LAT,
	IG_TEST_COUNT
};

/*
 * The transports, an index into the tables src/transports/ registers
 * (struct ig_tests here, struct ig_xports in engine/xport.h).  A new
 * transport adds its id here, its options' sub-structs below, and its
 * one line to src/transports/transports.c; its tests' rows live in its
 * own folder.
 */
enum ig_xport_id {
	IG_XPORT_TCP,
	IG_XPORT_VERBS,
	IG_XPORT_RSOCKETS, /* the socket engine over librdmacm's rsockets */
	IG_XPORT_COUNT,
};

enum ig_pattern {
	IG_PATTERN_BW,	/* one-way stream, client sends */
	IG_PATTERN_LAT, /* ping-pong */
};

/* How a test waits for its completions (ig_params_completion). */
enum ig_test_wait {
	IG_WAIT_BLOCK,	/* its calls block (TCP): no completion mode */
	IG_WAIT_POLL,	/* always polls (write_lat: its reply is a flag) */
	IG_WAIT_EVENTS, /* polls, or waits on a channel with --events */
};

/*
 * One test, a row its transport declares in its own folder (enum ig_test
 * above holds the ids only).  Direction rules: a bandwidth test takes -R
 * and --bidir, a lossy one -R alone; a latency test neither.
 */
struct ig_test_def {
	enum ig_test id;
	const char *name;
	enum ig_pattern pattern;
	/* loses messages (UD bandwidth): one direction at a time (no
	 * --bidir), and size 0 is the path MTU */
	bool lossy;
	/* one-sided bandwidth (write_bw, read_bw): the passive side's
	 * receiver sees no completion and counts nothing */
	bool one_sided;
	/* a stream holds one buffer (TCP), not tx-depth of them */
	bool one_buffer;
	/* what a latency sample is of a round: 2 (half of it) for the
	 * ping-pongs, 1 (all of it) for read_lat, as perftest reports */
	unsigned int lat_div;
	enum ig_test_wait wait;
};

/* A transport's tests: its name and its rows. */
struct ig_xport_tests {
	const char *name; /* "tcp", "verbs", "rsockets" */
	const struct ig_test_def *rows;
	unsigned int n;
};

/* Every transport's tests, indexed by enum ig_xport_id: assembled by
 * src/transports/ and handed to whatever reads a test's row. */
struct ig_tests {
	const struct ig_xport_tests *xp[IG_XPORT_COUNT];
};

/*
 * Each transport's options, a sub-struct of its own in ig_params and
 * ig_local_opts (as UCX's ucx_perf_params holds uct and ucp): the engine
 * reads only the common part, each transport its own.
 */
/* The socket transport (src/sockets: tcp, rsockets). */
struct ig_sock_params {
	uint64_t window; /* SO_SNDBUF/SO_RCVBUF; 0 = kernel default */
};

/* The verbs transport (src/verbs). */
struct ig_verbs_params {
	uint32_t tx_depth;
	uint32_t cq_mod;
	/* inline threshold, bytes: sends of at most this size go inline */
	uint32_t inline_size;
	/* 1 = inline_size was not given (--inline): each side chooses, per
	 * test, what perftest uses on a device it knows (send_lat 236,
	 * ud_send_lat 188, write_lat 220, the others 0), less where its QP
	 * takes less (ig_vb_inline_want) */
	uint32_t inline_auto;
	/* 1 = wait for completions on a completion channel (--events), 0 =
	 * busy-poll the CQs (as perftest does by default); write_lat always
	 * polls (its reply is a flag in memory) */
	uint32_t events;
	/* read tests: RDMA reads in flight per QP (--outs); 0 = as many as
	 * both devices allow (max_qp_rd_atom, max_qp_init_rd_atom) */
	uint32_t outs;
	/* 1 = connect the QPs without rdma_cm: the endpoints travel in
	 * VERBS_EP over the control channel (--rails: a rail without an
	 * IPv4 address); 0 = rdma_cm to the control connection's address */
	uint32_t oob;
};

/* Everything one test needs; the client fills it, sends it, and the server
 * adopts it after ig_params_check(). */
struct ig_params {
	enum ig_test test;
	uint64_t size;	      /* bytes per message */
	uint64_t iterations;  /* per stream; 0 = duration mode */
	uint64_t duration_ns; /* measured interval in duration mode */
	uint64_t warmup_ns;
	uint32_t streams;    /* TCP connections or QPs */
	uint32_t timeout_ms; /* every control read, and data-path stalls */
	uint32_t bidir;	     /* 1: both directions at once (bandwidth tests) */
	uint32_t reverse;    /* 1: the server sends, the client receives (-R) */
	struct ig_sock_params sock;
	struct ig_verbs_params verbs;
	/* the server's numeric address for the data connections, when the
	 * control connection runs over another (`doctor --ctrl`); "" the
	 * control connection's own */
	char data_addr[64];
};

/* --zerocopy: how tcp_bw's sender hands data to the kernel.  BOTH is the
 * client's plan (a copying run, then a zero-copy one); a run is OFF, ON,
 * or COPY (--zerocopy given, this run copies: both's first). */
enum ig_zc_mode {
	IG_ZC_OFF,
	IG_ZC_ON,
	IG_ZC_BOTH,
	IG_ZC_COPY,
};

/* The socket transport's options of this host. */
struct ig_sock_local {
	/* --zerocopy: the client's TCP sender uses MSG_ZEROCOPY (ON) */
	enum ig_zc_mode zerocopy;
};

/* The verbs transport's options of this host. */
struct ig_verbs_local {
	char device[64]; /* --device; "" = the device behind the address */
	int ib_port;	 /* --ib-port; 0 = the port behind the address */
	int gid_index;	 /* --gid-index; -1 = chosen by rdma_cm */
	/* params' verbs.oob: the server's device and port to connect to
	 * (--rails: the peer rail's) */
	char peer_device[64];
	int peer_port;
};

struct ig_fault;

/* Options of this host only: never sent to the peer.  The client's apply
 * to the client; a server picks its device from the address the client
 * connected to. */
struct ig_local_opts {
	int cpu; /* --cpu; -1 = near the HCA (verbs), unpinned (TCP) */
	/* --rails (cpu -1): the rail's HCA's local CPUs (a cpulist), which
	 * the client's TCP streams take in turn; "" unpinned */
	char tcp_cpus[512];
	/* --rails: this rail's IPv4 address, which the client's control
	 * and data connections of both transports leave from; "" the
	 * routing table's choice */
	char src_addr[64];
	struct ig_sock_local sock;
	struct ig_verbs_local verbs;
	/* set by the client's SIGINT handler: end the measurement early and
	 * report it as partial; NULL when nobody sets it */
	volatile sig_atomic_t *interrupt;
	/* the tests' fault hook (engine/fault.h); NULL in production */
	const struct ig_fault *fault;
};

void ig_local_opts_default(struct ig_local_opts *l);

/* Test t's row in tt, or NULL for no test. */
const struct ig_test_def *ig_test_row(const struct ig_tests *tt,
				      enum ig_test t);
const char *ig_test_name(const struct ig_tests *tt, enum ig_test t);
/* Returns the test or -EINVAL. */
int ig_test_parse(const struct ig_tests *tt, const char *name);
/* Writes every test's name, comma-separated, into buf (for messages). */
void ig_test_names(const struct ig_tests *tt, char *buf, size_t len);
enum ig_pattern ig_test_pattern(const struct ig_tests *tt, enum ig_test t);
/* The transport that runs test t (IG_XPORT_COUNT for no test). */
enum ig_xport_id ig_test_xport(const struct ig_tests *tt, enum ig_test t);
/* Its name: "tcp", "verbs" or "rsockets" ("unknown" for no test). */
const char *ig_test_transport(const struct ig_tests *tt, enum ig_test t);
/* The row's one_sided and lat_div (2 for no test). */
bool ig_test_one_sided(const struct ig_tests *tt, enum ig_test t);
unsigned int ig_test_lat_div(const struct ig_tests *tt, enum ig_test t);

void ig_params_default(struct ig_params *p);
/* Makes p test t; a latency test drops --bidir and -R (a ping-pong goes
 * both ways), so that one set of options serves a list of tests. */
void ig_params_set_test(const struct ig_tests *tt, struct ig_params *p,
			enum ig_test t);
/* Which way a result's data went: "forward" (client -> server),
 * "reverse" (-R) or "bidir"; NULL for a latency test (a ping-pong has no
 * direction). */
const char *ig_params_direction(const struct ig_tests *tt,
				const struct ig_params *p);

/* How a verbs test of p waits for its completions: "events" (--events)
 * or "poll"; NULL for a TCP test (its calls block). */
const char *ig_params_completion(const struct ig_tests *tt,
				 const struct ig_params *p);

/*
 * Checks every field against the caps above.  Returns 0, or -EINVAL and
 * writes one line into err naming the field, its value and what is allowed.
 * Pure: used by the client on its options and by the server on what it
 * received, before anything is allocated; tt holds the tests' rows.
 */
int ig_params_check(const struct ig_tests *tt, const struct ig_params *p,
		    char *err, size_t errlen);

/*
 * Parses a byte count with an optional K, M or G suffix (powers of two,
 * case-insensitive), e.g. "64K" = 65536.  Returns 0 or -EINVAL/-ERANGE.
 */
int ig_parse_size(const char *s, uint64_t *out);
/*
 * A printable copy of a string that came from the peer, for messages and
 * logs: at most max characters, control characters and DEL replaced by
 * '?', so that a peer cannot forge log lines or send terminal escapes.
 * Returns buf.
 */
const char *ig_str_safe(const char *s, char *buf, size_t len, size_t max);
/* A size as people write it: 64K, 1M, 3G when exact, else bytes. */
void ig_size_str(uint64_t size, char *buf, size_t len);
/* Parses seconds, decimals allowed ("0.5"), into nanoseconds. */
int ig_parse_seconds(const char *s, uint64_t *out_ns);
/* Parses a non-negative decimal integer. */
int ig_parse_u64(const char *s, uint64_t *out);

#endif
