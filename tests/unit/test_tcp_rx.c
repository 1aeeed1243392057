// SPDX-License-Identifier: MIT
/*
 * Unit tests of the socket transport's bandwidth receiver (bw_recv of
 * src/sockets/tcp.c) on a fake call table: it reads the stream in pieces
 * of the stream's `piece` bytes, each filled before the next begins (a
 * short read is followed by one for the rest of its piece, into the rest
 * of the buffer), counts every byte, and ends at the peer's close.
 */
#include <check.h>
#include <errno.h>
#include <stdint.h>

#include "engine/engine.h"
#include "sockets/tcp.h"
#include "sockets/tcp_int.h"
#include "testmain.h"

#define PIECE (128 * 1024)
#define MAXCALLS 16

/* the fake recv's script: it returns got[i] on call i (0: the peer
 * closed), an EINTR where got[i] is -1, and records what it was asked */
struct script {
	ssize_t got[MAXCALLS];
	unsigned int calls;
	size_t asked[MAXCALLS];
	size_t at[MAXCALLS]; /* offset of the read into the buffer */
	const char *buf;
};

static struct script sc_now;

static ssize_t fake_recv(int fd, void *b, size_t len, int flags)
{
	unsigned int i = sc_now.calls++;

	(void)fd;
	(void)flags;
	ck_assert_uint_lt(i, MAXCALLS);
	sc_now.asked[i] = len;
	sc_now.at[i] = (size_t)((const char *)b - sc_now.buf);
	if (sc_now.got[i] < 0) {
		errno = EINTR;
		return -1;
	}
	ck_assert_uint_le((size_t)sc_now.got[i], len);
	return sc_now.got[i];
}

/* Runs bw_recv over the script on one stream of a PIECE-byte buffer with
 * pieces of `piece` bytes (at most PIECE); returns the bytes it counted. */
static uint64_t run(size_t piece)
{
	static char buf[PIECE];
	struct ig_sock_calls c = { .name = "fake", .recv = fake_recv };
	struct tcp_stream ts = { .sc = &c, .fd = 3, .buf = buf, .piece = piece };
	struct ig_session s = { .ops = &ig_tcp_ops, .nstreams = 1 };
	struct ig_stream st = { .s = &s, .priv = &ts };

	atomic_store(&st.rx_target, UINT64_MAX);
	sc_now.buf = buf;
	ck_assert_int_eq(s.ops->bw_recv(&st), 0);
	return atomic_load(&st.rx_bytes);
}

/* The script's n reads asked for asked[i] bytes at offset at[i]. */
static void check_reads(const size_t *asked, const size_t *at, unsigned int n)
{
	ck_assert_uint_eq(sc_now.calls, n);
	for (unsigned int i = 0; i < n; i++) {
		ck_assert_uint_eq(sc_now.asked[i], asked[i]);
		ck_assert_uint_eq(sc_now.at[i], at[i]);
	}
}

START_TEST(t_short_reads_fill_the_piece)
{
	sc_now = (struct script){ .got = { 50000, 81072, 70000, 10000, 51072,
					   PIECE, 0 } };
	ck_assert_uint_eq(run(PIECE), 3 * (uint64_t)PIECE);
	/* each read asks for the rest of its piece, where the last ended */
	const size_t asked[] = { PIECE,		PIECE - 50000, PIECE,
				 PIECE - 70000, PIECE - 80000, PIECE,
				 PIECE };
	const size_t at[] = { 0, 50000, 0, 70000, 80000, 0, 0 };

	check_reads(asked, at, 7);
}
END_TEST

/* A piece smaller than the buffer: reads never reach beyond it. */
START_TEST(t_small_piece)
{
	sc_now = (struct script){ .got = { 100, 3996, 4096, 1, 0 } };
	ck_assert_uint_eq(run(4096), 100 + 3996 + 4096 + 1);
	const size_t asked[] = { 4096, 3996, 4096, 4096, 4095 };
	const size_t at[] = { 0, 100, 0, 0, 1 };

	check_reads(asked, at, 5);
}
END_TEST

/* EINTR is not a close: the next read asks again for the same rest. */
START_TEST(t_eintr_asks_again)
{
	sc_now = (struct script){ .got = { 1000, -1, 2000, 0 } };
	ck_assert_uint_eq(run(PIECE), 3000);
	ck_assert_uint_eq(sc_now.asked[1], PIECE - 1000);
	ck_assert_uint_eq(sc_now.asked[2], PIECE - 1000);
	ck_assert_uint_eq(sc_now.at[2], 1000);
	ck_assert_uint_eq(sc_now.asked[3], PIECE - 3000);
}
END_TEST

static Suite *tcp_rx_suite(void)
{
	Suite *s = suite_create("tcp_rx");
	TCase *tc = tcase_create("pieces");

	tcase_add_test(tc, t_short_reads_fill_the_piece);
	tcase_add_test(tc, t_small_piece);
	tcase_add_test(tc, t_eintr_asks_again);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(tcp_rx_suite());
}
