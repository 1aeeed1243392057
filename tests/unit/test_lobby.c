// SPDX-License-Identifier: MIT
/*
 * Unit tests for the server's lobby: the judgement of a first message's
 * peeked bytes (headers written out byte by byte here, from the layout in
 * proto.h), eviction of the oldest member, deadlines, and the sweep over
 * real sockets (socketpairs) with data written, closed or silent.
 */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "serve/lobby.h"
#include "wire/proto.h"
#include "testwire.h"
#include "testmain.h"

#define SEC 1000000000ull

START_TEST(test_judge)
{
	uint8_t b[12] = { 0 };

	/* a closed connection goes to a handler, which logs it */
	ck_assert_int_eq(ig_lobby_judge(b, 0, 0, true), IG_LOBBY_READY);
	/* nothing yet, or a partial magic */
	ck_assert_int_eq(ig_lobby_judge(b, 0, 0, false), IG_LOBBY_WAIT);
	memcpy(b, "IB", 2);
	ck_assert_int_eq(ig_lobby_judge(b, 2, 2, false), IG_LOBBY_WAIT);
	/* not ibgap: at once, even before 4 bytes */
	memcpy(b, "GET ", 4);
	ck_assert_int_eq(ig_lobby_judge(b, 1, 1, false), IG_LOBBY_READY);
	ck_assert_int_eq(ig_lobby_judge(b, 4, 4, false), IG_LOBBY_READY);
	/* a HELLO of 10 bytes: ready when all 22 are there */
	put_hdr(b, "IBGP", IG_PROTO_VERSION, IG_MSG_HELLO, 10);
	ck_assert_int_eq(ig_lobby_judge(b, 11, 11, false), IG_LOBBY_WAIT);
	ck_assert_int_eq(ig_lobby_judge(b, 12, 12, false), IG_LOBBY_WAIT);
	ck_assert_int_eq(ig_lobby_judge(b, 12, 21, false), IG_LOBBY_WAIT);
	ck_assert_int_eq(ig_lobby_judge(b, 12, 22, false), IG_LOBBY_READY);
	/* a big one: IG_LOBBY_ENOUGH bytes of it suffice */
	put_hdr(b, "IBGP", IG_PROTO_VERSION, IG_MSG_HELLO, 60000);
	ck_assert_int_eq(ig_lobby_judge(b, 12, IG_LOBBY_ENOUGH - 1, false),
			 IG_LOBBY_WAIT);
	ck_assert_int_eq(ig_lobby_judge(b, 12, IG_LOBBY_ENOUGH, false),
			 IG_LOBBY_READY);
	/* broken headers: the handler says what is wrong */
	put_hdr(b, "IBGP", IG_PROTO_VERSION, IG_MSG_HELLO, IG_MSG_MAX_BODY + 1);
	ck_assert_int_eq(ig_lobby_judge(b, 12, 12, false), IG_LOBBY_READY);
	put_hdr(b, "IBGP", IG_PROTO_VERSION + 1, IG_MSG_HELLO, 10);
	ck_assert_int_eq(ig_lobby_judge(b, 12, 12, false), IG_LOBBY_READY);
	put_hdr(b, "IBGP", IG_PROTO_VERSION, IG_MSG_TYPE_MAX, 10);
	ck_assert_int_eq(ig_lobby_judge(b, 12, 12, false), IG_LOBBY_READY);
}
END_TEST

START_TEST(test_evict_oldest)
{
	struct ig_lobby l;
	struct pollfd p[IG_LOBBY_MAX];

	ig_lobby_init(&l, 1000);
	for (int i = 0; i < IG_LOBBY_MAX; i++)
		ck_assert_int_eq(ig_lobby_add(&l, 100 + i, SEC), -1);
	/* full: each newcomer pushes out the oldest, in arrival order */
	ck_assert_int_eq(ig_lobby_add(&l, 500, 2 * SEC), 100);
	ck_assert_int_eq(ig_lobby_add(&l, 501, 2 * SEC), 101);
	ck_assert_uint_eq(ig_lobby_pollfds(&l, p), IG_LOBBY_MAX);
	ck_assert_int_eq(p[0].fd, 102);
	ck_assert_int_eq(p[IG_LOBBY_MAX - 1].fd, 501);
	ck_assert_int_eq(p[0].events, POLLIN);
}
END_TEST

