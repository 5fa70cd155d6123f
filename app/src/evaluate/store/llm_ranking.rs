//! Ranking the benchmark's first queries with an LLM method, through the
//! job's run, for the evaluation job.

use futures::FutureExt;
use leptos::prelude::*;
use nomos_core::llm::Prompts;
use nomos_core::pool::Benchmark;

use crate::eval_config::Config;
use crate::evaluate::job::{Outcome, Stop, DEPTH};
use crate::evaluate::llm_job::{self, LlmRanker};
use crate::evaluate::measures;
use crate::format::thousands;
use crate::latest::Ticket;
use crate::llm::Run;
use nomos_core::llm::rank::{LlmQuery, Step};

use super::EvalStore;

impl EvalStore {
    /// Ranks the first `n` queries with an LLM method through `run`;
    /// `at` is where its queries start in the job's count, and the job's
    /// total.
    #[allow(clippy::too_many_arguments)]
    pub(super) async fn evaluate_llm(
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
}
