//! Exhaustive term-at-a-time BM25 that reproduces rank_bm25 (okapi) and
//! bm25s (lucene) to the bit.
//!
//! Both references compute, for each query token occurrence in order, a
//! per-document contribution and add it to a running score that starts at 0.
//! Documents without the term get exactly ±0 added, so visiting only the
//! term's postings gives the same sums. A term repeated in a row is one
//! pass, its occurrences added exactly as one by one
//! ([`add_repeated`]). Everything that does not depend on
//! the query is precomputed: the idf per term, the length norm
//! `k1 · ((1 − b) + b · dl / avgdl)` per document (both references evaluate
//! it with exactly these float64 operations in this order), and from them
//! each posting's contribution ([`Impacts`]).

use std::sync::Arc;

use crate::index::InvertedIndex;

use super::accumulator::{Accumulator, ScoreSlots};
use super::explain::{Explanation, TermExplanation};
use super::idf_table::IdfTable;
use super::impacts::Impacts;
use super::params::{Bm25Params, Bm25Variant, ParamsError};
use super::query_runs::runs;
use super::repeated_add::{add_repeated, Precision};
use crate::hits::Hit;

/// A BM25 ranker over a shared [`InvertedIndex`]: scorers for other
/// parameters share the postings, so cloning one or making another for a
/// k1/b sweep copies only the per-term and per-document tables.
#[derive(Debug, Clone)]
pub struct Bm25Scorer {
    index: Arc<InvertedIndex>,
    params: Bm25Params,
    /// By term id. Lucene: the float32 idf, widened exactly.
    idf: Vec<f64>,
    /// Every posting's contribution, for the variant of `params`.
    impacts: VariantImpacts,
    /// The blob's logarithms, when it has them (see [`IdfTable`]).
    idf_table: Option<IdfTable>,
}

/// What a posting adds: okapi a float64 sum term, lucene a float32 one.
#[derive(Debug, Clone)]
enum VariantImpacts {
    Okapi(Impacts<f64>),
    Lucene(Impacts<f32>),
}

impl Bm25Scorer {
    /// Precomputes idf and length norms for `params` (see
    /// [`Bm25Params::validate`] for the accepted ranges).
    pub fn new(
        index: impl Into<Arc<InvertedIndex>>,
        params: Bm25Params,
    ) -> Result<Self, ParamsError> {
        Self::with_idf_table(index, params, None)
    }

    /// [`Self::new`], taking idf logarithms from `table` where it has them
    /// (a blob's, so that every platform computes the same idf).
    pub fn with_idf_table(
        index: impl Into<Arc<InvertedIndex>>,
        params: Bm25Params,
        idf_table: Option<IdfTable>,
    ) -> Result<Self, ParamsError> {
        let mut scorer = Bm25Scorer {
            index: index.into(),
            params,
            idf: Vec::new(),
            impacts: VariantImpacts::Okapi(Impacts::default()),
            idf_table,
        };
        scorer.set_params(params)?;
        Ok(scorer)
    }

    /// Switches parameters (e.g. in a k1/b sweep), recomputing only the
    /// tables that depend on them.
    pub fn set_params(&mut self, params: Bm25Params) -> Result<(), ParamsError> {
        params.validate()?;
        self.params = params;
        let index = &self.index;
        let norms = doc_norms(index, params.k1, params.b);
        let norm = |doc: u32| norms[doc as usize];
        match params.variant {
            Bm25Variant::Okapi => {
                let idf = okapi_idf(index, params.epsilon, self.idf_table.as_ref());
                let k1_plus_1 = params.k1 + 1.0;
                self.impacts = VariantImpacts::Okapi(Impacts::new(index, |term, doc, tf| {
                    let mut contribution = 0.0;
                    add_okapi(
                        &mut contribution,
                        idf[term as usize],
                        k1_plus_1,
                        tf,
                        norm(doc),
                    );
                    contribution
                }));
                self.idf = idf;
            }
            Bm25Variant::Lucene => {
                let idf = lucene_idf(index, self.idf_table.as_ref());
                self.impacts = VariantImpacts::Lucene(Impacts::new(index, |term, doc, tf| {
                    lucene_impact(idf[term as usize], tf, norm(doc))
                }));
                self.idf = idf;
            }
        }
        Ok(())
    }

