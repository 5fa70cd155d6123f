//! The `--method` of `search` and `eval`: ranks through
//! [`nomos_core::methods::rank`], embedding each query first when
//! the method is dense.

use std::sync::OnceLock;

use anyhow::Result;
use nomos_core::blob::DenseModel;
use nomos_core::dense::DenseIndex;
use nomos_core::methods::{rank, Collection, ForwardIndex, Method, MethodQuery};
use nomos_core::hits::Hit;
use nomos_core::search::Searcher;

use crate::cli::RankingArgs;
use crate::embedder::{self, Embedder};
use crate::error::bad_input;

/// A method with what it needs beyond the BM25 searcher.
pub struct MethodRanker {
    method: Method,
    dense: Option<DenseIndex>,
    forward: OnceLock<ForwardIndex>,
    embedder: Option<Box<dyn Embedder>>,
}

impl MethodRanker {
    /// Checks up front that a dense method has vectors and a query model
    /// matching them; `dense` comes from the pool (`None` for `--corpus`).
    /// Without `--method`, hybrid (`rrf`) is the default wherever it can
    /// run (vectors and `--model`), BM25 elsewhere.
    pub fn new(args: &RankingArgs, dense: Option<(DenseModel, DenseIndex)>) -> Result<Self> {
        let method = match args.method {
            Some(method) => method,
            None if dense.is_some() && args.model.is_some() => {
                Method::by_name("rrf").expect("rrf is a method name")
            }
            None => Method::Bm25,
        };
        let mut ranker = MethodRanker {
            method,
            dense: None,
            forward: OnceLock::new(),
            embedder: None,
        };
        if !method.needs_dense() {
            return Ok(ranker);
        }
        let Some((model, vectors)) = dense else {
            return Err(bad_input(
                "this blob has no dense vectors; build it with --embed MODEL_DIR",
            ));
        };
        let dir = args.model.as_ref().ok_or_else(|| {
            bad_input(format!(
                "--method {} embeds each query: give --model MODEL_DIR with the model the \
                 blob's vectors were built with ({})",
                method.name(),
                model.id
            ))
        })?;
        let embedder = embedder::open(dir, args.runtime.ort_lib.as_deref())?;
        if embedder.manifest_hash() != model.manifest_hash || embedder.dim() != model.dim {
            return Err(bad_input(format!(
                "{} holds model {} (manifest {}), but the blob's vectors come from {} \
                 (manifest {}): embed queries with the same model",
                dir.display(),
                embedder.model_id(),
                embedder.manifest_hash(),
                model.id,
                model.manifest_hash
            )));
        }
        ranker.dense = Some(vectors);
        ranker.embedder = Some(embedder);
        Ok(ranker)
    }

    /// The best `k` documents for the free-text `query`; see
    /// [`nomos_core::methods::rank`] for `positive_only`.
    pub fn rank(
        &mut self,
        searcher: &Searcher,
        query: &str,
        k: usize,
        positive_only: bool,
    ) -> Result<Vec<Hit>> {
        let tokens = searcher.analyzer().tokens(query);
        let embedding = match &mut self.embedder {
            Some(e) => Some(e.embed_query(query)?),
            None => None,
        };
        let collection = Collection {
            scorer: searcher.scorer(),
            forward: &self.forward,
            dense: self.dense.as_ref(),
        };
        let query = MethodQuery {
            tokens: &tokens,
            embedding: embedding.as_deref(),
        };
        rank(&self.method, &collection, &query, k, positive_only).map_err(bad_input)
    }

    /// The method with every parameter, and the BM25 settings when it uses
    /// BM25 ([`Method::describe_with`]): what a run tag must say.
    pub fn describe(&self, searcher: &Searcher) -> String {
        self.method.describe_with(&searcher.params())
    }
}
