//! What `search` and `eval` rank with: a core [`Pool`] (analyzer, index,
//! vectors), its [`Benchmark`] and the BM25 parameters the flags chose — from a
//! BEIR directory (indexed on the fly) or from a blob (indexed at build
//! time, opened exactly as the browser opens it).

use std::path::Path;

use anyhow::Result;
use nomos_core::analysis::Analyzer;
use nomos_core::blob::{Blob, Field};
use nomos_core::dense::Ivf;
use nomos_core::eval::Qrels;
use nomos_core::index::InvertedIndex;
use nomos_core::pool::{Benchmark, Pool};
use nomos_core::search::{Bm25Params, Bm25Variant};

use super::analyzer_by_name;
use crate::cli::{PoolArg, RankedField, RankingArgs};
use crate::error::bad_input;
use crate::progress;
use crate::sources::beir::read_beir;
use crate::sources::dataset::{Article, Dataset};
use nomos_core::facets::DocFacets;

/// The k-means seed of `--lists`.
const IVF_SEED: u64 = 1;

pub struct Ranking {
    pub pool: Pool,
    /// The pool's document ids, queries and judgments.
    pub benchmark: Benchmark,
    /// BM25's settings: the pool's defaults, changed by the flags.
    pub params: Bm25Params,
    /// The documents' titles and texts, which the LLM methods show a model.
    pub texts: Texts,
}

/// Where the documents' titles and texts are: kept from loading, so that
/// showing them costs no second read.
pub enum Texts {
    /// The blob the pool was opened from (its index moved into the pool).
    Blob(Box<Blob>),
    /// The articles of a directory indexed on the fly.
    Articles(Vec<Article>),
}

/// Facets from the blob, or from the articles' own sources and areas.
impl DocFacets for Texts {
    fn source(&self, doc: u32) -> Option<&str> {
        match self {
            Texts::Blob(blob) => DocFacets::source(blob.as_ref(), doc),
            Texts::Articles(articles) => articles
                .get(doc as usize)
                .map(|a| a.source.as_str())
                .filter(|s| !s.is_empty()),
        }
    }
    fn area(&self, doc: u32) -> Option<&str> {
        match self {
            Texts::Blob(blob) => DocFacets::area(blob.as_ref(), doc),
            Texts::Articles(articles) => articles.get(doc as usize)?.area.as_deref(),
        }
    }
}

impl Ranking {
    /// Loads the pool named on the command line.
    pub fn load(pool: &PoolArg, ranking: &RankingArgs) -> Result<Ranking> {
        let loaded = Ranking::load_pool(pool, ranking)?;
        if let Some(lists) = ranking.lists {
            let dense = loaded.pool.dense().ok_or_else(|| {
                bad_input("--lists needs a blob with vectors (built with --embed)")
            })?;
            let ivf = Ivf::build(dense, lists, IVF_SEED).map_err(bad_input)?;
            if !loaded.pool.add_ivf(ivf) {
                return Err(bad_input(
                    "the inverted lists do not fit the blob's vectors",
                ));
            }
        }
        Ok(loaded)
    }

    fn load_pool(pool: &PoolArg, ranking: &RankingArgs) -> Result<Ranking> {
        match (&pool.corpus, &pool.index) {
            (Some(_), None) if ranking.field == RankedField::Augmented => Err(bad_input(
                "--field augmented needs a blob (--index) built with augmented texts",
            )),
            (Some(dir), None) => {
                let name = ranking.analyzer.as_deref().ok_or_else(|| {
                    bad_input("--analyzer is required with --corpus (gbr-greek, da or zh)")
                })?;
                let analyzer = analyzer_by_name(name)?;
                let params = bm25_params(ranking, Bm25Params::new(Bm25Variant::Okapi))?;
                let (pool, benchmark, articles) = index_pool(read_beir(dir)?, analyzer, params)?;
                Ok(Ranking {
                    pool,
                    benchmark,
                    params,
                    texts: Texts::Articles(articles),
                })
            }
            (None, Some(path)) => Ranking::from_blob(path, ranking),
            _ => Err(bad_input(
                "give exactly one of --corpus DIR or --index BLOB",
            )),
        }
    }

    /// Opens a blob: its analyzer and index are the ones it was built with;
    /// the flags may change only the BM25 parameters.
    fn from_blob(path: &Path, args: &RankingArgs) -> Result<Ranking> {
        let mut blob = crate::blob_file::open(path)?;
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
        let field = match args.field {
            RankedField::Text => Field::Text,
            RankedField::Augmented => Field::Augmented,
        };
        let mut pool = Pool::from_blob_field(&mut blob, field)
            .map_err(|e| bad_input(format!("{}: {e}", path.display())))?;
        if let Some(weight) = args.editorial_weight {
            pool = pool.with_editorial_weight(weight).map_err(bad_input)?;
        }
        let benchmark = Benchmark::from_blob(&blob, &pool.analyzer())
            .map_err(|e| bad_input(format!("{}: the blob's benchmark: {e}", path.display())))?;
        Ok(Ranking {
            pool,
            benchmark,
            params,
            texts: Texts::Blob(Box::new(blob)),
        })
    }
}

/// The inverted index of `articles`' texts, analysed with a progress bar.
pub(crate) fn index_articles(articles: &[Article], analyzer: &Analyzer) -> Result<InvertedIndex> {
    let bar = progress::bar(articles.len(), "analysing");
    let tokens: Vec<Vec<String>> = articles
        .iter()
        .map(|a| {
            bar.inc(1);
            analyzer.tokens(&a.text)
        })
        .collect();
    bar.finish_and_clear();
    InvertedIndex::build(&tokens).map_err(bad_input)
}

/// Analyses and indexes every article of a source, with a progress bar;
/// the articles are handed back.
fn index_pool(
    source: Dataset,
    analyzer: Analyzer,
    params: Bm25Params,
) -> Result<(Pool, Benchmark, Vec<Article>)> {
    let index = index_articles(&source.articles, &analyzer)?;
    let mut qrels = Qrels::new();
    for j in &source.judgments {
        qrels
            .insert(&j.query_id, &j.doc_id, j.relevance)
            .map_err(bad_input)?;
    }
    let doc_ids = source.articles.iter().map(|a| a.id.clone()).collect();
    let doc_source = |d: u32| source.articles.get(d as usize).map(|a| a.source.as_str());
    let benchmark = Benchmark::from_parts(doc_ids, source.queries, qrels, &analyzer, &doc_source);
    let pool = Pool::from_parts(analyzer, index, params).map_err(bad_input)?;
    Ok((pool, benchmark, source.articles))
}

/// BM25 parameters from the flags over `defaults`, validated. Choosing a
/// variant other than the default's resets k1, b and epsilon to its own.
pub(super) fn bm25_params(args: &RankingArgs, defaults: Bm25Params) -> Result<Bm25Params> {
    let mut params = match args.bm25 {
        Some(variant) if variant != defaults.variant => Bm25Params::new(variant),
        _ => defaults,
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
