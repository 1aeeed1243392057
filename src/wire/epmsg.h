/* SPDX-License-Identifier: MIT */
#ifndef IG_EPMSG_H
#define IG_EPMSG_H

/*
 * VERBS_EP (docs/design.md, "Wire protocol" and "Verbs connections"): the
 * verbs endpoints of a connection set up without rdma_cm (a rail without
 * an IPv4 address), each side's QPs as the peer's ibv_modify_qp needs
 * them.  The client's message also names the server's device and port.
 * The codec is pure.
 */
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "common/params.h"

/* One QP's end. */
struct ig_ep {
	uint32_t qpn; /* 24 bits */
	uint32_t psn; /* 24 bits: its first send's packet sequence number */
	uint16_t lid; /* InfiniBand: the port's LID; RoCE 0 */
	uint8_t gid[16];
	int gid_index; /* the sender's index of gid, 0..255 */
};

struct ig_epmsg {
	/* the client's: the server's rail (device, port 1..255); the
	 * server's: "" and 0 */
	char device[64];
	int port;
	int mtu; /* the sender's port's active MTU, 256..4096 bytes */
	/* read tests: the client's most reads in flight, the server's the
	 * depth agreed (1..IG_MAX_OUTS); 0 other tests */
	uint32_t rd_atom;
	uint32_t n; /* 1..IG_MAX_STREAMS */
	struct ig_ep ep[IG_MAX_STREAMS];
};

/* {device?, port?, mtu, rd_atom, eps: [{qpn, psn, lid, gid, gid_index}]};
 * NULL when out of memory. */
json_object *ig_epmsg_to_json(const struct ig_epmsg *m);
/* 0, or -EBADMSG with one line in err naming the member that is missing
 * or out of range. */
int ig_epmsg_from_json(json_object *o, struct ig_epmsg *m, char *err,
		       size_t errlen);

#endif
