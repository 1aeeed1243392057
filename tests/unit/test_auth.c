// SPDX-License-Identifier: MIT
/*
 * Unit tests for --auth-file (auth.c).  Expected MACs come from elsewhere
 * than ig_auth_mac: a vector computed once with Python's hmac module, and
 * OpenSSL's EVP_Q_mac() (not the HMAC() that auth.c calls) over an input
 * built here from the layout in auth.h.  Key files are made in a fresh
 * temporary directory with an explicit mode (umask does not matter).
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "wire/auth.h"
#include "testmain.h"

#define KEY_TEXT "0123456789abcdef-test-secret"
#define ZEROS64                            \
	"00000000000000000000000000000000" \
	"00000000000000000000000000000000"
#define FS64                               \
	"ffffffffffffffffffffffffffffffff" \
	"ffffffffffffffffffffffffffffffff"

#define MAX_PATHS 16

static char dir[64];
static char paths[MAX_PATHS][128];
static int npaths;

static void mkdir_setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/ibgap-test-auth.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	npaths = 0;
}

static void mkdir_teardown(void)
{
	for (int i = npaths - 1; i >= 0; i--)
		if (unlink(paths[i]))
			rmdir(paths[i]);
	rmdir(dir);
}

/* dir/name holding n bytes of data with the given mode; its path. */
static const char *mkfile(const char *name, const void *data, size_t n,
			  mode_t mode)
{
	char *p;
	int fd;

	ck_assert_int_lt(npaths, MAX_PATHS);
	p = paths[npaths++];
	snprintf(p, sizeof(paths[0]), "%s/%s", dir, name);
	fd = open(p, O_WRONLY | O_CREAT | O_EXCL, 0600);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, data, n), (ssize_t)n);
	ck_assert_int_eq(fchmod(fd, mode), 0);
	close(fd);
	return p;
}

static void key_of(struct ig_auth_key *k, const char *text)
{
	memset(k, 0, sizeof(*k));
	k->len = strlen(text);
	memcpy(k->k, text, k->len);
}

/* The MAC input of auth.h, written out here. */
static size_t mac_input(unsigned char *buf, const char *role, const char *s,
			const char *c)
{
	size_t n = 0;

	memcpy(buf, "ibgap-auth-1", 13); /* with the NUL */
	n = 13;
	memcpy(buf + n, role, strlen(role) + 1);
	n += strlen(role) + 1;
	memcpy(buf + n, s, strlen(s) + 1);
	n += strlen(s) + 1;
	memcpy(buf + n, c, strlen(c));
	return n + strlen(c);
}

/* hex(HMAC-SHA256) through EVP_Q_mac. */
static void evp_mac(const struct ig_auth_key *k, const char *role,
		    const char *s, const char *c, char out[65])
{
	unsigned char in[256], md[32];
	size_t n = mac_input(in, role, s, c), mdlen = 0;

	ck_assert_ptr_nonnull(EVP_Q_mac(NULL, "HMAC", NULL, "SHA256", NULL,
					k->k, k->len, in, n, md, sizeof(md),
					&mdlen));
	ck_assert_uint_eq(mdlen, 32);
	for (size_t i = 0; i < 32; i++)
		snprintf(out + 2 * i, 3, "%02x", md[i]);
}

START_TEST(test_mac_vector)
{
	struct ig_auth_key k;
	char out[IG_AUTH_HEX_LEN + 1];

	key_of(&k, KEY_TEXT);
	/* python3: hmac.new(key, b"ibgap-auth-1\0client\0" + s + b"\0" + c,
	 * hashlib.sha256).hexdigest() */
	ck_assert_int_eq(ig_auth_mac(&k, "client", ZEROS64, FS64, out), 0);
	ck_assert_str_eq(out, "b3ac00f503a9d8350c66101303b0dca4"
			      "88b7486b5b3fdf494b82f40996cdd9a3");
	ck_assert_int_eq(ig_auth_mac(&k, "server", ZEROS64, FS64, out), 0);
	ck_assert_str_eq(out, "51fd177c50ed67ca9a8496ad497911cc"
			      "3ce3b61ee03a05c9bbb5000d854d349d");
}
END_TEST

START_TEST(test_mac_matches_evp)
{
	struct ig_auth_key k;
	char s[65], c[65], got[65], want[65];
	static const char *const roles[] = { IG_AUTH_CLIENT, IG_AUTH_SERVER };

	for (int i = 0; i < 50; i++) {
		memset(&k, 0, sizeof(k));
		k.len = IG_AUTH_KEY_MIN + (size_t)(rand() % 200) * 20;
		for (size_t j = 0; j < k.len; j++)
			k.k[j] = (unsigned char)rand();
		ck_assert_int_eq(ig_auth_nonce(s), 0);
		ck_assert_int_eq(ig_auth_nonce(c), 0);
		for (int r = 0; r < 2; r++) {
			ck_assert_int_eq(ig_auth_mac(&k, roles[r], s, c, got),
					 0);
			evp_mac(&k, roles[r], s, c, want);
			ck_assert_str_eq(got, want);
		}
	}
}
END_TEST

