//! Editorial headings: titles a pool shows that its source did not enact,
//! such as the headings lawspot gives the Constitution's articles
//! («Ελευθερία του τύπου» over Article 14). A reader looks an article up by
//! the title they see, so such a pool indexes its titles, but in a field of
//! their own (the blob's `LEXE` section) and never in the text, whose BM25
//! stays the references' to the bit: a document scores
//! `bm25(text) + weight · bm25(heading)`, both with the pool's parameters.
//! Enacted headings (the Greek acts' and codes') are part of the text
//! field instead, at full weight.

use super::Bm25Scorer;
use crate::hits::{top_k_into, Hit};

/// The heading field's weight when nobody chose: below the text's, as the
/// heading is the editor's words and not the law's (BENCHMARKS.md,
/// "Editorial headings").
pub const WEIGHT: f64 = 0.5;

/// The best `k` documents for `query` by `text`'s score plus `weight` times
/// `headings`' (two scorers over the same documents), ties in corpus
/// order. Scores every document: pools with editorial headings are small.
pub fn search_into<S: AsRef<str>>(
    text: &Bm25Scorer,
    headings: &Bm25Scorer,
    weight: f64,
    query: &[S],
    k: usize,
    positive_only: bool,
    hits: &mut Vec<Hit>,
) {
    top_k_into(
        &scores(text, headings, weight, query),
        k,
        positive_only,
        hits,
    );
}

/// Every document's score for `query`: `text`'s plus `weight` times
/// `headings'`.
pub fn scores<S: AsRef<str>>(
    text: &Bm25Scorer,
    headings: &Bm25Scorer,
    weight: f64,
    query: &[S],
) -> Vec<f64> {
    let mut scores = text.scores(query);
    for (score, heading) in scores.iter_mut().zip(headings.scores(query)) {
        *score += weight * heading;
    }
    scores
}
