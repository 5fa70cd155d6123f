//! Scoring a query against the stored codes.

use super::{quantize, DenseError, DenseIndex};
use crate::hits::{sort_hits, top_k_into, Hit};

impl DenseIndex {
    /// Scores every document for the query embedding `query` (checked with
    /// [`Self::check_query`]) into `scores`, resized to the number of
    /// documents: `scale · Σ q_i c_i`, an approximation of the dot product
    /// (the cosine, for normalised vectors); a document with several
    /// vectors scores as its best.
    pub fn score_into(&self, query: &[f32], scores: &mut Vec<f64>) -> Result<(), DenseError> {
        self.check_query(query)?;
        let query = QueryCodes::new(query);
        scores.clear();
        scores.extend((0..self.n_docs()).map(|doc| self.score_doc(&query, doc)));
        Ok(())
    }

    /// Which of document `doc`'s vectors scores best for `query`, with its
    /// score (the first of equals); `None` for a document out of range.
    /// With one vector per document, that vector.
    pub fn best_vector(
        &self,
        query: &[f32],
        doc: usize,
    ) -> Result<Option<(usize, f64)>, DenseError> {
        self.check_query(query)?;
        let query = QueryCodes::new(query);
        Ok(self.doc_vectors(doc).fold(None, |best, v| {
            let score = self.score_vector(&query, v);
            match best {
                Some((_, s)) if s >= score => best,
                _ => Some((v, score)),
            }
        }))
    }

    /// The best `k` documents by brute-force int8 score, ties in corpus order.
    pub fn search(&self, query: &[f32], k: usize) -> Result<Vec<Hit>, DenseError> {
        let mut scores = Vec::new();
        self.score_into(query, &mut scores)?;
        let mut hits = Vec::new();
        top_k_into(&scores, k, false, &mut hits);
        Ok(hits)
    }

    /// The best `k` documents among those owning the `max(candidates, k)`
    /// vectors nearest to the query in Hamming distance of the centred sign
    /// bits (ties in corpus order), rescored by int8 score. With
    /// `candidates ≥` the number of vectors this is exactly [`Self::search`].
    pub fn search_binary(
        &self,
        query: &[f32],
        k: usize,
        candidates: usize,
    ) -> Result<Vec<Hit>, DenseError> {
        self.check_query(query)?;
        let code = self.query_bits(query);
        let codes = QueryCodes::new(query);
        let mut docs: Vec<usize> = self
            .nearest_by_bits(&code, candidates.max(k))
            .into_iter()
            .map(|v| self.doc_of(v as usize))
            .collect();
        docs.dedup();
        let mut hits: Vec<Hit> = docs
            .into_iter()
            .map(|doc| Hit {
                doc: doc as u32,
                score: self.score_doc(&codes, doc),
            })
            .collect();
        sort_hits(&mut hits, k);
        Ok(hits)
    }

    /// Rocchio feedback in vector space: `normalise(α·q + β·c)`, `c` being
    /// the mean over `feedback` of each document's stored vector (the mean of
    /// its vectors, when it has several; documents out of range are ignored;
    /// without any, `c` is zero). Computed in f64, returned as f32; a zero
    /// result is returned as is.
    pub fn rocchio(&self, query: &[f32], feedback: &[u32], alpha: f64, beta: f64) -> Vec<f32> {
        let mut centroid = vec![0f64; self.dim];
        let docs: Vec<usize> = feedback
            .iter()
            .map(|&d| d as usize)
            .filter(|&d| d < self.n_docs())
            .collect();
        for &doc in &docs {
            let vectors = self.doc_vectors(doc);
            let share = 1.0 / vectors.len() as f64;
            for v in vectors {
                let scale = f64::from(self.scales[v]) * share;
                for (c, &code) in centroid.iter_mut().zip(self.vector_codes(v)) {
                    *c += scale * f64::from(code);
                }
            }
        }
        let n = docs.len().max(1) as f64;
        let moved: Vec<f64> = query
            .iter()
            .zip(&centroid)
            .map(|(&q, &c)| alpha * f64::from(q) + beta * (c / n))
            .collect();
        let norm = moved.iter().map(|x| x * x).sum::<f64>().sqrt();
        let norm = if norm > 0.0 { norm } else { 1.0 };
        moved.iter().map(|&x| (x / norm) as f32).collect()
    }

