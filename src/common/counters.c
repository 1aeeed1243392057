// SPDX-License-Identifier: MIT
/* Named per-stream counters: lookup, the interval and the pooling rules. */
#include <string.h>

#include "counters.h"

void ig_ctrs_init(struct ig_ctrs *c, const struct ig_ctr_def *def,
		  unsigned int n, unsigned int nstreams)
{
	memset(c, 0, sizeof(*c));
	c->def = def;
	c->n = def && n <= IG_CTR_MAX ? n : 0;
	c->nstreams = nstreams <= IG_MAX_STREAMS ? nstreams : 0;
}

bool ig_ctrs_has_group(const struct ig_ctrs *c, const char *group)
{
	for (unsigned int i = 0; i < c->n; i++) {
		if (strcmp(c->def[i].group, group))
			continue;
		for (unsigned int k = 0; k < c->nstreams; k++)
			if (c->st[k].have & (1u << i))
				return true;
	}
	return false;
}

int ig_ctrs_find(const struct ig_ctrs *c, const char *group, const char *name)
{
	for (unsigned int i = 0; i < c->n; i++)
		if (!strcmp(c->def[i].group, group) &&
		    !strcmp(c->def[i].name, name))
			return (int)i;
	return -1;
}

void ig_ctr_interval(const struct ig_ctr_def *def, unsigned int n,
		     struct ig_ctr_snap *end, const struct ig_ctr_snap *start)
{
	for (unsigned int i = 0; i < n && i < IG_CTR_MAX; i++) {
		uint32_t bit = 1u << i;
		unsigned int b = def[i].bits;

		if (def[i].rule != IG_CTR_COUNTER)
			continue;
		if (!(start->have & bit)) {
			end->have &= ~bit;
			continue;
		}
		end->v[i] -= start->v[i];
		if (b && b < 64)
			end->v[i] &= (1ull << b) - 1;
	}
}

/* a pooled with b by rule p (MEAN adds: the caller divides) */
static uint64_t pool2(enum ig_ctr_pool p, uint64_t a, uint64_t b)
{
	switch (p) {
	case IG_POOL_MAX:
		return a > b ? a : b;
	case IG_POOL_LAST:
		return b;
	default:
		return a + b;
	}
}

bool ig_ctrs_streams(const struct ig_ctrs *c, int i, uint64_t *out)
{
	unsigned int k, got = 0;
	uint64_t acc = 0;

	if (i < 0 || (unsigned int)i >= c->n)
		return false;
	for (k = 0; k < c->nstreams; k++) {
		if (!(c->st[k].have & (1u << i)))
			continue;
		acc = got ? pool2(c->def[i].pool, acc, c->st[k].v[i])
			  : c->st[k].v[i];
		got++;
	}
	if (!got)
		return false;
	*out = c->def[i].pool == IG_POOL_MEAN ? acc / got : acc;
	return true;
}

void ig_ctrs_pool(struct ig_ctrs *acc, const struct ig_ctrs *r)
{
	if (acc->def != r->def || acc->n != r->n ||
	    acc->nstreams != r->nstreams) {
		for (unsigned int k = 0; k < IG_MAX_STREAMS; k++)
			acc->st[k].have = 0;
		return;
	}
	for (unsigned int k = 0; k < acc->nstreams; k++) {
		struct ig_ctr_snap *a = &acc->st[k];

		a->have &= r->st[k].have;
		for (unsigned int i = 0; i < acc->n; i++)
			if (a->have & (1u << i))
				a->v[i] = pool2(acc->def[i].pool, a->v[i],
						r->st[k].v[i]);
	}
}

void ig_ctrs_pool_end(struct ig_ctrs *acc, unsigned int k)
{
	for (unsigned int i = 0; k > 1 && i < acc->n; i++) {
		if (acc->def[i].pool != IG_POOL_MEAN)
			continue;
		for (unsigned int s = 0; s < acc->nstreams; s++)
			acc->st[s].v[i] /= k;
	}
}
