/* SPDX-License-Identifier: MIT */
#ifndef IG_HIST_H
#define IG_HIST_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Log-linear latency histogram of unsigned 64-bit values (nanoseconds).
 *
 * Values below IG_HIST_SUB are counted exactly.  Above, every power-of-two
 * range [2^k, 2^(k+1)) is cut into IG_HIST_SUB/2 equal buckets, so a bucket
 * is at most 2^k / (IG_HIST_SUB/2) wide: any value in it is within
 * 2/IG_HIST_SUB (< 1.6%) of any other, and within 1/IG_HIST_SUB (< 1%) of
 * its centre.  Memory is fixed: it does not grow with the number of
 * samples.
 *
 * min, max, mean and standard deviation are exact (not bucketed): mean and
 * variance are kept with Welford's method in double precision.
 */
#define IG_HIST_SUB_BITS 7
#define IG_HIST_SUB (1u << IG_HIST_SUB_BITS) /* 128 */
#define IG_HIST_NBUCKETS \
	((64 - IG_HIST_SUB_BITS + 1) * (IG_HIST_SUB / 2) + IG_HIST_SUB / 2)

struct ig_hist {
	uint64_t count;
	uint64_t min;
	uint64_t max;
	double mean;
	double m2; /* sum of squared deviations from the mean */
	uint64_t buckets[IG_HIST_NBUCKETS];
};

void ig_hist_init(struct ig_hist *h);
void ig_hist_add(struct ig_hist *h, uint64_t v);
/* Adds every sample of src into dst (per-stream histograms -> total). */
void ig_hist_merge(struct ig_hist *dst, const struct ig_hist *src);

double ig_hist_mean(const struct ig_hist *h);
/* Sample standard deviation (n - 1); 0 when count < 2. */
double ig_hist_stdev(const struct ig_hist *h);

/*
 * Percentile q in (0, 1).  Returns false (absent) when the sample count
 * cannot support q: at least one sample must lie above the q-th quantile,
 * i.e. count * (1 - q) >= 1 (p50 needs 2 samples, p99 100, p99.99 10000).
 * Otherwise stores in *out the value of the sample of rank ceil(q * count)
 * (nearest-rank), estimated inside its bucket: the bucket's values inside
 * [min, max], with its c samples taken as spread evenly over them, the
 * j-th of them at lo + (hi - lo) (j - 1/2) / c.  A lone sample gives the
 * centre (within 1/IG_HIST_SUB of the truth); within a bucket of many
 * samples of a smooth distribution the estimate is far closer.
 */
bool ig_hist_percentile(const struct ig_hist *h, double q, double *out);

/* Samples in the bucket of v and above: those >= v, give or take that
 * bucket's width (at most v / (IG_HIST_SUB / 2)). */
uint64_t ig_hist_count_from(const struct ig_hist *h, uint64_t v);

#endif
