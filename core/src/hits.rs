//! Top-k selection in the references' order: score descending, ties in
//! corpus order — what numpy's `argsort(-scores, kind="stable")` and
//! Python's stable `sorted(..., key=-score)` give. NaN (which our scorer
//! never produces) ranks last, as numpy sorts it.

use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;

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
    let floor = positive_only.then_some(0.0_f64);
    let sample = |stride| scores.iter().step_by(stride).copied();
    select_above_guess(scores.len(), k, floor, sample, |floor| {
        scan_in_order(scores, k, floor, out)
    });
}

/// Runs `select` (which keeps the best k above the floor it is given and
/// returns how many it kept) first with a sampled guess of the k-th best
/// score as the floor ([`sampled_floor`], raised to `floor`), and again
/// with `floor` alone if fewer than k exceeded the guess.
fn select_above_guess<I: Iterator<Item = f64>>(
    n: usize,
    k: usize,
    floor: Option<f64>,
    sample: impl FnOnce(usize) -> I,
    mut select: impl FnMut(Option<f64>) -> usize,
) {
    if let Some(guess) = sampled_floor(n, k, sample) {
        if select(Some(floor.map_or(guess, |f| f.max(guess)))) == k {
            return;
        }
    }
    select(floor);
}

/// [`top_k_into`] with the given floor; returns how many were kept.
///
/// Scanned in document order, a document can only enter once k are kept
/// if it scores above the k-th best (a tie loses on the later id), so
/// blocks of scores are first compared with that score as plain floats, a
/// loop the compiler vectorises; only blocks with a possible entrant go
/// through the exact keys.
fn scan_in_order(scores: &[f64], k: usize, floor: Option<f64>, out: &mut Vec<Hit>) -> usize {
    const BLOCK: usize = 16;
    let mut selection = Selection::new(k, floor, out);
    if k == 0 {
        return 0;
    }
    selection.reserve(scores.len());
    let mut blocks = scores.chunks_exact(BLOCK);
    let mut first = 0u32;
    for block in &mut blocks {
        let bar = selection.bar_score;
        // Most blocks have no score above the bar: one cheap test tells.
        if !block
            .iter()
            .fold(false, |any, &s| any | not_at_most(s, bar))
        {
            first += BLOCK as u32;
            continue;
        }
        // A bit for each score not at or below the bar: also set for NaN,
        // on either side, which the exact check then decides.
        let mut maybe = block.iter().enumerate().fold(0u32, |bits, (i, &s)| {
            bits | u32::from(not_at_most(s, bar)) << i
        });
        while maybe != 0 {
            let i = maybe.trailing_zeros() as usize;
            maybe &= maybe - 1;
            let doc = first + i as u32;
            selection.offer(Hit {
                doc,
                score: block[i],
            });
        }
        first += BLOCK as u32;
    }
    for (&score, doc) in blocks.remainder().iter().zip(first..) {
        selection.offer(Hit { doc, score });
    }
    selection.finish()
}

/// The best `k` of `candidates` (distinct documents, in any order), best
/// first, written into `out` (cleared first): what [`top_k_into`] gives
/// over a score array holding only them. A sparse scorer hands over just
/// the documents a query touched, so selection costs what the query
/// touches, not the pool.
pub fn top_k_of(
    candidates: impl IntoIterator<Item = Hit>,
    k: usize,
    positive_only: bool,
    out: &mut Vec<Hit>,
) {
    top_k_of_above(candidates, k, positive_only.then_some(0.0), out);
}

/// [`top_k_of`] among the documents of `docs` (distinct), scored by
/// `scores` (by document id), positive scores only; `docs` is read twice
/// at most, so that a sampled guess of the k-th best can leave most of
/// them out.
pub(crate) fn top_k_positive_among(docs: &[u32], scores: &[f64], k: usize, out: &mut Vec<Hit>) {
    let hits = || {
        docs.iter().map(|&doc| Hit {
            doc,
            score: scores[doc as usize],
        })
    };
    let sample = |stride| hits().step_by(stride).map(|hit| hit.score);
    select_above_guess(docs.len(), k, Some(0.0), sample, |floor| {
        top_k_of_above(hits(), k, floor, out)
    });
}

/// [`top_k_of`] keeping only scores above `floor`; returns how many were
/// kept.
fn top_k_of_above(
    candidates: impl IntoIterator<Item = Hit>,
    k: usize,
    floor: Option<f64>,
    out: &mut Vec<Hit>,
) -> usize {
    let mut selection = Selection::new(k, floor, out);
    if k == 0 {
        return 0;
    }
    let candidates = candidates.into_iter();
    selection.reserve(candidates.size_hint().0);
    for hit in candidates {
        selection.offer(hit);
    }
    selection.finish()
}

