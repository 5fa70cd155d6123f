//! What the Evaluate view computed, kept at the app's root so switching to
//! Search and back loses nothing, and the one job that may run at a time
//! (an evaluation, a comparison or a sweep). A job stops at its next turn
//! for the browser when it is cancelled or another pool starts loading.

use std::sync::Arc;

use leptos::prelude::*;
use leptos::task::spawn_local;
use nomos_core::search::methods::Method;
use nomos_core::search::{Bm25Params, Bm25Scorer};

use super::bench::Benchmark;
use super::config::Config;
use super::job::{self, now, Outcome, Pacer, Ranker, Stop};
use super::sweep::{self, Grid};
use crate::components::model_line::megabytes;
use crate::components::{plural, thousands};
use crate::pools::{LoadStatus, Pools};
use crate::semantic::{ModelStatus, Semantic};

/// Which result an evaluation fills.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slot {
    /// The current method (the one Search uses).
    Current,
    /// The method it is compared with.
    Compared,
}

/// The job in progress.
#[derive(Debug, Clone, PartialEq)]
pub struct JobStatus {
    /// What is being done, e.g. `Ranking with okapi k1=1.5 b=0.75`.
    pub label: String,
    /// Queries ranked so far, over all the job's configurations.
    pub done: usize,
    pub total: usize,
    /// Said instead of `done of total rankings` when the step counts
    /// something else (bytes downloaded, queries embedded).
    pub detail: Option<String>,
}

/// A k1 × b sweep, complete or in progress.
#[derive(Debug, Clone, PartialEq)]
pub struct SweepResult {
    pub grid: Grid,
    /// The variant and epsilon every cell uses (the current method's).
    pub base: Bm25Params,
    pub measure: String,
    /// By cell, row by row; `None` until computed.
    pub values: Vec<Option<f64>>,
    pub millis: f64,
    pub finished: bool,
}

impl SweepResult {
    pub fn params(&self, cell: usize) -> Bm25Params {
        let (k1, b) = self.grid.cell(cell);
        Bm25Params { k1, b, ..self.base }
    }
}

#[derive(Clone, Copy)]
pub struct EvalStore {
    /// The loaded pool's benchmark, read on the first job.
    pub bench: RwSignal<Option<Arc<Benchmark>>>,
    pub current: RwSignal<Option<Arc<Outcome>>>,
    pub compared: RwSignal<Option<Arc<Outcome>>>,
    pub sweep: RwSignal<Option<SweepResult>>,
    pub job: RwSignal<Option<JobStatus>>,
    /// The last announcement (start, milestones, end), for a live region.
    pub message: RwSignal<String>,
    /// The measure whose per-query B − A differences the comparison
    /// charts and the tables list.
    pub delta_measure: RwSignal<String>,
    /// Each benchmark query's embedding, computed for the first dense
    /// evaluation and kept for the pool.
    embeddings: StoredValue<Option<Arc<Vec<Vec<f32>>>>>,
    /// Bumped to cancel: a job that finds it changed stops.
    generation: StoredValue<u64>,
    /// The generation of the job `job` reports on (0: none), so a job
    /// stopping late cannot clear a newer job's status.
    owner: StoredValue<u64>,
    pools: Pools,
    semantic: Semantic,
}

impl EvalStore {
    /// Creates the store; everything in it is dropped when another pool
    /// starts loading.
    pub fn new(pools: Pools, semantic: Semantic) -> Self {
        let store = EvalStore {
            bench: RwSignal::new(None),
            current: RwSignal::new(None),
            compared: RwSignal::new(None),
            sweep: RwSignal::new(None),
            job: RwSignal::new(None),
            message: RwSignal::new(String::new()),
            delta_measure: RwSignal::new("ndcg@10".to_owned()),
            generation: StoredValue::new(0),
            owner: StoredValue::new(0),
            embeddings: StoredValue::new(None),
            pools,
            semantic,
        };
        Effect::new(move |_| {
            if matches!(
                pools.status.get(),
                LoadStatus::Reading { .. } | LoadStatus::Validating { .. }
            ) {
                store.reset();
            }
        });
        store
    }

