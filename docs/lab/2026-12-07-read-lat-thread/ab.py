import sys, statistics as st
d = {}
for l in open(sys.argv[1]):
    f = l.split()
    if len(f) < 5 or not f[1].isdigit(): continue
    d.setdefault(int(f[1]), {})[f[0]] = [float(x) for x in f[2:5]]
a, b = sys.argv[2], sys.argv[3]
for i, name in enumerate(["min", "p50", "avg"]):
    r = sorted(v[a][i] / v[b][i] for v in d.values() if a in v and b in v)
    n = len(r)
    print(f"{name}: {a}/{b} median {st.median(r):.4f} n={n} range {r[0]:.3f}-{r[-1]:.3f}",
          f"{a} {st.median(v[a][i] for v in d.values() if a in v):.2f} {b} {st.median(v[b][i] for v in d.values() if b in v):.2f}")
