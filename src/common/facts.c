// SPDX-License-Identifier: MIT
/* Named facts of a session: set, look up, remove. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "facts.h"

static int find(const struct ig_facts *fs, const char *name)
{
	for (unsigned int i = 0; i < fs->n && i < IG_FACT_MAX; i++)
		if (!strcmp(fs->f[i].name, name))
			return (int)i;
	return -1;
}

/* The slot of fact name, cleared, with its name; NULL when none is left. */
static struct ig_fact *slot(struct ig_facts *fs, const char *name)
{
	int i = find(fs, name);
	struct ig_fact *f;

	if (strlen(name) >= sizeof(fs->f[0].name))
		return NULL;
	if (i < 0 && fs->n >= IG_FACT_MAX)
		return NULL;
	f = &fs->f[i < 0 ? fs->n++ : (unsigned int)i];
	memset(f, 0, sizeof(*f));
	snprintf(f->name, sizeof(f->name), "%s", name);
	return f;
}

static int full(const struct ig_facts *fs, const char *name)
{
	return strlen(name) >= sizeof(fs->f[0].name) ? -EINVAL : -ENOSPC;
}

int ig_facts_set_str(struct ig_facts *fs, const char *name, const char *v)
{
	struct ig_fact *f = slot(fs, name);

	if (!f)
		return full(fs, name);
	f->kind = IG_FACT_STR;
	snprintf(f->str, sizeof(f->str), "%s", v);
	return 0;
}

int ig_facts_set_int(struct ig_facts *fs, const char *name, long long v)
{
	struct ig_fact *f = slot(fs, name);

	if (!f)
		return full(fs, name);
	f->kind = IG_FACT_INT;
	f->num = (double)v;
	return 0;
}

int ig_facts_set_real(struct ig_facts *fs, const char *name, double v)
{
	struct ig_fact *f = slot(fs, name);

	if (!f)
		return full(fs, name);
	f->kind = IG_FACT_REAL;
	f->num = v;
	return 0;
}

const struct ig_fact *ig_facts_get(const struct ig_facts *fs, const char *name)
{
	int i = find(fs, name);

	return i < 0 ? NULL : &fs->f[i];
}

const char *ig_facts_str(const struct ig_facts *fs, const char *name)
{
	const struct ig_fact *f = ig_facts_get(fs, name);

	return f && f->kind == IG_FACT_STR ? f->str : "";
}

long long ig_facts_int(const struct ig_facts *fs, const char *name,
		       long long dflt)
{
	const struct ig_fact *f = ig_facts_get(fs, name);

	return f && f->kind != IG_FACT_STR ? (long long)f->num : dflt;
}

double ig_facts_real(const struct ig_facts *fs, const char *name, double dflt)
{
	const struct ig_fact *f = ig_facts_get(fs, name);

	return f && f->kind != IG_FACT_STR ? f->num : dflt;
}

void ig_facts_del(struct ig_facts *fs, const char *name)
{
	int i = find(fs, name);

	if (i < 0)
		return;
	memmove(&fs->f[i], &fs->f[i + 1],
		(fs->n - (unsigned int)i - 1) * sizeof(fs->f[0]));
	fs->n--;
}