/// A guess at a score that about 2k of `n` candidates exceed, from a
/// sample of them (`sample(stride)` gives every stride-th score), or
/// `None` where there are too few candidates for it to pay.
///
/// Selecting with such a floor is exact whenever at least k candidates
/// exceed it, which the caller checks (else it selects again without it):
/// the k best are then all above it. It saves most of the work of keeping
/// the best so far, since in scan order the k-th best so far rises
/// slowly: about k·(1 + ln(n/k)) candidates enter, against about 2k
/// above the floor.
fn sampled_floor<I: Iterator<Item = f64>>(
    n: usize,
    k: usize,
    sample: impl FnOnce(usize) -> I,
) -> Option<f64> {
    // So that k ≤ n / 16 below, and no product overflows (k may be
    // `usize::MAX`, for everything).
    if k == 0 || n / 16 < k {
        return None;
    }
    // At most every 32nd, and about 32k of them at most.
    let stride = (n / 32 / k).max(32);
    let rank = (2 * k / stride).max(4);
    // The `rank` best sampled keys, the least on top.
    let mut best: BinaryHeap<Reverse<u64>> = BinaryHeap::with_capacity(rank + 1);
    // The least of them, once there are `rank`: most samples fall below
    // it, which one float comparison tells (NaN too).
    let mut least = f64::NEG_INFINITY;
    for score in sample(stride) {
        if best.len() == rank && !exceeds(score, least) {
            continue;
        }
        best.push(Reverse(score_key(score)));
        if best.len() > rank {
            best.pop();
        }
        if best.len() == rank {
            least = best.peek().map_or(least, |&Reverse(key)| key_score(key));
        }
    }
    let Reverse(key) = *best.peek().filter(|_| best.len() == rank)?;
    // NaN (key 0) is no floor.
    (key != 0).then(|| key_score(key))
}

/// The best k seen so far, in a buffer of up to 2k.
///
/// Candidates that beat the current k-th best are appended to the buffer;
/// when it holds 2k, a linear-time selection keeps the best k and raises
/// the bar. Each candidate's key (`rank_key`) is computed once: most
/// candidates cost one integer comparison, each kept one O(1) amortised,
/// and the selections and the final sort compare plain integers.
struct Selection<'a> {
    k: usize,
    /// 2k: the buffer's size before the next selection.
    capacity: usize,
    /// Candidates scoring at or below it (or NaN) never enter: 0 for
    /// positive scores only, or a sampled guess.
    floor: Option<f64>,
    kept: Vec<Keyed>,
    out: &'a mut Vec<Hit>,
    /// The k-th best's key so far (`None` until k candidates were kept).
    bar: Option<u128>,
    /// A score every entrant must exceed, or equal with a smaller id:
    /// the k-th best's, or the floor until k were kept.
    bar_score: f64,
}

/// A kept candidate: its [`rank_key`] (which holds the document) and
/// score.
#[derive(Clone, Copy)]
struct Keyed {
    key: u128,
    score: f64,
}

impl<'a> Selection<'a> {
    fn new(k: usize, floor: Option<f64>, out: &'a mut Vec<Hit>) -> Self {
        out.clear();
        Selection {
            k,
            capacity: k.saturating_mul(2),
            floor,
            kept: Vec::new(),
            out,
            bar: None,
            bar_score: floor.unwrap_or(f64::NEG_INFINITY),
        }
    }

    /// Room for `n` candidates (at most the buffer's size).
    fn reserve(&mut self, n: usize) {
        self.kept.reserve(self.capacity.min(n));
    }

    #[inline]
    fn offer(&mut self, hit: Hit) {
        if self.floor.is_some_and(|floor| !exceeds(hit.score, floor)) {
            return;
        }
        let key = rank_key(&hit);
        if self.bar.is_some_and(|bar| key <= bar) {
            return;
        }
        self.kept.push(Keyed {
            key,
            score: hit.score,
        });
        if self.kept.len() == self.capacity {
            self.keep_best();
            // Only once k were kept: with fewer, anything may still enter.
            if let Some(last) = self.kept.last().filter(|_| self.kept.len() == self.k) {
                self.bar = Some(last.key);
                self.bar_score = last.score;
            }
        }
    }

    /// Truncates the buffer to its best k, the k-th best last.
    fn keep_best(&mut self) {
        if self.kept.len() > self.k {
            self.kept
                .select_nth_unstable_by_key(self.k - 1, |c| Reverse(c.key));
            self.kept.truncate(self.k);
        }
    }