START_TEST(test_roles_differ)
{
	struct ig_auth_key k;
	char s[65], c[65], mc[65], ms[65];

	key_of(&k, KEY_TEXT);
	ck_assert_int_eq(ig_auth_nonce(s), 0);
	ck_assert_int_eq(ig_auth_nonce(c), 0);
	ck_assert_int_eq(ig_auth_mac(&k, IG_AUTH_CLIENT, s, c, mc), 0);
	ck_assert_int_eq(ig_auth_mac(&k, IG_AUTH_SERVER, s, c, ms), 0);
	ck_assert_str_ne(mc, ms);
	/* a reflected proof never verifies */
	ck_assert_int_eq(ig_auth_verify(&k, IG_AUTH_SERVER, s, c, mc), -EACCES);
	ck_assert_int_eq(ig_auth_verify(&k, IG_AUTH_CLIENT, s, c, ms), -EACCES);
	/* nor one for swapped nonces */
	ck_assert_int_eq(ig_auth_verify(&k, IG_AUTH_CLIENT, c, s, mc), -EACCES);
	/* unknown role, bad nonces */
	ck_assert_int_eq(ig_auth_mac(&k, "admin", s, c, mc), -EINVAL);
	ck_assert_str_eq(mc, "");
	ck_assert_int_eq(ig_auth_mac(&k, IG_AUTH_CLIENT, "abc", c, mc),
			 -EINVAL);
	ck_assert_int_eq(ig_auth_mac(&k, IG_AUTH_CLIENT, s, NULL, mc), -EINVAL);
}
END_TEST

START_TEST(test_verify)
{
	struct ig_auth_key k, other;
	char s[65], c[65], m[65], bad[80];

	key_of(&k, KEY_TEXT);
	key_of(&other, KEY_TEXT "x");
	ck_assert_int_eq(ig_auth_nonce(s), 0);
	ck_assert_int_eq(ig_auth_nonce(c), 0);
	ck_assert_int_eq(ig_auth_mac(&k, IG_AUTH_CLIENT, s, c, m), 0);
	ck_assert_int_eq(ig_auth_verify(&k, IG_AUTH_CLIENT, s, c, m), 0);
	ck_assert_int_eq(ig_auth_verify(&other, IG_AUTH_CLIENT, s, c, m),
			 -EACCES);
	/* each hex digit flipped in turn */
	for (int i = 0; i < IG_AUTH_HEX_LEN; i++) {
		strcpy(bad, m);
		bad[i] = bad[i] == '0' ? '1' : '0';
		ck_assert_int_eq(ig_auth_verify(&k, IG_AUTH_CLIENT, s, c, bad),
				 -EACCES);
	}
	strcpy(bad, m);
	bad[63] = 0; /* short */
	ck_assert_int_eq(ig_auth_verify(&k, IG_AUTH_CLIENT, s, c, bad),
			 -EBADMSG);
	snprintf(bad, sizeof(bad), "%s0", m); /* long */
	ck_assert_int_eq(ig_auth_verify(&k, IG_AUTH_CLIENT, s, c, bad),
			 -EBADMSG);
	strcpy(bad, m);
	bad[10] = 'g'; /* not hex */
	ck_assert_int_eq(ig_auth_verify(&k, IG_AUTH_CLIENT, s, c, bad),
			 -EBADMSG);
	strcpy(bad, m);
	bad[0] = bad[0] >= 'a' ? (char)(bad[0] - 32) : 'A'; /* upper case */
	ck_assert_int_eq(ig_auth_verify(&k, IG_AUTH_CLIENT, s, c, bad),
			 -EBADMSG);
	ck_assert_int_eq(ig_auth_verify(&k, IG_AUTH_CLIENT, s, c, ""),
			 -EBADMSG);
	ck_assert_int_eq(ig_auth_verify(&k, IG_AUTH_CLIENT, s, c, NULL),
			 -EBADMSG);
	ck_assert_int_eq(ig_auth_verify(&k, IG_AUTH_CLIENT, "", c, m),
			 -EBADMSG);
}
END_TEST

START_TEST(test_nonce)
{
	char a[65], b[65];

	ck_assert_int_eq(ig_auth_nonce(a), 0);
	ck_assert_int_eq(ig_auth_nonce(b), 0);
	ck_assert_uint_eq(strlen(a), IG_AUTH_HEX_LEN);
	ck_assert_uint_eq(strspn(a, "0123456789abcdef"), IG_AUTH_HEX_LEN);
	ck_assert(ig_auth_hex_ok(a) && ig_auth_hex_ok(b));
	ck_assert_str_ne(a, b);
	ck_assert(!ig_auth_hex_ok(NULL));
	ck_assert(!ig_auth_hex_ok(""));
}
END_TEST

