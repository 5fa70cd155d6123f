//! One pool's evaluation results and the one job that may run at a time
//! on it (an evaluation, a comparison or a sweep). It belongs to the
//! pool's session, so a new pool brings a new,
//! empty store and nothing here has to notice a pool change; the session
//! closes the old one, which cancels its job.
//!
//! Staleness is [`Latest`]'s: a job holds a ticket, publishes only while
//! it is current, and stops at its next turn for the browser once a newer
//! job, Cancel or the pool's close superseded it. An LLM method's job also
//! holds its run's canceller, so Cancel reaches the request in flight.

use std::sync::Arc;

use futures::FutureExt;
use leptos::prelude::*;
use nomos_core::blob::Field;
use nomos_core::llm::Prompts;
use nomos_core::methods::Method;
use nomos_core::pool::Benchmark;
use nomos_core::search::Bm25Params;

use crate::eval_config::{Config, RunFile, Slot};
use crate::evaluate::imported::{self, Summary};
use crate::evaluate::job::{self, Outcome, Pacer, Ranker, Stop, DEPTH};
use crate::evaluate::llm_job::{self, LlmRanker};
use crate::evaluate::measures;
use crate::evaluate::run_store::RunStore;
use crate::evaluate::scope;
use crate::evaluate::sweep::{self, Grid};
use crate::format::{plural, thousands};
use crate::judgments::Judgments;
use crate::latest::{Latest, Ticket};
use crate::llm::{Llm, Run};
use crate::pool::engine::Engine;
use crate::pool::scope::PoolScope;
use crate::pool::siblings::PoolText;
use crate::semantic::{ModelError, Semantic};
use crate::transcript_files::{short_hash, TranscriptLink};
use crate::web::{now, Canceller};
use nomos_core::llm::rank::{LlmQuery, Step};

/// The job in progress.
#[derive(Debug, Clone, PartialEq)]
pub struct JobStatus {
    /// What is being done, e.g. `Ranking with okapi k1=1.5 b=0.75`.
    pub label: String,
    /// Queries ranked so far, over all the job's configurations.
    pub done: usize,
    pub total: usize,
    /// Said instead of `done of total rankings` when the step counts
    /// something else (queries embedded).
    pub detail: Option<String>,
    /// The job waits for the semantic model, whose own progress is shown.
    pub waits_for_model: bool,
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

/// The Evaluate view's results for one pool. `Copy`: signals and handles.
#[derive(Clone, Copy)]
pub struct EvalStore {
    /// The pool's owner, which its tasks hold while they run.
    scope: PoolScope,
    /// The pool's benchmark, once a job has read it.
    pub bench: RwSignal<Option<Arc<Benchmark>>>,
    pub current: RwSignal<Option<Arc<Outcome>>>,
    pub compared: RwSignal<Option<Arc<Outcome>>>,
    pub sweep: RwSignal<Option<SweepResult>>,
    pub job: RwSignal<Option<JobStatus>>,
    /// The last announcement (start, milestones, end), for a live region.
    pub message: RwSignal<String>,
    /// The LLM transcript that reproduces the LLM results shown (A's, B's
    /// or both), which links carry.
    pub transcript: RwSignal<Option<TranscriptLink>>,
    /// The run files kept for this pool.
    pub runs: RunStore,
    /// The last run file opened: what it holds, or why it was refused.
    pub run_report: RwSignal<Option<Result<Summary, String>>>,
    /// Which result an opened run file becomes.
    pub run_slot: RwSignal<Slot>,
    /// Each benchmark query's embedding, computed for the first dense
    /// evaluation and kept for the pool.
    embeddings: StoredValue<Option<Arc<Vec<Vec<f32>>>>>,
    /// The user's judgments and their benchmark, when evaluating with
    /// them instead of the pool's benchmark.
    mine: StoredValue<Option<(Judgments, Arc<Benchmark>)>>,
    jobs: Latest,
    /// The running LLM job's Cancel.
    canceller: StoredValue<Option<Canceller>, LocalStorage>,
    engine: StoredValue<Arc<Engine>>,
    semantic: Semantic,
    llm: Llm,
    /// A light blob's text parts, which an LLM method reads whole.
    pub text: PoolText,
}

impl EvalStore {
    /// Runs `task` for this pool: its state stays while the task runs
    /// ([`PoolScope::spawn`]).
    pub fn spawn(&self, task: impl std::future::Future<Output = ()> + 'static) {
        self.scope.spawn(task);
    }

