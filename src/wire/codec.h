/* SPDX-License-Identifier: MIT */
#ifndef IG_CODEC_H
#define IG_CODEC_H

#include <json-c/json.h>

#include "host/cpu.h"
#include "host/sysinfo.h"
#include "common/counters.h"
#include "common/facts.h"

/*
 * Host facts <-> JSON, as they travel in HELLO/WELCOME (sysinfo), READY
 * (facts) and RESULT (cpu, counters), and as reports print them.  The *_to_json
 * functions return NULL when out of memory; the *_from_json ones return 0
 * or -EINVAL (a member missing or of the wrong type) and leave the struct
 * alone on error.  Strings from the peer are made printable.
 */
json_object *ig_cpu_usage_to_json(const struct ig_cpu_usage *u);
int ig_cpu_usage_from_json(json_object *o, struct ig_cpu_usage *u);
json_object *ig_sysinfo_to_json(const struct ig_sysinfo *si);
int ig_sysinfo_from_json(json_object *o, struct ig_sysinfo *si);
/*
 * A transport's named per-stream values (RESULT, docs/design.md): each
 * group the table names is a member of o whose value is an array of one
 * object per stream, {name: value} for the values that stream has.
 * from_json reads them back by c's table (c->def, n and nstreams set):
 * a group that is absent or not an array of c->nstreams leaves its values
 * absent, so does a value that is not an integer within its bits.
 */
int ig_ctrs_to_json(json_object *o, const struct ig_ctrs *c);
void ig_ctrs_from_json(json_object *o, struct ig_ctrs *c);
/* One group as that array (the report prints groups by name). */
json_object *ig_ctrs_group_to_json(const struct ig_ctrs *c, const char *group);
/*
 * A session's facts as one object (READY, the report's device), strings,
 * integers and reals as such; from_json takes the peer's members of those
 * types, made printable, the first IG_FACT_MAX.
 */
json_object *ig_facts_to_json(const struct ig_facts *fs);
int ig_facts_from_json(json_object *o, struct ig_facts *fs);

#endif
