//! `nomos search --fragments DIR`: a fragmented pool ranked natively by
//! reading only what the browser fetches for the query — the meta, the
//! postings fragments of its tokens for a method with BM25, for a dense
//! method the centroids and the probed lists — through core's
//! `Meta::rank_method`, then the shown documents' directory pages and
//! fragments for their ids; with `--explain`, each hit's BM25 taken apart
//! over the postings fragments, as over the blob. The reference the
//! browser's ranking of a fragmented pool is tested against.

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result};
use nomos_core::blob::Field;
use nomos_core::facets;
use nomos_core::fragments::{Fetched, ListsFragment, Meta, TermFragment};
use nomos_core::methods::{result_depth, Method};

use super::explained::under_hit;
use super::plan::{shown_docs, META_FILE};
use super::ranking::bm25_params;
use crate::cli::SearchArgs;
use crate::embedder::{self, Embedder, Runtime};
use crate::error::bad_input;

pub fn run(dir: &Path, args: &SearchArgs) -> Result<()> {
    let read = |file: &str| -> Result<Vec<u8>> {
        std::fs::read(dir.join(file)).with_context(|| format!("cannot read {file}"))
    };
    if args.ranking.embed_cache.is_some() {
        return Err(bad_input(
            "--embed-cache keeps the query embeddings of searches and evaluations over a blob; \
             a search of a fragmented pool embeds its one query without it",
        ));
    }
    let meta = Meta::load(&read(META_FILE)?)?;
    let method = args.ranking.method.unwrap_or(Method::Bm25);
    if let Some(why) = meta.cannot_rank(&method) {
        return Err(bad_input(why));
    }
    let params = bm25_params(&args.ranking, meta.bm25_params())?;
    let embedding = match method.needs_dense() {
        true => Some(embed(&meta, &method, args)?),
        false => None,
    };
    let fragment = |n: usize| read(&meta.fragments()[n].file);
    let tokens = meta.analyzer().tokens(&args.query);
    // `dense` ranks without BM25: its query reads no postings, unless
    // asked to explain its hits' BM25.
    let postings = match method.needs_lexical() || args.explain {
        true => meta.needed(Field::Text, &tokens)?,
        false => Vec::new(),
    };
    let terms = postings
        .into_iter()
        .map(|n| Ok(meta.open(n, &fragment(n)?)?))
        .collect::<Result<Vec<TermFragment>>>()?;
    let (centroids, lists) = match (&embedding, Meta::probes_of(&method)) {
        (Some(query), Some(probes)) => {
            let n = meta.needed_centroids()?;
            let centroids = meta.open_centroids(n, &fragment(n)?)?;
            let lists = meta
                .needed_lists(&centroids, query, probes)?
                .into_iter()
                .map(|n| Ok(meta.open_lists(n, &fragment(n)?)?))
                .collect::<Result<Vec<ListsFragment>>>()?;
            (Some(centroids), lists)
        }
        _ => (None, Vec::new()),
    };
    let terms: Vec<&TermFragment> = terms.iter().collect();
    let lists: Vec<&ListsFragment> = lists.iter().collect();
    let fetched = Fetched {
        terms: &terms,
        centroids: centroids.as_ref(),
        lists: &lists,
    };
    let depth = match super::narrowed::wanted(args) {
        true => result_depth(&method),
        false => args.k,
    };
    let hits = meta.rank_method(
        &method,
        params,
        &tokens,
        embedding.as_deref(),
        &fetched,
        depth,
    )?;
    // Filters and facets come from the meta, as in the browser.
    let facets = args.facets.then(|| facets::counts(&meta, &hits));
    let mut hits = facets::narrow(&meta, &hits, &args.narrowing.narrowing());
    hits.truncate(args.k);
    let docs: Vec<u32> = hits.iter().map(|h| h.doc).collect();
    let (_, opened) = shown_docs(dir, &meta, &docs)?;
    if hits.is_empty() {
        eprintln!("no document matches the query's terms");
    }
    let mut out = std::io::stdout().lock();
    for (rank, hit) in hits.iter().enumerate() {
        let id = opened
            .iter()
            .find_map(|(f, _)| f.id(hit.doc))
            .context("a hit's documents fragment lacks it")?;
        writeln!(out, "{}\t{id}\t{}", rank + 1, hit.score)?;
        if args.explain {
            let explanation = meta.explain(Field::Text, params, &tokens, &terms, hit.doc)?;
            write!(out, "{}", under_hit(explanation.as_ref()))?;
        }
    }
    if let Some(counts) = facets {
        super::narrowed::print_facets(&mut out, &counts)?;
    }
    Ok(())
}

/// The query's embedding by `--model`, which must be the model the
/// pool's lists were made with.
fn embed(meta: &Meta, method: &Method, args: &SearchArgs) -> Result<Vec<f32>> {
    let ranking = &args.ranking;
    let mut embedder = query_model(
        meta,
        ranking.model.as_deref(),
        ranking.runtime.runtime(),
        method.name(),
    )?;
    embedder.embed_query(&args.query)
}

/// The model in `dir` (`--model`, needed by `method`), checked to be the
/// one the pool's lists were made with.
pub(super) fn query_model(
    meta: &Meta,
    dir: Option<&Path>,
    runtime: Runtime<'_>,
    method: &str,
) -> Result<Box<dyn Embedder>> {
    let (id, hash, dim) = meta
        .dense_model()
        .ok_or_else(|| bad_input("the pool was cut without vectors"))?;
    let dir = dir.ok_or_else(|| {
        bad_input(format!(
            "--method {method} embeds the query: give --model MODEL_DIR with the model the \
             pool's vectors were made with ({id})"
        ))
    })?;
    let embedder = embedder::open(dir, runtime)?;
    if embedder.manifest_hash() != hash || embedder.dim() != dim {
        return Err(bad_input(format!(
            "{} holds model {} (manifest {}), but the pool's vectors come from {id} \
             (manifest {hash}): embed queries with the same model",
            dir.display(),
            embedder.model_id(),
            embedder.manifest_hash(),
        )));
    }
    Ok(embedder)
}
