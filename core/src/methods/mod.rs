//! Ranking methods beyond plain BM25, all behind one entry point,
//! `Pool::rank` (in the pool module above this one):
//! dense retrieval (brute-force int8 and binary + rescoring, see
//! [`crate::dense`]), sparse and dense pseudo-relevance feedback, and
//! fusion of BM25 with dense, and the context methods: score propagation
//! along the pool's citations and definitions, vectors mixed along them,
//! and the fusion of the two. [`Method`] names a method and its parameters
//! and has a compact string form for URLs and the command line.
//!
//! Everything is deterministic: rankings order by score descending with
//! ties in corpus order (document id), fusion sums over lists in a fixed
//! order, and expansion terms tie-break by term id.

mod feedback;
mod fusion;
mod mix;
mod propagate;
mod rank;
mod spec;

pub use feedback::{expansion_terms, ForwardIndex};
pub use fusion::{fuse_hybrid, rrf, weighted_fusion};
pub use mix::{mix, MixCache};
pub use propagate::{Direction, Graph};
pub use rank::RankError;
pub(crate) use rank::{rank, Collection, MethodQuery};
pub use spec::{Method, MethodError};

/// How deep a ranking goes when every result is listed (the app's result
/// list and its facets, the CLI's filters): the lexical methods list every
/// matching document, the fusions the union of their inputs' top 100, and
/// the purely dense ones, since every document has a cosine, the 100
/// nearest.
pub fn result_depth(method: &Method) -> usize {
    match method.needs_lexical() {
        true => usize::MAX,
        false => DENSE_RESULTS,
    }
}

/// Results of the purely dense methods where every result is listed.
const DENSE_RESULTS: usize = 100;

#[cfg(test)]
mod tests;
