// SPDX-License-Identifier: MIT
/* The client's side of the session's opening: HELLO, the --auth-file
 * challenge, WELCOME. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "auth.h"
#include "codec.h"
#include "ctrl.h"
#include "hello.h"

/* The client's half of the --auth-file handshake. */
struct hello_auth {
	const struct ig_auth_key *key; /* NULL: no --auth-file */
	bool sent; /* AUTH_REPLY sent: WELCOME must carry the server's proof */
	char sn[IG_AUTH_HEX_LEN + 1], cn[IG_AUTH_HEX_LEN + 1];
};

/* AUTH {nonce}: AUTH_REPLY {nonce, mac}, or ERROR when we have no key. */
static int answer_auth(struct ig_ctrl *c, json_object *a, struct hello_auth *h)
{
	char mac[IG_AUTH_HEX_LEN + 1];
	const char *sn = NULL;
	json_object *o;
	int ret;

	if (!h->key) {
		ig_ctrl_send_msg(c, IG_MSG_ERROR, "client has no --auth-file");
		return ig_ctrl_fail(c, EACCES,
				    "the server at %s requires authentication; "
				    "give --auth-file FILE with its shared "
				    "secret",
				    c->peer);
	}
	if (ig_json_get_str(a, "nonce", &sn) || !ig_auth_hex_ok(sn))
		return ig_ctrl_fail(c, EPROTO,
				    "AUTH from %s carries no nonce of %d "
				    "lowercase hex digits",
				    c->peer, IG_AUTH_HEX_LEN);
	memcpy(h->sn, sn, sizeof(h->sn));
	ret = ig_auth_nonce(h->cn);
	if (!ret)
		ret = ig_auth_mac(h->key, IG_AUTH_CLIENT, h->sn, h->cn, mac);
	if (ret)
		return ig_ctrl_fail(c, -ret,
				    "computing the --auth-file proof: %s",
				    strerror(-ret));
	o = json_object_new_object();
	json_object_object_add(o, "nonce", json_object_new_string(h->cn));
	json_object_object_add(o, "mac", json_object_new_string(mac));
	ret = ig_ctrl_send(c, IG_MSG_AUTH_REPLY, o);
	json_object_put(o);
	h->sent = !ret;
	return ret;
}

/* With a key, WELCOME must carry the server's proof for our nonces. */
static int check_proof(struct ig_ctrl *c, json_object *w,
		       const struct hello_auth *h)
{
	const char *proof = NULL;

	if (!h->key)
		return 0;
	if (!h->sent) {
		ig_ctrl_send(c, IG_MSG_BYE, NULL);
		return ig_ctrl_fail(c, EACCES,
				    "the server at %s does not authenticate "
				    "itself (no --auth-file there); refusing "
				    "to run with --auth-file",
				    c->peer);
	}
	ig_json_get_str(w, "auth", &proof);
	if (ig_auth_verify(h->key, IG_AUTH_SERVER, h->sn, h->cn, proof))
		return ig_ctrl_fail(c, EACCES,
				    "the server at %s failed to prove it holds "
				    "the shared secret",
				    c->peer);
	return 0;
}

int ig_hello(struct ig_ctrl *c, struct ig_sysinfo *self,
	     struct ig_sysinfo *peer, const struct ig_auth_key *key)
{
	return ig_hello_group(c, self, peer, key, NULL);
}

int ig_hello_group(struct ig_ctrl *c, struct ig_sysinfo *self,
		   struct ig_sysinfo *peer, const struct ig_auth_key *key,
		   const char *group)
{
	struct hello_auth h = { .key = key };
	json_object *o = json_object_new_object(), *w = NULL, *si;
	enum ig_msg_type type;
	int ret;

	ig_sysinfo_get(self);
	json_object_object_add(o, "sysinfo", ig_sysinfo_to_json(self));
	if (group)
		json_object_object_add(o, "group",
				       json_object_new_string(group));
	ret = ig_ctrl_send(c, IG_MSG_HELLO, o);
	json_object_put(o);
	if (!ret)
		ret = ig_ctrl_expect2(c, IG_MSG_WELCOME, IG_MSG_AUTH, &type,
				      &w);
	if (!ret && type == IG_MSG_AUTH) {
		ret = answer_auth(c, w, &h);
		json_object_put(w);
		w = NULL;
		if (!ret)
			ret = ig_ctrl_expect(c, IG_MSG_WELCOME, &w);
	}
	if (!ret)
		ret = check_proof(c, w, &h);
	if (!ret && (!json_object_object_get_ex(w, "sysinfo", &si) ||
		     ig_sysinfo_from_json(si, peer)))
		ret = ig_ctrl_fail(c, EPROTO,
				   "WELCOME from %s carries no "
				   "usable sysinfo",
				   c->peer);
	json_object_put(w);
	return ret;
}
