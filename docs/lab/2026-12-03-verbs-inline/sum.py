import sys, statistics as st
cur=None; d={}
for line in open(sys.argv[1]):
    line=line.rstrip('\n')
    if line.startswith('@@ '):
        _, v, r = line.split(); cur=(v,int(r)); continue
    f=line.split('\t')
    if cur and len(f)>=5 and f[3] in ('p50','mean','min'):
        d.setdefault(cur,{})[(f[2],f[3])]=float(f[4])
rounds=sorted(set(r for v,r in d))
for m in ('p50','mean','min'):
    rat_old=[]; rat_new=[]; nw=[]
    for r in rounds:
        o=d.get(('old',r),{}); n=d.get(('new',r),{})
        if ('ibgap',m) in o and ('ibgap',m) in n:
            nw.append(o[('ibgap',m)]/n[('ibgap',m)])
            rat_old.append(o[('perftest',m)]/o[('ibgap',m)])
            rat_new.append(n[('perftest',m)]/n[('ibgap',m)])
    print(m, 'old/new ibgap (>1: new faster):', ' '.join('%.3f'%x for x in nw), 'median %.4f'%st.median(nw))
    print('   pt/ibgap old:', ' '.join('%.3f'%x for x in rat_old), 'median %.4f'%st.median(rat_old))
    print('   pt/ibgap new:', ' '.join('%.3f'%x for x in rat_new), 'median %.4f'%st.median(rat_new))
