// SPDX-License-Identifier: MIT
/* Pooling repeated runs of one measurement into one result. */
#include <stdio.h>
#include <string.h>

#include "result.h"

static void cpu_add(struct ig_cpu_usage *a, const struct ig_cpu_usage *b)
{
	a->user_pct += b->user_pct;
	a->sys_pct += b->sys_pct;
	a->irq_pct += b->irq_pct;
	a->softirq_pct += b->softirq_pct;
	a->total_pct += b->total_pct;
	a->proc_user_s += b->proc_user_s;
	a->proc_sys_s += b->proc_sys_s;
	a->seconds += b->seconds;
	if (a->us_per_kib >= 0 && b->us_per_kib >= 0)
		a->us_per_kib += b->us_per_kib;
	else
		a->us_per_kib = -1;
}

/* Percentages and service demand are averaged; seconds and the
 * process's CPU seconds stay summed. */
static void cpu_avg(struct ig_cpu_usage *a, unsigned int k)
{
	a->user_pct /= k;
	a->sys_pct /= k;
	a->irq_pct /= k;
	a->softirq_pct /= k;
	a->total_pct /= k;
	if (a->us_per_kib >= 0)
		a->us_per_kib /= k;
}

/* bw_gbps, msg_rate and loss_rate from the counts */
static void rates(struct ig_result *r)
{
	if (r->seconds > 0) {
		r->bw_gbps = (double)r->bytes * 8 / r->seconds / 1e9;
		r->msg_rate = (double)r->iterations / r->seconds;
	}
	r->loss_rate = r->sent ? (double)r->lost / (double)r->sent : 0;
}

void ig_result_delivered(struct ig_result *r, uint64_t size)
{
	uint64_t got = size ? r->rx_bytes / size : 0;

	r->lossy = true;
	r->sent = r->iterations;
	r->lost = r->sent > got ? r->sent - got : 0;
	r->iterations = got;
	r->bytes = got * size;
	rates(r);
}

/* The figures a run may lack (the receiver's count, the reverse
 * direction): summed when every run has them, else absent, so that each
 * covers the same runs as bytes and seconds. */
static void pool_optional(struct ig_result *acc, const struct ig_result *r)
{
	acc->has_rx_bytes = acc->has_rx_bytes && r->has_rx_bytes;
	acc->rx_bytes = acc->has_rx_bytes ? acc->rx_bytes + r->rx_bytes : 0;
	acc->has_bidir = acc->has_bidir && r->has_bidir;
	acc->rev_bytes = acc->has_bidir ? acc->rev_bytes + r->rev_bytes : 0;
	acc->rev_seconds = acc->has_bidir ? acc->rev_seconds + r->rev_seconds
					  : 0;
	acc->partial = acc->partial || r->partial;
}

void ig_result_pool(struct ig_result *acc, const struct ig_result *r)
{
	pool_optional(acc, r);
	acc->iterations += r->iterations;
	acc->sent += r->sent;
	acc->lost += r->lost;
	acc->bytes += r->bytes;
	acc->seconds += r->seconds;
	ig_hist_merge(&acc->lat, &r->lat);
	if (acc->clock && r->clock && strcmp(acc->clock, r->clock))
		acc->clock = "mixed";
	if (acc->clock_basis &&
	    (!r->clock_basis || strcmp(acc->clock_basis, r->clock_basis)))
		acc->clock_basis = NULL;
	for (unsigned int i = 0; i < IG_MAX_STREAMS; i++)
		acc->stream_msgs[i] += r->stream_msgs[i];
	cpu_add(&acc->cpu_client, &r->cpu_client);
	if (acc->has_cpu_server && r->has_cpu_server)
		cpu_add(&acc->cpu_server, &r->cpu_server);
	else
		acc->has_cpu_server = false;
	if (!acc->warning[0])
		snprintf(acc->warning, sizeof(acc->warning), "%s", r->warning);
	ig_ctrs_pool(&acc->ctrs, &r->ctrs);
	ig_ctrs_pool(&acc->ctrs_server, &r->ctrs_server);
}

void ig_result_pool_end(struct ig_result *acc, unsigned int k)
{
	if (k < 2)
		return;
	rates(acc);
	ig_ctrs_pool_end(&acc->ctrs, k);
	ig_ctrs_pool_end(&acc->ctrs_server, k);
	cpu_avg(&acc->cpu_client, k);
	if (acc->has_cpu_server)
		cpu_avg(&acc->cpu_server, k);
}
