"""Compact vector codes against brute-force int8 (#15's 10^5 dense goal; docs/benchmarks/fragments.md,
"Compact codes"). Reads the f32 vectors of a pool's embedding cache (`nomos build --embed-cache`,
format in index-builder/src/embedder/cache.rs), embeds the questions with the e5 ONNX model
("query: ", mean pooling, L2), and scores every code asymmetrically (float query . decoded code)
over all vectors and over the vectors of the nearest P of sqrt(N) k-means lists (as
core/src/dense/ivf.rs builds them): overlap@100/@10 with brute-force int8, and each code's score
error. A measurement in numpy, not our Rust code; run it with the model's venv:

    .venv-model/bin/python bench/vector_codes.py --cache synth-1e5.embcache \
        --queries da-questions.jsonl --model models/e5-small --out vector_codes.json
"""
import sys
import time

import numpy as np

from vector_inputs import D, arguments, embed_queries, int8, load_cache

args = arguments(__doc__)
T0 = time.time()
rng = np.random.default_rng(1)

X, texts = load_cache(args.cache)
print(f'cache: {texts} texts')
N = len(X)
print(f'{N} vectors; norms {np.linalg.norm(X, axis=1).min():.4f}..{np.linalg.norm(X, axis=1).max():.4f}')

Q = embed_queries(args.model, args.queries)
NQ = len(Q)
Xq = int8(X).astype(np.float32)           # baseline stored vectors
S_base = Q @ Xq.T                          # brute force int8 scores (float query)
ORDER = np.argsort(-S_base, axis=1, kind='stable')
TOP = {k: ORDER[:, :k] for k in (10, 100)}
print('top cosine per query (int8): median %.3f min %.3f max %.3f' % (
    np.median(S_base.max(1)), S_base.max(1).min(), S_base.max(1).max()))
rk = lambda r: np.take_along_axis(S_base, ORDER[:, r - 1:r], 1).mean()
print('mean score at rank 1/10/100/200/500/1000/5000: ' + ' '.join(
    f'{rk(r):.4f}' for r in (1, 10, 100, 200, 500, 1000, 5000)))

mu = X.mean(0, dtype=np.float64).astype(np.float32)
C = X - mu
qmu = Q @ mu                               # shift: q.d = q.(d-mu) + q.mu

# ---- k-means, 323 lists, as ivf.rs: Euclidean, sample 64/list, 8 Lloyd iterations ----
L = int(round(np.sqrt(N)))
def nearest(V, cent):
    cn = (cent * cent).sum(1)
    out = np.empty(len(V), dtype=np.int64)
    for i in range(0, len(V), 8192):
        out[i:i + 8192] = np.argmax(V[i:i + 8192] @ cent.T * 2 - cn, axis=1)
    return out
order = np.random.default_rng(1).permutation(N)
sample = np.sort(order[:min(N, L * 64)])
cent = Xq[order[:L]].copy()
for it in range(8):
    a = nearest(Xq[sample], cent)
    for l in range(L):
        m = a == l
        if m.any():
            cent[l] = Xq[sample][m].mean(0)
lists = nearest(Xq, cent)
sizes = np.bincount(lists, minlength=L)
cent_q = int8(cent)
print(f'k-means: {L} lists, sizes {sizes.min()}..{sizes.max()} (mean {sizes.mean():.0f}) [{time.time()-T0:.0f}s]')
PS = (64, 128, 192, 256)
cs = Q @ cent_q.T
probe_order = np.argsort(-cs, axis=1, kind='stable')
MASK, NSCORED = {}, {}
for P in PS:
    sel = np.zeros((NQ, L), bool)
    np.put_along_axis(sel, probe_order[:, :P], True, 1)
    MASK[P] = sel[:, lists]                # NQ x N: vector in a probed list
    NSCORED[P] = MASK[P].sum(1).mean()
CENTROID_BYTES = L * (D + 4)

def overlap(S, mask=None, k=100):
    if mask is not None:
        S = np.where(mask, S, -np.inf)
    top = np.argpartition(-S, k, axis=1)[:, :k]
    return np.mean([len(np.intersect1d(top[i], TOP[k][i])) / k for i in range(NQ)])

