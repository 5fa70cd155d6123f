//! Per-query BM25 scores that cost what the query touches, not the pool.
//!
//! A query's postings reach a part of the pool (on the Danish acts about
//! 3,700 of 11,192 stykker for a 12-token query; a smaller share of a
//! larger pool). Clearing a whole score array and selecting
//! the top k over all of it made the pool's size, not the query, the cost.
//! Here the scores stay in a dense array, so adding a posting is one
//! indexed add as before, but the documents touched are listed as they
//! are first reached: the next query clears only those, and selection
//! looks only at them.
//!
//! When a query's postings could reach a fair share of the pool (their
//! count, an upper bound of the documents touched, is at least an eighth
//! of the documents), listing costs more than it saves: the array is then
//! scored, cleared and selected from whole, in document order, where
//! selection compares blocks of scores at a time (`hits::top_k_into`).
//! Measured (docs/benchmarks/): on the Danish acts, where a query touches a
//! third of the pool, the whole array answers 49k queries/s against 45k
//! listed; at 10⁵ synthetic documents, where queries touch half, listing
//! was 1.2–1.5× slower. Both ways give the same hits.

use crate::hits::{top_k_into, top_k_positive_among, Hit};

/// Scores of the documents one query touched; reuse it across queries
/// (the arrays are allocated once, at the pool's size).
#[derive(Debug, Clone, Default)]
pub struct Accumulator {
    /// By document id; 0 wherever the query has no posting.
    scores: Vec<f64>,
    /// By document id: whether it is in `touched`. A separate flag, since
    /// a touched document's score may still be 0 (an okapi idf of 0).
    seen: Vec<bool>,
    /// The documents with a posting of the query, in first-touched order:
    /// the first `n_touched` entries. One longer than the pool, so that a
    /// posting's document is written at the end unconditionally and the
    /// count advances only if it is new: no branch to mispredict on the
    /// hot path, where about half the postings reach a document already
    /// touched.
    touched: Vec<u32>,
    n_touched: usize,
    /// The last query was scored into the whole array, untracked: clear
    /// all of it, select over all of it.
    whole: bool,
    /// Scratch for the query's runs of term ids, kept to save an
    /// allocation a query.
    terms: Vec<(u32, u64)>,
}

impl Accumulator {
    /// An empty accumulator; it grows to the pool's size on first use.
    pub fn new() -> Self {
        Self::default()
    }

    /// Clears the previous query's scores and sizes the arrays for `n_docs`
    /// documents, for a query with `postings` postings in all: below an
    /// eighth of the documents, the ones touched are listed ([`ScoreSlots`] for
    /// `Accumulator`); from there on, the caller adds into
    /// [`Self::whole_array`] instead.
    pub(crate) fn reset(&mut self, n_docs: usize, postings: u64) {
        if self.whole {
            self.scores.fill(0.0);
        } else {
            for &doc in &self.touched[..self.n_touched] {
                self.scores[doc as usize] = 0.0;
                self.seen[doc as usize] = false;
            }
        }
        self.n_touched = 0;
        self.whole = postings.saturating_mul(8) >= n_docs as u64;
        self.scores.resize(n_docs, 0.0);
        self.seen.resize(n_docs, false);
        self.touched.resize(n_docs + 1, 0);
    }

    /// The term-id scratch, emptied; give it back with [`Self::put_terms`].
    pub(crate) fn take_terms(&mut self) -> Vec<(u32, u64)> {
        let mut terms = std::mem::take(&mut self.terms);
        terms.clear();
        terms
    }

    /// Returns the scratch taken by [`Self::take_terms`].
    pub(crate) fn put_terms(&mut self, terms: Vec<(u32, u64)>) {
        self.terms = terms;
    }

    /// Every document's score, by document id (0 where untouched): what
    /// [`super::Bm25Scorer::score_into`] gives.
    pub fn scores(&self) -> &[f64] {
        &self.scores
    }

    /// Whether the query is scored into the whole array, untracked.
    pub(crate) fn whole(&self) -> bool {
        self.whole
    }

    /// The whole score array, for a query scored untracked.
    pub(crate) fn whole_array(&mut self) -> &mut [f64] {
        &mut self.scores
    }

    /// The documents the query has a posting in, in first-touched order;
    /// `None` when it was scored into the whole array, untracked.
    pub fn touched(&self) -> Option<&[u32]> {
        (!self.whole).then(|| &self.touched[..self.n_touched])
    }

    /// The best `k` documents, exactly as [`top_k_into`] ranks
    /// [`Self::scores`] (ties in corpus order), into `out`.
    ///
    /// Untouched documents score 0, below every positive score, so the
    /// best positive touched documents come first. Only with
    /// `positive_only` off and fewer than `k` positive matches do zeros
    /// (in corpus order) and negative scores fill the list: that rare case
    /// selects over the whole array.
    pub fn top_k_into(&self, k: usize, positive_only: bool, out: &mut Vec<Hit>) {
        let Some(touched) = self.touched() else {
            top_k_into(&self.scores, k, positive_only, out);
            return;
        };
        top_k_positive_among(touched, &self.scores, k, out);
        if !positive_only && out.len() < k.min(self.scores.len()) {
            top_k_into(&self.scores, k, false, out);
        }
    }
}

/// Where a scorer adds contributions: a plain array (every document) or
/// an [`Accumulator`] (listing those touched).
pub(crate) trait ScoreSlots {
    /// Document `doc`'s running score.
    fn slot(&mut self, doc: u32) -> &mut f64;
}

impl ScoreSlots for [f64] {
    #[inline]
    fn slot(&mut self, doc: u32) -> &mut f64 {
        &mut self[doc as usize]
    }
}

impl ScoreSlots for Accumulator {
    /// Lists `doc` as touched on first use.
    #[inline]
    fn slot(&mut self, doc: u32) -> &mut f64 {
        let d = doc as usize;
        // In bounds: each document is counted once, so `n_touched` ≤ N.
        self.touched[self.n_touched] = doc;
        self.n_touched += usize::from(!self.seen[d]);
        self.seen[d] = true;
        &mut self.scores[d]
    }
}
