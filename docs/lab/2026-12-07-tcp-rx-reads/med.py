import collections,statistics,sys
d=collections.defaultdict(list)
for l in open(sys.argv[1]):
    f=l.split()
    if len(f)==4:
        try: d[(int(f[0]),f[2])].append(float(f[3]))
        except: pass
m=lambda s,t: statistics.median(d[(s,t)])
for s in sorted({k[0] for k in d}):
    print(s, ' '.join(f"{t}={m(s,t):.1f}" for t in 'ONQI' if (s,t) in d), ' N/O=%.3f N/Q=%.3f N/I=%.3f'%(m(s,'N')/m(s,'O'),m(s,'N')/m(s,'Q'),m(s,'N')/m(s,'I')))
    for t in 'ONQI': print('   ',t,' '.join('%.1f'%v for v in d[(s,t)]))
