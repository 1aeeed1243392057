"""speed.py (run from docs/lab): rs_bw's ibgap/rstream ratio by the
guest's speed (rstream's own figure), over the three full peers runs of
2026-12-03, split in thirds; then the two runs of this directory.  Each
figure: the median and its 95% order-statistic interval."""
import glob
import statistics
from math import comb


def interval(xs):
    xs, n, k, cov = sorted(xs), len(xs), 1, 0.0
    for j in range(1, n // 2 + 1):
        c = 1 - 2 * sum(comb(n, i) for i in range(j)) / 2 ** n
        if c >= 0.95:
            k, cov = j, c
    return '%.3f (%.3f-%.3f, %.1f%%, %d rounds)' % (
        statistics.median(xs), xs[k - 1], xs[n - k], cov * 100, n)


def rounds(path):
    """(rstream Gb/s, ibgap/rstream) per round of an rs_bw .txt."""
    out = []
    for line in open(path):
        f = line.split()
        if f and f[0].isdigit():
            out.append((float(f[2]), float(f[1]) / float(f[2])))
    return out


pts = sorted(p for fn in glob.glob('2026-12-03-peers-[deg]/*.rs_bw.txt')
             for p in rounds(fn))
t = len(pts) // 3
for name, part in (('slowest', pts[:t]), ('middle', pts[t:2 * t]),
                   ('fastest', pts[2 * t:])):
    print('%s third, rstream %.3f-%.3f Gb/s: %s' % (
        name, part[0][0], part[-1][0], interval([r for _, r in part])))
for n in (400, 1600):
    print('-n/-C %d: %s' % (n, interval(
        [r for _, r in rounds('2026-12-04-rs-bw-speed/rs_bw-%d.txt' % n)])))