    /// An empty store for `engine`'s pool.
    pub fn new(
        scope: PoolScope,
        engine: Arc<Engine>,
        semantic: Semantic,
        llm: Llm,
        text: PoolText,
    ) -> Self {
        EvalStore {
            scope,
            bench: RwSignal::new(None),
            current: RwSignal::new(None),
            compared: RwSignal::new(None),
            sweep: RwSignal::new(None),
            job: RwSignal::new(None),
            message: RwSignal::new(String::new()),
            transcript: RwSignal::new(None),
            runs: RunStore::new(scope, engine.content_hash()),
            run_report: RwSignal::new(None),
            run_slot: RwSignal::new(Slot::Compared),
            embeddings: StoredValue::new(None),
            mine: StoredValue::new(None),
            jobs: Latest::new(),
            canceller: StoredValue::new_local(None),
            engine: StoredValue::new(engine),
            semantic,
            llm,
            text,
        }
    }

    /// The pool is being replaced: stop the job and let go of the results.
    pub fn close(&self) {
        self.stop_requests();
        self.jobs.cancel();
        self.embeddings.set_value(None);
        for slot in [self.current, self.compared] {
            slot.set(None);
        }
        self.sweep.set(None);
        self.job.set(None);
        self.transcript.set(None);
    }

    /// Evaluates with the user's judgments (`None`: the pool's own
    /// benchmark). Another benchmark than the results' drops them.
    pub fn judge_by(&self, mine: Option<&Judgments>) {
        let same = self.mine.with_value(|m| m.as_ref().map(|(j, _)| j) == mine);
        if same {
            return;
        }
        let mine = mine.map(|j| {
            let bench = self.engine.with_value(|e| {
                let blob = e.blob();
                let doc_ids = (0..blob.n_docs())
                    .map(|d| blob.doc_id(d).unwrap_or_default().to_owned())
                    .collect();
                j.benchmark(doc_ids, &e.pool().analyzer(), &|d| blob.source(d as usize))
            });
            (j.clone(), Arc::new(bench))
        });
        self.cancel();
        self.mine.set_value(mine);
        self.embeddings.set_value(None);
        for signal in [self.current, self.compared] {
            signal.set(None);
        }
        self.sweep.set(None);
        self.transcript.set(None);
        self.bench.set(None);
    }

    pub fn outcome(&self, slot: Slot) -> RwSignal<Option<Arc<Outcome>>> {
        match slot {
            Slot::Current => self.current,
            Slot::Compared => self.compared,
        }
    }

    /// Stops the running job at once (its work ends at its next turn).
    pub fn cancel(&self) {
        self.stop_requests();
        self.jobs.cancel();
        if self.job.with_untracked(Option::is_some) {
            self.job.set(None);
            self.message.set("Cancelled.".to_owned());
        }
    }

    /// Aborts the LLM requests in flight, if any.
    fn stop_requests(&self) {
        if let Some(c) = self.canceller.try_update_value(Option::take).flatten() {
            c.cancel();
        }
    }