def error_stats(S):
    """Estimate error vs the int8 score, over each query's brute-force top 1000 and a random 2000."""
    idx = np.concatenate([ORDER[:, :1000], rng.integers(0, N, (NQ, 2000))], 1)
    e = np.take_along_axis(S, idx, 1) - np.take_along_axis(S_base, idx, 1)
    e_top = e[:, :1000]
    return e_top.std(axis=1).mean(), e[:, 1000:].std(axis=1).mean(), e_top.mean(axis=1).std()

rows = []
def report(name, bpv, S):
    """S: NQ x N estimated scores of q.d (shift added back)."""
    r = dict(code=name, bpv=bpv, all100=overlap(S), all10=overlap(S, k=10))
    for P in PS:
        r[f'p{P}_100'] = overlap(S, MASK[P]); r[f'p{P}_10'] = overlap(S, MASK[P], 10)
    r['err_top'], r['err_rand'], r['bias_sd'] = error_stats(S)
    r = {k: (float(v) if not isinstance(v, str) else v) for k, v in r.items()}
    rows.append(r)
    print(f"{name:34s} {bpv:6.1f}B all {r['all100']:.3f}/{r['all10']:.3f} " + ' '.join(
        f"P{P} {r[f'p{P}_100']:.3f}/{r[f'p{P}_10']:.3f}" for P in PS) +
        f" err_sd top1000 {r['err_top']:.5f} rand {r['err_rand']:.5f} [{time.time()-T0:.0f}s]", flush=True)
    sys.stdout.flush()

def score_decoded(Dec, Qx, shift):
    return (Qx @ Dec.T) + shift[:, None]

# 1. int8
report('int8 raw (baseline)', D + 4, S_base)
report('int8 centered', D + 4, score_decoded(int8(C), Q, qmu))

# 4-bit / b-bit per-dimension uniform codes
def perdim(V, bits, lo_pct=None):
    lev = 2 ** bits
    if lo_pct is None:
        lo, hi = V.min(0), V.max(0)
    else:
        lo, hi = np.percentile(V, lo_pct, axis=0), np.percentile(V, 100 - lo_pct, axis=0)
    step = (hi - lo) / lev
    c = np.clip(np.floor((V - lo) / step), 0, lev - 1)
    return (lo + (c + 0.5) * step).astype(np.float32)

def perdim_sd(V, bits, k):
    """range mean +- k*std per dimension"""
    m, s = V.mean(0), V.std(0)
    return perdim_range(V, bits, m - k * s, m + k * s)

def perdim_range(V, bits, lo, hi):
    lev = 2 ** bits
    step = (hi - lo) / lev
    c = np.clip(np.floor((V - lo) / step), 0, lev - 1)
    return (lo + (c + 0.5) * step).astype(np.float32)

# 2. 4-bit per-dimension ranges
report('4bit perdim min/max', D / 2, score_decoded(perdim(C, 4), Q, qmu))
report('4bit perdim clip 0.1%', D / 2, score_decoded(perdim(C, 4, 0.1), Q, qmu))
report('4bit perdim clip 1%', D / 2, score_decoded(perdim(C, 4, 1.0), Q, qmu))
report('4bit perdim mean±3sd', D / 2, score_decoded(perdim_sd(C, 4, 3.0), Q, qmu))

# 3. random orthogonal rotation then 4-bit
Rm, _ = np.linalg.qr(np.random.default_rng(7).standard_normal((D, D)))
Rm = Rm.astype(np.float32)
CR = C @ Rm; QR = Q @ Rm
report('rot + 4bit min/max', D / 2, score_decoded(perdim(CR, 4), QR, qmu))
report('rot + 4bit clip 0.1%', D / 2, score_decoded(perdim(CR, 4, 0.1), QR, qmu))
report('rot + 4bit mean±3sd', D / 2, score_decoded(perdim_sd(CR, 4, 3.0), QR, qmu))
# extra: fewer bits per dimension, to map the bytes/quality curve
report('rot + 3bit mean±3sd', D * 3 / 8, score_decoded(perdim_sd(CR, 3, 3.0), QR, qmu))
report('rot + 2bit mean±2.5sd', D / 4, score_decoded(perdim_sd(CR, 2, 2.5), QR, qmu))