    /// The query's sign bits relative to the corpus mean.
    pub fn query_bits(&self, query: &[f32]) -> Vec<u64> {
        let mut bits = Vec::with_capacity(self.words);
        quantize::sign_bits(query, &self.mean, &mut bits);
        bits
    }

    /// The `n` vectors with the smallest Hamming distance to `code`, ties
    /// in corpus order, returned in corpus order. A counting pass over the
    /// distances (0..=dim) finds the cut-off, so this is linear in the corpus.
    fn nearest_by_bits(&self, code: &[u64], n: usize) -> Vec<u32> {
        let distances: Vec<u32> = (0..self.n_vectors())
            .map(|v| {
                self.vector_bits(v)
                    .iter()
                    .zip(code)
                    .map(|(a, b)| (a ^ b).count_ones())
                    .sum()
            })
            .collect();
        if n >= distances.len() {
            return (0..distances.len() as u32).collect();
        }
        let mut histogram = vec![0usize; self.dim + 1];
        for &d in &distances {
            histogram[d as usize] += 1;
        }
        // The cut-off distance: all closer documents fit, and `room` of the
        // documents at exactly the cut-off are taken, earliest first.
        let (mut cutoff, mut below) = (0usize, 0usize);
        while below + histogram[cutoff] < n {
            below += histogram[cutoff];
            cutoff += 1;
        }
        let mut room = n - below;
        let mut out = Vec::with_capacity(n);
        for (doc, &d) in (0u32..).zip(&distances) {
            let d = d as usize;
            if d < cutoff {
                out.push(doc);
            } else if d == cutoff && room > 0 {
                room -= 1;
                out.push(doc);
            }
        }
        out
    }

    /// A document's best vector score ([`Self::score_vector`]).
    pub(super) fn score_doc(&self, query: &QueryCodes, doc: usize) -> f64 {
        self.doc_vectors(doc)
            .map(|v| self.score_vector(query, v))
            .fold(f64::NEG_INFINITY, f64::max)
    }

    /// `scale · Σ q_i c_i`, the dot product computed exactly in integers
    /// with the query's i16 codes (see [`QueryCodes`]).
    pub(super) fn score_vector(&self, query: &QueryCodes, vector: usize) -> f64 {
        query.score(self.vector_codes(vector), self.scales[vector])
    }
}

/// A query quantised for the integer dot product: `codes[i] = round(q_i ·
/// 2^e)` with the largest power of two `2^e` that keeps every code within
/// ±32767, and `step = 2^-e`. A power of two makes the scaling exact, so a
/// query of small dyadic values is represented exactly; otherwise each
/// component is off by at most half a step, under 2^-15 of the largest.
///
/// Why integers: i16 × i8 products summed in i32 are exact, so the order of
/// the sum cannot matter, and they map onto the SIMD multiply-add of every
/// target (x86 `pmaddwd`, wasm `i32x4.dot_i16x8_s`), several times faster
/// than widening each code to f32. The exponent comes from the bits of the
/// largest component, not from a logarithm, so wasm and native agree.
///
/// Public so that vectors stored elsewhere (the IVF lists of a fragmented
/// pool) score exactly as [`DenseIndex`] scores its own.
#[derive(Debug, Clone)]
pub struct QueryCodes {
    codes: Vec<i16>,
    step: f64,
}