    /// Evaluates each `(slot, config)` in turn, keeping rankings for the
    /// per-query view and exports. A dense method first embeds every
    /// benchmark query with the semantic model (once per pool), which
    /// is downloaded first if need be. A job with an LLM method ranks the
    /// first `llm_queries` queries (see [`scope::plan`]).
    pub fn evaluate(self, targets: Vec<(Slot, Config)>, llm_queries: usize) {
        let Some((ticket, bench)) = self.start() else {
            return;
        };
        let current = self.current.with_untracked(|o| {
            o.as_ref()
                .and_then(|o| Some((o.config.method()?, o.queries)))
        });
        let (targets, n) = scope::plan(targets, current, llm_queries, bench.queries.len());
        let model_needed = targets.iter().any(|(_, c)| c.method.needs_dense());
        // LLM methods embed what the model wrote, not the queries.
        let queries_embedded = targets
            .iter()
            .any(|(_, c)| c.method.needs_dense() && !c.method.needs_llm());
        let engine = self.engine.get_value();
        let embedded = self.embeddings.get_value();
        let total = n * targets.len();
        self.scope.spawn(async move {
            let keep_going = move || ticket.is_current();
            let mut pacer = Pacer::new(&keep_going);
            let started = now();
            self.message
                .set(format!("Evaluating {}…", plural(n, "query", "queries")));
            if model_needed {
                if let Err(stop) = self.wait_for_model(ticket).await {
                    return self.stopped(ticket, stop);
                }
            }
            let embedding = queries_embedded && embedded.is_none();
            let embeddings = match embedded {
                Some(e) => Some(e),
                None if embedding => match self.embed_queries(ticket, &bench, &mut pacer).await {
                    Ok(e) => Some(e),
                    Err(stop) => return self.stopped(ticket, stop),
                },
                None => None,
            };
            let mut failed = 0;
            // One run for the job's LLM methods: one transcript for both.
            let mut run: Option<Run> = None;
            for (i, (slot, config)) in targets.iter().enumerate() {
                let label = format!("Ranking with {}", config.describe());
                let outcome = match config.method.needs_llm() {
                    true => {
                        if run.is_none() {
                            // An LLM method reads whole articles: a light
                            // blob's every text part first.
                            self.text.fetch(&engine, None);
                            if let Err(why) = self.text.siblings.text_ready(&engine).await {
                                return self.stopped(ticket, Stop::Failed(why));
                            }
                            match self.llm.run().await {
                                Ok(r) => run = Some(r),
                                Err(why) => return self.stopped(ticket, Stop::Failed(why)),
                            }
                        }
                        let Some(run) = &run else { return };
                        let at = (i * n, total);
                        self.evaluate_llm(ticket, &bench, n, *config, &label, at, run)
                            .await
                    }
                    false => {
                        let mut progress =
                            |done| self.progress(ticket, &label, i * n + done, total);
                        let ranker = Ranker {
                            config: *config,
                            pool: engine.pool_of(config.field),
                            embeddings: embeddings.as_deref().map(Vec::as_slice),
                        };
                        let reported = measures::reported();
                        job::run(
                            &bench,
                            n,
                            &ranker,
                            &reported,
                            true,
                            &mut pacer,
                            &mut progress,
                        )
                        .await
                    }
                };
                match outcome {
                    Ok(o) => {
                        failed += o.llm.as_ref().map_or(0, |l| l.failures().count());
                        self.outcome(*slot).set(Some(Arc::new(o)));
                    }
                    Err(stop) => return self.stopped(ticket, stop),
                }
            }
            let slots: Vec<Slot> = targets.iter().map(|(s, _)| *s).collect();
            match &run {
                Some(run) => self.share(run, &slots, n, &engine.name).await,
                None if !self.shows_llm() => self.transcript.set(None),
                None => {}
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
            let failures = match failed {
                0 => String::new(),
                n => format!(
                    " {} without replies, evaluated as empty rankings (listed under LLM).",
                    plural(n, "query", "queries")
                ),
            };
            let rankings = plural(total, "ranking", "rankings");
            let done = match embedding {
                true => format!(
                    "Embedded {} and evaluated {rankings}",
                    plural(bench.queries.len(), "query", "queries")
                ),
                false => format!("Evaluated {rankings}"),
            };
            self.finish(
                ticket,
                format!("{done} in {seconds:.2} s.{summary}{failures}"),
            );
        });
    }

    /// Checks a run file (`name`, `bytes`) against the benchmark and
    /// shows it as `slot`, keeping it for the pool; `expected` is the
    /// SHA-256 a link names. The report says what it holds, or why it was
    /// refused.
    pub fn open_run(
        &self,
        slot: Slot,
        name: &str,
        bytes: &[u8],
        expected: Option<&str>,
    ) -> Option<RunFile> {
        let outcome = self.import_run(slot, name, bytes, expected);
        let file = outcome.as_ref().ok().map(|s| s.file.clone());
        self.run_report.set(Some(outcome));
        file
    }

    fn import_run(
        &self,
        slot: Slot,
        name: &str,
        bytes: &[u8],
        expected: Option<&str>,
    ) -> Result<Summary, String> {
        let bench = self.engine.with_value(|e| e.benchmark())?;
        let checked = imported::check(bytes, name, &bench).map_err(|e| e.to_string())?;
        let file = &checked.summary.file;
        if let Some(wanted) = expected.filter(|w| *w != file.sha256) {
            return Err(format!(
                "{} is not the run file the link names: its SHA-256 is {}…, the link's {}….",
                file.name,
                file.short(),
                short_hash(wanted)
            ));
        }
        let started = now();
        let mut outcome =
            checked
                .outcome(&bench, &measures::reported())
                .map_err(|stop| match stop {
                    Stop::Failed(why) => why,
                    Stop::Cancelled => "cancelled".to_owned(),
                })?;
        outcome.eval_millis = now() - started;
        if self.bench.with_untracked(Option::is_none) {
            self.bench.set(Some(bench));
        }
        let text = String::from_utf8_lossy(bytes).into_owned();
        let summary = checked.summary;
        self.runs.keep(
            summary.file.sha256.clone(),
            summary.file.name.clone(),
            summary.lines,
            text,
        );
        self.outcome(slot).set(Some(Arc::new(outcome)));
        Ok(summary)
    }

    /// Shows the kept run file `sha256` as `slot`. `false` when this
    /// browser does not keep it.
    pub async fn restore_run(self, slot: Slot, sha256: &str) -> bool {
        match self.runs.get(sha256).await {
            Some((name, text)) => {
                self.open_run(slot, &name, text.as_bytes(), Some(sha256));
                true
            }
            None => false,
        }
    }

    /// Whether an LLM method's results are shown.
    fn shows_llm(&self) -> bool {
        [Slot::Current, Slot::Compared].iter().any(|s| {
            self.outcome(*s)
                .with_untracked(|o| o.as_ref().is_some_and(|o| o.llm.is_some()))
        })
    }

    /// Keeps the job's transcript, with the exchanges of LLM results
    /// shown beside it (the slot the job did not rank), so that one link
    /// reproduces both.
    async fn share(&self, run: &Run, slots: &[Slot], n: usize, pool: &str) {
        let other_llm = [Slot::Current, Slot::Compared]
            .iter()
            .filter(|s| !slots.contains(s))
            .any(|s| {
                self.outcome(*s)
                    .with_untracked(|o| o.as_ref().is_some_and(|o| o.llm.is_some()))
            });
        let earlier = match self.transcript.get_untracked().filter(|_| other_llm) {
            Some(link) => self.llm.transcripts.get(&link).await.ok(),
            None => None,
        };
        let name = format!(
            "{pool} · evaluation · first {} · {}",
            plural(n, "query", "queries"),
            run.settings.model
        );
        let link = self.llm.share(run, name, earlier.as_deref());
        self.transcript.set(Some(link));
    }

    /// Ranks the first `n` queries with an LLM method through `run`;
    /// `at` is where its queries start in the job's count, and the job's
    /// total.
    #[allow(clippy::too_many_arguments)]
    async fn evaluate_llm(
        &self,
        ticket: Ticket,
        bench: &Benchmark,
        n: usize,
        config: Config,
        label: &str,
        at: (usize, usize),
        run: &Run,
    ) -> Result<Outcome, Stop> {
        if !ticket.is_current() {
            return Err(Stop::Cancelled);
        }
        self.canceller.set_value(Some(run.canceller.clone()));
        let engine = self.engine.get_value();
        let prompts = Prompts::for_run(engine.pool().analyzer().name(), &run.settings)
            .map_err(Stop::Failed)?;
        let semantic = self.semantic;
        let embed = move |text: String| {
            async move {
                semantic.ready().await.map_err(|e| e.to_string())?;
                semantic.embed_query(text).await.map_err(|e| e.to_string())
            }
            .boxed_local()
        };
        let ranker = LlmRanker {
            llm: &run.chat,
            query: LlmQuery {
                pool: engine.pool_of(config.field),
                blob: engine.blob(),
                method: config.method,
                params: config.params,
                settings: &run.settings,
                prompts,
                k: DEPTH,
                positive_only: false,
            },
            embed: &embed,
            concurrency: self.llm.concurrency(),
        };
        let progress = |done: usize, step: Option<(&str, Step)>| {
            let mut detail = format!("{} of {} queries", thousands(done), thousands(n));
            if let Some((query, step)) = step {
                detail.push_str(&format!(" — query {query}: {}", step.describe()));
            }
            self.step(ticket, label, at.0 + done, at.1, Some(detail));
        };
        let keep_going = move || ticket.is_current();
        let reported = measures::reported();
        let outcome =
            llm_job::run(bench, n, config, &ranker, &reported, &keep_going, &progress).await;
        self.canceller.set_value(None);
        outcome
    }

    /// Waits for the semantic model (its download shows under Search's
    /// box, and as this job's progress).
    async fn wait_for_model(&self, ticket: Ticket) -> Result<(), Stop> {
        self.job.update(|j| {
            if let Some(j) = j {
                j.waits_for_model = true;
            }
        });
        let ready = self.semantic.ready().await;
        if !ticket.is_current() {
            return Err(Stop::Cancelled);
        }
        ready.map(drop).map_err(|e| {
            Stop::Failed(match e {
                ModelError::NoVectors | ModelError::NotServed { .. } => e.to_string(),
                e => format!("the semantic model failed: {e}"),
            })
        })
    }

    /// Embeds every benchmark query (as a query, with the pool's model, in
    /// its worker) and keeps the vectors for the pool. Tens of milliseconds
    /// each in a browser on 2 cores, so STARD's 1,543 take minutes:
    /// progress is shown and Cancel works between queries.
    async fn embed_queries(
        &self,
        ticket: Ticket,
        bench: &Benchmark,
        pacer: &mut Pacer<'_>,
    ) -> Result<Arc<Vec<Vec<f32>>>, Stop> {
        let label = "Embedding the queries with the semantic model";
        let n = bench.queries.len();
        let mut vectors = Vec::with_capacity(n);
        for (i, q) in bench.queries.iter().enumerate() {
            // Tokenising and pooling run on this thread: the pacer still
            // gives the page its turns.
            if pacer.due() {
                pacer.turn().await?;
            }
            let detail = format!("{} of {} queries", thousands(i), thousands(n));
            self.step(ticket, label, i, n, Some(detail));
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
    /// epsilon of `base` (BM25 alone, on `field`).
    pub fn sweep(self, grid: Grid, base: Bm25Params, field: Field, measure: String) {
        let Some(measure_spec) = measure.parse().ok() else {
            return;
        };
        let Some((ticket, bench)) = self.start() else {
            return;
        };
        let engine = self.engine.get_value();
        let n = bench.queries.len();
        let cells = grid.cells();
        self.scope.spawn(async move {
            let keep_going = move || ticket.is_current();
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
                measures::label(&measure)
            ));
            let mut announced = 0;
            for cell in 0..cells {
                let (k1, b) = grid.cell(cell);
                let params = Bm25Params { k1, b, ..base };
                let label = format!("Setting {} of {cells}: k1 = {k1}, b = {b}", cell + 1);
                let mut progress = |done| self.progress(ticket, &label, cell * n + done, cells * n);
                let ranker = Ranker {
                    config: Config {
                        method: Method::Bm25,
                        params,
                        field,
                    },
                    pool: engine.pool_of(field),
                    embeddings: None,
                };
                let outcome = job::run(
                    &bench,
                    n,
                    &ranker,
                    &[measure_spec],
                    false,
                    &mut pacer,
                    &mut progress,
                )
                .await;
                let value = match outcome {
                    Ok(o) => o.eval.means[0],
                    Err(stop) => return self.stopped(ticket, stop),
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
            self.finish(
                ticket,
                format!(
                    "Sweep done in {:.1} s.{}",
                    (now() - started) / 1000.0,
                    best.unwrap_or_default()
                ),
            );
        });
    }

    /// Claims the job slot (superseding a running job) and the benchmark,
    /// read now if need be. `None`, with the reason said, when the pool's
    /// benchmark cannot be read.
    fn start(&self) -> Option<(Ticket, Arc<Benchmark>)> {
        let ticket = self.jobs.begin();
        let mine = self.mine.with_value(|m| m.as_ref().map(|(_, b)| b.clone()));
        let bench = match mine.map_or_else(|| self.engine.with_value(|e| e.benchmark()), Ok) {
            Ok(bench) => bench,
            Err(message) => {
                self.job.set(None);
                self.message.set(message);
                return None;
            }
        };
        if self.bench.with_untracked(Option::is_none) {
            self.bench.set(Some(bench.clone()));
        }
        self.job.set(Some(JobStatus {
            label: "Starting".to_owned(),
            done: 0,
            total: 1,
            detail: None,
            waits_for_model: false,
        }));
        Some((ticket, bench))
    }

    fn progress(&self, ticket: Ticket, label: &str, done: usize, total: usize) {
        self.step(ticket, label, done, total, None);
    }

    fn step(&self, ticket: Ticket, label: &str, done: usize, total: usize, detail: Option<String>) {
        if !ticket.is_current() {
            return;
        }
        self.job.set(Some(JobStatus {
            label: label.to_owned(),
            done,
            total,
            detail,
            waits_for_model: false,
        }));
    }

    /// Ends the job with `stop`'s message, unless it was superseded (then
    /// whoever superseded it speaks).
    fn stopped(&self, ticket: Ticket, stop: Stop) {
        match stop {
            Stop::Cancelled => {}
            Stop::Failed(message) => self.finish(ticket, message),
        }
    }

    fn finish(&self, ticket: Ticket, message: String) {
        if ticket.is_current() {
            self.job.set(None);
            self.message.set(message);
        }
    }
}
