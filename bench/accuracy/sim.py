#!/usr/bin/env python3
# bench/accuracy/sim.py - a simulation of the weighted selection on a 1-D halo
# (issue 14; doc/accuracy.md "Why the sketch points").  Exact path-cost
# histograms per rank (a task shifts them, a join adds them) against the
# online selection, re-implemented here: 8 ranks, 10 steps a phase, 40
# phases, exponential task times (mean 300 ns units), phase end by
# dissemination.  Prints, per middle level of KR report levels, the mean
# signed error and the median |error|, % of the phase's range.  Needs
# python3-numpy.  It is a model for trying rules quickly, not the product:
# bench/accuracy/run.sh measures the runtime itself.
#
#   sim.py VARIANT [SEED]      VARIANT:
#     v0     k points, each level the candidate covering its quantile (the
#            first weighted rule); KI points kept (default 5), KR levels
#            reported (default 5), FR=f1,f2,.. places the KI-2 inner points
#     v1     the same, each level the candidate whose weight centre is nearest
#     rank   each point carries its rank (paths above it), a join
#            interpolates the other side's rank linearly
#     rankl  ... logarithmically (upper half log R, lower half log N-R)
#     sketch k paths and k-1 cost-only points (the runtime's rule;
#            KR levels)
import numpy as np, sys, os
rng=np.random.default_rng(int(sys.argv[2]) if len(sys.argv)>2 else 1)
import os
K=int(os.environ.get('KI','5')); KR=int(os.environ.get('KR','5')); VAR=sys.argv[1] if len(sys.argv)>1 else 'v0'
def select(c,w,k):
    # c desc sorted, w weights; returns kept (c,w)
    n=len(c)
    if n<=k: return c,w
    tot=w.sum(); cum=np.cumsum(w); at=[0]
    fr=[j/(k-1) for j in range(1,k-1)]
    if os.environ.get('FR'): fr=[float(x) for x in os.environ['FR'].split(',')]
    for f in fr:
        t=tot*f
        i=int(np.searchsorted(cum,t,side='right'))  # first cum > t
        i=min(i,n-1)
        if VAR in('v1','v1s') and i>0:
            ci=cum[i]-w[i]/2; cp=cum[i-1]-w[i-1]/2
            if abs(cp-t)<abs(ci-t): i=i-1
        at.append(i)
    at.append(n-1)
    pick=[]
    for a in at:
        if not pick or pick[-1]!=a: pick.append(a)
    nw=w[pick].astype(float).copy()
    for q in range(len(pick)-1):
        a,b=pick[q],pick[q+1]
        span=c[a]-c[b]
        for i in range(a+1,b):
            fa=(c[i]-c[b])/span if span>0 else .5
            nw[q]+=w[i]*fa; nw[q+1]+=w[i]*(1-fa)
    return c[pick],nw
def rhat(c,X):
    xc,xr=X
    if c>xc[0]: return 0.0
    if c<=xc[-1]: return xr[-1]
    i=int(np.searchsorted(-xc,-c,side='right'))-1  # xc[i]>=c>xc[i+1]
    if xc[i]==c: return xr[i]
    f=(xc[i]-c)/(xc[i]-xc[i+1])
    if VAR=='rankl':
        N=xr[-1]
        a,b=xr[i],xr[i+1]
        if b<=N/2 or True:
            la,lb=np.log(max(a,1e-9)),np.log(b)
            up=np.exp(la+(lb-la)*f)
        if a>=N/2 or True:
            ua,ub=np.log(N-a+1),np.log(max(N-b+1,1e-9))
            lo=N+1-np.exp(ua+(ub-ua)*f)
        m=(a+b)/2
        # blend: upper half uses log of R, lower half log of N-R
        return up if m<N/2 else lo
    return xr[i]+(xr[i+1]-xr[i])*f
def rjoin(A,B,k):
    cand={}
    for (X,Y) in ((A,B),(B,A)):
        for c,r in zip(*X):
            if c in cand: continue
            cand[c]=r+rhat(c,Y) if True else 0
    # equal costs present in both: r_A + r_B: rhat returns exact xr at equal cost -> ok
    cs=np.array(sorted(cand,reverse=True)); rs=np.array([cand[c] for c in cs])
    rs=np.maximum.accumulate(rs)
    n=len(cs)
    if n<=k: return cs,rs
    N=rs[-1]; at=[0]
    for j in range(1,k-1):
        T=j*(N-1)/(k-1)+1
        i=int(np.argmin(abs(rs-T))); at.append(i)
    at.append(n-1)
    pick=sorted(set(at))
    return cs[pick],rs[pick]
def join(A,B,k):
    if VAR in('rank','rankl'): return rjoin(A,B,k)
    c=np.concatenate([A[0],B[0]]); w=np.concatenate([A[1],B[1]])
    o=np.argsort(-c,kind='stable'); return select(c[o],w[o],k)