# 4./5. PCA
cov = (C.T.astype(np.float64) @ C) / N
w, V = np.linalg.eigh(cov)
V = V[:, ::-1].astype(np.float32); w = w[::-1]
print('PCA variance kept at 32/64/128/192/256 dims: ' + ' '.join(
    f'{w[:k].sum() / w.sum():.3f}' for k in (32, 64, 128, 192, 256)))
for k in (64, 128, 192):
    Pk = C @ V[:, :k]; Qk = Q @ V[:, :k]
    report(f'PCA{k} + int8', k + 4, score_decoded(int8(Pk), Qk, qmu))
for k, bits in ((256, 4), (192, 4), (128, 4)):
    Pk = C @ V[:, :k]; Qk = Q @ V[:, :k]
    report(f'PCA{k} + {bits}bit mean±3sd', k * bits / 8, score_decoded(perdim_sd(Pk, bits, 3.0), Qk, qmu))
# extra: PCA then rotation within the subspace then int8/4bit
for k in (128,):
    Pk = C @ V[:, :k]; Qk = Q @ V[:, :k]
    Rk, _ = np.linalg.qr(np.random.default_rng(8).standard_normal((k, k))); Rk = Rk.astype(np.float32)
    report(f'PCA{k} + rot + 4bit mean±3sd', k / 2, score_decoded(perdim_sd(Pk @ Rk, 4, 3.0), Qk @ Rk, qmu))
# PCA 256 + int8 (a larger-byte reference)
Pk = C @ V[:, :256]; Qk = Q @ V[:, :256]
report('PCA256 + int8', 256 + 4, score_decoded(int8(Pk), Qk, qmu))

# 6. 1-bit sign codes, asymmetric
def onebit(Cx, Qx, name, bpv_extra=True):
    s = np.where(Cx > 0, 1.0, -1.0).astype(np.float32)
    qs = Qx @ s.T                                  # q . sign(o)
    l1 = np.abs(Cx).sum(1); l2sq = (Cx * Cx).sum(1)
    report(f'{name} plain (no factor)', D / 8, qs * (l1.mean() / D) + qmu[:, None])
    report(f'{name} lsq scale |o|1/D', D / 8 + 4, qs * (l1 / D)[None] + qmu[:, None])
    S = qs * (l2sq / l1)[None] + qmu[:, None]      # RaBitQ: <q,s/sqrtD> * |o| / <s/sqrtD, o/|o|>
    report(f'{name} RaBitQ |o|^2/|o|1', D / 8 + 4, S)
    return S
S1 = onebit(C, Q, '1bit')
S1r = onebit(CR, QR, 'rot + 1bit')

# 7. two-stage in memory: 1-bit over all -> top R -> int8 rescoring
def two_stage(S1, name, mask=None):
    for R in (500, 1000, 2000, 4000):
        Sm = S1 if mask is None else np.where(mask, S1, -np.inf)
        cand = np.argpartition(-Sm, R, axis=1)[:, :R]
        S = np.full_like(S_base, -np.inf)
        np.put_along_axis(S, cand, np.take_along_axis(S_base, cand, 1), 1)
        print(f'  two-stage {name} R={R}: overlap@100 {overlap(S):.3f} @10 {overlap(S, k=10):.3f}; '
              f'recall of top100 in candidates {np.mean([len(np.intersect1d(cand[i], TOP[100][i])) / 100 for i in range(NQ)]):.3f}')
print('two-stage (1-bit over all, int8 rescoring of top R):')
two_stage(S1, '1bit RaBitQ')
two_stage(S1r, 'rot+1bit RaBitQ')


# ---- extras: how noisy is the int8 reference itself; finer bit depths; residual codes; PQ ----
S_f32 = Q @ X.T
report('f32 (exact; vs int8 reference)', D * 4, S_f32)
for bits in (5, 6, 7):
    report(f'rot + {bits}bit mean±3sd', D * bits / 8, score_decoded(perdim_sd(CR, bits, 3.0), QR, qmu))