    fn reset(&self) {
        self.generation.update_value(|g| *g += 1);
        self.owner.set_value(0);
        self.embeddings.set_value(None);
        for slot in [self.current, self.compared] {
            if slot.with_untracked(Option::is_some) {
                slot.set(None);
            }
        }
        if self.bench.with_untracked(Option::is_some) {
            self.bench.set(None);
        }
        if self.sweep.with_untracked(Option::is_some) {
            self.sweep.set(None);
        }
        if self.job.with_untracked(Option::is_some) {
            self.job.set(None);
        }
        self.message.set(String::new());
    }

    pub fn outcome(&self, slot: Slot) -> RwSignal<Option<Arc<Outcome>>> {
        match slot {
            Slot::Current => self.current,
            Slot::Compared => self.compared,
        }
    }

    /// Stops the running job at its next turn.
    pub fn cancel(&self) {
        self.generation.update_value(|g| *g += 1);
    }

    /// Evaluates each `(slot, config)` in turn, keeping rankings for the
    /// per-query view and exports. A dense method first embeds every
    /// benchmark query with the semantic model (once per pool), which
    /// is downloaded first if need be.
    pub fn evaluate(self, targets: Vec<(Slot, Config)>) {
        let dense_needed = targets.iter().any(|(_, c)| c.method.needs_dense());
        if dense_needed {
            self.semantic.ensure_loaded();
        }
        let Some((generation, bench, mut scorer)) = self.start() else {
            return;
        };
        let dense = self
            .pools
            .engine
            .with_untracked(|e| e.as_ref().and_then(|e| e.dense_index()));
        let n = bench.queries.len();
        let embedded = self.embeddings.get_value();
        let total = n * targets.len();
        spawn_local(async move {
            let keep_going = move || self.generation.get_value() == generation;
            let mut pacer = Pacer::new(&keep_going);
            let started = now();
            self.message
                .set(format!("Evaluating {}…", plural(n, "query", "queries")));
            if dense_needed {
                if let Err(stop) = self.wait_for_model(&keep_going).await {
                    return self.stopped(generation, stop);
                }
            }
            let embedding = dense_needed && embedded.is_none();
            let embeddings = match embedded {
                Some(e) => Some(e),
                None if embedding => match self.embed_queries(&bench, &mut pacer).await {
                    Ok(e) => Some(e),
                    Err(stop) => return self.stopped(generation, stop),
                },
                None => None,
            };
            for (i, (slot, config)) in targets.iter().enumerate() {
                let label = format!("Ranking with {}", config.describe());
                let outcome = match scorer.set_params(config.params) {
                    Err(e) => Err(Stop::Failed(e.to_string())),
                    Ok(()) => {
                        let mut progress = |done| self.progress(&label, i * n + done, total);
                        let ranker = Ranker {
                            method: config.method,
                            scorer: &scorer,
                            dense: dense.as_deref(),
                            embeddings: embeddings.as_deref().map(Vec::as_slice),
                        };
                        job::run(
                            &bench,
                            &ranker,
                            &super::measures::reported(),
                            true,
                            &mut pacer,
                            &mut progress,
                        )
                        .await
                    }
                };
                match outcome {
                    Ok(o) => self.outcome(*slot).set(Some(Arc::new(o))),
                    Err(stop) => return self.stopped(generation, stop),
                }
            }
            let seconds = (now() - started) / 1000.0;
            let mean = |slot: Slot| {
                self.outcome(slot)
                    .with_untracked(|o| o.as_ref().and_then(|o| o.mean("ndcg@10")))
            };
            let summary = match (mean(Slot::Current), mean(Slot::Compared)) {
                (Some(a), Some(b)) => format!(" nDCG@10: A {a:.4}, B {b:.4}."),
                (Some(a), None) => format!(" nDCG@10 {a:.4}."),
                _ => String::new(),
            };
            let rankings = plural(total, "ranking", "rankings");
            let done = match embedding {
                true => format!(
                    "Embedded {} and evaluated {rankings}",
                    plural(n, "query", "queries")
                ),
                false => format!("Evaluated {rankings}"),
            };
            self.message
                .set(format!("{done} in {seconds:.2} s.{summary}"));
            self.finish(generation);
        });
    }

