#!/usr/bin/env python3
"""Ratios of a three-way file (round, A, B, C: mean half round trips, us).

  python3 ratios.py FILE [NAMES]   (NAMES: three, comma-separated; A,B,R)

Prints, over all rounds and over the rounds whose three runs were in one
speed of the guest (largest / smallest < 1.06), the median of each ratio
with its 95% order-statistic interval, and the geometric mean."""
import statistics as st
import sys
from math import comb


def ci(v):
    v = sorted(v)
    n = len(v)
    k = 0
    for k in range(n // 2, -1, -1):
        if sum(comb(n, i) for i in range(k, n - k + 1)) / 2**n >= 0.95:
            break
    return st.median(v), v[k], v[n - 1 - k]


def main():
    names = (sys.argv[2] if len(sys.argv) > 2 else "A,B,R").split(",")
    rows = [ln.split() for ln in open(sys.argv[1]) if ln[:1].isdigit()]
    rows = [[float(x) for x in r[1:4]] for r in rows if "NA" not in r]
    sets = (("all rounds", rows),
            ("one speed", [r for r in rows if max(r) / min(r) < 1.06]))
    for label, rs in sets:
        print("%s: %d rounds" % (label, len(rs)))
        for i, j in ((2, 0), (2, 1), (0, 1)):
            v = [r[i] / r[j] for r in rs]
            print("  %s/%s %.3f (%.3f-%.3f) geometric mean %.4f"
                  % ((names[i], names[j]) + ci(v) + (st.geometric_mean(v),)))


main()
