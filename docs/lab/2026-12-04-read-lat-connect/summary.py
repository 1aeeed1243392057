"""summary.py: the ratios of rounds-oob.txt and rounds-fresh.txt (run
from this directory): medians with their 95% order-statistic interval."""
import collections
import statistics
from math import comb


def interval(xs):
    xs, n, k, cov = sorted(xs), len(xs), 1, 0.0
    for j in range(1, n // 2 + 1):
        c = 1 - 2 * sum(comb(n, i) for i in range(j)) / 2 ** n
        if c >= 0.95:
            k, cov = j, c
    return '%.3f (%.3f-%.3f, %.1f%%)' % (statistics.median(xs), xs[k - 1],
                                          xs[n - k], cov * 100)


def rows(path, test):
    d, key = collections.defaultdict(dict), None
    for line in open(path):
        f = line.rstrip('\n').split()
        if f and f[0] == '@@':
            key = tuple(f[1:3])
            continue
        if key and len(f) >= 5 and f[1] == test:
            try:
                d[key][(f[2], f[3], f[0])] = float(f[4])
            except ValueError:
                pass
    return d


def oob():
    d = rows('rounds-oob.txt', 'read_lat')
    n = len({k[1] for k in d})
    for m in ('p50', 'min'):
        def v(var, r, tool):
            return d[(var, str(r))][(tool, m, '1')]
        on = [v('old', r, 'ibgap') / v('new', r, 'ibgap')
              for r in range(1, n + 1)]
        po = [v('old', r, 'perftest') / v('old', r, 'ibgap')
              for r in range(1, n + 1)]
        pn = [v('new', r, 'perftest') / v('new', r, 'ibgap')
              for r in range(1, n + 1)]
        print('%s: rdma_cm/out-of-band %s; perftest/ibgap rdma_cm %s, '
              'out-of-band %s' % (m, interval(on), interval(po),
                                   interval(pn)))


def fresh():
    d = collections.defaultdict(dict)
    for (run,), v in rows('rounds-fresh.txt', 'read_lat').items():
        for (tool, m, r), x in v.items():
            d[(run, int(r))][(tool, m)] = x
    for m in ('p50', 'min'):
        first = [v[('perftest', m)] / v[('ibgap', m)]
                 for k, v in d.items() if k[1] % 2]
        second = [v[('perftest', m)] / v[('ibgap', m)]
                  for k, v in d.items() if not k[1] % 2]
        med = {(t, o): statistics.median(v[(t, m)] for k, v in d.items()
                                         if k[1] % 2 == o)
               for t in ('ibgap', 'perftest') for o in (0, 1)}
        print('%s: perftest/ibgap, ibgap first %s, perftest first %s; '
              'ibgap %.2f first, %.2f second; perftest %.2f first, '
              '%.2f second (us)' % (m, interval(first), interval(second),
                                    med[('ibgap', 1)], med[('ibgap', 0)],
                                    med[('perftest', 0)],
                                    med[('perftest', 1)]))


if __name__ == '__main__':
    oob()
    fresh()
