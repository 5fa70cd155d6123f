//! Ranking methods beyond plain BM25, all behind one entry point,
//! `Pool::rank` (in the pool module above this one):
//! dense retrieval (brute-force int8 and binary + rescoring, see
//! [`crate::dense`]), sparse and dense pseudo-relevance feedback, and
//! fusion of BM25 with dense, and score propagation along the pool's
//! citations and definitions. [`Method`] names a method and its parameters
//! and has a compact string form for URLs and the command line.
//!
//! Everything is deterministic: rankings order by score descending with
//! ties in corpus order (document id), fusion sums over lists in a fixed
//! order, and expansion terms tie-break by term id.

mod feedback;
mod fusion;
mod propagate;
mod rank;
mod spec;

pub use feedback::{expansion_terms, ForwardIndex};
pub use fusion::{fuse_hybrid, rrf, weighted_fusion};
pub use propagate::{Direction, Graph};
pub use rank::RankError;
pub(crate) use rank::{rank, Collection, MethodQuery};
pub use spec::{Method, MethodError};

#[cfg(test)]
mod tests;
