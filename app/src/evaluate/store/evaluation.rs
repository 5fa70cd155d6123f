//! The evaluation job: each configuration ranked and evaluated in turn
//! (A, B or both), after the queries' embeddings and the LLM run it needs.

use std::sync::Arc;

use leptos::prelude::*;

use crate::eval_config::{Config, Slot};
use crate::evaluate::job::{self, Pacer, Ranker, Stop};
use crate::evaluate::measures;
use crate::evaluate::scope;
use crate::format::plural;
use crate::llm::Run;
use crate::web::now;

use super::EvalStore;

impl EvalStore {
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
                                return self.stopped(ticket, Stop::Failed(why.to_string()));
                            }
                            match self.llm.run().await {
                                Ok(r) => run = Some(r),
                                Err(why) => {
                                    return self.stopped(ticket, Stop::Failed(why.to_string()))
                                }
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

    /// Whether an LLM method's results are shown.
    fn shows_llm(&self) -> bool {
        [Slot::Current, Slot::Compared].iter().any(|s| {
            self.outcome(*s)
                .with_untracked(|o| o.as_ref().is_some_and(|o| o.llm.is_some()))
        })
    }
}
