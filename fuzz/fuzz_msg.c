// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: the control-message decoder (docs/design.md,
 * "Fuzzing").  The input is what a peer could send on the control channel.
 *
 *  1. The header decoder alone, on an exact 12-byte copy of the first
 *     bytes (so that ASan sees any read past the header): its result is
 *     one of the documented errors, and a header it accepts encodes back
 *     to the same bytes.
 *  2. The message decoder on the whole stream, message after message as
 *     the control channel reads them: it agrees with step 1 on the first
 *     header, consumes exactly header + body, and returns a JSON object.
 *     Every body is then read as SETUP parameters (ig_params_from_json,
 *     ig_params_check); parameters it accepts survive a round trip
 *     through ig_params_to_json.  The parsers the receiver runs on the
 *     other bodies' members (sysinfo, cpu, the transports' counters and
 *     facts, fingerprint, a doctor report) run on every body too, and so
 *     do the --auth-file check of AUTH_REPLY's and WELCOME's proofs and
 *     the trial messages' decoders (a TRY it accepts holds only changes
 *     the tune layer knows, and survives a round trip).
 *
 * A broken invariant aborts, which libFuzzer reports as a crash; leaks
 * are reported by LeakSanitizer.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wire/auth.h"
#include "doctor/doctor.h"
#include "host/fingerprint.h"
#include "common/params.h"
#include "wire/proto.h"
#include "wire/trymsg.h"
#include "wire/codec.h"
#include "common/json.h"
#include "transports/transports.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MUST(cond)                                                          \
	do {                                                                \
		if (!(cond)) {                                              \
			fprintf(stderr, "fuzz_msg: %s:%d: invariant: %s\n", \
				__FILE__, __LINE__, #cond);                 \
			abort();                                            \
		}                                                           \
	} while (0)

/* err holds one non-empty line (what the peer or the user is shown). */
static void check_err_line(const char *err)
{
	MUST(err[0] && !strchr(err, '\n'));
}

static int check_hdr(const uint8_t *data)
{
	uint8_t *buf = malloc(IG_MSG_HDR_LEN), enc[IG_MSG_HDR_LEN];
	struct ig_msg_hdr h;
	int ret;

	MUST(buf);
	memcpy(buf, data, IG_MSG_HDR_LEN);
	ret = ig_msg_hdr_decode(buf, &h);
	MUST(ret == 0 || ret == -EPROTO || ret == -EPROTONOSUPPORT ||
	     ret == -EMSGSIZE || ret == -EBADMSG);
	if (!ret) {
		MUST(h.version == IG_PROTO_VERSION);
		MUST(h.type > 0 && h.type < IG_MSG_TYPE_MAX);
		MUST(h.len <= IG_MSG_MAX_BODY);
		MUST(strcmp(ig_msg_type_name(h.type), "UNKNOWN"));
		ig_msg_hdr_encode(enc, h.type, h.len);
		MUST(!memcmp(enc, buf, IG_MSG_HDR_LEN));
	}
	free(buf);
	return ret;
}

static void check_params(json_object *body)
{
	struct ig_params p, q;
	char err[256], err2[256];
	json_object *o;

	memset(&p, 0, sizeof(p));
	memset(&q, 0, sizeof(q));
	if (ig_params_from_json(IG_TESTS, body, &p, err, sizeof(err))) {
		check_err_line(err);
		return;
	}
	if (ig_params_check(IG_TESTS, &p, err, sizeof(err)))
		check_err_line(err);
	o = ig_params_to_json(IG_TESTS, &p);
	MUST(o);
	MUST(!ig_params_from_json(IG_TESTS, o, &q, err2, sizeof(err2)));
	MUST(!memcmp(&p, &q, sizeof(p)));
	json_object_put(o);
}

/* The accessors the session code uses on bodies of other types. */
static void check_accessors(json_object *body)
{
	static const char *const keys[] = { "message", "port",	 "cookie",
					    "bytes",   "window", "rx_bytes" };
	const char *s;
	uint64_t v;

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (!ig_json_get_str(body, keys[i], &s))
			MUST(s);
		(void)ig_json_get_u64(body, keys[i], &v);
	}
}

/* RESULT's counters and READY's facts, read by every transport's table as
 * the client does (the client wants exactly its stream count). */
static void check_xport_members(json_object *body)
{
	json_object *m;
	size_t n;

	for (unsigned int i = 0; i < IG_XPORT_COUNT; i++) {
		const struct ig_xport_ops *o = ig_transports.ops[i];
		struct ig_ctrs c;
		struct ig_facts f;

		if (!o)
			continue;
		/* the stream count the first group's array says */
		m = o->nctrs ? ig_json_get_array(body, o->ctrs[0].group) : NULL;
		n = m ? json_object_array_length(m) : 0;
		if (m && n <= IG_MAX_STREAMS) {
			ig_ctrs_init(&c, o->ctrs, o->nctrs, (unsigned int)n);
			ig_ctrs_from_json(body, &c);
		}
		if (o->facts_key &&
		    json_object_object_get_ex(body, o->facts_key, &m))
			(void)ig_facts_from_json(m, &f);
	}
}

/* What HELLO, WELCOME, READY, RESULT (a transport's counters and facts
 * too) and FINDINGS carry, parsed as the receiver does (the fuzzer
 * reaches them whatever the header's type). */
