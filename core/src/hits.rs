//! Top-k selection in the references' order: score descending, ties in
//! corpus order — what numpy's `argsort(-scores, kind="stable")` and
//! Python's stable `sorted(..., key=-score)` give. NaN (which our scorer
//! never produces) ranks last, as numpy sorts it.

use std::cmp::Ordering;

/// A ranked document.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hit {
    /// The document's index in the corpus.
    pub doc: u32,
    /// Its score; higher ranks first.
    pub score: f64,
}

/// The best `min(k, N)` documents of `scores` (indexed by document id),
/// best first, written into `out` (cleared first; reuse it across queries).
/// With `positive_only`, documents scoring ≤ 0 (or NaN) are left out.
pub fn top_k_into(scores: &[f64], k: usize, positive_only: bool, out: &mut Vec<Hit>) {
    let hits = scores
        .iter()
        .zip(0u32..)
        .map(|(&score, doc)| Hit { doc, score });
    top_k_of(hits, k, positive_only, out);
}

/// The best `k` of `candidates` (distinct documents, in any order), best
/// first, written into `out` (cleared first): what [`top_k_into`] gives
/// over a score array holding only them. A sparse scorer hands over just
/// the documents a query touched, so selection costs what the query
/// touches, not the pool.
///
/// Candidates that beat the current k-th best are appended to `out`; when
/// it holds 2k, a linear-time selection keeps the best k and raises the bar.
/// Most candidates cost one integer comparison (`rank_key`), each
/// kept one O(1) amortised.
pub fn top_k_of(
    candidates: impl IntoIterator<Item = Hit>,
    k: usize,
    positive_only: bool,
    out: &mut Vec<Hit>,
) {
    out.clear();
    if k == 0 {
        return;
    }
    let candidates = candidates.into_iter();
    let capacity = k.saturating_mul(2);
    out.reserve(capacity.min(candidates.size_hint().0));
    // The k-th best's key so far (`None` until k candidates were kept).
    let mut bar: Option<u128> = None;
    for hit in candidates {
        let positive = hit.score > 0.0;
        if positive_only && !positive {
            continue;
        }
        if bar.is_some_and(|bar| rank_key(&hit) <= bar) {
            continue;
        }
        out.push(hit);
        if out.len() == capacity {
            keep_best(out, k);
            // Only once k were kept: with fewer, anything may still enter.
            if out.len() == k {
                bar = out.last().map(rank_key);
            }
        }
    }
    keep_best(out, k);
    out.sort_unstable_by(rank_order);
}

/// Truncates `hits` to its best `k`, the k-th best last.
fn keep_best(hits: &mut Vec<Hit>, k: usize) {
    if hits.len() > k {
        hits.select_nth_unstable_by(k - 1, rank_order);
        hits.truncate(k);
    }
}

/// [`top_k_into`] into a fresh vector.
pub fn top_k(scores: &[f64], k: usize, positive_only: bool) -> Vec<Hit> {
    let mut out = Vec::new();
    top_k_into(scores, k, positive_only, &mut out);
    out
}

/// Sorts `hits` into ranking order (score descending, ties by document id,
/// NaN last) and keeps the best `k`: how rankings built from a candidate
/// set or a fusion are finished, consistently with [`top_k_into`].
pub fn sort_hits(hits: &mut Vec<Hit>, k: usize) {
    if k == 0 {
        hits.clear();
        return;
    }
    keep_best(hits, k);
    hits.sort_unstable_by(rank_order);
}

/// `Less` if `a` ranks before `b`: score descending (−0 and +0 equal),
/// NaN after every number, ties by document id.
fn rank_order(a: &Hit, b: &Hit) -> Ordering {
    rank_key(b).cmp(&rank_key(a))
}

/// A key whose integer order is the ranking: the larger ranks first. Its
/// comparisons have no branch to mispredict, unlike `partial_cmp` with
/// ties and NaN, which made selection the larger part of a query's time.
#[inline]
fn rank_key(hit: &Hit) -> u128 {
    (u128::from(score_key(hit.score)) << 32) | u128::from(u32::MAX - hit.doc)
}

