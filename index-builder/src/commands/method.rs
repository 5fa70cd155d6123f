//! The `--method` of `search` and `eval`: ranks through
//! [`Pool::rank`](nomos_core::pool::Pool::rank), embedding each query first
//! when the method is dense (through `--embed-cache` when given, so that a
//! benchmark's queries are embedded once for every method compared).

use anyhow::{Context, Result};
use nomos_core::hits::Hit;
use nomos_core::methods::Method;

use super::ranking::Ranking;
use crate::cli::RankingArgs;
use crate::embedder::{self, EmbedCache, Embedder, CHECKED_HITS};
use crate::error::bad_input;

/// A method with the query encoder it needs, if any.
pub struct MethodRanker {
    method: Method,
    embedder: Option<Box<dyn Embedder>>,
    cache: Option<EmbedCache>,
}

/// What the query cache's key says was embedded, beside the text: a query,
/// not a passage, so that one file may hold both.
const QUERY_KEY: &str = "query";

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
                cache: None,
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
        let cache = match &args.embed_cache {
            Some(path) => Some(EmbedCache::open(path, &model.manifest_hash, model.dim)?),
            None => None,
        };
        Ok(MethodRanker {
            method,
            embedder: Some(embedder),
            cache,
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
        let embedding = match method.needs_dense() {
            true => Some(self.embed_query(query)?),
            false => None,
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

    /// The query embedding of `text` (a dense method's ranker only), from
    /// the cache when it holds it: the run's first few hits are embedded
    /// again and compared, as a build's are.
    pub fn embed_query(&mut self, text: &str) -> Result<Vec<f32>> {
        let Some(embedder) = &mut self.embedder else {
            return Err(bad_input("this method embeds no queries"));
        };
        let Some(cache) = &mut self.cache else {
            return embedder.embed_query(text);
        };
        let key = EmbedCache::key(QUERY_KEY, text);
        match cache.get(key) {
            Some(cached) => {
                if cache.checked < CHECKED_HITS {
                    let fresh = embedder.embed_query(text)?;
                    cache
                        .check(key, &fresh)
                        .with_context(|| format!("query {text:?}"))?;
                }
                Ok(cached)
            }
            None => {
                let fresh = embedder.embed_query(text)?;
                cache.put(key, &fresh)?;
                Ok(fresh)
            }
        }
    }

    /// What `--embed-cache` did, for the end of a run: how many queries it
    /// embedded and how many it read.
    pub fn cache_summary(&self) -> Option<String> {
        self.cache.as_ref().map(|c| {
            format!(
                "query embedding cache: {} queries embedded, {} from the cache ({} of them \
                 embedded again to check it)",
                c.misses, c.hits, c.checked
            )
        })
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
