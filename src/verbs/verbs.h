/* SPDX-License-Identifier: MIT */
#ifndef IG_VERBS_H
#define IG_VERBS_H

#include "engine/xport.h"

/* The verbs transport (src/verbs: RC over libibverbs and librdmacm),
 * registered in src/transports. */
extern const struct ig_xport_ops ig_vb_ops;
/* Its tests' rows (vb_tests.c). */
extern const struct ig_xport_tests ig_vb_tests;

#endif
