/* SPDX-License-Identifier: MIT */
#ifndef IG_TCP_H
#define IG_TCP_H

#include "engine/xport.h"

/* The TCP transport (src/sockets), registered in src/transports. */
extern const struct ig_xport_ops ig_tcp_ops;

#endif
