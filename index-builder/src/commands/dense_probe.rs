//! `nomos dense-probe`: what probing fewer inverted lists costs in
//! ranking quality and saves in work. Builds the lists over a blob's
//! vectors, embeds every query once, and prints per number of probed
//! lists: overlap@depth with brute force, nDCG@10 (the pool's own queries
//! and judgments), vectors scored and their bytes in lists fragments, and
//! the median time per query.

use std::time::{Duration, Instant};

use anyhow::Result;
use nomos_core::dense::{Ivf, QueryCodes};
use nomos_core::hits::Hit;
use nomos_core::methods::Method;

use super::method::MethodRanker;
use super::metrics_json::{evaluate_rankings, mean};
use super::ranking::Ranking;
use crate::cli::DenseProbeArgs;
use crate::error::bad_input;
use crate::sources::beir::read_beir_queries;

pub fn run(args: &DenseProbeArgs) -> Result<()> {
    let mut ranking_args = args.ranking.clone();
    ranking_args.method = Some(Method::Dense { probes: 0 });
    // The lists are built here, with the seed asked for.
    ranking_args.lists = None;
    let ranking = Ranking::load(&args.pool, &ranking_args)?;
    let mut ranker = MethodRanker::new(&ranking_args, &ranking)?;
    let dense = ranking
        .pool
        .dense()
        .ok_or_else(|| bad_input("the blob has no vectors"))?
        .clone();
    let own = args.queries.is_none();
    let texts: Vec<(String, String)> = match &args.queries {
        Some(path) => read_beir_queries(path)?
            .into_iter()
            .map(|q| (q.id, q.text))
            .collect(),
        None => ranking
            .benchmark
            .queries
            .iter()
            .map(|q| (q.id.clone(), q.text.clone()))
            .collect(),
    };
    if texts.is_empty() {
        return Err(bad_input("no queries: give --queries FILE"));
    }
    let lists = args
        .ranking
        .lists
        .unwrap_or_else(|| Ivf::default_lists(dense.n_vectors()));
    let started = Instant::now();
    let ivf = Ivf::build(&dense, lists, args.seed).map_err(bad_input)?;
    let built = started.elapsed();
    let started = Instant::now();
    let embeddings = texts
        .iter()
        .map(|(_, text)| ranker.embed_query(text))
        .collect::<Result<Vec<_>>>()?;
    let embedded = started.elapsed();
    eprintln!(
        "{} documents, {} vectors of {} values; {} lists built in {:.2} s (seed {}); {} queries \
         embedded in {:.2} s",
        dense.n_docs(),
        dense.n_vectors(),
        dense.dim(),
        ivf.n_lists(),
        built.as_secs_f64(),
        args.seed,
        texts.len(),
        embedded.as_secs_f64()
    );

    let depth = args.depth;
    let (brute, brute_time) = timed(&embeddings, |q| Ok(dense.search(q, depth)?))?;
    let ndcg = |rankings: &[Vec<Hit>]| -> Result<Option<f64>> {
        if !own || ranking.benchmark.qrels.is_empty() {
            return Ok(None);
        }
        let eval = evaluate_rankings(&ranking.benchmark, rankings)?;
        Ok(Some(mean(&eval, "ndcg@10")))
    };
    let per_vector = dense.dim() + 8;
    println!(
        "| probes | lists probed | overlap@{depth} | overlap@10 | nDCG@10 | vectors scored / \
         query | vector bytes / query | ms / query (median) |"
    );
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|");
    let row =
        |probes: String, share: String, overlap: (f64, f64), ndcg: Option<f64>, vectors: f64, t| {
            println!(
                "| {probes} | {share} | {:.3} | {:.3} | {} | {vectors:.0} | {:.0} | {:.3} |",
                overlap.0,
                overlap.1,
                ndcg.map_or("–".to_owned(), |n| format!("{n:.4}")),
                vectors * per_vector as f64,
                millis(t)
            );
        };
    for &probes in &args.probes {
        let (hits, time) = timed(&embeddings, |q| {
            Ok(dense.search_ivf(&ivf, q, depth, probes)?)
        })?;
        let mean_overlap = |at: usize| {
            hits.iter()
                .zip(&brute)
                .map(|(h, b)| overlap(&h[..at.min(h.len())], &b[..at.min(b.len())]))
                .sum::<f64>()
                / hits.len() as f64
        };
        let overlap = (mean_overlap(depth), mean_overlap(10));
        let scored = embeddings
            .iter()
            .map(|q| {
                ivf.probed(&QueryCodes::new(q), probes)
                    .iter()
                    .map(|&l| ivf.list(l).len())
                    .sum::<usize>()
            })
            .sum::<usize>() as f64
            / embeddings.len() as f64;
        let probed = if probes == 0 {
            ivf.n_lists()
        } else {
            probes.min(ivf.n_lists())
        };
        row(
            probes.to_string(),
            format!(
                "{probed} of {} ({:.1}%)",
                ivf.n_lists(),
                100.0 * probed as f64 / ivf.n_lists() as f64
            ),
            overlap,
            ndcg(&hits)?,
            scored,
            time,
        );
    }
    row(
        "brute force".into(),
        "–".into(),
        (1.0, 1.0),
        ndcg(&brute)?,
        dense.n_vectors() as f64,
        brute_time,
    );
    Ok(())
}

/// Share of `brute`'s documents that `hits` also holds.
pub(super) fn overlap(hits: &[Hit], brute: &[Hit]) -> f64 {
    if brute.is_empty() {
        return 1.0;
    }
    let found = brute
        .iter()
        .filter(|b| hits.iter().any(|h| h.doc == b.doc))
        .count();
    found as f64 / brute.len() as f64
}

/// Each query's ranking by `search`, and the median time of one.
fn timed(
    embeddings: &[Vec<f32>],
    mut search: impl FnMut(&[f32]) -> Result<Vec<Hit>>,
) -> Result<(Vec<Vec<Hit>>, Duration)> {
    let mut times = Vec::with_capacity(embeddings.len());
    let mut out = Vec::with_capacity(embeddings.len());
    for q in embeddings {
        let started = Instant::now();
        out.push(search(q)?);
        times.push(started.elapsed());
    }
    times.sort_unstable();
    Ok((out, times[times.len() / 2]))
}

fn millis(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}
