//! The Evaluate view: benchmark metrics over the pool's queries and
//! judgments. It states what the loaded pool offers; the metric views are
//! being built on this view.

use leptos::prelude::*;

use super::pool_picker::LoadLine;
use super::thousands;
use crate::pools::use_pools;

#[component]
pub fn EvaluateView() -> impl IntoView {
    let pools = use_pools();
    let summary = move || {
        pools.engine.with(|e| match e {
            None => "Load a pool to evaluate it.".to_owned(),
            Some(e) if e.n_queries() == 0 => format!(
                "{} has no benchmark queries, so there is nothing to evaluate. \
                 Choose a pool with queries and judgments (e.g. STARD).",
                e.name
            ),
            Some(e) => format!(
                "{} has {} benchmark queries over {} articles.",
                e.name,
                thousands(e.n_queries()),
                thousands(e.n_docs())
            ),
        })
    };
    view! {
        <section class="evaluate">
            <h2>"Evaluate"</h2>
            <LoadLine />
            <p>{summary}</p>
            <p class="muted">
                "Per-query metrics (nDCG@10, MAP@100, Recall@k, MRR@10), per-area breakdowns, "
                "method comparison and k1/b sweeps are not in this build yet."
            </p>
        </section>
    }
}
