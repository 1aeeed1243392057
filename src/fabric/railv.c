// SPDX-License-Identifier: MIT
/* --rails: the fabric's rule per rail (verdict.h; pure). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "verdict.h"

/* Node x's rail in measurement m (x is a or b). */
static int rail_of(const struct ig_fab_meas *m, unsigned int x)
{
	return (int)(x == m->a ? m->rail_a : m->rail_b);
}

/* Group g: its measurements into tmp (their indices in idx), each node's
 * rail into rail[]; returns how many. */
static size_t group(const struct ig_fab_meas *m, size_t k, unsigned int g,
		    unsigned int n, struct ig_fab_meas *tmp, size_t *idx,
		    int *rail)
{
	size_t c = 0;

	for (unsigned int i = 0; i < n; i++)
		rail[i] = -1;
	for (size_t j = 0; j < k; j++) {
		if (!m[j].railed || m[j].rail_a != g)
			continue;
		idx[c] = j;
		tmp[c++] = m[j];
		if (m[j].a < n && rail[m[j].a] < 0)
			rail[m[j].a] = rail_of(&m[j], m[j].a);
		if (m[j].b < n && rail[m[j].b] < 0)
			rail[m[j].b] = rail_of(&m[j], m[j].b);
	}
	return c;
}

/* The group's tests with a median of their own judged within it: their
 * flags into tmp and m. */
static int rejudge(struct ig_fab_meas *m, struct ig_fab_meas *tmp,
		   const size_t *idx, size_t c, const struct ig_fab_tol *tol)
{
	unsigned int ok[IG_TEST_COUNT] = { 0 };
	double med[IG_TEST_COUNT];
	struct ig_fab_meas *own = malloc((c ? c : 1) * sizeof(*own));

	if (!own)
		return -ENOMEM;
	memcpy(own, tmp, c * sizeof(*own));
	for (size_t j = 0; j < c; j++)
		if (own[j].ok && own[j].test < IG_TEST_COUNT)
			ok[own[j].test]++;
	if (ig_fab_judge_pairs(own, c, tol, med) < 0) {
		free(own);
		return -ENOMEM;
	}
	for (size_t j = 0; j < c; j++) {
		if (own[j].test >= IG_TEST_COUNT ||
		    ok[own[j].test] < IG_FAB_RAIL_MIN)
			continue;
		tmp[j].flagged = m[idx[j]].flagged = own[j].flagged;
		tmp[j].transient = m[idx[j]].transient = own[j].transient;
	}
	free(own);
	return 0;
}

static ssize_t judge_group(struct ig_fab_meas *m, size_t k, unsigned int g,
			   const struct ig_fab_tol *tol,
			   const double medians[IG_TEST_COUNT], unsigned int n,
			   struct ig_fab_node *nodes, int *rail,
			   struct ig_fab_meas *tmp, size_t *idx)
{
	size_t c = group(m, k, g, n, tmp, idx, rail);

	if (rejudge(m, tmp, idx, c, tol))
		return -ENOMEM;
	return ig_fab_judge_nodes(tmp, c, medians, nodes, n);
}

ssize_t ig_fab_judge_rails(struct ig_fab_meas *m, size_t k,
			   const struct ig_fab_tol *tol,
			   const double medians[IG_TEST_COUNT], unsigned int n,
			   unsigned int ngroups, struct ig_fab_node *nodes,
			   int *rail)
{
	struct ig_fab_meas *tmp = malloc((k ? k : 1) * sizeof(*tmp));
	size_t *idx = malloc((k ? k : 1) * sizeof(*idx));
	ssize_t flagged = 0, f = 0;

	for (unsigned int g = 0; tmp && idx && g < ngroups && f >= 0; g++) {
		f = judge_group(m, k, g, tol, medians, n, nodes + (size_t)g * n,
				rail + (size_t)g * n, tmp, idx);
		flagged += f;
	}
	free(tmp);
	free(idx);
	return !tmp || !idx || f < 0 ? -ENOMEM : flagged;
}