static void check_members(json_object *body)
{
	struct ig_fingerprint fp;
	struct ig_cpu_usage cpu;
	struct ig_dr_report r;
	struct ig_sysinfo si;
	json_object *m;

	check_xport_members(body);
	memset(&si, 0, sizeof(si));
	if (json_object_object_get_ex(body, "sysinfo", &m))
		(void)ig_sysinfo_from_json(m, &si);
	if (json_object_object_get_ex(body, "host", &m))
		(void)ig_sysinfo_from_json(m, &si);
	memset(&cpu, 0, sizeof(cpu));
	if (json_object_object_get_ex(body, "cpu", &m))
		(void)ig_cpu_usage_from_json(m, &cpu);
	memset(&fp, 0, sizeof(fp));
	if (json_object_object_get_ex(body, "fingerprint", &m))
		(void)ig_fingerprint_from_json(m, &fp);
	(void)ig_dr_report_from_json(body, &r);
	ig_dr_report_free(&r);
}

/* AUTH_REPLY {nonce, mac} and WELCOME {auth} checked as the receiver
 * does, with the seeds' key and nonces (fuzz/make-seeds.sh). */
static void check_auth(json_object *body)
{
	static const struct ig_auth_key key = { .k = "0123456789abcdef",
						.len = 16 };
	static const char sn[] = "000102030405060708090a0b0c0d0e0f"
				 "101112131415161718191a1b1c1d1e1f";
	static const char cn[] = "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff"
				 "000102030405060708090a0b0c0d0e0f";
	const char *nonce = NULL, *mac = NULL;
	int ret;

	(void)ig_json_get_str(body, "nonce", &nonce);
	(void)ig_json_get_str(body, "mac", &mac);
	ret = ig_auth_verify(&key, IG_AUTH_CLIENT, sn, nonce, mac);
	MUST(ret == 0 || ret == -EBADMSG || ret == -EACCES);
	MUST(ret == -EBADMSG || (ig_auth_hex_ok(nonce) && ig_auth_hex_ok(mac)));
	if (ig_json_get_str(body, "auth", &mac))
		return;
	ret = ig_auth_verify(&key, IG_AUTH_SERVER, sn, cn, mac);
	MUST(ret == 0 || ret == -EBADMSG || ret == -EACCES);
}

static bool printable(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return false;
	return true;
}

/* TRY as the server reads it (each change one the tune layer knows, and
 * the same again after encoding), TRIED, UNTRY and UNTRIED as the client
 * and server do. */
static void check_trial(json_object *body)
{
	static const struct ig_tune_change asked = {
		.kind = IG_TUNE_SYSCTL,
		.name = "net.ipv4.tcp_rmem",
		.to = "4096 131072 6291456",
	};
	struct ig_tune_change ch[IG_TRY_MAX], back[IG_TRY_MAX];
	char err[512];
	unsigned int restored;
	size_t n = 0, m = 0;
	json_object *o;
	int ret;

	if (ig_try_from_json(body, ch, IG_TRY_MAX, &n, err, sizeof(err))) {
		check_err_line(err);
		MUST(n == 0);
	} else {
		MUST(n >= 1 && n <= IG_TRY_MAX);
		for (size_t i = 0; i < n; i++) {
			MUST(!ig_tune_check(&ch[i], err, sizeof(err)));
			/* what the server logs of it is printable */
			MUST(printable(ch[i].dev) && printable(ch[i].name) &&
			     printable(ch[i].to));
		}
		o = ig_try_to_json(ch, n);
		MUST(o && !ig_try_from_json(o, back, IG_TRY_MAX, &m, err,
					    sizeof(err)));
		MUST(m == n && !memcmp(ch, back, n * sizeof(ch[0])));
		json_object_put(o);
	}
	ch[0] = asked;
	ret = ig_tried_from_json(body, ch, 1, err, sizeof(err));
	MUST(ret == 0 || ret == -EPERM || ret == -EIO || ret == -EBADMSG);
	if (ret)
		MUST(!strchr(err, '\n'));
	(void)ig_untry_keep(body);
	ret = ig_untried_from_json(body, &restored, err, sizeof(err));
	MUST(ret == 0 || ret == -EIO || ret == -EBADMSG);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ig_msg_hdr h;
	json_object *body;
	size_t off = 0;
	int n, hret = 0;

	if (size >= IG_MSG_HDR_LEN)
		hret = check_hdr(data);
	while (off < size) {
		n = ig_msg_decode(data + off, size - off, &h, &body);
		/* the first message's header: the same verdict as alone */
		if (off == 0 && size >= IG_MSG_HDR_LEN)
			MUST(hret ? n == hret
				  : n > 0 || n == -EAGAIN || n == -EBADMSG ||
					     n == -ENOMEM);
		if (n <= 0) {
			MUST(!body);
			MUST(n == -EAGAIN || n == -EPROTO ||
			     n == -EPROTONOSUPPORT || n == -EMSGSIZE ||
			     n == -EBADMSG || n == -ENOMEM);
			break;
		}
		MUST((size_t)n == IG_MSG_HDR_LEN + h.len &&
		     (size_t)n <= size - off);
		MUST(body && json_object_is_type(body, json_type_object));
		check_params(body);
		check_accessors(body);
		check_members(body);
		check_auth(body);
		check_trial(body);
		json_object_put(body);
		off += (size_t)n;
	}
	return 0;
}
