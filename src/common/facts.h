/* SPDX-License-Identifier: MIT */
#ifndef IG_FACTS_H
#define IG_FACTS_H

#include <stdbool.h>

/*
 * Named facts about one session that a transport reports (verbs: the
 * device, port, link layer, MTU, GID, ...), carried by the engine, the
 * wire and the result without being read; the report looks them up by
 * name (docs/design.md, "The transport contract").
 */
#define IG_FACT_MAX 16

/* The two the fingerprint describes, when a transport has them: the
 * device and port it ran on. */
#define IG_FACT_DEVICE "device"
#define IG_FACT_PORT "port"

enum ig_fact_kind {
	IG_FACT_STR,
	IG_FACT_INT,
	IG_FACT_REAL,
};

struct ig_fact {
	char name[24];
	enum ig_fact_kind kind;
	char str[64]; /* IG_FACT_STR */
	double num;   /* IG_FACT_INT (a whole number), IG_FACT_REAL */
};

/* In the order they were set (the order the report prints them in). */
struct ig_facts {
	unsigned int n;
	struct ig_fact f[IG_FACT_MAX];
};

/* Sets (or replaces) fact name.  0, or -ENOSPC when the set is full, or
 * -EINVAL for a name that does not fit. */
int ig_facts_set_str(struct ig_facts *fs, const char *name, const char *v);
int ig_facts_set_int(struct ig_facts *fs, const char *name, long long v);
int ig_facts_set_real(struct ig_facts *fs, const char *name, double v);
/* Fact name, or NULL. */
const struct ig_fact *ig_facts_get(const struct ig_facts *fs, const char *name);
/* Its text ("" when absent or a number). */
const char *ig_facts_str(const struct ig_facts *fs, const char *name);
/* Its number (dflt when absent or a string). */
long long ig_facts_int(const struct ig_facts *fs, const char *name,
		       long long dflt);
double ig_facts_real(const struct ig_facts *fs, const char *name, double dflt);
/* Removes fact name if it is there. */
void ig_facts_del(struct ig_facts *fs, const char *name);

#endif
