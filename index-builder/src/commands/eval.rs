//! `nomos eval`: run every query, write a TREC run and a metrics JSON;
//! for an LLM method, also its cost, rounds and observer tables (see
//! [`super::llm_report`]). Ctrl-C stops starting queries; everything is
//! then written over the queries done ([`crate::interrupt`]).

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result};
use nomos_core::eval::format_run_line;
use nomos_core::hits::Hit;
use nomos_core::methods::Method;
use nomos_core::pool::Benchmark;
use serde_json::Value;

use super::context_report;
use super::llm_report::{failures, json, print_costs, react_runs, Observer, RoundMetrics};
use super::llm_run::{Depth, LlmRun};
use super::method::MethodRanker;
use super::metrics_json::{evaluate_reported, mean, run_of, to_json};
use super::ranking::Ranking;
use crate::cli::EvalArgs;
use crate::error::{bad_input, Interrupted};
use crate::sources::beir::read_beir_queries;
use crate::sources::dataset::Query;
use crate::sources::qrels::read_core_qrels;
use crate::{interrupt, progress};

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
    let method = ranker.method();
    let work = LlmRun::work(&method, &args.ranking.llm)?;
    let described = ranker.describe(&ranking);
    eprintln!("method {described}");
    let depth = Depth {
        k: args.depth,
        positive_only: args.positive_only,
    };

    interrupt::trap(
        "interrupt: starting no new query; the ones in flight finish, then the metrics of the \
         queries done are written (Ctrl-C again quits at once)",
    )?;
    let (done, rankings, llm) = match work {
        Some(work) => {
            let queries: Vec<(&str, &str)> = bench
                .queries
                .iter()
                .map(|q| (q.id.as_str(), q.text.as_str()))
                .collect();
            let run = LlmRun::execute(
                &args.ranking.llm,
                work,
                &mut ranker,
                &ranking,
                &queries,
                depth,
            )?;
            (run.done.clone(), run.hits.clone(), Some(run))
        }
        None => {
            let hits = rank_plain(&mut ranker, &ranking, bench, depth)?;
            ((0..hits.len()).collect(), hits, None)
        }
    };
    if let Some(summary) = ranker.cache_summary() {
        eprintln!("{summary}");
    }
    let asked = bench.queries.len();
    let only_done = (done.len() < asked).then(|| bench.only(&done));
    let bench = only_done.as_ref().unwrap_or(bench);
    let tag = match (&args.tag, &llm) {
        (Some(tag), _) => tag.clone(),
        (None, Some(llm)) => format!("nomos-{described}{}", llm.tag_suffix()),
        (None, None) => format!("nomos-{described}"),
    };

    write_file(&args.run, run_text(bench, &rankings, &tag)?.as_bytes())?;
    let eval = evaluate_reported(&bench.qrels, &run_of(bench, &rankings)?);
    let mut json = to_json(&eval);
    if args.context {
        json["context"] =
            context_report::report(&ranking, bench, &rankings, args.context_from.as_deref())?;
    }
    if let Some(llm) = &llm {
        json["llm"] = report_llm(llm, &method, &ranking, bench, depth)?;
    }
    write_file(
        &args.metrics,
        serde_json::to_string_pretty(&json)?.as_bytes(),
    )?;
    eprintln!(
        "{described}: {} queries ranked, {} evaluated; nDCG@10 {:.4}, R@100 {:.4}",
        bench.queries.len(),
        eval.queries.len(),
        mean(&eval, "ndcg@10"),
        mean(&eval, "recall@100")
    );
    if only_done.is_some() {
        return Err(Interrupted(format!(
            "interrupted: {} of {asked} queries ranked; metrics are over those {}",
            done.len(),
            done.len()
        ))
        .into());
    }
    Ok(())
}

