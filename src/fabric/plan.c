// SPDX-License-Identifier: MIT
/* Rounds of disjoint pairs packed from a list (plan.h). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"

void ig_fab_rounds_free(struct ig_fab_rounds *r)
{
	free(r->p);
	free(r->off);
	*r = (struct ig_fab_rounds){ 0 };
}

unsigned int ig_fab_rounds_get(const struct ig_fab_rounds *r, unsigned int rnd,
			       struct ig_fab_pair *out)
{
	unsigned int np;

	if (!out || rnd >= r->nrounds)
		return 0;
	np = r->off[rnd + 1] - r->off[rnd];
	memcpy(out, r->p + r->off[rnd], np * sizeof(*out));
	return np;
}

int ig_fab_plist_add(struct ig_fab_plist *l, unsigned int a, unsigned int b)
{
	if (l->k == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 1024;
		struct ig_fab_pair *p = realloc(l->p, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		l->p = p;
		l->cap = cap;
	}
	l->p[l->k++] = (struct ig_fab_pair){ a, b };
	return 0;
}

/* The scratch of a packing: which pairs are placed, the round each rank
 * was last busy in (round + 1; 0 never). */
struct pack {
	const struct ig_fab_pair *list;
	size_t k;
	unsigned int n;
	unsigned char *placed;
	unsigned int *busy;
};

/* One round from front on into out. */
static void one_round(struct pack *pk, size_t front, unsigned int stamp,
		      struct ig_fab_rounds *out)
{
	size_t end = pk->k - front > IG_FAB_PACK_WINDOW(pk->n)
			     ? front + IG_FAB_PACK_WINDOW(pk->n)
			     : pk->k;
	unsigned int used = 0;

	for (size_t i = front; i < end && used + 2 <= pk->n; i++) {
		unsigned int a = pk->list[i].a, b = pk->list[i].b;

		if (pk->placed[i] || pk->busy[a] == stamp ||
		    pk->busy[b] == stamp)
			continue;
		pk->busy[a] = pk->busy[b] = stamp;
		pk->placed[i] = 1;
		out->p[out->np++] = pk->list[i];
		used += 2;
	}
}

int ig_fab_pack(const struct ig_fab_pair *list, size_t k, unsigned int n,
		struct ig_fab_rounds *out)
{
	struct pack pk = { .list = list, .k = k, .n = n };
	size_t front = 0;
	int ret = -ENOMEM;

	*out = (struct ig_fab_rounds){ 0 };
	pk.placed = calloc(k + 1, 1);
	pk.busy = calloc((size_t)n + 1, sizeof(*pk.busy));
	out->p = malloc((k + 1) * sizeof(*out->p));
	out->off = calloc(k + 2, sizeof(*out->off));
	if (!pk.placed || !pk.busy || !out->p || !out->off)
		goto out;
	for (size_t i = 0; i < k; i++)
		pk.placed[i] = list[i].a == list[i].b || list[i].a >= n ||
			       list[i].b >= n;
	for (;;) {
		while (front < k && pk.placed[front])
			front++;
		if (front == k)
			break;
		one_round(&pk, front, out->nrounds + 1, out);
		out->off[++out->nrounds] = (unsigned int)out->np;
	}
	ret = 0;
out:
	free(pk.placed);
	free(pk.busy);
	if (ret)
		ig_fab_rounds_free(out);
	return ret;
}
