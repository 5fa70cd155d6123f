"""Two stages within the probed lists (#15's 10^5 dense goal; docs/benchmarks/fragments.md, "Compact codes"):
a coarse code over the vectors of the nearest P lists, then int8 rescoring of the best R, which
in a browser is a second fetch of R int8 vectors (388 bytes each). Overlap@100 is the share of
the int8 top 100 among the R, since the rescoring is the reference itself. Same inputs as
bench/vector_codes.py:

    .venv-model/bin/python bench/vector_codes_two_stage.py --cache synth-1e5.embcache \
        --queries da-questions.jsonl --model models/e5-small   # PS=256 RS=3000,3500 ONLY=2bit
"""
import os

import numpy as np

from vector_inputs import D, arguments, embed_queries, int8, load_cache

args = arguments(__doc__)
X, _ = load_cache(args.cache)
N = len(X)
Xq = int8(X).astype(np.float32)
Q = embed_queries(args.model, args.queries); NQ = len(Q)
Sb = Q @ Xq.T; TOP = np.argsort(-Sb, 1, kind='stable')[:, :100]
C = X - X.mean(0, dtype=np.float64).astype(np.float32)
Rm, _ = np.linalg.qr(np.random.default_rng(7).standard_normal((D, D))); Rm = Rm.astype(np.float32)
CR = C @ Rm; QR = Q @ Rm
def sd_code(V, bits, k):
    m, sd = V.mean(0), V.std(0); lo, hi = m - k * sd, m + k * sd; lev = 2 ** bits; st = (hi - lo) / lev
    return (lo + (np.clip(np.floor((V - lo) / st), 0, lev - 1) + 0.5) * st).astype(np.float32)
sg = np.where(CR > 0, 1.0, -1.0).astype(np.float32)
codes = {
    '1bit RaBitQ (52 B)': (QR @ sg.T) * ((CR * CR).sum(1) / np.abs(CR).sum(1))[None],
    '2bit mean±2.5sd (96 B)': QR @ sd_code(CR, 2, 2.5).T,
    '3bit mean±3sd (144 B)': QR @ sd_code(CR, 3, 3.0).T,
    '4bit mean±3sd (192 B)': QR @ sd_code(CR, 4, 3.0).T,
}

# k-means lists as in vector_codes.py (323 lists, sample 64/list, 8 iterations, seed 1)
L = int(round(np.sqrt(N)))
def nearest(V, cent):
    cn = (cent * cent).sum(1); out = np.empty(len(V), dtype=np.int64)
    for i in range(0, len(V), 8192):
        out[i:i + 8192] = np.argmax(V[i:i + 8192] @ cent.T * 2 - cn, axis=1)
    return out
order = np.random.default_rng(1).permutation(N); sample = np.sort(order[:L * 64]); cent = Xq[order[:L]].copy()
for it in range(8):
    a = nearest(Xq[sample], cent)
    for l in range(L):
        if (a == l).any(): cent[l] = Xq[sample][a == l].mean(0)
lists = nearest(Xq, cent)
cq = int8(cent)
po = np.argsort(-(Q @ cq.T), 1, kind='stable')
CENT = L * (D + 4)
print(f'{N} vectors, {L} lists; bytes = centroids {CENT} + scored*bpv (first stage) + R*388 (int8 second fetch)')
PS = [int(x) for x in os.environ.get('PS', '64,128,192,256').split(',')]
RS = [int(x) for x in os.environ.get('RS', '1000,2000,4000,8000,16000').split(',')]
ONLY = os.environ.get('ONLY', '')
for name, S in codes.items():
    if ONLY and not name.startswith(ONLY): continue
    bpv = float(name.split('(')[1].split()[0])
    for P in PS:
        sel = np.zeros((NQ, L), bool); np.put_along_axis(sel, po[:, :P], True, 1); M = sel[:, lists]
        Sm = np.where(M, S, -np.inf); part = np.argsort(-Sm, 1)[:, :16000]; nsc = M.sum(1).mean()
        for R in RS:
            if 'RS' not in os.environ and (name.startswith('1bit') and R < 4000 or not name.startswith('1bit') and R > 4000): continue
            rec = np.mean([len(np.intersect1d(part[i, :R], TOP[i])) / 100 for i in range(NQ)])
            rec10 = np.mean([len(np.intersect1d(part[i, :R], TOP[i, :10])) / 10 for i in range(NQ)])
            mb = (CENT + nsc * bpv + R * 388) / 1e6
            print(f'{name:24s} P={P:3d} R={R:6d}: overlap@100 {rec:.3f} @10 {rec10:.3f}  bytes/query {mb:.2f} MB', flush=True)
