// SPDX-License-Identifier: MIT
/*
 * Unit tests for file.c: whole files into memory with a size cap.  Files
 * are written here, in a fresh temporary directory, with known contents.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/file.h"
#include "testmain.h"

#define BIG (200 * 1024) /* more than one 64 KiB buffer */

static char dir[64];
static char path[128];

static void dir_setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/ibgap-test-file.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/f", dir);
}

static void dir_teardown(void)
{
	unlink(path);
	rmdir(dir);
}

/* path holding the n bytes of data, replacing what it held. */
static void put(const void *data, size_t n)
{
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(data, 1, n, f), n);
	ck_assert_int_eq(fclose(f), 0);
}

/* n bytes of a pattern that shows a byte out of place */
static char *pattern(size_t n)
{
	char *p = malloc(n);

	ck_assert_ptr_nonnull(p);
	for (size_t i = 0; i < n; i++)
		p[i] = (char)('a' + i % 23);
	return p;
}

/* Reads path with the cap and expects all of want[0..n), NUL-terminated. */
static void read_ok(size_t cap, const char *want, size_t n)
{
	char *buf = (char *)&buf;
	size_t len = 12345;

	ck_assert_int_eq(ig_file_read(path, cap, &buf, &len), 0);
	ck_assert_ptr_nonnull(buf);
	ck_assert_uint_eq(len, n);
	ck_assert_mem_eq(buf, want, n);
	ck_assert_int_eq(buf[n], '\0');
	free(buf);
}

/* Reads path with the cap and expects ret, no buffer, and len bytes. */
static void read_fails(size_t cap, int ret, size_t len_want)
{
	char *buf = (char *)&buf;
	size_t len = 12345;

	ck_assert_int_eq(ig_file_read(path, cap, &buf, &len), ret);
	ck_assert_ptr_null(buf);
	ck_assert_uint_eq(len, len_want);
}

START_TEST(test_normal)
{
	static const char text[] = "cpu  1 2 3 4\nintr 5\n";
	char *big = pattern(BIG);

	put(text, sizeof(text) - 1);
	read_ok(4096, text, sizeof(text) - 1);
	/* several buffers' worth, under a cap of several buffers too */
	put(big, BIG);
	read_ok(1024 * 1024, big, BIG);
	free(big);
}
END_TEST

START_TEST(test_nul_inside)
{
	static const char text[] = { 'a', '\0', 'b' };

	put(text, sizeof(text));
	read_ok(16, text, sizeof(text));
}
END_TEST

START_TEST(test_empty)
{
	put("", 0);
	read_ok(4096, "", 0);
	read_ok(0, "", 0);
}
END_TEST

START_TEST(test_cap)
{
	char *big = pattern(BIG);

	put(big, 100);
	read_ok(100, big, 100); /* exactly the cap: accepted */
	read_fails(99, -EFBIG, 100);
	read_fails(0, -EFBIG, 1);
	/* over a cap beyond the first buffer: read up to the cap plus one */
	put(big, BIG);
	read_ok(BIG, big, BIG);
	read_fails(BIG - 1, -EFBIG, BIG);
	read_fails(70000, -EFBIG, 70001);
	free(big);
}
END_TEST

START_TEST(test_missing)
{
	read_fails(4096, -ENOENT, 0);
	ck_assert_int_eq(mkdir(path, 0700), 0);
	read_fails(4096, -EISDIR, 0);
	ck_assert_int_eq(rmdir(path), 0);
}
END_TEST

/* A pipe has no size in advance: read until its end, or the cap. */
START_TEST(test_pipe)
{
	static const char text[] = "through a pipe";
	size_t len = 0;
	char *buf;
	int fd[2];

	ck_assert_int_eq(pipe(fd), 0);
	ck_assert_int_eq(write(fd[1], text, sizeof(text)), sizeof(text));
	close(fd[1]);
	ck_assert_int_eq(ig_file_read_fd(fd[0], 64, &buf, &len), 0);
	close(fd[0]);
	ck_assert_uint_eq(len, sizeof(text));
	ck_assert_str_eq(buf, text);
	free(buf);
	ck_assert_int_eq(ig_file_read_fd(-1, 64, &buf, &len), -EBADF);
	ck_assert_ptr_null(buf);
}
END_TEST

/* An output path: a directory, a missing directory, a file (there or
 * not) in a directory that exists. */
START_TEST(test_check_out)
{
	char err[256], p[192];
	const struct ig_file_out out[] = { { "-o", NULL }, { "--plot", dir } };

	ck_assert_int_eq(ig_file_check_out("-o", dir, err, sizeof(err)),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "is a directory"));
	ck_assert_ptr_nonnull(strstr(err, dir));
	snprintf(p, sizeof(p), "%s/no/x.svg", dir);
	ck_assert_int_eq(ig_file_check_out("--plot", p, err, sizeof(err)),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "--plot: '"));
	ck_assert_ptr_nonnull(strstr(err, "/no'"));
	ck_assert_int_eq(ig_file_check_out("-o", "", err, sizeof(err)),
			 -EINVAL);
	ck_assert_int_eq(ig_file_check_out("-o", path, err, sizeof(err)), 0);
	put("x", 1);
	ck_assert_int_eq(ig_file_check_out("-o", path, err, sizeof(err)), 0);
	/* a set path is checked, an unset one is not */
	ck_assert_int_eq(ig_file_check_outs(out, 1, err, sizeof(err)), 0);
	ck_assert_int_eq(ig_file_check_outs(out, 2, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "--plot: "));
}
END_TEST

static Suite *file_suite(void)
{
	Suite *s = suite_create("file");
	TCase *tc = tcase_create("read");

	tcase_add_checked_fixture(tc, dir_setup, dir_teardown);
	tcase_add_test(tc, test_normal);
	tcase_add_test(tc, test_nul_inside);
	tcase_add_test(tc, test_empty);
	tcase_add_test(tc, test_cap);
	tcase_add_test(tc, test_missing);
	tcase_add_test(tc, test_pipe);
	tcase_add_test(tc, test_check_out);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(file_suite());
}
