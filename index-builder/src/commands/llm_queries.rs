//! An LLM method's model work for every query (core's [`ask_llm`], then
//! [`Trace::rank`]): each query's loop runs
//! sequentially on one of `--llm-concurrency` worker threads, the queries
//! spread over them, and the answers come back in query order, so output
//! never depends on the concurrency. The ranking itself (embedding a
//! statement, BM25, fusion) is then done in order on the calling thread,
//! which owns the query embedder ([`Answered::hits`]).
//!
//! Progress on stderr: a spinner per running query saying what it is
//! doing (core's [`Step`]) under an overall bar. When a query's request fails for good, the other workers
//! stop at their next request and the first failure is returned. After
//! Ctrl-C ([`crate::interrupt`]) no worker starts a new query; those in
//! flight finish.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::{bail, Result};
use nomos_core::hits::Hit;
use nomos_core::llm::rank::{ask_llm, Step, Trace, Work};
use nomos_core::llm::react::Stage;
use nomos_core::llm::{Cost, LlmError, Prompts, Settings};

use super::llm_corpus::RankingCorpus;
use super::method::MethodRanker;
use super::ranking::Ranking;
use crate::error::bad_input;
use crate::interrupt;
use crate::llm::{block_on, Backend};
use crate::progress;

/// What a query's model work needs.
pub struct Job<'a> {
    pub work: Work,
    pub backend: &'a Backend,
    pub settings: &'a Settings,
    pub prompts: Prompts,
    pub corpus: &'a RankingCorpus<'a>,
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
        let progress = |step: Step| stage(step.describe());
        let trace = ask_llm(
            self.backend,
            self.settings,
            self.prompts,
            self.corpus,
            self.work,
            query,
            &progress,
        )
        .await?;
        Ok(Answered {
            cost: trace.cost(),
            trace,
            wall: start.elapsed(),
        })
    }

    /// The model work for every query `(id, text)`, on `workers` threads,
    /// in query order; `None` for a query not started because of Ctrl-C.
    /// A request that fails for good stops the run.
    pub fn answer_all(
        &self,
        queries: &[(&str, &str)],
        workers: usize,
    ) -> Result<Vec<Option<Answered>>> {
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
                    if interrupt::requested() {
                        return;
                    }
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
        if !interrupt::requested() && answers.iter().any(Option::is_none) {
            bail!("a query was left without an answer");
        }
        Ok(answers)
    }
}

impl Answered {
    /// The query's best `k` documents (see
    /// [`Trace::rank`](nomos_core::llm::rank::Trace::rank)), the
    /// statement embedded by `ranker`. The time it takes is added to
    /// [`Answered::wall`].
    pub fn hits(
        &mut self,
        ranker: &mut MethodRanker,
        ranking: &Ranking,
        query: &str,
        k: usize,
        positive_only: bool,
    ) -> Result<Vec<Hit>> {
        let start = Instant::now();
        let embedding = match self.trace.statement() {
            Some(statement) => Some(ranker.embed_query(statement)?),
            None => None,
        };
        let hits = self
            .trace
            .rank(
                &ranking.pool,
                &ranker.method(),
                &ranking.params,
                query,
                embedding.as_deref(),
                k,
                positive_only,
            )
            .map_err(bad_input)?;
        self.wall += start.elapsed();
        Ok(hits)
    }
}

/// A loop stage's name in reports.
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
