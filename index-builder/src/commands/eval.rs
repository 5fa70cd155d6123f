//! `nomos eval`: run every query, write a TREC run and a metrics JSON.

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result};
use nomos_core::eval::{format_run_line, Run};
use nomos_core::pool::Benchmark;

use super::method::MethodRanker;
use super::metrics_json::{evaluate_reported, to_json};
use super::progress;
use super::ranking::Ranking;
use crate::cli::EvalArgs;
use crate::error::bad_input;
use crate::sources::beir::read_beir_queries;
use crate::sources::pool::Query;
use crate::sources::qrels::read_core_qrels;

pub fn run(args: &EvalArgs) -> Result<()> {
    let ranking = Ranking::load(&args.pool, &args.ranking)?;
    let bench = benchmark(args, &ranking)?;
    let bench = bench.as_ref().unwrap_or(&ranking.benchmark);
    if bench.queries.is_empty() {
        return Err(bad_input(
            "the pool has no queries: give --queries FILE (BEIR queries.jsonl)",
        ));
    }
    if bench.qrels.is_empty() {
        return Err(bad_input(
            "the pool has no judgments: give --qrels FILE (TREC or BEIR TSV)",
        ));
    }

    let mut ranker = MethodRanker::new(&args.ranking, &ranking)?;
    let described = ranker.describe(&ranking);
    eprintln!("method {described}");
    let tag = args
        .tag
        .clone()
        .unwrap_or_else(|| format!("nomos-{described}"));

    let mut run = Run::new();
    let mut run_text = String::new();
    let bar = progress::bar(bench.queries.len(), "queries");
    for q in &bench.queries {
        let hits = ranker
            .rank(&ranking, &q.text, &q.tokens, args.depth, args.positive_only)
            .map_err(|e| e.context(format!("query {}", q.id)))?;
        run.add_query(&q.id);
        for (rank, hit) in hits.iter().enumerate() {
            let doc = &bench.doc_ids[hit.doc as usize];
            run.push(&q.id, doc, hit.score)
                .map_err(|e| bad_input(format!("query {}: {e}", q.id)))?;
            // Written in our ranking order (ties in corpus order, as the
            // references rank); trec_eval re-sorts when it evaluates.
            let line = format_run_line(&q.id, doc, rank + 1, hit.score, &tag)
                .map_err(|e| bad_input(format!("query {}: {e}", q.id)))?;
            run_text.push_str(&line);
            run_text.push('\n');
        }
        bar.inc(1);
    }
    bar.finish_and_clear();

    write_file(&args.run, run_text.as_bytes())?;
    let eval = evaluate_reported(&bench.qrels, &run);
    let json = serde_json::to_string_pretty(&to_json(&eval))?;
    write_file(&args.metrics, json.as_bytes())?;
    eprintln!(
        "{described}: {} queries ranked, {} evaluated; nDCG@10 {:.4}, R@100 {:.4}",
        bench.queries.len(),
        eval.queries.len(),
        eval.means[0],
        eval.means[6]
    );
    Ok(())
}

/// The pool's benchmark with `--queries` and `--qrels` in place of its
/// own, when either is given.
fn benchmark(args: &EvalArgs, ranking: &Ranking) -> Result<Option<Benchmark>> {
    if args.queries.is_none() && args.qrels.is_none() {
        return Ok(None);
    }
    let own = &ranking.benchmark;
    let queries = match &args.queries {
        Some(path) => read_beir_queries(path)?,
        None => own
            .queries
            .iter()
            .map(|q| Query {
                id: q.id.clone(),
                text: q.text.clone(),
                area: q.area.clone(),
            })
            .collect(),
    };
    let qrels = match &args.qrels {
        Some(path) => read_core_qrels(path)?,
        None => own.qrels.clone(),
    };
    Ok(Some(Benchmark::from_parts(
        own.doc_ids.clone(),
        queries,
        qrels,
        &ranking.pool.analyzer(),
        &|_| None,
    )))
}

fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    let mut f =
        std::fs::File::create(path).with_context(|| format!("cannot create {}", path.display()))?;
    f.write_all(bytes)
        .with_context(|| format!("cannot write {}", path.display()))
}
