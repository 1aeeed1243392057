/* SPDX-License-Identifier: MIT */
#ifndef IG_TRANSPORTS_H
#define IG_TRANSPORTS_H

#include "engine/xport.h"

/* Every transport built into ibgap, indexed by enum ig_xport_id: what
 * the client and the server hand to ig_engine_client/ig_engine_server,
 * with every transport's tests' rows (ig_transports.tests), which the
 * functions of common/params.h that read a test take. */
extern const struct ig_xports ig_transports;

/* The tests' rows, for the layers above this one. */
#define IG_TESTS (&ig_transports.tests)

#endif
