"""speed.py (run from docs/lab): rs_bw's ibgap/rstream ratio by the
guest's speed (rstream's own figure), over the three full peers runs of
2026-12-03, split in thirds; then the two runs of this directory.  Each
figure: the median and its 95% order-statistic interval."""
import glob
import importlib.util

# the median and its interval: the read_lat note's summary.py
_spec = importlib.util.spec_from_file_location(
    'summary', '2026-12-04-read-lat-connect/summary.py')
_summary = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_summary)
interval = _summary.interval


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