    /// Writes the best k, sorted, into `out`; returns how many there are.
    fn finish(mut self) -> usize {
        self.keep_best();
        self.kept.sort_unstable_by_key(|c| Reverse(c.key));
        self.out.extend(self.kept.iter().map(|c| Hit {
            // The key's low half: `u32::MAX − doc`.
            doc: u32::MAX - c.key as u32,
            score: c.score,
        }));
        self.out.len()
    }
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

/// `a > b`: false if either is NaN.
#[inline]
fn exceeds(a: f64, b: f64) -> bool {
    a > b
}

/// Not `a ≤ b`: `a > b`, or either is NaN.
#[inline]
fn not_at_most(a: f64, b: f64) -> bool {
    !matches!(a.partial_cmp(&b), Some(Ordering::Less | Ordering::Equal))
}

/// The score of a [`score_key`] (−0 comes back as +0).
fn key_score(key: u64) -> f64 {
    if key >> 63 == 1 {
        f64::from_bits(key & !(1 << 63))
    } else {
        f64::from_bits(!key)
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

    /// A seeded linear congruential generator: the tests' reproducible
    /// scores and orders.
    fn lcg(seed: u32) -> impl FnMut() -> u32 {
        let mut state = seed;
        move || {
            state = state.wrapping_mul(1_103_515_245).wrapping_add(12345);
            state
        }
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
    fn k_as_large_as_can_be_returns_everything() {
        let scores: Vec<f64> = (0..100).map(|i| f64::from(i % 7)).collect();
        let full = stable_ranking(&scores);
        assert_eq!(docs(&top_k(&scores, usize::MAX, false)), full);
        let mut out = Vec::new();
        let all: Vec<u32> = (0..100).collect();
        top_k_positive_among(&all, &scores, usize::MAX, &mut out);
        assert_eq!(docs(&out), docs(&top_k(&scores, 100, true)));
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
        let mut next = lcg(777);
        let scores: Vec<f64> = (0..2000)
            .map(|i| {
                let r = next();
                if i % 97 == 0 {
                    f64::NAN
                } else {
                    f64::from((r >> 16) % 5) - 1.0
                }
            })
            .collect();
        let mut order: Vec<u32> = (0..scores.len() as u32).collect();
        for i in (1..order.len()).rev() {
            order.swap(i, (next() >> 8) as usize % (i + 1));
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
        let mut next = lcg(12345);
        let scores: Vec<f64> = (0..3000)
            .map(|_| f64::from((next() >> 16) % 7) - 2.0)
            .collect();
        let full = stable_ranking(&scores);
        for k in [1, 7, 100, 1000, 2999, 3000, 5000] {
            let mut out = vec![Hit { doc: 9, score: 9.0 }];
            top_k_into(&scores, k, false, &mut out);
            assert_eq!(docs(&out), full[..k.min(full.len())], "k = {k}");
        }
    }

    #[test]
    fn a_sampled_floor_that_is_too_high_is_not_trusted() {
        // Every 96th document, always among those sampled (every 32nd
        // here), scores highest, so the guess has fewer than k documents
        // above it; then the selection runs again without it.
        let scores: Vec<f64> = (0..4000)
            .map(|i| match i % 96 {
                0 => 100.0 + f64::from(i % 300),
                r => f64::from(r % 3) - 0.5,
            })
            .collect();
        let full = stable_ranking(&scores);
        let docs_scrambled: Vec<u32> = (0..4000u32).map(|i| (i * 1237) % 4000).collect();
        for k in [10, 100, 250] {
            let sample = |stride| scores.iter().step_by(stride).copied();
            let guess = sampled_floor(scores.len(), k, sample).expect("enough to sample");
            assert!(scores.iter().filter(|&&s| s > guess).count() < k, "k = {k}");

            let mut out = Vec::new();
            top_k_into(&scores, k, false, &mut out);
            assert_eq!(docs(&out), full[..k], "k = {k}");
            top_k_positive_among(&docs_scrambled, &scores, k, &mut out);
            assert_eq!(docs(&out), docs(&top_k(&scores, k, true)), "k = {k}");
        }
    }

    #[test]
    fn a_sampled_floor_keeps_ties_and_signs() {
        // Scores of few values, NaN and negatives, in scrambled order; the
        // floor is a guess that usually holds.
        let mut next = lcg(99);
        let scores: Vec<f64> = (0..20_000)
            .map(|i| {
                let r = next();
                match i % 101 {
                    0 => f64::NAN,
                    1 => -0.0,
                    _ => f64::from((r >> 16) % 40) - 3.0,
                }
            })
            .collect();
        let scrambled: Vec<u32> = (0..20_000u32).map(|i| (i * 7919) % 20_000).collect();
        for k in [1, 10, 100, 1000] {
            for positive_only in [false, true] {
                let mut out = Vec::new();
                top_k_into(&scores, k, positive_only, &mut out);
                let mut expected = Vec::new();
                top_k_of(
                    (0..20_000u32).map(|doc| Hit {
                        doc,
                        score: scores[doc as usize],
                    }),
                    k,
                    positive_only,
                    &mut expected,
                );
                assert_eq!(docs(&out), docs(&expected), "k = {k}");
            }
            let mut out = Vec::new();
            top_k_positive_among(&scrambled, &scores, k, &mut out);
            assert_eq!(docs(&out), docs(&top_k(&scores, k, true)), "k = {k}");
        }
    }
}