    /// The parameters the tables were computed for.
    pub fn params(&self) -> Bm25Params {
        self.params
    }

    /// The index scored, e.g. to look up terms or build a forward index.
    pub fn index(&self) -> &InvertedIndex {
        &self.index
    }

    /// The idf of each term, by term id, as the reference uses it: okapi
    /// after the epsilon floor, lucene rounded to float32.
    pub fn idf(&self) -> &[f64] {
        &self.idf
    }

    /// Scores every document for `query` into `scores` (resized to the
    /// number of documents; reuse it across queries to avoid allocating).
    ///
    /// Each occurrence of a query token counts again, in order; tokens not in
    /// the vocabulary add nothing. Lucene scores are float32 values widened
    /// exactly to f64.
    pub fn score_into<S: AsRef<str>>(&self, query: &[S], scores: &mut Vec<f64>) {
        scores.clear();
        scores.resize(self.index.n_docs(), 0.0);
        self.add_query(query, scores.as_mut_slice());
    }

    /// [`Self::score_into`] into `scores`, which also lists the documents
    /// touched, so that clearing it for the next query and selecting from
    /// it cost what the query touches, not the pool.
    pub fn accumulate<S: AsRef<str>>(&self, query: &[S], scores: &mut Accumulator) {
        let mut terms = scores.take_terms();
        self.term_ids(query, &mut terms);
        let doc_freqs = self.index.doc_freqs();
        let postings = terms
            .iter()
            .map(|&(t, _)| u64::from(doc_freqs[t as usize]))
            .sum();
        scores.reset(self.index.n_docs(), postings);
        if scores.whole() {
            self.add_terms(&terms, scores.whole_array());
        } else {
            self.add_terms(&terms, scores);
        }
        scores.put_terms(terms);
    }

    /// Adds every query token's contributions, in query order.
    fn add_query<S: AsRef<str>>(&self, query: &[S], scores: &mut [f64]) {
        let mut terms = Vec::with_capacity(query.len());
        self.term_ids(query, &mut terms);
        self.add_terms(&terms, scores);
    }

    /// Appends the ids of the query's tokens that are in the vocabulary, in
    /// query order, each run of one term as the term and its count (each
    /// occurrence counts).
    pub(super) fn term_ids<S: AsRef<str>>(&self, query: &[S], terms: &mut Vec<(u32, u64)>) {
        let ids = query
            .iter()
            .filter_map(|token| self.index.term_id(token.as_ref()));
        runs(ids, terms);
    }

    /// Adds the contributions of `terms` (runs of ids, in query order).
    fn add_terms<T: ScoreSlots + ?Sized>(&self, terms: &[(u32, u64)], scores: &mut T) {
        for &(term, count) in terms {
            match &self.impacts {
                VariantImpacts::Okapi(impacts) => {
                    let (docs, values) = impacts.of(term);
                    if count == 1 {
                        for (&doc, &value) in docs.iter().zip(values) {
                            *scores.slot(doc) += value;
                        }
                    } else {
                        for (&doc, &value) in docs.iter().zip(values) {
                            let slot = scores.slot(doc);
                            *slot = add_repeated(*slot, value, count, Precision::F64);
                        }
                    }
                }
                VariantImpacts::Lucene(impacts) => {
                    let (docs, values) = impacts.of(term);
                    if count == 1 {
                        for (&doc, &value) in docs.iter().zip(values) {
                            add_f32(scores.slot(doc), value);
                        }
                    } else {
                        for (&doc, &value) in docs.iter().zip(values) {
                            let slot = scores.slot(doc);
                            *slot = add_repeated(*slot, f64::from(value), count, Precision::F32);
                        }
                    }
                }
            }
        }
    }

    /// [`Self::score_into`] into a fresh vector.
    pub fn scores<S: AsRef<str>>(&self, query: &[S]) -> Vec<f64> {
        let mut scores = Vec::new();
        self.score_into(query, &mut scores);
        scores
    }