    /// Waits until the semantic model is ready (its download shows under
    /// Search's box, and here as the job's progress).
    async fn wait_for_model(&self, keep_going: &dyn Fn() -> bool) -> Result<(), Stop> {
        loop {
            match self.semantic.status.get_untracked() {
                ModelStatus::Ready => return Ok(()),
                ModelStatus::Failed(e) => {
                    return Err(Stop::Failed(format!("the semantic model failed: {e}")))
                }
                ModelStatus::NoVectors => {
                    return Err(Stop::Failed("this pool has no document vectors".to_owned()))
                }
                ModelStatus::NotServed { model } => {
                    return Err(Stop::Failed(format!(
                        "this site does not serve the model of the pool's vectors ({model})"
                    )))
                }
                ModelStatus::Downloading { received, total } => self.step(
                    "Downloading the semantic model",
                    received as usize,
                    total as usize,
                    Some(format!("{} of {}", megabytes(received), megabytes(total))),
                ),
                ModelStatus::Idle { .. } | ModelStatus::Starting => {
                    self.step("Starting the semantic model", 0, 1, Some(String::new()))
                }
            }
            job::sleep(100).await;
            if !keep_going() {
                return Err(Stop::Cancelled);
            }
        }
    }

    /// Embeds every benchmark query (as a query, with the pool's model) and
    /// keeps the vectors for the pool. About a tenth of a second each in a
    /// browser on 2 cores, so STARD's 1,543 take a few minutes: progress is
    /// shown and Cancel works between queries.
    async fn embed_queries(
        &self,
        bench: &Benchmark,
        pacer: &mut Pacer<'_>,
    ) -> Result<Arc<Vec<Vec<f32>>>, Stop> {
        let label = "Embedding the queries with the semantic model";
        let n = bench.queries.len();
        let mut vectors = Vec::with_capacity(n);
        for (i, q) in bench.queries.iter().enumerate() {
            // ONNX Runtime computes on this thread too: an embedding's
            // promise resolves without the browser getting a turn.
            if pacer.due() {
                pacer.turn().await?;
            }
            let detail = format!("{} of {} queries", thousands(i), thousands(n));
            self.step(label, i, n, Some(detail));
            let vector = self
                .semantic
                .embed_query(q.text.clone())
                .await
                .map_err(|e| Stop::Failed(format!("query {}: {e}", q.id)))?;
            vectors.push(vector);
        }
        let vectors = Arc::new(vectors);
        self.embeddings.set_value(Some(vectors.clone()));
        Ok(vectors)
    }