/// The queries ranked with a plain method, in order, with a progress
/// bar: all of them, or those before Ctrl-C.
fn rank_plain(
    ranker: &mut MethodRanker,
    ranking: &Ranking,
    bench: &Benchmark,
    depth: Depth,
) -> Result<Vec<Vec<Hit>>> {
    let bar = progress::bar(bench.queries.len(), "queries");
    let rankings = bench
        .queries
        .iter()
        .take_while(|_| !interrupt::requested())
        .map(|q| {
            let hits = ranker
                .rank(ranking, &q.text, &q.tokens, depth.k, depth.positive_only)
                .map_err(|e| e.context(format!("query {}", q.id)));
            bar.inc(1);
            hits
        })
        .collect::<Result<Vec<_>>>()?;
    bar.finish_and_clear();
    Ok(rankings)
}

/// The TREC run file: each query's documents in our ranking order (ties
/// in corpus order, as the references rank); trec_eval re-sorts when it
/// evaluates.
fn run_text(bench: &Benchmark, rankings: &[Vec<Hit>], tag: &str) -> Result<String> {
    let mut text = String::new();
    for (q, hits) in bench.queries.iter().zip(rankings) {
        for (rank, hit) in hits.iter().enumerate() {
            let doc = &bench.doc_ids[hit.doc as usize];
            let line = format_run_line(&q.id, doc, rank + 1, hit.score, tag)
                .map_err(|e| bad_input(format!("query {}: {e}", q.id)))?;
            text.push_str(&line);
            text.push('\n');
        }
    }
    Ok(text)
}

/// Prints an LLM run's tables on stdout and its failed steps on stderr,
/// and returns the `llm` object of the metrics JSON.
fn report_llm(
    llm: &LlmRun,
    method: &Method,
    ranking: &Ranking,
    bench: &Benchmark,
    depth: Depth,
) -> Result<Value> {
    let (rounds, observer) = match (method, react_runs(llm)) {
        (Method::ReactBm25 { rounds, .. }, Some(reacts)) => (
            Some(RoundMetrics::compute(
                ranking, bench, &reacts, *rounds, depth,
            )?),
            Some(Observer::compute(bench, &reacts)),
        ),
        _ => (None, None),
    };
    let failures = failures(bench, llm);
    let mut out = std::io::stdout().lock();
    print_costs(&mut out, bench, llm)?;
    if let Some(rounds) = &rounds {
        rounds.print(&mut out)?;
    }
    if let Some(observer) = &observer {
        observer.print(&mut out)?;
    }
    if !failures.is_empty() {
        eprintln!(
            "warning: {} model step{} gave no usable reply after a retry (a failed \
             reformulation ranks the original query; a failed round keeps nothing):",
            failures.len(),
            if failures.len() == 1 { "" } else { "s" }
        );
        for f in failures.iter().take(SHOWN_FAILURES) {
            eprintln!("  {} {}: {:?}", f.query, f.step, f.reply);
        }
        if failures.len() > SHOWN_FAILURES {
            eprintln!(
                "  … and {} more (all under llm.failures in the metrics JSON)",
                failures.len() - SHOWN_FAILURES
            );
        }
    }
    Ok(json(
        bench,
        llm,
        method,
        rounds.as_ref(),
        observer.as_ref(),
        &failures,
    ))
}

/// The pool's benchmark with `--queries` and `--qrels` in place of its
/// own, and only its `--first` queries, when any is given.
fn benchmark(args: &EvalArgs, ranking: &Ranking) -> Result<Option<Benchmark>> {
    if args.queries.is_none() && args.qrels.is_none() && args.first.is_none() {
        return Ok(None);
    }
    let own = &ranking.benchmark;
    let mut queries = match &args.queries {
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
    if let Some(n) = args.first {
        // Metrics average over the queries run (as trec_eval's), so the
        // judgments need no cut.
        queries.truncate(usize::try_from(n).unwrap_or(usize::MAX));
    }
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

/// Failed steps listed on stderr (all are in the metrics JSON).
const SHOWN_FAILURES: usize = 10;

fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    let mut f =
        std::fs::File::create(path).with_context(|| format!("cannot create {}", path.display()))?;
    f.write_all(bytes)
        .with_context(|| format!("cannot write {}", path.display()))
}
