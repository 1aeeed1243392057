/* SPDX-License-Identifier: MIT */
#ifndef IG_RAILMSG_H
#define IG_RAILMSG_H

/* RAILS/RAILS_INFO (docs/design.md, "Wire protocol"): the server's rails
 * for the client's --rails, and a rail as JSON (the report's too). */
#include <stddef.h>

#include <json-c/json.h>

#include "ctrl.h"
#include "host/rails.h"

/* {device, port, netdev, addr, prefix, numa_node, link_layer,
 * fingerprint}; NULL when out of memory. */
json_object *ig_rail_to_json(const struct ig_rail *r);
/* An array of them (NULL when out of memory). */
json_object *ig_rails_to_json(const struct ig_rails *r);
/* The array o (at most IG_RAILS_MAX kept); -EBADMSG when o is no array or
 * a member lacks a device string or a port. */
int ig_rails_from_json(json_object *o, struct ig_rails *r);

/* Client: RAILS, then RAILS_INFO into r.  0, or a negative errno with one
 * line in err (a server that predates RAILS ends the session: -EREMOTEIO
 * or -ECONNRESET). */
int ig_rails_remote(struct ig_ctrl *c, struct ig_rails *r, char *err,
		    size_t len);
/* Server: RAILS_INFO with this host's rails (none when its inventory
 * cannot be read).  0 or the send's negative errno. */
int ig_rails_serve(struct ig_ctrl *c);

#endif