/* A refusal: the error, the path named, key wiped. */
static void refused(const char *path, const char *what)
{
	struct ig_auth_key k;
	char err[512];

	memset(&k, 0x5a, sizeof(k));
	err[0] = 0;
	ck_assert_int_lt(ig_auth_load(path, &k, err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, path), "'%s' does not name %s", err, path);
	ck_assert_msg(strstr(err, what), "'%s' does not say '%s'", err, what);
	ck_assert_ptr_null(strchr(err, '\n'));
	ck_assert_uint_eq(k.len, 0);
	for (size_t i = 0; i < sizeof(k.k); i++)
		ck_assert_uint_eq(k.k[i], 0);
}

START_TEST(test_load_ok)
{
	struct ig_auth_key k;
	char err[512] = "";
	char big[IG_AUTH_KEY_MAX + 1];
	const char *p = mkfile("ok", KEY_TEXT "\n", strlen(KEY_TEXT) + 1, 0600);

	ck_assert_int_eq(ig_auth_load(p, &k, err, sizeof(err)), 0);
	ck_assert_uint_eq(k.len, strlen(KEY_TEXT));
	ck_assert_int_eq(memcmp(k.k, KEY_TEXT, k.len), 0);
	ig_auth_wipe(&k);
	ck_assert_uint_eq(k.len, 0);
	ck_assert_uint_eq(k.k[0], 0);
	/* CRLF, no newline at all, owner read-only */
	p = mkfile("crlf", KEY_TEXT "\r\n", strlen(KEY_TEXT) + 2, 0400);
	ck_assert_int_eq(ig_auth_load(p, &k, err, sizeof(err)), 0);
	ck_assert_uint_eq(k.len, strlen(KEY_TEXT));
	p = mkfile("bare", KEY_TEXT, strlen(KEY_TEXT), 0600);
	ck_assert_int_eq(ig_auth_load(p, &k, err, sizeof(err)), 0);
	ck_assert_uint_eq(k.len, strlen(KEY_TEXT));
	/* the limits: 16 and 4096 bytes (with a newline) */
	p = mkfile("min", "0123456789abcdef", 16, 0600);
	ck_assert_int_eq(ig_auth_load(p, &k, err, sizeof(err)), 0);
	ck_assert_uint_eq(k.len, 16);
	memset(big, 'k', sizeof(big));
	big[IG_AUTH_KEY_MAX] = '\n';
	p = mkfile("max", big, sizeof(big), 0600);
	ck_assert_int_eq(ig_auth_load(p, &k, err, sizeof(err)), 0);
	ck_assert_uint_eq(k.len, IG_AUTH_KEY_MAX);
	ig_auth_wipe(&k);
}
END_TEST

START_TEST(test_load_refused)
{
	char big[5000];
	char missing[128];

	refused(mkfile("g", KEY_TEXT "\n", strlen(KEY_TEXT) + 1, 0644),
		"mode 0644");
	refused(mkfile("g2", KEY_TEXT, strlen(KEY_TEXT), 0640), "chmod 600");
	refused(mkfile("o", KEY_TEXT, strlen(KEY_TEXT), 0602), "mode 0602");
	refused(mkfile("short", "short-secret\n", 13, 0600), "too short");
	refused(mkfile("empty", "", 0, 0600), "empty");
	refused(mkfile("nl", "\r\n", 2, 0600), "empty");
	memset(big, 'k', sizeof(big));
	refused(mkfile("long", big, sizeof(big), 0600), "too long");
	refused(mkfile("long1", big, IG_AUTH_KEY_MAX + 1, 0600), "too long");
	snprintf(missing, sizeof(missing), "%s/missing", dir);
	refused(missing, "No such file");
	ck_assert_int_lt(npaths, MAX_PATHS);
	snprintf(paths[npaths], sizeof(paths[0]), "%s/dir", dir);
	ck_assert_int_eq(mkdir(paths[npaths], 0700), 0);
	refused(paths[npaths++], "not a regular file");
}
END_TEST

static Suite *auth_suite(void)
{
	Suite *s = suite_create("auth");
	TCase *tm = tcase_create("mac");
	TCase *tl = tcase_create("load");

	tcase_add_test(tm, test_mac_vector);
	tcase_add_test(tm, test_mac_matches_evp);
	tcase_add_test(tm, test_roles_differ);
	tcase_add_test(tm, test_verify);
	tcase_add_test(tm, test_nonce);
	suite_add_tcase(s, tm);
	tcase_add_checked_fixture(tl, mkdir_setup, mkdir_teardown);
	tcase_add_test(tl, test_load_ok);
	tcase_add_test(tl, test_load_refused);
	suite_add_tcase(s, tl);
	return s;
}

int main(void)
{
	return run_suite(auth_suite());
}
