//! Why a document got its BM25 score: each query term's share, like
//! tantivy's `Explanation`, with the total computed exactly as
//! [`Bm25Scorer::score_into`](super::Bm25Scorer::score_into) sums it, so a
//! reader can check a score to the last bit.

use std::fmt;

use super::params::Bm25Params;

/// A document's BM25 score taken apart.
#[derive(Debug, Clone, PartialEq)]
pub struct Explanation {
    /// The document explained.
    pub doc: u32,
    /// The parameters scored with.
    pub params: Bm25Params,
    /// The document's length in tokens.
    pub doc_len: u32,
    /// The corpus's mean document length.
    pub avg_len: f64,
    /// `k1 · ((1 − b) + b · doc_len / avg_len)`, shared by every term.
    pub norm: f64,
    /// One entry per query token occurrence, in query order.
    pub terms: Vec<TermExplanation>,
    /// The sum of the contributions in the scorer's order and precision:
    /// the document's text score, bit for bit.
    pub total: f64,
    /// Where the pool adds its editorial headings (see
    /// [`super::editorial`]): their weight and the heading's own
    /// explanation.
    pub editorial: Option<EditorialShare>,
}

/// The editorial heading's part of a document's score.
#[derive(Debug, Clone, PartialEq)]
pub struct EditorialShare {
    /// The heading field's weight.
    pub weight: f64,
    /// The heading's BM25 score taken apart.
    pub heading: Box<Explanation>,
}

impl EditorialShare {
    /// What the heading adds to the text's score.
    pub fn share(&self) -> f64 {
        self.weight * self.heading.total
    }
}

impl Explanation {
    /// The score the document ranked by: the text's, plus the weighted
    /// heading's where there is one, summed as the ranking sums them.
    pub fn score(&self) -> f64 {
        match &self.editorial {
            Some(e) => self.total + e.share(),
            None => self.total,
        }
    }
}

/// One query token's share of a document's score.
#[derive(Debug, Clone, PartialEq)]
pub struct TermExplanation {
    /// The token as the query had it.
    pub token: String,
    /// Whether the index has the token at all (if not, it adds nothing).
    pub in_index: bool,
    /// The term's idf as scored (okapi after the floor, lucene as f32).
    pub idf: f64,
    /// Occurrences in the document.
    pub tf: u32,
    /// What the term adds to the total (lucene: the f32 impact, widened).
    pub contribution: f64,
}

/// Several lines: the total with the document's length figures, then one
/// line per query token.
impl fmt::Display for Explanation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} = {} over {} query tokens (length {}, average {}, norm {})",
            self.total,
            self.params,
            self.terms.len(),
            self.doc_len,
            self.avg_len,
            self.norm
        )?;
        for t in &self.terms {
            match t.in_index {
                false => writeln!(f, "  {}: not in the index", t.token)?,
                true => writeln!(
                    f,
                    "  {}: idf {} tf {} -> {}",
                    t.token, t.idf, t.tf, t.contribution
                )?,
            }
        }
        if let Some(e) = &self.editorial {
            write!(
                f,
                "+ {} x editorial heading {} -> {} = {}\n{}",
                e.weight,
                e.heading.total,
                e.share(),
                self.score(),
                e.heading
            )?;
        }
        Ok(())
    }
}