for bits in (5, 6):
    sc = np.abs(C).max(1, keepdims=True) / (2 ** (bits - 1) - 1)
    report(f'int{bits} per-vector scale (centered)', D * bits / 8 + 4, score_decoded(np.round(C / sc) * sc, Q, qmu))
# residual to the list centroid (centroids are fetched anyway): score = q.c_l + q.dec(r)
Rres = Xq - cent_q[lists]
print('residual / centered energy: %.3f' % ((Rres ** 2).sum() / (C ** 2).sum()))
qc = (Q @ cent_q.T)[:, lists]
report('residual + 4bit mean±3sd', D / 2, qc + Q @ perdim_sd(Rres, 4, 3.0).T)
RresR = Rres @ Rm
report('residual + rot + 4bit mean±3sd', D / 2, qc + QR @ perdim_sd(RresR, 4, 3.0).T)
report('residual + rot + 3bit mean±3sd', D * 3 / 8, qc + QR @ perdim_sd(RresR, 3, 3.0).T)
report('residual + int8 per-vector', D + 4, qc + Q @ int8(Rres).T)

def pq(V, Qx, m, iters=10, seed=3):
    """Product quantiser: m subspaces, 256 centroids each (1 byte a subspace); asymmetric scoring."""
    ds = V.shape[1] // m
    r = np.random.default_rng(seed)
    S = np.zeros((NQ, len(V)), np.float32)
    samp = r.choice(len(V), 30000, replace=False)
    for j in range(m):
        sub = V[:, j * ds:(j + 1) * ds]
        cb = sub[samp[:256]].copy()
        for _ in range(iters):
            a = nearest(sub[samp], cb)
            for c in range(256):
                mm = a == c
                if mm.any():
                    cb[c] = sub[samp][mm].mean(0)
        codes = nearest(sub, cb)
        S += (Qx[:, j * ds:(j + 1) * ds] @ cb.T)[:, codes]
    return S
report('rot + PQ m=96 (4 dims/byte)', 96, pq(CR, QR, 96) + qmu[:, None])
report('rot + PQ m=128 (3 dims/byte)', 128, pq(CR, QR, 128) + qmu[:, None])
report('residual + rot + PQ m=128', 128, qc + pq(RresR, QR, 128))

print('two-stage with a 4-bit first stage (rot + 4bit mean±3sd), int8 rescoring of top R:')
S4 = score_decoded(perdim_sd(CR, 4, 3.0), QR, qmu)
two_stage(S4, 'rot+4bit')
for P in (64, 128):
    print(f' within P={P} lists:')
    two_stage(S4, f'rot+4bit P{P}', MASK[P])

# ---- bytes per query, boundary gap ----
print('\nvectors scored per query at P: ' + ' '.join(f'P{P}={NSCORED[P]:.0f}' for P in PS) + f' (all={N})')
print(f'centroid bytes (int8+scale, fetched once): {CENTROID_BYTES}')
g = lambda r: np.take_along_axis(S_base, ORDER[:, r - 1:r], 1)[:, 0]
print('boundary (int8, mean over queries): s100-s101 %.5f, s100-s150 %.5f, s100-s200 %.5f, s100-s500 %.5f, s90-s110 %.5f' % (
    (g(100) - g(101)).mean(), (g(100) - g(150)).mean(), (g(100) - g(200)).mean(), (g(100) - g(500)).mean(), (g(90) - g(110)).mean()))
dens = [(np.abs(S_base[i] - g(100)[i]) < 0.001).sum() for i in range(NQ)]
print(f'vectors within ±0.001 of s100: median {np.median(dens):.0f}')
import json
json.dump(dict(rows=rows, nscored={str(k): float(v) for k, v in NSCORED.items()}, N=int(N), texts=texts,
               centroid_bytes=CENTROID_BYTES, sizes=[int(s) for s in sizes]),
          open(args.out, 'w'), indent=1)
print(f'done [{time.time()-T0:.0f}s]')