impl QueryCodes {
    /// `scale · Σ q_i c_i` for one stored vector (`codes` as long as the
    /// query): the score of [`DenseIndex::search`], to the bit.
    pub fn score(&self, codes: &[i8], scale: f32) -> f64 {
        let dot = int_dot(&self.codes, codes);
        f64::from(scale) * dot as f64 * self.step
    }

    /// `query` must be finite ([`DenseIndex::check_query`]).
    pub fn new(query: &[f32]) -> QueryCodes {
        let max = query.iter().fold(0f32, |m, &x| m.max(x.abs()));
        if max == 0.0 {
            return QueryCodes {
                codes: vec![0; query.len()],
                step: 0.0,
            };
        }
        // max lies in [2^p, 2^(p+1)) (p = −127 for subnormals, whose codes
        // then stay well within range); 2^(14−p) · max < 2^15.
        let p = ((max.to_bits() >> 23) & 0xff) as i32 - 127;
        let e = 14 - p;
        let factor = 2f64.powi(e);
        let codes = query
            .iter()
            .map(|&x| (f64::from(x) * factor).round().clamp(-32767.0, 32767.0) as i16)
            .collect();
        QueryCodes {
            codes,
            step: 2f64.powi(-e),
        }
    }
}

/// Codes summed per block: within one, no i32 lane of either kernel adds
/// more than 512 products of magnitude ≤ 32767 · 127, which cannot
/// overflow.
const BLOCK: usize = 2048;

/// `Σ q_i c_i`, exactly.
fn int_dot(query: &[i16], codes: &[i8]) -> i64 {
    query
        .chunks(BLOCK)
        .zip(codes.chunks(BLOCK))
        .map(|(q, c)| block_dot(q, c))
        .sum()
}

/// One block's sum with eight i32 lanes, which native compilers vectorise
/// (x86: `pmaddwd`).
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
fn block_dot(q: &[i16], c: &[i8]) -> i64 {
    let whole = q.len().min(c.len()) / 8 * 8;
    let mut lanes = [0i32; 8];
    for (q, c) in q[..whole].chunks_exact(8).zip(c[..whole].chunks_exact(8)) {
        for lane in 0..8 {
            lanes[lane] += i32::from(q[lane]) * i32::from(c[lane]);
        }
    }
    lanes.iter().map(|&l| i64::from(l)).sum::<i64>() + tail_dot(&q[whole..], &c[whole..])
}

/// One block's sum in wasm SIMD, written out: the browser build is
/// optimised for size, at which LLVM does not vectorise loops. Integer
/// sums are exact, so this equals the portable version to the bit.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
fn block_dot(q: &[i16], c: &[i8]) -> i64 {
    use core::arch::wasm32::{
        i16x8_load_extend_i8x8, i32x4_add, i32x4_dot_i16x8, i32x4_extract_lane, i32x4_splat, v128,
        v128_load,
    };
    let whole = q.len().min(c.len()) / 8 * 8;
    let mut acc = i32x4_splat(0);
    for at in (0..whole).step_by(8) {
        // SAFETY: `at + 8 <= whole`, within both slices; wasm loads need
        // no alignment.
        let (qv, cv) = unsafe {
            (
                v128_load(q.as_ptr().add(at).cast::<v128>()),
                i16x8_load_extend_i8x8(c.as_ptr().add(at)),
            )
        };
        acc = i32x4_add(acc, i32x4_dot_i16x8(qv, cv));
    }
    let lanes = [
        i32x4_extract_lane::<0>(acc),
        i32x4_extract_lane::<1>(acc),
        i32x4_extract_lane::<2>(acc),
        i32x4_extract_lane::<3>(acc),
    ];
    lanes.iter().map(|&l| i64::from(l)).sum::<i64>() + tail_dot(&q[whole..], &c[whole..])
}

fn tail_dot(q: &[i16], c: &[i8]) -> i64 {
    q.iter()
        .zip(c)
        .map(|(&q, &c)| i64::from(q) * i64::from(c))
        .sum()
}
