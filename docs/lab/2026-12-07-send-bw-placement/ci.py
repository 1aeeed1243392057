#!/usr/bin/env python3
"""ci.py FILE...: per-round ratios ibgap/perftest by mode from lines
"round tool mode gbps" (files pooled, rounds renumbered per file); the
median and its distribution-free 95% interval (order statistics)."""
import math, statistics, sys

def interval(xs):
    n = len(xs)
    xs = sorted(xs)
    # largest k with P(Binom(n, 1/2) <= k - 1) <= 0.025: [x_k, x_(n+1-k)]
    cdf, k = 0.0, 0
    for j in range(n):
        p = math.comb(n, j) / 2 ** n
        if cdf + p > 0.025:
            break
        cdf += p
        k = j + 1
    if k == 0:
        return None
    return xs[k - 1], xs[n - k]

by = {}
for i, fn in enumerate(sys.argv[1:]):
    v = {}
    for line in open(fn):
        r, t, m, x = line.split()
        if x != 'NA':
            v[(r, t, m)] = float(x)
    for (r, t, m), x in v.items():
        if t == 'ib' and (r, 'pt', m) in v:
            by.setdefault(m, []).append(x / v[(r, 'pt', m)])
for m, xs in sorted(by.items()):
    ci = interval(xs)
    print('%s: %d rounds, median %.3f, 95%% %s' % (m, len(xs), statistics.median(xs),
          '%.3f-%.3f' % ci if ci else 'none'))
