/* SPDX-License-Identifier: MIT */
#ifndef IG_PROTO_H
#define IG_PROTO_H

#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "common/json.h"
#include "common/params.h"

/*
 * Control-channel message framing (docs/design.md, "Wire protocol"):
 *
 *   offset  size  field
 *   0       4     magic "IBGP"
 *   4       2     protocol version, big endian (IG_PROTO_VERSION)
 *   6       2     message type, big endian (enum ig_msg_type)
 *   8       4     body length in bytes, big endian, <= IG_MSG_MAX_BODY
 *   12      n     body: one JSON object, UTF-8, no terminating NUL
 */
#define IG_PROTO_MAGIC "IBGP"
#define IG_PROTO_VERSION 1
#define IG_MSG_HDR_LEN 12
#define IG_MSG_MAX_BODY (64u * 1024)

enum ig_msg_type {
	IG_MSG_HELLO = 1,  /* c->s  {sysinfo} */
	IG_MSG_WELCOME,	   /* s->c  {sysinfo, auth (with --auth-file)} */
	IG_MSG_BUSY,	   /* s->c  {message} another session is running */
	IG_MSG_ERROR,	   /* both  {message} */
	IG_MSG_SETUP,	   /* c->s  {params} */
	IG_MSG_XPORT,	   /* both  transport-specific exchange */
	IG_MSG_READY,	   /* s->c  {window_rcv, ...} */
	IG_MSG_SYNC,	   /* c->s  {rx_bytes: [per stream]} */
	IG_MSG_SYNCED,	   /* s->c  {} */
	IG_MSG_BEGIN,	   /* c->s  {} measured interval starts */
	IG_MSG_END,	   /* c->s  {} measured interval ended */
	IG_MSG_RESULT,	   /* s->c  {cpu, rx_bytes} */
	IG_MSG_KEEPALIVE,  /* c->s  {} resets the server's deadline */
	IG_MSG_BYE,	   /* c->s  {} */
	IG_MSG_DOCTOR,	   /* c->s  {window} run the doctor there */
	IG_MSG_FINDINGS,   /* s->c  {host, paths, findings, read_errors} */
	IG_MSG_AUTH,	   /* s->c  {nonce} --auth-file: prove you hold it */
	IG_MSG_AUTH_REPLY, /* c->s  {nonce, mac} */
	IG_MSG_TRY,	   /* c->s  {changes} apply them (trymsg.h) */
	IG_MSG_TRIED,	   /* s->c  {changes} with from, {refused}, {error} */
	IG_MSG_UNTRY,	   /* c->s  {keep} put back the session's changes */
	IG_MSG_UNTRIED,	   /* s->c  {restored, errors} */
	IG_MSG_RAILS,	   /* c->s  {} the server's rails (railmsg.h) */
	IG_MSG_RAILS_INFO, /* s->c  {rails: [...]} */
	IG_MSG_VERBS_EP, /* both  {eps: [...]} QPs without rdma_cm (epmsg.h) */
	IG_MSG_TYPE_MAX,
};

struct ig_msg_hdr {
	uint16_t version;
	uint16_t type;
	uint32_t len;
};

const char *ig_msg_type_name(unsigned int type);

/*
 * Pure decoder of a header (buf holds at least IG_MSG_HDR_LEN bytes).
 * Returns 0, -EPROTO (bad magic), -EPROTONOSUPPORT (other version: h->version
 * says which), -EMSGSIZE (body over the cap), -EBADMSG (unknown type).
 */
int ig_msg_hdr_decode(const uint8_t *buf, struct ig_msg_hdr *h);
void ig_msg_hdr_encode(uint8_t *buf, uint16_t type, uint32_t len);

/* Pure decoder of a body: a JSON object of exactly len bytes.  Returns 0
 * and a new reference in *body, or -EBADMSG. */
int ig_msg_body_decode(const uint8_t *buf, size_t len, json_object **body);

/*
 * Decodes one whole message from buf[0..len).  Returns the number of bytes
 * consumed (> 0), -EAGAIN when buf holds only part of a message, or an
 * error of the two functions above.  For the fuzzer and the unit tests.
 */
int ig_msg_decode(const uint8_t *buf, size_t len, struct ig_msg_hdr *h,
		  json_object **body);

/* Params <-> JSON.  from_json returns -EINVAL with a line in err when a
 * field is missing, of the wrong type or too large for its field, or the
 * test is unknown; values are checked separately by ig_params_check().
 * The test travels by its name, its row's in tt. */
json_object *ig_params_to_json(const struct ig_tests *tt,
			       const struct ig_params *p);
int ig_params_from_json(const struct ig_tests *tt, json_object *o,
			struct ig_params *p, char *err, size_t errlen);

#endif
