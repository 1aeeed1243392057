/* SPDX-License-Identifier: MIT */
#ifndef IG_CODEC_H
#define IG_CODEC_H

#include <json-c/json.h>

#include "host/cpu.h"
#include "host/sysinfo.h"
#include "host/tcpinfo.h"
#include "host/xinfo.h"

/*
 * Host facts <-> JSON, as they travel in HELLO/WELCOME (sysinfo), READY
 * (xinfo) and RESULT (cpu), and as reports print them.  The *_to_json
 * functions return NULL when out of memory; the *_from_json ones return 0
 * or -EINVAL (a member missing or of the wrong type) and leave the struct
 * alone on error.  Strings from the peer are made printable.
 */
json_object *ig_cpu_usage_to_json(const struct ig_cpu_usage *u);
int ig_cpu_usage_from_json(json_object *o, struct ig_cpu_usage *u);
json_object *ig_sysinfo_to_json(const struct ig_sysinfo *si);
int ig_sysinfo_from_json(json_object *o, struct ig_sysinfo *si);
json_object *ig_xinfo_to_json(const struct ig_xinfo *x);
int ig_xinfo_from_json(json_object *o, struct ig_xinfo *x);
/*
 * One stream's TCP_INFO (RESULT's tcp_info, the report's tcp_info).  The
 * peer's values are checked: integers, retrans and retrans_total up to
 * 2^32 - 1 (the kernel's counter) with retrans <= 2^32 - 1, the others
 * within 32 bits; anything else is -EINVAL.
 */
json_object *ig_tcpinfo_to_json(const struct ig_tcpinfo *ti);
int ig_tcpinfo_from_json(json_object *o, struct ig_tcpinfo *ti);
/* n streams as an array; from_json wants exactly n valid elements. */
json_object *ig_tcpinfo_array_to_json(const struct ig_tcpinfo *ti,
				      unsigned int n);
int ig_tcpinfo_array_from_json(json_object *a, struct ig_tcpinfo *ti,
			       unsigned int n);

#endif
