// SPDX-License-Identifier: MIT
/* VERBS_EP: the codec (epmsg.h). */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common/json.h"
#include "epmsg.h"

static json_object *ep_to_json(const struct ig_ep *e)
{
	json_object *o = json_object_new_object();
	char gid[INET6_ADDRSTRLEN];

	inet_ntop(AF_INET6, e->gid, gid, sizeof(gid));
	if (!o || ig_json_add_u64(o, "qpn", e->qpn) ||
	    ig_json_add_u64(o, "psn", e->psn) ||
	    ig_json_add_u64(o, "lid", e->lid) ||
	    ig_json_add_str(o, "gid", gid) ||
	    ig_json_add_int(o, "gid_index", e->gid_index)) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

static json_object *eps_to_json(const struct ig_epmsg *m)
{
	json_object *a = json_object_new_array();

	for (uint32_t i = 0; a && i < m->n; i++) {
		json_object *e = ep_to_json(&m->ep[i]);

		if (!e || json_object_array_add(a, e)) {
			json_object_put(e);
			json_object_put(a);
			return NULL;
		}
	}
	return a;
}

json_object *ig_epmsg_to_json(const struct ig_epmsg *m)
{
	json_object *o = json_object_new_object();

	if (!o || ig_json_add(o, "eps", eps_to_json(m)) ||
	    (m->device[0] && (ig_json_add_str(o, "device", m->device) ||
			      ig_json_add_int(o, "port", m->port))) ||
	    ig_json_add_int(o, "mtu", m->mtu) ||
	    ig_json_add_u64(o, "rd_atom", m->rd_atom)) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

/* o's integer key within [lo, hi], else -EBADMSG naming it. */
static int get_u64(json_object *o, const char *key, uint64_t lo, uint64_t hi,
		   uint64_t *v, char *err, size_t errlen)
{
	if (!ig_json_get_u64(o, key, v) && *v >= lo && *v <= hi)
		return 0;
	snprintf(err, errlen,
		 "VERBS_EP: '%s' is missing or not an integer from %llu to "
		 "%llu",
		 key, (unsigned long long)lo, (unsigned long long)hi);
	return -EBADMSG;
}

static int ep_from_json(json_object *o, struct ig_ep *e, char *err,
			size_t errlen)
{
	const char *gid = NULL;
	uint64_t qpn, psn, lid, gi;

	if (get_u64(o, "qpn", 1, 0xffffff, &qpn, err, errlen) ||
	    get_u64(o, "psn", 0, 0xffffff, &psn, err, errlen) ||
	    get_u64(o, "lid", 0, 0xffff, &lid, err, errlen) ||
	    get_u64(o, "gid_index", 0, 255, &gi, err, errlen))
		return -EBADMSG;
	if (ig_json_get_str(o, "gid", &gid) ||
	    inet_pton(AF_INET6, gid, e->gid) != 1) {
		snprintf(err, errlen,
			 "VERBS_EP: 'gid' is missing or not an IPv6-notation "
			 "GID");
		return -EBADMSG;
	}
	e->qpn = (uint32_t)qpn;
	e->psn = (uint32_t)psn;
	e->lid = (uint16_t)lid;
	e->gid_index = (int)gi;
	return 0;
}

static int eps_from_json(json_object *o, struct ig_epmsg *m, char *err,
			 size_t errlen)
{
	json_object *a = ig_json_get_array(o, "eps");
	size_t n = a ? json_object_array_length(a) : 0;

	if (!n || n > IG_MAX_STREAMS) {
		snprintf(err, errlen,
			 "VERBS_EP: 'eps' is missing or not an array of 1 to "
			 "%d endpoints",
			 IG_MAX_STREAMS);
		return -EBADMSG;
	}
	m->n = (uint32_t)n;
	for (size_t i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(a, i);

		if (!json_object_is_type(e, json_type_object)) {
			snprintf(err, errlen,
				 "VERBS_EP: endpoint %zu is not an object", i);
			return -EBADMSG;
		}
		if (ep_from_json(e, &m->ep[i], err, errlen))
			return -EBADMSG;
	}
	return 0;
}

/* The client's device and port, both or neither. */
static int rail_from_json(json_object *o, struct ig_epmsg *m, char *err,
			  size_t errlen)
{
	uint64_t port;

	m->device[0] = 0;
	m->port = 0;
	if (!json_object_object_get_ex(o, "device", NULL))
		return 0;
	if (ig_json_copy_str(o, "device", m->device, sizeof(m->device)) ||
	    !m->device[0] ||
	    strspn(m->device, "abcdefghijklmnopqrstuvwxyz"
			      "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
			      "0123456789_-.") != strlen(m->device)) {
		m->device[0] = 0;
		snprintf(err, errlen,
			 "VERBS_EP: 'device' is not an RDMA device name (up "
			 "to %zu letters, digits, '_', '-', '.')",
			 sizeof(m->device) - 1);
		return -EBADMSG;
	}
	if (get_u64(o, "port", 1, 255, &port, err, errlen))
		return -EBADMSG;
	m->port = (int)port;
	return 0;
}

int ig_epmsg_from_json(json_object *o, struct ig_epmsg *m, char *err,
		       size_t errlen)
{
	uint64_t mtu, rd;

	memset(m, 0, sizeof(*m));
	if (!json_object_is_type(o, json_type_object)) {
		snprintf(err, errlen, "VERBS_EP: the body is not an object");
		return -EBADMSG;
	}
	if (rail_from_json(o, m, err, errlen) ||
	    get_u64(o, "mtu", 256, 4096, &mtu, err, errlen) ||
	    get_u64(o, "rd_atom", 0, IG_MAX_OUTS, &rd, err, errlen))
		return -EBADMSG;
	if (mtu & (mtu - 1)) {
		snprintf(err, errlen,
			 "VERBS_EP: 'mtu' %llu is no path MTU (256, 512, "
			 "1024, 2048 or 4096)",
			 (unsigned long long)mtu);
		return -EBADMSG;
	}
	m->mtu = (int)mtu;
	m->rd_atom = (uint32_t)rd;
	return eps_from_json(o, m, err, errlen);
}
