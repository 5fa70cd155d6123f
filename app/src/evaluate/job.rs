//! Ranking every benchmark query with one configuration and scoring
//! the run, in slices of a few milliseconds with a turn for the browser in
//! between (no threads in the browser; this keeps typing, scrolling and
//! the Cancel button alive during a sweep).
//!
//! The ranking is `nomos eval`'s: [`Pool::rank`] to [`DEPTH`] with
//! zero-score fill (documents scoring 0 fill the list in corpus order),
//! every query registered in the run even when it ranks nothing, and
//! [`evaluate`] over the whole run.

use nomos_core::eval::{evaluate, Evaluation, Measure, Run};
use nomos_core::hits::Hit;
use nomos_core::pool::{Benchmark, Pool};

use super::llm_outcome::LlmOutcome;
use crate::eval_config::{Config, RankedBy};
use crate::web::{next_task, now};

/// Ranking depth per query, as `nomos eval`'s default.
pub const DEPTH: usize = 100;

/// Longest stretch of work between turns for the browser.
const SLICE_MS: f64 = 12.0;

/// One configuration's evaluation.
pub struct Outcome {
    /// The method, or the run file imported.
    pub config: RankedBy,
    pub eval: Evaluation,
    /// The benchmark index of each evaluated query, parallel to
    /// `eval.queries`.
    pub rows: Vec<usize>,
    /// Each query's ranking by benchmark index, best first (empty when the
    /// job did not keep rankings).
    pub hits: Vec<Vec<Hit>>,
    /// How many of the benchmark's queries were ranked: the first ones
    /// (all but for LLM methods, which are slow).
    pub queries: usize,
    /// What the LLM did, for an LLM method.
    pub llm: Option<LlmOutcome>,
    /// Wall-clock milliseconds, turns for the browser included.
    pub rank_millis: f64,
    pub eval_millis: f64,
}

impl Outcome {
    /// The position of measure `key` (e.g. `ndcg@10`) in the values.
    pub fn column(&self, key: &str) -> Option<usize> {
        self.eval.measures.iter().position(|m| m.to_string() == key)
    }

    pub fn mean(&self, key: &str) -> Option<f64> {
        self.column(key).map(|c| self.eval.means[c])
    }

    /// Measure `column` of evaluated query `row`.
    pub fn value(&self, row: usize, column: usize) -> f64 {
        self.eval.queries[row].values[column]
    }
}

/// Why a job ended without an outcome.
#[derive(Debug, Clone, PartialEq)]
pub enum Stop {
    Cancelled,
    Failed(String),
}

/// Decides when to give the browser a turn, and whether to go on after it.
pub struct Pacer<'a> {
    slice_start: f64,
    keep_going: &'a dyn Fn() -> bool,
}

impl<'a> Pacer<'a> {
    /// `keep_going` is asked after every turn; `false` cancels the job.
    pub fn new(keep_going: &'a dyn Fn() -> bool) -> Self {
        Pacer {
            slice_start: now(),
            keep_going,
        }
    }

    /// Whether the current slice is used up.
    pub fn due(&self) -> bool {
        now() - self.slice_start >= SLICE_MS
    }

    /// Yields to the browser, then says whether to go on.
    pub async fn turn(&mut self) -> Result<(), Stop> {
        next_task().await;
        self.slice_start = now();
        if (self.keep_going)() {
            Ok(())
        } else {
            Err(Stop::Cancelled)
        }
    }
}

/// What ranks: a configuration on a pool, with `embeddings` (one per
/// benchmark query, in order) for the dense methods.
pub struct Ranker<'a> {
    pub config: Config,
    pub pool: &'a Pool,
    pub embeddings: Option<&'a [Vec<f32>]>,
}

/// Ranks the first `n` queries of `bench` with `ranker` and evaluates
/// `measures`. `progress` hears how many queries are ranked before every
/// turn (not after every query: each report re-renders the progress bar).
pub async fn run(
    bench: &Benchmark,
    n: usize,
    ranker: &Ranker<'_>,
    measures: &[Measure],
    keep_hits: bool,
    pacer: &mut Pacer<'_>,
    progress: &mut dyn FnMut(usize),
) -> Result<Outcome, Stop> {
    let started = now();
    let mut run = Run::new();
    let queries = &bench.queries[..n.min(bench.queries.len())];
    let mut all_hits = Vec::with_capacity(if keep_hits { queries.len() } else { 0 });
    let Config { method, params, .. } = ranker.config;
    for (i, q) in queries.iter().enumerate() {
        if pacer.due() {
            progress(i);
            pacer.turn().await?;
        }
        let embedding = ranker.embeddings.and_then(|e| e.get(i)).map(Vec::as_slice);
        let hits = ranker
            .pool
            .rank(&method, &params, &q.tokens, embedding, DEPTH, false)
            .map_err(|e| Stop::Failed(format!("query {}: {e}", q.id)))?;
        run.add_query(&q.id);
        for hit in &hits {
            let doc = &bench.doc_ids[hit.doc as usize];
            run.push(&q.id, doc, hit.score)
                .map_err(|e| Stop::Failed(format!("query {}: {e}", q.id)))?;
        }
        if keep_hits {
            all_hits.push(hits);
        }
    }
    progress(queries.len());
    let ranked = now();
    let (eval, rows) = score(bench, &run, measures)?;
    Ok(Outcome {
        config: RankedBy::Method(ranker.config),
        eval,
        rows,
        hits: all_hits,
        queries: queries.len(),
        llm: None,
        rank_millis: ranked - started,
        eval_millis: now() - ranked,
    })
}

/// A run whose queries are `bench`'s first `hits.len()`, each with its
/// ranking.
pub fn run_of(bench: &Benchmark, hits: &[Vec<Hit>]) -> Result<Run, Stop> {
    let mut run = Run::new();
    for (q, hits) in bench.queries.iter().zip(hits) {
        run.add_query(&q.id);
        for hit in hits {
            run.push(&q.id, &bench.doc_ids[hit.doc as usize], hit.score)
                .map_err(|e| Stop::Failed(format!("query {}: {e}", q.id)))?;
        }
    }
    Ok(run)
}

/// Evaluates `run` on `bench`'s judgments, with each evaluated query's
/// benchmark index.
pub fn score(
    bench: &Benchmark,
    run: &Run,
    measures: &[Measure],
) -> Result<(Evaluation, Vec<usize>), Stop> {
    let eval = evaluate(&bench.qrels, run, measures);
    let rows = eval
        .queries
        .iter()
        .map(|q| bench.position(&q.query_id))
        .collect::<Option<Vec<_>>>()
        .ok_or_else(|| Stop::Failed("the evaluation names an unknown query".to_owned()))?;
    Ok((eval, rows))
}