if VAR == 'sketch':
    KI=2*KR-1
    def sselect(c,w,r):
        n=len(c)
        if n<=KI: return c,w,r
        tot=w.sum(); cum=np.cumsum(w); cen=cum-w/2
        at=[0]
        realidx=np.nonzero(r)[0]
        for j in range(1,KI-1):
            t=tot*j/(KI-1)
            if j%2==0:  # level: nearest real by center
                i=realidx[np.argmin(abs(cen[realidx]-t))]
            else:
                i=min(int(np.searchsorted(cum,t,side='right')),n-1)
                if i>0 and abs(cen[i-1]-t)<abs(cen[i]-t): i-=1
            at.append(i)
        at.append(n-1)
        pick=sorted(set(at))
        nw=w[pick].astype(float).copy()
        for q in range(len(pick)-1):
            a,b=pick[q],pick[q+1]; span=c[a]-c[b]
            for i in range(a+1,b):
                fa=(c[i]-c[b])/span if span>0 else .5
                nw[q]+=w[i]*fa; nw[q+1]+=w[i]*(1-fa)
        # real flags: level picks real; sketch picks real only if they were real AND... keep at most KR real: levels only
        lv=set(at[0::2])
        nr=np.array([ (p in lv) for p in pick])
        return c[pick],nw,nr
    def sjoin(A,B):
        c=np.concatenate([A[0],B[0]]); w=np.concatenate([A[1],B[1]]); r=np.concatenate([A[2],B[2]])
        o=np.argsort(-c,kind='stable'); return sselect(c[o],w[o],r[o])
    P=8; STEPS=10; PH=40; MEAN=300; BINS=20000
    errs=[]
    for ph in range(PH):
        H=[np.zeros(BINS) for _ in range(P)]
        for q in range(P): H[q][0]=1.0
        S=[(np.array([0.]),np.array([1.]),np.array([True])) for _ in range(P)]
        for st in range(STEPS):
            t=rng.exponential(MEAN,P).round().astype(int)
            H=[np.roll(H[q],t[q]) for q in range(P)]
            S=[(S[q][0]+t[q],S[q][1],S[q][2]) for q in range(P)]
            H2=[H[q]+H[(q-1)%P]+H[(q+1)%P] for q in range(P)]
            S=[sjoin(sjoin(S[q],S[(q-1)%P]),S[(q+1)%P]) for q in range(P)]
            m=max(h.max() for h in H2); H=[h/m for h in H2]
        tot=sum(H); cur=S; d=1
        while d<P:
            cur=[sjoin(cur[q],cur[(q-d)%P]) for q in range(P)]; d*=2
        fc,fw,fr=cur[0]
        cost=np.nonzero(tot)[0][::-1]; wt=tot[cost]; cum=np.cumsum(wt); W=cum[-1]; rg=cost[0]-cost[-1]
        fcum=np.cumsum(fw); ftot=fcum[-1]; cen=fcum-fw/2; ri=np.nonzero(fr)[0]
        for j in range(1,KR-1):
            ex=cost[min(np.searchsorted(cum,W*j/(KR-1),side='right'),len(cost)-1)]
            i=ri[np.argmin(abs(cen[ri]-ftot*j/(KR-1)))]
            errs.append((j,100*(fc[i]-ex)/rg))
    e=np.array(errs)
    print('sketch',' '.join(f"L{j}: mean{e[e[:,0]==j,1].mean():+.2f} med|{np.median(abs(e[e[:,0]==j,1])):.2f}|" for j in range(1,KR-1)))

else:
    P=8; STEPS=10; PH=40; MEAN=300
    errs=[]
    BINS=20000
    for ph in range(PH):
        H=[np.zeros(BINS) for _ in range(P)]
        for r in range(P): H[r][0]=1.0
        S=[(np.array([0.]),np.array([1.])) for _ in range(P)]
        for st in range(STEPS):
            t=rng.exponential(MEAN,P).round().astype(int)
            H=[np.roll(H[r],t[r]) for r in range(P)]
            S=[(S[r][0]+t[r],S[r][1]) for r in range(P)]
            # halo: each rank joins left and right (their pre-step state after task)
            H2=[H[r]+H[(r-1)%P]+H[(r+1)%P] for r in range(P)]
            S2=[join(join(S[r],S[(r-1)%P],K),S[(r+1)%P],K) for r in range(P)]
            m=max(h.max() for h in H2); H=[h/m for h in H2]; S=S2
        # phase end: allreduce = union of all (exact); online: dissemination join
        tot=sum(H); 
        cur=S
        d=1
        while d<P:
            cur=[join(cur[r],cur[(r-d)%P],K) for r in range(P)]; d*=2
        fin=cur[0]
        # exact quantiles
        cost=np.nonzero(tot)[0]; wt=tot[cost]; cost=cost[::-1]; wt=wt[::-1]
        cum=np.cumsum(wt); W=cum[-1]; rg=cost[0]-cost[-1]
        # online level mapping (select levels on final set)
        fc,fw=fin; fcum=np.cumsum(fw) if VAR not in('rank','rankl') else fw; ftot=fcum[-1]
        for j in range(1,KR-1):
            # exact: position (j/(K-1))*(N-1) approx by weight
            ex=cost[min(np.searchsorted(cum,W*j/(KR-1),side='right'),len(cost)-1)]
            i=min(int(np.searchsorted(fcum,ftot*j/(KR-1),side='right')),len(fc)-1)
            if VAR in('rank','rankl'): i=int(np.argmin(abs(fcum-(j*(ftot-1)/(K-1)+1))))
            errs.append((j,100*(fc[i]-ex)/rg))
    e=np.array(errs)
    print(VAR,' '.join(f"L{j}: mean{e[e[:,0]==j,1].mean():+.2f} med|{np.median(abs(e[e[:,0]==j,1])):.2f}|" for j in range(1,KR-1)))

