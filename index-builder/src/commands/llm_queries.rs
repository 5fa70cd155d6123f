//! An LLM method's model work for every query: each query's loop runs
//! sequentially on one of `--llm-concurrency` worker threads, the queries
//! spread over them, and the answers come back in query order, so output
//! never depends on the concurrency. The ranking itself (embedding a
//! statement, BM25, fusion) is then done in order on the calling thread,
//! which owns the query embedder ([`Answered::hits`]).
//!
//! Progress on stderr: a spinner per running query saying
//! `round r/R plan|search|observe` (core's progress callback) under an
//! overall bar. When a query's request fails for good, the other workers
//! stop at their next request and the first failure is returned.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use nomos_core::hits::Hit;
use nomos_core::llm::react::{react_bm25, Progress, ReactParams, ReactRun, Stage};
use nomos_core::llm::reform::{reformulate, Reform, Reformulation};
use nomos_core::llm::{Cost, LlmError, Prompts, Settings};
use nomos_core::methods::Method;

use super::llm_corpus::RankingCorpus;
use super::method::MethodRanker;
use super::ranking::Ranking;
use crate::llm::{block_on, Backend};
use crate::progress;

/// What the model is asked for each query.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Work {
    /// Reformulations: keywords, a statement or both.
    Reform { sparse: bool, dense: bool },
    /// The planner/observer loop.
    React(ReactParams),
}

impl Work {
    /// The work of an LLM method (`None` for the others).
    pub fn of(method: &Method) -> Option<Work> {
        Some(match *method {
            Method::ReformSparse => Work::Reform {
                sparse: true,
                dense: false,
            },
            Method::ReformDense => Work::Reform {
                sparse: false,
                dense: true,
            },
            Method::ReformHybrid { .. } => Work::Reform {
                sparse: true,
                dense: true,
            },
            Method::ReactBm25 {
                rounds,
                candidates,
                chars,
            } => Work::React(ReactParams {
                rounds,
                candidates,
                chars,
            }),
            _ => return None,
        })
    }
}

/// What a query's model work needs.
pub struct Job<'a> {
    pub work: Work,
    pub backend: &'a Backend,
    pub settings: &'a Settings,
    pub prompts: Prompts,
    pub corpus: &'a RankingCorpus<'a>,
}

/// What the model did for one query.
pub enum Trace {
    /// reform-sparse, reform-dense, reform-hybrid: the reformulations made.
    Reform {
        sparse: Option<Reformulation>,
        dense: Option<Reformulation>,
    },
    /// react-bm25: every round.
    React(ReactRun),
}

/// One query's model work, done.
pub struct Answered {
    pub trace: Trace,
    /// Its calls, tokens and LLM time.
    pub cost: Cost,
    /// Wall time of the query's work on its worker, then of its ranking.
    pub wall: Duration,
}

