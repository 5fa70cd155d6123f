//! BM25 ranking over an [`InvertedIndex`](crate::index::InvertedIndex),
//! with each score [`Explanation`] term by term, a [`Searcher`] that takes
//! free text, and [`highlight`]ing of matches in displayed text.
//!
//! Two variants, each matching a published baseline bit for bit:
//! - [`Bm25Variant::Okapi`]: rank_bm25 0.2.2 `BM25Okapi` (GreekBarRetrieval);
//! - [`Bm25Variant::Lucene`]: bm25s 0.3.8 `BM25(method="lucene")`
//!   (CRAwLeR-DK), computed in float32 like the reference.
//!
//! Known differences, all outside what the baselines exercise:
//! - rank_bm25 evaluates its formula for every document, so where it is 0/0
//!   for a document lacking the term (k1 = 0, or b = 1 and an empty
//!   document) it yields NaN; we only visit postings, so such documents
//!   keep score 0.
//! - bm25s raises on an empty token list and on the token `""` when the
//!   corpus lacks it; we return all-zero scores / ignore it.
//! - idf uses `f64::ln`. Natively that is the platform libm, as CPython's
//!   `math.log`; on wasm it is Rust's own libm port, which may differ in the
//!   last bit for rare inputs.

mod accumulator;
mod bm25;
pub mod editorial;
mod explain;
pub mod highlight;
mod idf_table;
mod impacts;
mod params;
mod query_runs;
mod query_sum;
mod repeated_add;
mod searcher;

pub use accumulator::Accumulator;
pub use bm25::Bm25Scorer;
pub(crate) use bm25::{
    add_lucene, add_okapi, avg_len, doc_norm, explain_doc, lucene_term_idf, okapi_floor,
    okapi_floored, okapi_sum,
};
pub use explain::{EditorialShare, Explanation, TermExplanation};
pub use idf_table::{IdfTable, IdfTableError};
pub use params::{Bm25Params, Bm25Variant, ParamsError};
pub use query_runs::{cap_runs, QUERY_RUNS_MAX};
pub(crate) use query_sum::QueryTerms;
pub(crate) use repeated_add::Precision;
pub use searcher::Searcher;

#[cfg(test)]
mod tests;
