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
//!
//! This module holds the state and the job slot; each kind of job is a
//! module of its own:
//!
//! - [`evaluation`]: A, B or both ranked and evaluated;
//! - [`embedding`]: the benchmark queries embedded for a dense method;
//! - [`llm_ranking`]: an LLM method's queries ranked through a run;
//! - [`sharing`]: the LLM transcript kept and linked;
//! - [`sweeping`]: the k1 × b sweep;
//! - [`run_import`]: a run file made elsewhere, opened as A or B.

mod embedding;
mod evaluation;
mod llm_ranking;
mod run_import;
mod sharing;
mod sweeping;

use std::sync::Arc;

use leptos::prelude::*;
use nomos_core::pool::Benchmark;
use nomos_core::search::Bm25Params;

use crate::eval_config::Slot;
use crate::evaluate::imported::{RunImportError, Summary};
use crate::evaluate::job::{Outcome, Stop};
use crate::evaluate::run_store::RunStore;
use crate::evaluate::sweep::Grid;
use crate::judgments::Judgments;
use crate::latest::{Latest, Ticket};
use crate::llm::Llm;
use crate::pool::engine::Engine;
use crate::pool::scope::PoolScope;
use crate::pool::siblings::PoolText;
use crate::semantic::Semantic;
use crate::transcript_files::TranscriptLink;
use crate::web::Canceller;

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
    pub run_report: RwSignal<Option<Result<Summary, RunImportError>>>,
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