/// A score as an integer in numeric order; NaN is 0, below every number.
#[inline]
fn score_key(score: f64) -> u64 {
    if score.is_nan() {
        return 0;
    }
    // −0 + 0 is +0: the zeros tie, as `==` has it.
    let bits = (score + 0.0).to_bits();
    if bits >> 63 == 1 {
        !bits
    } else {
        bits | 1 << 63
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn docs(hits: &[Hit]) -> Vec<u32> {
        hits.iter().map(|h| h.doc).collect()
    }

    /// Independent definition for NaN-free scores: std's stable sort by
    /// descending score, as numpy's `argsort(-scores, kind="stable")`.
    fn stable_ranking(scores: &[f64]) -> Vec<u32> {
        let mut all: Vec<u32> = (0..scores.len() as u32).collect();
        all.sort_by(|&a, &b| scores[b as usize].partial_cmp(&scores[a as usize]).unwrap());
        all
    }

    #[test]
    fn ties_keep_corpus_order() {
        let scores = [1.0, 3.0, 1.0, 3.0, 0.0, 1.0, -0.0, 3.0];
        assert_eq!(docs(&top_k(&scores, 8, false)), [1, 3, 7, 0, 2, 5, 4, 6]);
        assert_eq!(docs(&top_k(&scores, 4, false)), [1, 3, 7, 0]);
        assert_eq!(docs(&top_k(&scores, 2, false)), [1, 3]);
    }

    #[test]
    fn k_larger_than_corpus_returns_everything() {
        let scores = [0.5, 2.0, 0.0];
        let hits = top_k(&scores, 1000, false);
        assert_eq!(docs(&hits), [1, 0, 2]);
        assert_eq!(hits[0].score, 2.0);
    }

    #[test]
    fn k_zero_and_empty_scores() {
        assert!(top_k(&[1.0, 2.0], 0, false).is_empty());
        assert!(top_k(&[], 10, false).is_empty());
    }

    #[test]
    fn positive_only_drops_zero_and_negative() {
        let scores = [0.0, -1.0, 2.0, 0.5, f64::NAN, 0.0];
        assert_eq!(docs(&top_k(&scores, 10, true)), [2, 3]);
        assert_eq!(docs(&top_k(&scores, 1, true)), [2]);
        assert_eq!(docs(&top_k(&scores, 10, false)), [2, 3, 0, 5, 1, 4]);
    }

    #[test]
    fn candidates_in_any_order_rank_as_the_full_array() {
        // Ties everywhere, NaN and negatives; candidates handed over in a
        // scrambled order (a sparse scorer's first-touched order).
        let mut state: u32 = 777;
        let scores: Vec<f64> = (0..2000)
            .map(|i| {
                state = state.wrapping_mul(1_103_515_245).wrapping_add(12345);
                if i % 97 == 0 {
                    f64::NAN
                } else {
                    f64::from((state >> 16) % 5) - 1.0
                }
            })
            .collect();
        let mut order: Vec<u32> = (0..scores.len() as u32).collect();
        for i in (1..order.len()).rev() {
            state = state.wrapping_mul(1_103_515_245).wrapping_add(12345);
            order.swap(i, (state >> 8) as usize % (i + 1));
        }
        let candidates = || {
            order.iter().map(|&doc| Hit {
                doc,
                score: scores[doc as usize],
            })
        };
        for positive_only in [false, true] {
            for k in [1, 2, 50, 399, 400, 401, 1999, 2000, 5000] {
                let mut out = Vec::new();
                top_k_of(candidates(), k, positive_only, &mut out);
                let expected = top_k(&scores, k, positive_only);
                assert_eq!(docs(&out), docs(&expected), "k = {k}");
            }
        }
    }

    #[test]
    fn keys_order_scores_as_comparisons_do() {
        let values = [
            f64::NEG_INFINITY,
            -f64::MAX,
            -1.5,
            -f64::MIN_POSITIVE,
            -0.0,
            0.0,
            f64::from_bits(1),
            f64::MIN_POSITIVE,
            1.0,
            1.0 + f64::EPSILON,
            f64::MAX,
            f64::INFINITY,
        ];
        for &a in &values {
            for &b in &values {
                let expected = a.partial_cmp(&b).unwrap();
                assert_eq!(score_key(a).cmp(&score_key(b)), expected, "{a} {b}");
            }
            assert!(score_key(f64::NAN) < score_key(a));
            assert!(score_key(-f64::NAN) < score_key(a));
        }
    }

    #[test]
    fn nan_ranks_last() {
        let scores = [f64::NAN, 1.0, f64::NAN, -5.0];
        assert_eq!(docs(&top_k(&scores, 4, false)), [1, 3, 0, 2]);
        assert_eq!(docs(&top_k(&scores, 2, false)), [1, 3]);
    }

    #[test]
    fn agrees_with_a_full_stable_sort() {
        // Few distinct values, so ties are everywhere.
        let mut state: u32 = 12345;
        let scores: Vec<f64> = (0..3000)
            .map(|_| {
                state = state.wrapping_mul(1_103_515_245).wrapping_add(12345);
                f64::from((state >> 16) % 7) - 2.0
            })
            .collect();
        let full = stable_ranking(&scores);
        for k in [1, 7, 100, 1000, 2999, 3000, 5000] {
            let mut out = vec![Hit { doc: 9, score: 9.0 }];
            top_k_into(&scores, k, false, &mut out);
            assert_eq!(docs(&out), full[..k.min(full.len())], "k = {k}");
        }
    }
}
