//! The `--method` of `search` and `eval`: ranks through
//! [`Pool::rank`](nomos_core::pool::Pool::rank), embedding each query first
//! when the method is dense.

use anyhow::Result;
use nomos_core::hits::Hit;
use nomos_core::methods::Method;

use super::ranking::Ranking;
use crate::cli::RankingArgs;
use crate::embedder::{self, Embedder};
use crate::error::bad_input;

/// A method with the query encoder it needs, if any.
pub struct MethodRanker {
    method: Method,
    embedder: Option<Box<dyn Embedder>>,
}

impl MethodRanker {
    /// Checks up front that a dense method has vectors and a query model
    /// matching them. Without `--method`, the pool's default
    /// ([`nomos_core::pool::Pool::default_method`]): hybrid wherever it can run (vectors and
    /// `--model`).
    pub fn new(args: &RankingArgs, ranking: &Ranking) -> Result<Self> {
        let model = ranking.pool.dense_model();
        let method = args.method.unwrap_or_else(|| {
            ranking
                .pool
                .default_method(model.is_some() && args.model.is_some())
        });
        if !method.needs_dense() {
            return Ok(MethodRanker {
                method,
                embedder: None,
            });
        }
        let Some(model) = model else {
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
        let embedder = embedder::open(dir, args.runtime.runtime())?;
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
        Ok(MethodRanker {
            method,
            embedder: Some(embedder),
        })
    }

    /// The best `k` documents for `query` (its text, to embed, and its
    /// analysed `tokens`); see [`nomos_core::methods`] for `positive_only`.
    pub fn rank(
        &mut self,
        ranking: &Ranking,
        query: &str,
        tokens: &[String],
        k: usize,
        positive_only: bool,
    ) -> Result<Vec<Hit>> {
        let method = self.method;
        self.rank_as(&method, ranking, query, tokens, k, positive_only)
    }

    /// As [`Self::rank`], with `method` in place of the ranker's own: the
    /// plain method an LLM method's reformulation is ranked with, where
    /// `query` (embedded) and `tokens` may come from different
    /// reformulations.
    pub fn rank_as(
        &mut self,
        method: &Method,
        ranking: &Ranking,
        query: &str,
        tokens: &[String],
        k: usize,
        positive_only: bool,
    ) -> Result<Vec<Hit>> {
        let embedding = match (&mut self.embedder, method.needs_dense()) {
            (Some(e), true) => Some(e.embed_query(query)?),
            _ => None,
        };
        ranking
            .pool
            .rank(
                method,
                &ranking.params,
                tokens,
                embedding.as_deref(),
                k,
                positive_only,
            )
            .map_err(bad_input)
    }

    /// The query embedding of `text` (a dense method's ranker only).
    pub fn embed_query(&mut self, text: &str) -> Result<Vec<f32>> {
        match &mut self.embedder {
            Some(e) => e.embed_query(text),
            None => Err(bad_input("this method embeds no queries")),
        }
    }

    /// The method ranked with.
    pub fn method(&self) -> Method {
        self.method
    }

    /// The method with every parameter, and the BM25 settings when it uses
    /// BM25 ([`Method::describe_with`]): what a run tag must say.
    pub fn describe(&self, ranking: &Ranking) -> String {
        self.method.describe_with(&ranking.params)
    }
}
