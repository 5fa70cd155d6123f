//! The Search view's LLM run: one query ranked by an LLM method, with its
//! progress, its Cancel, and what the model did. Runs are started on
//! purpose (Enter, or the Ask button), never on every keystroke: a
//! ReAct query costs its endpoint twenty calls. A transcript replay costs
//! nothing, so the search store starts one as the query changes.
//!
//! It belongs to the pool's session: a new pool stops the run.

use std::sync::Arc;

use futures::FutureExt;
use leptos::prelude::*;
use nomos_core::blob::Field;
use nomos_core::llm::{LlmError, Prompts};
use nomos_core::methods::Method;
use nomos_core::search::Bm25Params;

use crate::latest::Latest;
use crate::llm::Llm;
use crate::pool::engine::Engine;
use crate::pool::scope::PoolScope;
use crate::pool::siblings::Siblings;
use crate::semantic::Semantic;
use crate::transcript_files::{LlmSource, TranscriptLink};
use crate::web::{now, Canceller};
use nomos_core::llm::rank::{rank_with_llm, LlmQuery, LlmRankError, LlmRanking, Step};

/// What a run ranks: a run's result shows only while these are what the
/// user has chosen.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchKey {
    pub query: String,
    pub method: Method,
    pub params: Bm25Params,
    pub field: Field,
    pub source: LlmSource,
}

/// A finished run.
#[derive(Debug, Clone, PartialEq)]
pub struct Finished {
    pub ranking: LlmRanking,
    /// The transcript that reproduces it.
    pub transcript: TranscriptLink,
    /// The model the requests named.
    pub model: String,
    pub millis: f64,
}

/// Where the run for a key stands.
#[derive(Debug, Clone, PartialEq)]
pub enum RunStatus {
    /// Asking the model; the step under way, once one started.
    Running(Option<Step>),
    Done(Arc<Finished>),
    Failed(String),
    Cancelled,
}

/// The latest run and its key.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchRun {
    pub key: SearchKey,
    pub status: RunStatus,
}

/// The Search view's LLM run. `Copy`: signal and handles.
#[derive(Clone, Copy)]
pub struct LlmSearch {
    /// The pool's owner, which its tasks hold while they run.
    scope: PoolScope,
    pub run: RwSignal<Option<SearchRun>>,
    runs: Latest,
    canceller: StoredValue<Option<Canceller>, LocalStorage>,
}

impl LlmSearch {
    pub fn new(scope: PoolScope) -> Self {
        LlmSearch {
            scope,
            run: RwSignal::new(None),
            runs: Latest::new(),
            canceller: StoredValue::new_local(None),
        }
    }

    /// The run's status for `key`, if the latest run is for it
    /// (tracked).
    pub fn status_for(&self, key: &SearchKey) -> Option<RunStatus> {
        self.run.with(|r| {
            r.as_ref()
                .filter(|r| r.key == *key)
                .map(|r| r.status.clone())
        })
    }

    /// Ranks `key.query` with `key.method` on `engine`, superseding any
    /// run in progress.
    /// A light blob's text is awaited first (`siblings`).
    pub fn start(
        self,
        engine: Arc<Engine>,
        key: SearchKey,
        siblings: Siblings,
        llm: Llm,
        semantic: Semantic,
    ) {
        self.stop_requests();
        let ticket = self.runs.begin();
        self.run.set(Some(SearchRun {
            key: key.clone(),
            status: RunStatus::Running(None),
        }));
        let set = move |status: RunStatus| {
            if ticket.is_current() {
                self.run.update(|r| {
                    if let Some(r) = r {
                        r.status = status;
                    }
                });
            }
        };
        self.scope.spawn(async move {
            let run = match llm.run().await {
                Ok(run) => run,
                Err(why) => return set(RunStatus::Failed(why.to_string())),
            };
            if let Err(why) = siblings.text_ready(&engine).await {
                return set(RunStatus::Failed(why.to_string()));
            }
            if !ticket.is_current() {
                return;
            }
            self.canceller.set_value(Some(run.canceller.clone()));
            let prompts = match Prompts::for_run(engine.pool().analyzer().name(), &run.settings) {
                Ok(prompts) => prompts,
                Err(why) => return set(RunStatus::Failed(why)),
            };
            let embed = move |text: String| {
                async move {
                    semantic.ready().await.map_err(|e| e.to_string())?;
                    semantic.embed_query(text).await.map_err(|e| e.to_string())
                }
                .boxed_local()
            };
            let query = LlmQuery {
                pool: engine.pool_of(key.field),
                blob: engine.blob(),
                method: key.method,
                params: key.params,
                settings: &run.settings,
                prompts,
                k: usize::MAX,
                positive_only: true,
            };
            let started = now();
            let progress = |step: Step| set(RunStatus::Running(Some(step)));
            let ranked = rank_with_llm(&run.chat, &query, &key.query, &embed, &progress).await;
            let millis = now() - started;
            if !ticket.is_current() {
                return;
            }
            self.canceller.set_value(None);
            let status = match ranked {
                Ok(ranking) => {
                    let name = format!("{} · {} · “{}”", engine.name, key.method, key.query.trim());
                    RunStatus::Done(Arc::new(Finished {
                        ranking,
                        transcript: llm.share(&run, name, None),
                        model: run.settings.model.clone(),
                        millis,
                    }))
                }
                Err(LlmRankError::Llm(LlmError::Cancelled)) => RunStatus::Cancelled,
                Err(e) => RunStatus::Failed(e.to_string()),
            };
            set(status);
        });
    }

    fn stop_requests(&self) {
        if let Some(c) = self.canceller.try_update_value(Option::take).flatten() {
            c.cancel();
        }
    }

    /// Stops the run in progress, at once.
    pub fn cancel(&self) {
        self.stop_requests();
        let running = self.run.with_untracked(|r| {
            r.as_ref()
                .is_some_and(|r| matches!(r.status, RunStatus::Running(_)))
        });
        self.runs.cancel();
        if running {
            self.run.update(|r| {
                if let Some(r) = r {
                    r.status = RunStatus::Cancelled;
                }
            });
        }
    }
}
