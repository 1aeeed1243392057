// SPDX-License-Identifier: MIT
/*
 * Log-linear histogram: see hist.h for the bucket layout.
 *
 * A value v >= IG_HIST_SUB with its top set bit at position k (k >= 7) is
 * shifted right by s = k - (IG_HIST_SUB_BITS - 1), which leaves its top
 * IG_HIST_SUB_BITS bits, a number in [IG_HIST_SUB / 2, IG_HIST_SUB).  Its
 * bucket is s * (IG_HIST_SUB / 2) + (v >> s): k = 7 (s = 1) gives buckets
 * 128..191 right after the 128 exact ones, and each further power of two
 * adds IG_HIST_SUB / 2 buckets.  Below IG_HIST_SUB the bucket is v itself.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "hist.h"

#define HIST_HALF (IG_HIST_SUB / 2)
#define HIST_MAX_SHIFT (63 - (IG_HIST_SUB_BITS - 1))

/* UINT64_MAX lands in the last bucket of the top power of two. */
_Static_assert(HIST_MAX_SHIFT *HIST_HALF + (IG_HIST_SUB - 1) ==
		       IG_HIST_NBUCKETS - 1,
	       "IG_HIST_NBUCKETS does not match the bucket of UINT64_MAX");

static inline unsigned int hist_bucket(uint64_t v)
{
	unsigned int s;

	if (v < IG_HIST_SUB)
		return (unsigned int)v;
	s = 63 - __builtin_clzll(v) - (IG_HIST_SUB_BITS - 1);
	return s * HIST_HALF + (unsigned int)(v >> s);
}

/* Lowest and highest integer value of bucket i. */
static void hist_bucket_range(unsigned int i, uint64_t *lo, uint64_t *hi)
{
	unsigned int s;

	if (i < IG_HIST_SUB) {
		*lo = i;
		*hi = i;
		return;
	}
	s = i / HIST_HALF - 1;
	*lo = (uint64_t)(i - s * HIST_HALF) << s;
	*hi = *lo + (((uint64_t)1 << s) - 1);
}

/*
 * The j-th (1-based) smallest of the c samples in bucket i, taken as
 * spread evenly over the bucket's values inside [min, max]: lo + (hi - lo)
 * (j - 1/2) / c.  One sample gives the centre; many samples of a smooth
 * distribution land near their true values, not all on one centre.
 */
static double hist_bucket_at(const struct ig_hist *h, unsigned int i,
			     uint64_t j)
{
	uint64_t lo, hi, c = h->buckets[i];

	hist_bucket_range(i, &lo, &hi);
	if (lo < h->min)
		lo = h->min;
	if (hi > h->max)
		hi = h->max;
	if (hi <= lo)
		return (double)lo;
	return (double)lo + (double)(hi - lo) * ((double)j - 0.5) / (double)c;
}

void ig_hist_init(struct ig_hist *h)
{
	memset(h, 0, sizeof(*h));
}

void ig_hist_add(struct ig_hist *h, uint64_t v)
{
	double x = (double)v;
	double d;

	if (h->count == 0) {
		h->min = v;
		h->max = v;
	} else if (v < h->min) {
		h->min = v;
	} else if (v > h->max) {
		h->max = v;
	}
	h->count++;
	h->buckets[hist_bucket(v)]++;

	/* Welford */
	d = x - h->mean;
	h->mean += d / (double)h->count;
	h->m2 += d * (x - h->mean);
}

void ig_hist_merge(struct ig_hist *dst, const struct ig_hist *src)
{
	double na, nb, n, d;
	unsigned int i;

	if (src->count == 0)
		return;
	if (dst->count == 0) {
		if (dst != src)
			memcpy(dst, src, sizeof(*dst));
		return;
	}

	/* Chan et al.: combine the two (count, mean, M2) triples. */
	na = (double)dst->count;
	nb = (double)src->count;
	n = na + nb;
	d = src->mean - dst->mean;
	dst->m2 += src->m2 + d * d * (na * nb / n);
	dst->mean += d * (nb / n);

	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	dst->count += src->count;
	for (i = 0; i < IG_HIST_NBUCKETS; i++)
		dst->buckets[i] += src->buckets[i];
}

double ig_hist_mean(const struct ig_hist *h)
{
	return h->count ? h->mean : 0.0;
}

double ig_hist_stdev(const struct ig_hist *h)
{
	if (h->count < 2)
		return 0.0;
	return sqrt(h->m2 / (double)(h->count - 1));
}

/*
 * Nearest rank ceil(q * n).  q * n carries a rounding error of a few ulps
 * (0.99 * 100 may come out as 99.00000000000001), so values within a small
 * tolerance above an integer count as that integer.
 */
static uint64_t hist_rank(uint64_t count, double q)
{
	double x = q * (double)count;
	double tol = fmax(1e-9, x * 4 * DBL_EPSILON);
	double r = ceil(x - tol);

	if (r < 1.0)
		return 1;
	if (r >= (double)count)
		return count;
	return (uint64_t)r;
}

bool ig_hist_percentile(const struct ig_hist *h, double q, double *out)
{
	uint64_t rank, cum = 0;
	unsigned int i;

	/* Also rejects NaN. */
	if (!(q > 0.0 && q < 1.0))
		return false;
	if (h->count == 0 || (double)h->count * (1.0 - q) < 1.0 - 1e-9)
		return false;

	rank = hist_rank(h->count, q);
	for (i = 0; i < IG_HIST_NBUCKETS - 1; i++) {
		if (cum + h->buckets[i] >= rank)
			break;
		cum += h->buckets[i];
	}
	*out = hist_bucket_at(h, i, rank - cum);
	return true;
}

uint64_t ig_hist_count_from(const struct ig_hist *h, uint64_t v)
{
	uint64_t n = 0;

	for (unsigned int i = hist_bucket(v); i < IG_HIST_NBUCKETS; i++)
		n += h->buckets[i];
	return n;
}
