//! The Evaluate view: benchmark metrics over the pool's queries and
//! judgments, computed in the browser exactly as `nomos eval` computes
//! them. Sections, one module each:
//!
//! - [`bench_choice`]: the pool's benchmark or the user's judgments;
//! - [`run_bar`]: the method, the Run button, job progress and the live
//!   announcements;
//! - [`means`]: the mean of every measure, with exports;
//! - [`breakdown`]: means per legal area (or per law of the gold
//!   articles);
//! - [`compare`]: a second method side by side, with [`chart`]'s sorted
//!   per-query deltas;
//! - [`queries`]: the sortable per-query table, and [`detail`]: one
//!   query's ranking with its gold articles marked, and an article reader;
//! - [`context_card`]: CRAwLeR-DK's context diagnostic, for pools whose
//!   gold articles cite others;
//! - [`llm_card`]: an LLM method's transcript, cost, failures and (for
//!   ReAct) its measures round by round;
//! - [`run_files`]: run files made elsewhere as A or B (also dropped on
//!   the view), and the ones kept for the pool;
//! - [`sweep`]: the k1 × b heat map.

pub mod judgments;

mod bench_choice;
mod breakdown;
mod chart;
mod compare;
mod context_card;
mod detail;
mod llm_card;
mod means;
mod queries;
mod run_bar;
mod run_files;
mod significance;
mod sweep;

use std::sync::Arc;

use leptos::prelude::*;
use nomos_core::pool::Benchmark;

use crate::components::pools::pool_picker::LoadLine;
use crate::evaluate::job::Outcome;
use crate::evaluate::store::EvalStore;
use crate::format::thousands;
use crate::pools::store::use_pools;
use crate::state::use_app_state;

#[component]
pub fn EvaluateView() -> impl IntoView {
    let pools = use_pools();
    let state = use_app_state();
    let summary = move || {
        match pools.engine() {
        None => match pools.fragmented.get() {
            Some(store) => format!(
                "{} is a fragmented pool, which the page fetches a query's parts of: it has no                  benchmark here, and Evaluate would rank every query over the whole pool.                  Evaluate its blob with `nomos eval`, or choose a pool loaded whole.",
                store.pool.with_value(|p| p.name.clone())
            ),
            None => "Load a pool to evaluate it.".to_owned(),
        },
        Some(e) if e.n_queries() == 0 => format!(
            "{} has no benchmark queries: judge search results (My judgments) \
             to evaluate with your own, or choose a pool with queries and \
             judgments (e.g. STARD).",
            e.name
        ),
        Some(e) => format!(
            "{} has {} benchmark queries with {} judgments over {} articles.",
            e.name,
            thousands(e.n_queries()),
            thousands(e.blob().header().n_judgments as usize),
            thousands(e.n_docs())
        ),
    }
    };
    // A pool with a benchmark (its own, or the user's judgments), by
    // session: only a new pool (not a new method) rebuilds the sections,
    // each reading that pool's store.
    let session = Memo::new(move |_| {
        pools
            .session
            .get()
            .filter(|s| s.engine.n_queries() > 0 || s.judgments.judgments.with(|j| !j.is_empty()))
    });
    view! {
        <div
            class="evaluate"
            on:dragover=|ev| ev.prevent_default()
            on:drop=move |ev: leptos::ev::DragEvent| {
                ev.prevent_default();
                let file = ev.data_transfer().and_then(|d| d.files()).and_then(|f| f.get(0));
                if let (Some(file), Some(session)) = (file, session.get_untracked()) {
                    run_files::open_file(session.eval, state, file);
                }
            }
        >
            <div class="eval-head">
                <h2>"Evaluate"</h2>
                <p class="eval-summary">{summary}</p>
            </div>
            <LoadLine />
            {move || {
                session
                    .get()
                    .map(|session| {
                        provide_context(session.eval);
                        view! {
                            <bench_choice::BenchChoice />
                            <run_bar::RunBar />
                            <div class="eval-top">
                                <means::MeansCard />
                                <breakdown::BreakdownCard />
                            </div>
                            <context_card::ContextCard />
                            <llm_card::LlmCard />
                            <compare::CompareCard />
                            <run_files::RunFilesCard />
                            <queries::QueriesCard />
                            <sweep::SweepCard />
                        }
                    })
            }}
        </div>
    }
}

/// The current pool's evaluation store (provided by [`EvaluateView`]).
pub fn use_eval_store() -> EvalStore {
    expect_context::<EvalStore>()
}

/// The benchmark and the current method's outcome, when both exist.
fn current(store: EvalStore) -> Option<(Arc<Benchmark>, Arc<Outcome>)> {
    Some((store.bench.get()?, store.current.get()?))
}

/// The compared method's outcome, when it covers the same queries as the
/// current one (it always does within one pool).
fn compared(store: EvalStore, a: &Outcome) -> Option<Arc<Outcome>> {
    store.compared.get().filter(|b| b.rows == a.rows)
}