    /// The best `k` documents for `query`: what
    /// [`crate::hits::top_k_into`] selects from [`Self::scores`], found
    /// among the documents the query touched (see [`Accumulator`]).
    pub fn search<S: AsRef<str>>(&self, query: &[S], k: usize, positive_only: bool) -> Vec<Hit> {
        let mut hits = Vec::new();
        self.search_into(query, k, positive_only, &mut Accumulator::new(), &mut hits);
        hits
    }

    /// [`Self::search`] into `hits` (cleared first), with `scores` as
    /// scratch: reuse both across queries.
    pub fn search_into<S: AsRef<str>>(
        &self,
        query: &[S],
        k: usize,
        positive_only: bool,
        scores: &mut Accumulator,
        hits: &mut Vec<Hit>,
    ) {
        self.accumulate(query, scores);
        scores.top_k_into(k, positive_only, hits);
    }

    /// Document `doc`'s score for `query`, term by term (`None` when there
    /// is no such document). Each contribution is computed with the very
    /// operations of [`Self::score_into`] and summed in its order and
    /// precision, so the total is the score bit for bit.
    pub fn explain<S: AsRef<str>>(&self, query: &[S], doc: u32) -> Option<Explanation> {
        let doc_len = *self.index.doc_lens().get(doc as usize)?;
        let avg_len = avg_len(self.index.total_len(), self.index.n_docs());
        let explained = explain_doc(self.params, doc, doc_len, avg_len, query, |token| {
            let term = self.index.term_id(token)?;
            let tf = self
                .index
                .postings(term)
                .find(|p| p.doc == doc)
                .map_or(0, |p| p.tf);
            Some((self.idf[term as usize], tf))
        });
        Some(explained)
    }
}

/// Document `doc`'s score for `query` term by term, `term` giving each
/// token's idf and the document's occurrences of it (`None`: not in the
/// index): each contribution computed with the very operations of
/// [`Bm25Scorer::score_into`] and summed in its order and precision. The
/// one explanation, whatever storage the postings come from.
pub(crate) fn explain_doc<S: AsRef<str>>(
    params: Bm25Params,
    doc: u32,
    doc_len: u32,
    avg_len: f64,
    query: &[S],
    mut term: impl FnMut(&str) -> Option<(f64, u32)>,
) -> Explanation {
    let norm = doc_norm(doc_len, params.k1, params.b, avg_len);
    let k1_plus_1 = params.k1 + 1.0;
    let mut total = 0.0;
    let mut terms = Vec::with_capacity(query.len());
    let mut runs_of_tokens = Vec::new();
    runs(query.iter().map(AsRef::as_ref), &mut runs_of_tokens);
    for (token, count) in runs_of_tokens {
        let found = term(token);
        let (idf, tf) = found.unwrap_or((0.0, 0));
        let mut contribution = 0.0;
        // Like score_into, which visits only the term's postings.
        if tf > 0 {
            match params.variant {
                Bm25Variant::Okapi => {
                    add_okapi(&mut contribution, idf, k1_plus_1, tf, norm);
                    total = add_repeated(total, contribution, count, Precision::F64);
                }
                Bm25Variant::Lucene => {
                    let impact = lucene_impact(idf, tf, norm);
                    contribution = f64::from(impact);
                    total = add_repeated(total, contribution, count, Precision::F32);
                }
            }
        }
        let explained = TermExplanation {
            token: token.to_owned(),
            in_index: found.is_some(),
            idf,
            tf,
            contribution,
        };
        terms.extend(std::iter::repeat_n(explained, count as usize));
    }
    Explanation {
        doc,
        params,
        doc_len,
        avg_len,
        norm,
        terms,
        total,
        editorial: None,
    }
}

/// rank_bm25's contribution of one posting, added to `score`.
#[inline]
pub(crate) fn add_okapi(score: &mut f64, idf: f64, k1_plus_1: f64, tf: u32, norm: f64) {
    let tf = f64::from(tf);
    *score += idf * (tf * k1_plus_1 / (tf + norm));
}