impl Job<'_> {
    /// The model work for `query`; `stage` hears where it is.
    async fn answer(&self, query: &str, stage: &dyn Fn(String)) -> Result<Answered, LlmError> {
        let start = Instant::now();
        let reform = |kind| reformulate(self.backend, self.settings, self.prompts, kind, query);
        let trace = match self.work {
            Work::Reform { sparse, dense } => {
                let mut made = (None, None);
                if sparse {
                    stage("keywords".into());
                    made.0 = Some(reform(Reform::Sparse).await?);
                }
                if dense {
                    stage("statement".into());
                    made.1 = Some(reform(Reform::Dense).await?);
                }
                Trace::Reform {
                    sparse: made.0,
                    dense: made.1,
                }
            }
            Work::React(params) => {
                let progress = |p: Progress| stage(describe_progress(p));
                let run = react_bm25(
                    self.backend,
                    self.settings,
                    self.prompts,
                    self.corpus,
                    params,
                    query,
                    &progress,
                )
                .await?;
                Trace::React(run)
            }
        };
        Ok(Answered {
            cost: trace.cost(),
            trace,
            wall: start.elapsed(),
        })
    }

    /// The model work for every query `(id, text)`, on `workers` threads,
    /// in query order. A request that fails for good stops the run.
    pub fn answer_all(&self, queries: &[(&str, &str)], workers: usize) -> Result<Vec<Answered>> {
        let n = queries.len();
        let next = AtomicUsize::new(0);
        let answers: Mutex<Vec<Option<Answered>>> = Mutex::new((0..n).map(|_| None).collect());
        let failure: Mutex<Option<LlmError>> = Mutex::new(None);
        let bars = progress::multi();
        // One query (a search) needs no overall bar.
        let overall = (n > 1).then(|| bars.add(progress::bar(n, "queries")));
        std::thread::scope(|scope| {
            for _ in 0..workers.clamp(1, n.max(1)) {
                scope.spawn(|| loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&(id, text)) = queries.get(i) else {
                        return;
                    };
                    let spinner = progress::spinner(id.to_owned());
                    let bar = match &overall {
                        Some(overall) => bars.insert_before(overall, spinner),
                        None => bars.add(spinner),
                    };
                    let stage = |s: String| bar.set_message(format!("{id} {s}"));
                    let answered = block_on(self.answer(text, &stage));
                    bar.finish_and_clear();
                    bars.remove(&bar);
                    match answered {
                        Ok(answered) => {
                            lock(&answers)[i] = Some(answered);
                            if let Some(overall) = &overall {
                                overall.inc(1);
                            }
                        }
                        Err(error) => {
                            self.backend.stop();
                            let mut failure = lock(&failure);
                            if failure.is_none() || *failure == Some(LlmError::Cancelled) {
                                *failure = Some(error);
                            }
                            return;
                        }
                    }
                });
            }
        });
        if let Some(overall) = overall {
            overall.finish_and_clear();
        }
        if let Some(error) = lock(&failure).take() {
            return Err(self.backend.explain(error));
        }
        let answers = answers.into_inner().unwrap_or_else(|e| e.into_inner());
        answers
            .into_iter()
            .collect::<Option<Vec<_>>>()
            .context("a query was left without an answer")
    }
}

impl Trace {
    /// What the model calls cost.
    pub fn cost(&self) -> Cost {
        match self {
            Trace::Reform { sparse, dense } => {
                let mut cost = Cost::default();
                for r in [sparse, dense].into_iter().flatten() {
                    cost.add(&r.cost);
                }
                cost
            }
            Trace::React(run) => run.cost,
        }
    }
}

impl Answered {
    /// The query's best `k` documents: a reformulation ranked with
    /// [`Method::ranks_reformulation`] (BM25 over the keywords' tokens,
    /// dense over the statement's embedding), or the loop's own ranking.
    /// The time it takes is added to [`Answered::wall`].
    pub fn hits(
        &mut self,
        ranker: &mut MethodRanker,
        ranking: &Ranking,
        k: usize,
        positive_only: bool,
    ) -> Result<Vec<Hit>> {
        let start = Instant::now();
        let hits = match &self.trace {
            Trace::React(run) => {
                let mut hits = run.ranking();
                hits.truncate(k);
                hits
            }
            Trace::Reform { sparse, dense } => {
                let method = ranker.method();
                let plain = method
                    .ranks_reformulation()
                    .context("not a reformulation method")?;
                let tokens = sparse
                    .as_ref()
                    .map(|r| ranking.pool.analyzer().tokens(&r.text))
                    .unwrap_or_default();
                let statement = dense.as_ref().map(|r| r.text.as_str()).unwrap_or_default();
                ranker.rank_as(&plain, ranking, statement, &tokens, k, positive_only)?
            }
        };
        self.wall += start.elapsed();
        Ok(hits)
    }
}

/// `round 2/10 observe`.
fn describe_progress(p: Progress) -> String {
    format!("round {}/{} {}", p.round, p.rounds, stage_name(p.stage))
}

/// A loop stage's name in progress and reports.
pub fn stage_name(stage: Stage) -> &'static str {
    match stage {
        Stage::Plan => "plan",
        Stage::Search => "search",
        Stage::Observe => "observe",
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}
