//! A pool ready to query: the analyzer its index was built with and a BM25
//! scorer over that index. The CLI and the browser both open blobs through
//! [`Searcher::from_blob`], so a query is analysed and ranked the same way
//! everywhere.

use std::fmt;

use super::params::{Bm25Params, ParamsError};
use super::Bm25Scorer;
use crate::analysis::{Analyzer, UnknownAnalyzer};
use crate::blob::{Blob, Field};
use crate::hits::{top_k_into, Hit};

/// Free text in, ranked documents out.
#[derive(Debug, Clone)]
pub struct Searcher {
    analyzer: Analyzer,
    scorer: Bm25Scorer,
}

impl Searcher {
    pub fn new(analyzer: Analyzer, scorer: Bm25Scorer) -> Self {
        Searcher { analyzer, scorer }
    }

    /// Takes the blob's text index (see [`Blob::take_index`]) and scores it
    /// with `params`, analysing queries with the blob's own analyzer. On
    /// error the blob keeps its index.
    pub fn from_blob(blob: &mut Blob, params: Bm25Params) -> Result<Self, SearcherError> {
        params.validate().map_err(SearcherError::Params)?;
        let analyzer = Analyzer::by_name(blob.analyzer()).map_err(SearcherError::Analyzer)?;
        let index = blob
            .take_index(Field::Text)
            .ok_or(SearcherError::NoTextIndex)?;
        let scorer = Bm25Scorer::with_idf_table(index, params, blob.idf_table().cloned())
            .map_err(SearcherError::Params)?;
        Ok(Searcher { analyzer, scorer })
    }

    pub fn analyzer(&self) -> Analyzer {
        self.analyzer
    }

    pub fn scorer(&self) -> &Bm25Scorer {
        &self.scorer
    }

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
        let mut scores = Vec::new();
        self.score_into(query, &mut scores);
        let mut hits = Vec::new();
        top_k_into(&scores, k, true, &mut hits);
        hits
    }
}

/// Why a blob cannot be searched.
#[derive(Debug, Clone, PartialEq)]
pub enum SearcherError {
    /// The blob names an analyzer this build does not have.
    Analyzer(UnknownAnalyzer),
    /// The blob has no index over its document text.
    NoTextIndex,
    /// The BM25 parameters are out of range.
    Params(ParamsError),
}

impl fmt::Display for SearcherError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SearcherError::Analyzer(e) => write!(f, "the blob's analyzer: {e}"),
            SearcherError::NoTextIndex => f.write_str("the blob has no text index"),
            SearcherError::Params(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for SearcherError {}