START_TEST(test_expire)
{
	struct ig_lobby l;
	struct pollfd p[IG_LOBBY_MAX];
	int ready[IG_LOBBY_MAX], expired[IG_LOBBY_MAX], fds[IG_LOBBY_MAX];
	unsigned int nr, ne;

	ig_lobby_init(&l, 1500); /* 1.5 s */
	ig_lobby_add(&l, 7, 10 * SEC);
	ig_lobby_add(&l, 8, 11 * SEC);
	ig_lobby_pollfds(&l, p);
	/* 1.4 s after the first: nobody is due */
	ig_lobby_sweep(&l, p, 10 * SEC + 1400000000ull, IG_LOBBY_MAX, ready,
		       &nr, expired, &ne);
	ck_assert_uint_eq(nr + ne, 0);
	/* 1.5 s after the first: it goes, the second stays */
	ig_lobby_pollfds(&l, p);
	ig_lobby_sweep(&l, p, 10 * SEC + 1500000000ull, IG_LOBBY_MAX, ready,
		       &nr, expired, &ne);
	ck_assert_uint_eq(nr, 0);
	ck_assert_uint_eq(ne, 1);
	ck_assert_int_eq(expired[0], 7);
	ck_assert_uint_eq(ig_lobby_drain(&l, fds), 1);
	ck_assert_int_eq(fds[0], 8);
	ck_assert_uint_eq(ig_lobby_drain(&l, fds), 0);
}
END_TEST

/* Three real connections: one sends a whole HELLO, one closes, one says
 * nothing; poll() then sweep. */
START_TEST(test_sweep_sockets)
{
	struct ig_lobby l;
	struct pollfd p[IG_LOBBY_MAX];
	int ready[IG_LOBBY_MAX], expired[IG_LOBBY_MAX];
	int sp[3][2];
	uint8_t msg[12 + 2];
	unsigned int nr, ne, n;

	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sp[i]), 0);
	ig_lobby_init(&l, 60000);
	for (int i = 0; i < 3; i++)
		ig_lobby_add(&l, sp[i][0], SEC);
	put_hdr(msg, "IBGP", IG_PROTO_VERSION, IG_MSG_HELLO, 2);
	memcpy(msg + 12, "{}", 2);
	/* the first sends its header only: not yet */
	ck_assert_int_eq(write(sp[0][1], msg, 12), 12);
	close(sp[1][1]);
	n = ig_lobby_pollfds(&l, p);
	ck_assert_int_ge(poll(p, n, 1000), 1);
	ig_lobby_sweep(&l, p, 2 * SEC, IG_LOBBY_MAX, ready, &nr, expired, &ne);
	ck_assert_uint_eq(nr, 1);
	ck_assert_int_eq(ready[0], sp[1][0]); /* the closed one */
	ck_assert_uint_eq(ne, 0);
	/* the rest of the HELLO: ready, and the bytes are still unread */
	ck_assert_int_eq(write(sp[0][1], msg + 12, 2), 2);
	n = ig_lobby_pollfds(&l, p);
	ck_assert_uint_eq(n, 2);
	ck_assert_int_ge(poll(p, n, 1000), 1);
	/* max_ready 0: nothing is taken, nothing is lost */
	ig_lobby_sweep(&l, p, 2 * SEC, 0, ready, &nr, expired, &ne);
	ck_assert_uint_eq(nr + ne, 0);
	ig_lobby_sweep(&l, p, 2 * SEC, IG_LOBBY_MAX, ready, &nr, expired, &ne);
	ck_assert_uint_eq(nr, 1);
	ck_assert_int_eq(ready[0], sp[0][0]);
	ck_assert_int_eq(read(sp[0][0], msg, sizeof(msg)), (int)sizeof(msg));
	ck_assert_uint_eq(l.n, 1); /* the silent one waits */
	for (int i = 0; i < 3; i++) {
		close(sp[i][0]);
		if (i != 1)
			close(sp[i][1]);
	}
}
END_TEST

static Suite *lobby_suite(void)
{
	Suite *s = suite_create("lobby");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_judge);
	tcase_add_test(tc, test_evict_oldest);
	tcase_add_test(tc, test_expire);
	tcase_add_test(tc, test_sweep_sockets);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(lobby_suite());
}