/// bm25s' contribution of one posting, added to `score` in float32.
#[inline]
pub(crate) fn add_lucene(score: &mut f64, idf: f64, tf: u32, norm: f64) {
    add_f32(score, lucene_impact(idf, tf, norm));
}

/// bm25s' impact: `idf_f32 * (tf / (norm + tf))` computed in float64
/// (numpy 2 promotes the float32 operands against the float64
/// `avg_doc_len`) and stored as float32.
#[inline]
fn lucene_impact(idf: f64, tf: u32, norm: f64) -> f32 {
    let tf = f64::from(tf);
    (idf * (tf / (norm + tf))) as f32
}

/// Adds a float32 impact to a float32 running score (held widened).
#[inline]
fn add_f32(score: &mut f64, impact: f32) {
    // f32 + f32 rounded once: same bits as numpy's float32 add.
    *score = f64::from(*score as f32 + impact);
}

/// rank_bm25 `BM25Okapi._calc_idf`: `ln(N − df + 0.5) − ln(df + 0.5)`;
/// negative values are replaced by `epsilon × mean`, the mean being taken
/// over all terms before flooring, summed in vocabulary (first-seen) order.
fn okapi_idf(index: &InvertedIndex, epsilon: f64, table: Option<&IdfTable>) -> Vec<f64> {
    let n = index.n_docs() as u64;
    let mut idf: Vec<f64> = index
        .doc_freqs()
        .iter()
        .map(|&df| IdfTable::okapi(table, n, df))
        .collect();
    if idf.is_empty() {
        return idf;
    }
    let floor = okapi_floor(okapi_sum(&idf), idf.len(), epsilon);
    for v in &mut idf {
        *v = okapi_floored(*v, floor);
    }
    idf
}

/// The sum of okapi's log ratios, in vocabulary order: with the number of
/// terms, all the epsilon floor needs to know of the vocabulary.
pub(crate) fn okapi_sum(ratios: &[f64]) -> f64 {
    let mut sum = 0.0;
    for &v in ratios {
        sum += v;
    }
    sum
}

/// rank_bm25's floor for negative idf: `epsilon × mean`.
pub(crate) fn okapi_floor(sum: f64, n_terms: usize, epsilon: f64) -> f64 {
    epsilon * (sum / n_terms as f64)
}

/// A log ratio with the floor applied.
pub(crate) fn okapi_floored(ratio: f64, floor: f64) -> f64 {
    if ratio < 0.0 {
        floor
    } else {
        ratio
    }
}

/// bm25s `_score_idf_lucene`: `ln(1 + (N − df + 0.5) / (df + 0.5))` in
/// float64, stored as float32.
fn lucene_idf(index: &InvertedIndex, table: Option<&IdfTable>) -> Vec<f64> {
    let n = index.n_docs() as u64;
    index
        .doc_freqs()
        .iter()
        .map(|&df| lucene_term_idf(table, n, df))
        .collect()
}

/// bm25s' idf of a term with `df` documents, float32 widened exactly.
pub(crate) fn lucene_term_idf(table: Option<&IdfTable>, n_docs: u64, df: u32) -> f64 {
    f64::from(IdfTable::lucene(table, n_docs, df) as f32)
}

/// `k1 · ((1 − b) + b · dl / avgdl)` per document, with
/// `avgdl = total tokens / N` (rank_bm25's `num_doc / corpus_size`, and the
/// same value as bm25s' numpy mean of integer lengths).
fn doc_norms(index: &InvertedIndex, k1: f64, b: f64) -> Vec<f64> {
    let avgdl = avg_len(index.total_len(), index.n_docs());
    index
        .doc_lens()
        .iter()
        .map(|&dl| doc_norm(dl, k1, b, avgdl))
        .collect()
}

/// `total tokens / N`, as both references compute the average length.
pub(crate) fn avg_len(total_len: u64, n_docs: usize) -> f64 {
    total_len as f64 / n_docs as f64
}

/// One document's length norm, `k1 · ((1 − b) + b · dl / avgdl)`.
#[inline]
pub(crate) fn doc_norm(dl: u32, k1: f64, b: f64, avgdl: f64) -> f64 {
    k1 * ((1.0 - b) + b * f64::from(dl) / avgdl)
}
