// SPDX-License-Identifier: MIT
/*
 * Pairing the results of two reports by (test, size, streams, window, and
 * the address of --also's column) for the comparison.  The new run's keys are
 * sorted once, so a pair is found by binary search: a report of any size (the
 * fuzzer's too) is matched in O(n log n), duplicates included.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "baseline_int.h"
#include "common/json.h"
#include "common/params.h"

const char *ig_bl_clean(const char *s, char *buf, size_t len)
{
	size_t i;

	for (i = 0; s[i] && i < len - 1; i++)
		buf[i] = (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?'
								    : s[i];
	buf[i] = '\0';
	return buf;
}

void ig_bl_label(const struct ig_bl_key *k, char *buf, size_t len)
{
	char test[64], at[64], size[32], win[48] = "", rail[72] = "";

	ig_size_str(k->size, size, sizeof(size));
	if (k->window) {
		memcpy(win, " window ", 8);
		ig_size_str(k->window, win + 8, sizeof(win) - 8);
	}
	if (k->rail[0]) {
		memcpy(rail, " rail ", 6);
		ig_bl_clean(k->rail, rail + 6, sizeof(rail) - 6);
	}
	snprintf(buf, len, "%s%s %s streams %" PRIu64 "%s%s",
		 ig_bl_clean(k->test, test, sizeof(test)),
		 ig_bl_clean(k->at, at, sizeof(at)), size, k->streams, win,
		 rail);
}

/* A result's key; a member absent or of another type takes its default. */
static void key_of(json_object *r, size_t idx, struct ig_bl_key *k)
{
	const char *transport = NULL;
	json_object *w;

	*k = (struct ig_bl_key){ .test = "",
				 .at = "",
				 .rail = "",
				 .size = 0,
				 .streams = 1,
				 .idx = idx };
	ig_json_get_str(r, "test", &k->test);
	ig_json_get_str(r, "rail", &k->rail);
	if (!ig_json_get_str(r, "transport", &transport) &&
	    strchr(transport, '@'))
		k->at = strchr(transport, '@');
	ig_json_get_u64(r, "size", &k->size);
	ig_json_get_u64(r, "streams", &k->streams);
	if (json_object_object_get_ex(r, "window", &w))
		ig_json_get_u64(w, "requested", &k->window);
}

static int key_cmp(const struct ig_bl_key *a, const struct ig_bl_key *b)
{
	int c = strcmp(a->test, b->test);

	if (!c)
		c = strcmp(a->at, b->at);
	if (!c)
		c = strcmp(a->rail, b->rail);
	if (c)
		return c;
	if (a->size != b->size)
		return a->size < b->size ? -1 : 1;
	if (a->streams != b->streams)
		return a->streams < b->streams ? -1 : 1;
	if (a->window != b->window)
		return a->window < b->window ? -1 : 1;
	return 0;
}

/* By key, then by place, so equal keys pair up in file order. */
static int key_sort(const void *pa, const void *pb)
{
	const struct ig_bl_key *a = pa, *b = pb;
	int c = key_cmp(a, b);

	if (c)
		return c;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

static struct ig_bl_key *keys_of(json_object *res, size_t n)
{
	struct ig_bl_key *k = calloc(n ? n : 1, sizeof(*k));

	for (size_t i = 0; k && i < n; i++)
		key_of(json_object_array_get_idx(res, i), i, &k[i]);
	return k;
}

/*
 * The first unused new result with key k: nk is sorted, so equal keys
 * form a run starting at the lower bound, and taken[lower bound] counts
 * how many of that run are used.  -1 when there is none.
 */
static long find_match(const struct ig_bl_key *nk, size_t nn, size_t *taken,
		       const struct ig_bl_key *k)
{
	size_t lo = 0, hi = nn, pos;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (key_cmp(&nk[mid], k) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == nn)
		return -1;
	pos = lo + taken[lo];
	if (pos >= nn || key_cmp(&nk[pos], k))
		return -1;
	taken[lo]++;
	return (long)pos;
}

int ig_bl_match(json_object *ores, json_object *nres,
		const struct ig_bl_match_ops *ops, void *ctx)
{
	size_t no = json_object_array_length(ores);
	size_t nn = json_object_array_length(nres);
	struct ig_bl_key *ok = keys_of(ores, no), *nk = keys_of(nres, nn), k;
	size_t *taken = calloc(nn ? nn : 1, sizeof(*taken));
	bool *used = calloc(nn ? nn : 1, sizeof(*used));
	int ret = -ENOMEM;

	if (!ok || !nk || !taken || !used)
		goto out;
	qsort(nk, nn, sizeof(*nk), key_sort);
	for (size_t i = 0; i < no; i++) {
		long m = find_match(nk, nn, taken, &ok[i]);

		if (m < 0) {
			ops->single(ctx, &ok[i], true);
			continue;
		}
		used[nk[m].idx] = true;
		ops->pair(ctx, &ok[i], json_object_array_get_idx(ores, i),
			  json_object_array_get_idx(nres, nk[m].idx));
	}
	for (size_t i = 0; i < nn; i++) {
		if (used[i])
			continue;
		key_of(json_object_array_get_idx(nres, i), i, &k);
		ops->single(ctx, &k, false);
	}
	ret = 0;
out:
	free(ok);
	free(nk);
	free(taken);
	free(used);
	return ret;
}