    /// Evaluates `measure` for every cell of `grid`, with the variant and
    /// epsilon of `base` (BM25 alone).
    pub fn sweep(self, grid: Grid, base: Bm25Params, measure: String) {
        let Some(measure_spec) = measure.parse().ok() else {
            return;
        };
        let Some((generation, bench, mut scorer)) = self.start() else {
            return;
        };
        let n = bench.queries.len();
        let cells = grid.cells();
        spawn_local(async move {
            let keep_going = move || self.generation.get_value() == generation;
            let mut pacer = Pacer::new(&keep_going);
            let started = now();
            self.sweep.set(Some(SweepResult {
                grid: grid.clone(),
                base,
                measure: measure.clone(),
                values: vec![None; cells],
                millis: 0.0,
                finished: false,
            }));
            self.message.set(format!(
                "Sweeping {} for {}…",
                plural(cells, "setting", "settings"),
                super::measures::label(&measure)
            ));
            let mut announced = 0;
            for cell in 0..cells {
                let (k1, b) = grid.cell(cell);
                let params = Bm25Params { k1, b, ..base };
                let label = format!("Setting {} of {cells}: k1 = {k1}, b = {b}", cell + 1);
                let outcome = match scorer.set_params(params) {
                    Err(e) => Err(Stop::Failed(e.to_string())),
                    Ok(()) => {
                        let mut progress = |done| self.progress(&label, cell * n + done, cells * n);
                        let ranker = Ranker {
                            method: Method::Bm25,
                            scorer: &scorer,
                            dense: None,
                            embeddings: None,
                        };
                        job::run(
                            &bench,
                            &ranker,
                            &[measure_spec],
                            false,
                            &mut pacer,
                            &mut progress,
                        )
                        .await
                    }
                };
                let value = match outcome {
                    Ok(o) => o.eval.means[0],
                    Err(stop) => return self.stopped(generation, stop),
                };
                self.sweep.update(|s| {
                    if let Some(s) = s {
                        s.values[cell] = Some(value);
                        s.millis = now() - started;
                    }
                });
                // Announce each quarter, not each cell.
                let quarter = (cell + 1) * 4 / cells;
                if quarter > announced && cell + 1 < cells {
                    announced = quarter;
                    self.message.set(format!("Sweep {}% done.", quarter * 25));
                }
            }
            let best = self.sweep.with_untracked(|s| {
                s.as_ref().and_then(|s| {
                    let cell = sweep::best(&s.values)?;
                    let (k1, b) = s.grid.cell(cell);
                    Some(format!(
                        " Best: k1 = {k1}, b = {b} with {:.4}.",
                        s.values[cell].unwrap_or_default()
                    ))
                })
            });
            self.sweep.update(|s| {
                if let Some(s) = s {
                    s.finished = true;
                }
            });
            self.message.set(format!(
                "Sweep done in {:.1} s.{}",
                (now() - started) / 1000.0,
                best.unwrap_or_default()
            ));
            self.finish(generation);
        });
    }

    /// Claims the job slot: a new generation, the benchmark (read now if
    /// need be) and a scorer of our own, so the search's method can change
    /// meanwhile. `None` when there is no pool or it has no benchmark.
    fn start(&self) -> Option<(u64, Arc<Benchmark>, Bm25Scorer)> {
        self.generation.update_value(|g| *g += 1);
        let generation = self.generation.get_value();
        let built = self.pools.engine.with_untracked(|e| {
            let e = e.as_ref()?;
            let bench = match self.bench.get_untracked() {
                Some(b) => Ok(b),
                None => Benchmark::new(e.blob(), e.searcher()).map(Arc::new),
            };
            Some(bench.map(|b| (b, e.searcher().scorer().clone())))
        })?;
        match built {
            Ok((bench, scorer)) => {
                if self.bench.with_untracked(Option::is_none) {
                    self.bench.set(Some(bench.clone()));
                }
                self.owner.set_value(generation);
                self.job.set(Some(JobStatus {
                    label: "Starting".to_owned(),
                    done: 0,
                    total: 1,
                    detail: None,
                }));
                Some((generation, bench, scorer))
            }
            Err(message) => {
                self.message.set(message);
                None
            }
        }
    }

    fn progress(&self, label: &str, done: usize, total: usize) {
        self.step(label, done, total, None);
    }

    fn step(&self, label: &str, done: usize, total: usize, detail: Option<String>) {
        self.job.update(|j| {
            if let Some(j) = j {
                label.clone_into(&mut j.label);
                j.done = done;
                j.total = total;
                j.detail = detail;
            }
        });
    }

    /// Ends job `generation` with `stop`'s message, unless a newer job
    /// or a pool change took over.
    fn stopped(&self, generation: u64, stop: Stop) {
        if self.owner.get_value() == generation {
            self.message.set(match stop {
                Stop::Cancelled => "Cancelled.".to_owned(),
                Stop::Failed(message) => message,
            });
            self.finish(generation);
        }
    }

    fn finish(&self, generation: u64) {
        if self.owner.get_value() == generation {
            self.owner.set_value(0);
            self.job.set(None);
        }
    }
}

/// `okapi k1=1.5 b=0.75`.
pub fn describe(p: &Bm25Params) -> String {
    format!("{} k1={} b={}", p.variant, p.k1, p.b)
}

/// `1,543 of 3,086`.
pub fn fraction(done: usize, total: usize) -> String {
    format!("{} of {}", thousands(done), thousands(total))
}
