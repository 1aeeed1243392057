// SPDX-License-Identifier: MIT
/* --auth-file: the shared secret and its HMAC-SHA256 proofs (auth.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include "auth.h"
#include "common/fail.h"
#include "common/file.h"

#define MAC_LEN 32 /* SHA-256 */
/* the longest file: the secret, a CR and a newline */
#define FILE_MAX (IG_AUTH_KEY_MAX + 2)

static const char label[] = "ibgap-auth-1";
static const char hexdig[] = "0123456789abcdef";

/* A regular file, private to its owner, not obviously too long. */
static int check_file(int fd, const char *path, char *err, size_t errlen)
{
	struct stat st;

	if (fstat(fd, &st))
		return ig_fail(-errno, err, errlen,
			       "cannot stat auth file '%s': %s", path,
			       strerror(errno));
	if (!S_ISREG(st.st_mode))
		return ig_fail(-EINVAL, err, errlen,
			       "auth file '%s' is %s, not a regular file: "
			       "give a file holding the shared secret",
			       path,
			       S_ISDIR(st.st_mode) ? "a directory"
						   : "a special file");
	if (st.st_mode & 077)
		return ig_fail(-EPERM, err, errlen,
			       "auth file '%s' has mode %04o; it must be "
			       "readable by its owner only (chmod 600 '%s')",
			       path, (unsigned int)(st.st_mode & 07777), path);
	if (st.st_size > FILE_MAX)
		return ig_fail(-EINVAL, err, errlen,
			       "auth file '%s' is %lld bytes, too long: the "
			       "secret must be %d to %d bytes",
			       path, (long long)st.st_size, IG_AUTH_KEY_MIN,
			       IG_AUTH_KEY_MAX);
	return 0;
}

/* Refuses a secret of n bytes, trailing newlines trimmed, outside
 * [IG_AUTH_KEY_MIN, IG_AUTH_KEY_MAX]. */
static int check_len(const char *path, size_t n, char *err, size_t errlen)
{
	if (!n)
		return ig_fail(-EINVAL, err, errlen,
			       "auth file '%s' is empty: it must hold the "
			       "shared secret, %d to %d bytes",
			       path, IG_AUTH_KEY_MIN, IG_AUTH_KEY_MAX);
	if (n < IG_AUTH_KEY_MIN)
		return ig_fail(-EINVAL, err, errlen,
			       "auth file '%s' holds a %zu-byte secret, too "
			       "short: it must be %d to %d bytes",
			       path, n, IG_AUTH_KEY_MIN, IG_AUTH_KEY_MAX);
	if (n > IG_AUTH_KEY_MAX)
		return ig_fail(-EINVAL, err, errlen,
			       "auth file '%s' holds more than %d bytes, too "
			       "long: the secret must be %d to %d bytes",
			       path, IG_AUTH_KEY_MAX, IG_AUTH_KEY_MIN,
			       IG_AUTH_KEY_MAX);
	return 0;
}

/* Reads the whole file, at most FILE_MAX bytes, into *buf. */
static int read_all(int fd, const char *path, char **buf, size_t *n, char *err,
		    size_t errlen)
{
	int ret = ig_file_read_fd(fd, FILE_MAX, buf, n);

	if (ret == -EFBIG) /* it grew since check_file() */
		return check_len(path, *n, err, errlen);
	if (ret)
		return ig_fail(ret, err, errlen,
			       "reading auth file '%s' failed: %s", path,
			       strerror(-ret));
	return 0;
}

/* Trims trailing newlines and CRs; checks the length; copies to key. */
static int take(const char *path, const char *buf, size_t n,
		struct ig_auth_key *key, char *err, size_t errlen)
{
	int ret;

