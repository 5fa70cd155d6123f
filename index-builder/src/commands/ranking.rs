//! What `search` and `eval` rank with: a pool's ids, queries and judgments,
//! and a [`Searcher`] (its analyzer and a BM25 scorer over its index) — from
//! a BEIR directory (indexed on the fly) or from a blob (indexed at build
//! time, opened exactly as the browser opens it).

use std::path::Path;

use anyhow::Result;
use nomos_core::analysis::Analyzer;
use nomos_core::blob::{Blob, DenseModel, Field};
use nomos_core::dense::DenseIndex;
use nomos_core::eval::Qrels;
use nomos_core::index::InvertedIndex;
use nomos_core::search::{Bm25Params, Bm25Scorer, Bm25Variant, Searcher};

use super::{analyzer_by_name, progress};
use crate::cli::{Bm25Arg, PoolArg, RankingArgs};
use crate::error::bad_input;
use crate::sources::beir::read_beir;
use crate::sources::pool::{Pool, Query};

pub struct Ranking {
    pub doc_ids: Vec<String>,
    pub queries: Vec<Query>,
    pub qrels: Qrels,
    pub searcher: Searcher,
    /// The blob's document vectors (text field) and their model, if any.
    pub dense: Option<(DenseModel, DenseIndex)>,
}

impl Ranking {
    /// Loads the pool named on the command line.
    pub fn load(pool: &PoolArg, ranking: &RankingArgs) -> Result<Ranking> {
        match (&pool.corpus, &pool.index) {
            (Some(dir), None) => {
                let name = ranking.analyzer.as_deref().ok_or_else(|| {
                    bad_input("--analyzer is required with --corpus (gbr-greek, da or zh)")
                })?;
                let analyzer = analyzer_by_name(name)?;
                let params = bm25_params(ranking, Bm25Params::new(Bm25Variant::Okapi))?;
                Ranking::index_pool(read_beir(dir)?, analyzer, params)
            }
            (None, Some(path)) => Ranking::from_blob(path, ranking),
            _ => Err(bad_input(
                "give exactly one of --corpus DIR or --index BLOB",
            )),
        }
    }

    /// Analyses and indexes every article of `pool`, with a progress bar.
    pub fn index_pool(pool: Pool, analyzer: Analyzer, params: Bm25Params) -> Result<Ranking> {
        let bar = progress::bar(pool.articles.len(), "analysing");
        let tokens: Vec<Vec<String>> = pool
            .articles
            .iter()
            .map(|a| {
                bar.inc(1);
                analyzer.tokens(&a.text)
            })
            .collect();
        bar.finish_and_clear();
        let index = InvertedIndex::build(&tokens).map_err(bad_input)?;
        let scorer = Bm25Scorer::new(index, params).map_err(bad_input)?;
        let mut qrels = Qrels::new();
        for j in &pool.judgments {
            qrels
                .insert(&j.query_id, &j.doc_id, j.relevance)
                .map_err(bad_input)?;
        }
        Ok(Ranking {
            doc_ids: pool.articles.into_iter().map(|a| a.id).collect(),
            queries: pool.queries,
            qrels,
            searcher: Searcher::new(analyzer, scorer),
            dense: None,
        })
    }

    /// Opens a blob: its analyzer and index are the ones it was built with;
    /// the flags may change only the BM25 parameters.
    fn from_blob(path: &Path, args: &RankingArgs) -> Result<Ranking> {
        let bytes = std::fs::read(path)
            .map_err(|e| bad_input(format!("{}: cannot read: {e}", path.display())))?;
        let mut blob =
            Blob::load(&bytes).map_err(|e| bad_input(format!("{}: {e}", path.display())))?;
        if let Some(asked) = &args.analyzer {
            if asked != blob.analyzer() {
                return Err(bad_input(format!(
                    "{} was indexed with the {} analyzer; --analyzer {asked} cannot apply",
                    path.display(),
                    blob.analyzer()
                )));
            }
        }
        let params = bm25_params(args, blob.bm25_params())?;
        let doc_ids = (0..blob.n_docs())
            .map(|d| blob.doc_id(d).unwrap_or_default().to_string())
            .collect::<Vec<_>>();
        let mut qrels = Qrels::new();
        let mut queries = Vec::new();
        for (q, query) in blob.queries_iter().enumerate() {
            for j in blob.judgments(q) {
                qrels
                    .insert(query.id, &doc_ids[j.doc as usize], j.relevance)
                    .map_err(bad_input)?;
            }
            queries.push(Query {
                id: query.id.to_string(),
                text: query.text.to_string(),
                area: query.area.map(str::to_string),
            });
        }
        let searcher = Searcher::from_blob(&mut blob, params)
            .map_err(|e| bad_input(format!("{}: {e}", path.display())))?;
        let dense = blob
            .dense_model()
            .cloned()
            .zip(blob.take_dense(Field::Text));
        Ok(Ranking {
            doc_ids,
            queries,
            qrels,
            searcher,
            dense,
        })
    }
}

/// BM25 parameters from the flags over `defaults`, validated. Choosing a
/// variant other than the default's resets k1, b and epsilon to its own.
pub fn bm25_params(args: &RankingArgs, defaults: Bm25Params) -> Result<Bm25Params> {
    let mut params = match args.bm25 {
        None => defaults,
        Some(arg) => {
            let variant = match arg {
                Bm25Arg::Okapi => Bm25Variant::Okapi,
                Bm25Arg::Lucene => Bm25Variant::Lucene,
            };
            if variant == defaults.variant {
                defaults
            } else {
                Bm25Params::new(variant)
            }
        }
    };
    if let Some(k1) = args.k1 {
        params.k1 = k1;
    }
    if let Some(b) = args.b {
        params.b = b;
    }
    params.validate().map_err(bad_input)?;
    Ok(params)
}
