//! Free-text BM25 search: the analyzer an index was built with and a
//! scorer over that index, so a query is analysed as its documents were.

use super::params::{Bm25Params, ParamsError};
use super::Bm25Scorer;
use crate::analysis::Analyzer;
use crate::hits::Hit;

/// Free text in, ranked documents out.
#[derive(Debug, Clone)]
pub struct Searcher {
    analyzer: Analyzer,
    scorer: Bm25Scorer,
}

impl Searcher {
    /// `scorer` must score an index built with `analyzer`.
    pub fn new(analyzer: Analyzer, scorer: Bm25Scorer) -> Self {
        Searcher { analyzer, scorer }
    }

    /// The analyzer queries go through.
    pub fn analyzer(&self) -> Analyzer {
        self.analyzer
    }

    /// The BM25 scorer, for token-level calls.
    pub fn scorer(&self) -> &Bm25Scorer {
        &self.scorer
    }

    /// The scorer's parameters.
    pub fn params(&self) -> Bm25Params {
        self.scorer.params()
    }

    /// See [`Bm25Scorer::set_params`].
    pub fn set_params(&mut self, params: Bm25Params) -> Result<(), ParamsError> {
        self.scorer.set_params(params)
    }

    /// Scores every document for the free-text `query` into `scores`.
    pub fn score_into(&self, query: &str, scores: &mut Vec<f64>) {
        self.scorer.score_into(&self.analyzer.tokens(query), scores);
    }

    /// The best `k` documents scoring above zero for the free-text `query`,
    /// best first (`k = usize::MAX` ranks every match).
    pub fn search(&self, query: &str, k: usize) -> Vec<Hit> {
        self.scorer.search(&self.analyzer.tokens(query), k, true)
    }
}