	while (n && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
		n--;
	ret = check_len(path, n, err, errlen);
	if (ret)
		return ret;
	memcpy(key->k, buf, n);
	key->len = n;
	return 0;
}

int ig_auth_load(const char *path, struct ig_auth_key *key, char *err,
		 size_t errlen)
{
	char *buf = NULL;
	size_t n = 0;
	int fd, ret;

	ig_auth_wipe(key); /* no stale secret, whatever happens */
	/* O_NONBLOCK: a FIFO must not hang the open; it is refused below */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return ig_fail(-errno, err, errlen,
			       "cannot open auth file '%s': %s: give a file "
			       "holding the shared secret (%d to %d bytes, "
			       "mode 600)",
			       path, strerror(errno), IG_AUTH_KEY_MIN,
			       IG_AUTH_KEY_MAX);
	ret = check_file(fd, path, err, errlen);
	if (!ret)
		ret = read_all(fd, path, &buf, &n, err, errlen);
	close(fd);
	if (!ret) {
		ret = take(path, buf, n, key, err, errlen);
		OPENSSL_cleanse(buf, n);
		free(buf);
	}
	return ret;
}

void ig_auth_wipe(struct ig_auth_key *key)
{
	OPENSSL_cleanse(key->k, sizeof(key->k));
	key->len = 0;
}

static void hex_encode(const unsigned char *b, size_t n, char *out)
{
	for (size_t i = 0; i < n; i++) {
		out[2 * i] = hexdig[b[i] >> 4];
		out[2 * i + 1] = hexdig[b[i] & 15];
	}
	out[2 * n] = 0;
}

static int hex_val(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

bool ig_auth_hex_ok(const char *s)
{
	size_t i;

	if (!s)
		return false;
	for (i = 0; i < IG_AUTH_HEX_LEN; i++)
		if (hex_val(s[i]) < 0)
			return false;
	return s[i] == 0;
}

int ig_auth_nonce(char out[IG_AUTH_HEX_LEN + 1])
{
	unsigned char b[IG_AUTH_NONCE_LEN];

	if (RAND_bytes(b, sizeof(b)) != 1)
		return -EIO;
	hex_encode(b, sizeof(b), out);
	return 0;
}

static bool role_ok(const char *role)
{
	return role &&
	       (!strcmp(role, IG_AUTH_CLIENT) || !strcmp(role, IG_AUTH_SERVER));
}

static int mac_raw(const struct ig_auth_key *key, const char *role,
		   const char *snonce, const char *cnonce,
		   unsigned char md[MAC_LEN])
{
	unsigned char msg[sizeof(label) + sizeof(IG_AUTH_CLIENT) +
			  2 * IG_AUTH_HEX_LEN + 1];
	unsigned int mdlen = 0;
	size_t n = 0, rl;

	if (!role_ok(role) || !ig_auth_hex_ok(snonce) ||
	    !ig_auth_hex_ok(cnonce) || key->len < IG_AUTH_KEY_MIN ||
	    key->len > IG_AUTH_KEY_MAX)
		return -EINVAL;
	rl = strlen(role) + 1;
	memcpy(msg, label, sizeof(label)); /* with its NUL */
	n = sizeof(label);
	memcpy(msg + n, role, rl);
	n += rl;
	memcpy(msg + n, snonce, IG_AUTH_HEX_LEN + 1);
	n += IG_AUTH_HEX_LEN + 1;
	memcpy(msg + n, cnonce, IG_AUTH_HEX_LEN);
	n += IG_AUTH_HEX_LEN;
	if (!HMAC(EVP_sha256(), key->k, (int)key->len, msg, n, md, &mdlen) ||
	    mdlen != MAC_LEN)
		return -EIO;
	return 0;
}

int ig_auth_mac(const struct ig_auth_key *key, const char *role,
		const char *snonce, const char *cnonce,
		char out[IG_AUTH_HEX_LEN + 1])
{
	unsigned char md[MAC_LEN];
	int ret = mac_raw(key, role, snonce, cnonce, md);

	out[0] = 0;
	if (ret)
		return ret;
	hex_encode(md, sizeof(md), out);
	OPENSSL_cleanse(md, sizeof(md));
	return 0;
}

int ig_auth_verify(const struct ig_auth_key *key, const char *role,
		   const char *snonce, const char *cnonce, const char *mac_hex)
{
	unsigned char want[MAC_LEN], got[MAC_LEN];
	int ret;

	if (!ig_auth_hex_ok(mac_hex) || !ig_auth_hex_ok(snonce) ||
	    !ig_auth_hex_ok(cnonce))
		return -EBADMSG;
	ret = mac_raw(key, role, snonce, cnonce, want);
	if (ret)
		return ret;
	for (size_t i = 0; i < MAC_LEN; i++)
		got[i] = (unsigned char)(hex_val(mac_hex[2 * i]) << 4 |
					 hex_val(mac_hex[2 * i + 1]));
	ret = CRYPTO_memcmp(want, got, MAC_LEN) ? -EACCES : 0;
	OPENSSL_cleanse(want, sizeof(want));
	return ret;
}
