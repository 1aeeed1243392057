# pool.py A B FILE...: per-round min and p50 ratios A/B pooled over files:
# median and a bootstrap 95% interval of the median
import sys, random, statistics as st
a, b, files = sys.argv[1], sys.argv[2], sys.argv[3:]
for i, name in ((0, "min"), (1, "p50")):
    r = []
    for fn in files:
        d = {}
        for l in open(fn):
            f = l.split()
            if len(f) < 5 or not f[1].isdigit():
                continue
            d.setdefault(int(f[1]), {})[f[0]] = float(f[2 + i])
        r += [v[a] / v[b] for v in d.values() if a in v and b in v]
    random.seed(1)
    bs = sorted(st.median(random.choices(r, k=len(r))) for _ in range(4000))
    print(f"{a}/{b} {name}: {st.median(r):.4f} ({bs[100]:.4f}-{bs[3899]:.4f}) n={len(r)} below1={sum(x < 1 for x in r)}")
