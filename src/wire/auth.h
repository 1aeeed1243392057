/* SPDX-License-Identifier: MIT */
#ifndef IG_AUTH_H
#define IG_AUTH_H

#include <stdbool.h>
#include <stddef.h>

/*
 * --auth-file: a shared secret and a mutual challenge/response on the
 * control connection (docs/design.md, "Authentication").  Both ends send a
 * fresh nonce; each proves it holds the key with
 *
 *   HMAC-SHA256(key, "ibgap-auth-1" NUL role NUL snonce NUL cnonce)
 *
 * where role is "client" or "server", so that the two proofs differ and a
 * proof sent back to its author never verifies.  Nonces and MACs travel as
 * lowercase hex.
 */
#define IG_AUTH_KEY_MIN 16
#define IG_AUTH_KEY_MAX 4096
#define IG_AUTH_NONCE_LEN 32 /* random bytes in a nonce */
#define IG_AUTH_HEX_LEN 64   /* hex digits of a nonce and of a MAC */
#define IG_AUTH_CLIENT "client"
#define IG_AUTH_SERVER "server"

struct ig_auth_key {
	unsigned char k[IG_AUTH_KEY_MAX];
	size_t len;
};

/*
 * Loads the secret: the file's bytes less trailing newlines and CRs.
 * Refuses a file that cannot be opened or read, is not a regular file, is
 * readable or writable by group or others, or holds fewer than
 * IG_AUTH_KEY_MIN or more than IG_AUTH_KEY_MAX bytes.  0, or a negative
 * errno with one line in err naming the path and what is allowed (key is
 * then wiped).
 */
int ig_auth_load(const char *path, struct ig_auth_key *key, char *err,
		 size_t errlen);
/* Overwrites the secret (OPENSSL_cleanse); len becomes 0. */
void ig_auth_wipe(struct ig_auth_key *key);

/* A fresh random nonce as IG_AUTH_HEX_LEN lowercase hex digits and a NUL.
 * 0 or -EIO (no randomness). */
int ig_auth_nonce(char out[IG_AUTH_HEX_LEN + 1]);
/* True when s is exactly IG_AUTH_HEX_LEN lowercase hex digits. */
bool ig_auth_hex_ok(const char *s);

/*
 * out = hex(HMAC-SHA256(key, "ibgap-auth-1" NUL role NUL snonce NUL
 * cnonce)), NUL-terminated.  0, or -EINVAL when role is neither
 * IG_AUTH_CLIENT nor IG_AUTH_SERVER or a nonce is not IG_AUTH_HEX_LEN hex
 * digits, -EIO when HMAC fails.
 */
int ig_auth_mac(const struct ig_auth_key *key, const char *role,
		const char *snonce, const char *cnonce,
		char out[IG_AUTH_HEX_LEN + 1]);
/*
 * Checks a peer's proof mac_hex against ig_auth_mac(key, role, snonce,
 * cnonce), comparing in constant time.  0 when it matches, -EBADMSG when
 * mac_hex (or a nonce) is not IG_AUTH_HEX_LEN lowercase hex digits,
 * -EACCES when it does not match, -EIO when HMAC fails.
 */
int ig_auth_verify(const struct ig_auth_key *key, const char *role,
		   const char *snonce, const char *cnonce, const char *mac_hex);

#endif
