//! The method being evaluated (with the same method panel as Search), the
//! Run button, the running job's progress with Cancel, and the live region
//! that announces starts, milestones and results.

use leptos::prelude::*;

use super::use_eval_store;
use crate::components::llm::llm_estimate::LlmEstimate;
use crate::components::progress::progress_bar;
use crate::components::search::advanced::AdvancedPanel;
use crate::eval_config::Slot;
use crate::evaluate::job::DEPTH;
use crate::format::{fraction, megabytes};
use crate::llm::use_llm;
use crate::pools::store::use_pools;
use crate::semantic::{use_semantic, ModelStatus};
use crate::state::use_app_state;
use crate::url_state::LLM_QUERIES_MAX;

#[component]
pub fn RunBar() -> impl IntoView {
    let state = use_app_state();
    let store = use_eval_store();
    let busy = move || store.job.with(Option::is_some);
    let chosen = move || state.config_untracked();
    let run = move |_| {
        let mut targets = vec![(Slot::Current, chosen())];
        if let Some(b) = state.compare.get_untracked() {
            targets.push((Slot::Compared, b));
        }
        // A's method replaces a run file shown as A.
        if state
            .run
            .with_untracked(|r| r.as_ref().is_some_and(|r| r.slot == Slot::Current))
        {
            state.run.set(None);
        }
        store.evaluate(targets, state.llm_queries.get_untracked());
    };
    let label = move || {
        let comparing = state.compare.with(Option::is_some);
        let ran = store.current.with(Option::is_some);
        match (ran, comparing) {
            (false, false) => "Run evaluation",
            (false, true) => "Run both methods",
            (true, false) => "Run again",
            (true, true) => "Run both again",
        }
    };
    let stale = move || {
        let config = state.config();
        store.current.with(|o| {
            o.as_ref().filter(|o| o.config.method().is_some_and(|c| !c.same_ranking(&config))).map(|o| {
                view! {
                    <p class="note stale">
                        {format!(
                            "The figures below are for {}; the method has changed since. Run again to update them.",
                            o.config.describe()
                        )}
                    </p>
                }
            })
        })
    };
    view! {
        <div class="run-bar">
            <div class="run-row">
                <button
                    type="button"
                    class="button primary"
                    data-testid="run-evaluation"
                    prop:disabled=busy
                    on:click=run
                >
                    {label}
                </button>
                <p class="run-method">
                    {move || {
                        format!("Current method: {}", state.config().describe())
                    }}
                    <span class="muted">
                        {format!(
                            " · every query ranked to depth {DEPTH} with zero-score fill, scored with trec_eval semantics — as nomos eval"
                        )}
                    </span>
                </p>
            </div>
            <LlmScope />
            <JobProgress />
            <p class="eval-status" role="status" aria-live="polite">
                {move || store.message.get()}
            </p>
            {stale}
            <AdvancedPanel />
        </div>
    }
}

/// With an LLM method as A or B: how many of the first queries a job
/// ranks, how many at once, and what the job will cost.
#[component]
fn LlmScope() -> impl IntoView {
    let state = use_app_state();
    let llm = use_llm();
    let pools = use_pools();
    let involved = move || {
        state.method.get().needs_llm()
            || state
                .compare
                .with(|c| c.is_some_and(|c| c.method.needs_llm()))
    };
    let total = move || pools.engine().map(|e| e.n_queries());
    move || {
        involved().then(|| {
            view! {
                <div class="llm-scope">
                    <label for="llm-queries">"An LLM method ranks the first"</label>
                    <input
                        id="llm-queries"
                        type="number"
                        min="1"
                        step="1"
                        prop:value=move || state.llm_queries.get().to_string()
                        on:change=move |ev| {
                            if let Ok(n) = event_target_value(&ev).trim().parse::<usize>() {
                                state.llm_queries.set(n.clamp(1, LLM_QUERIES_MAX));
                            }
                        }
                    />
                    <span>
                        {move || match total() {
                            Some(t) => format!("of {t} queries,"),
                            None => "queries,".to_owned(),
                        }}
                    </span>
                    <label for="eval-concurrency">"asking about"</label>
                    <input
                        id="eval-concurrency"
                        type="number"
                        min="1"
                        step="1"
                        prop:value=move || llm.config.with(|c| c.concurrency.to_string())
                        on:change=move |ev| {
                            if let Ok(n) = event_target_value(&ev).trim().parse::<usize>() {
                                let mut c = llm.config.get_untracked();
                                c.concurrency = n;
                                llm.set_config(c);
                            }
                        }
                    />
                    <span>"at once. A compared method ranks the same queries."</span>
                    <LlmEstimate
                        methods=Signal::derive(move || {
                            let mut methods = vec![state.method.get()];
                            methods.extend(state.compare.get().map(|c| c.method));
                            methods
                        })
                        queries=Signal::derive(move || Some(state.llm_queries.get()))
                        typed=Signal::derive(String::new)
                    />
                </div>
            }
        })
    }
}

/// The running job's progress bar, what it is doing, and Cancel. While
/// the job waits for the semantic model, the model's download is its
/// progress.
#[component]
pub fn JobProgress() -> impl IntoView {
    let store = use_eval_store();
    let semantic = use_semantic();
    move || {
        store.job.get().map(|mut job| {
            if job.waits_for_model {
                match semantic.status.get() {
                    ModelStatus::Downloading { received, total } => {
                        job.label = "Downloading the semantic model".to_owned();
                        job.done = received as usize;
                        job.total = total as usize;
                        job.detail =
                            Some(format!("{} of {}", megabytes(received), megabytes(total)));
                    }
                    _ => {
                        job.label = "Starting the semantic model".to_owned();
                        job.detail = Some(String::new());
                    }
                }
            }
            let percent = job.done as f64 * 100.0 / job.total.max(1) as f64;
            view! {
                <div class="job">
                    {progress_bar(job.label.clone(), Some(percent))}
                    <span class="job-label">
                        {match &job.detail {
                            Some(d) if d.is_empty() => format!("{}…", job.label),
                            Some(d) => format!("{} — {d}", job.label),
                            None => format!("{} — {} rankings", job.label, fraction(job.done, job.total)),
                        }}
                    </span>
                    <button type="button" class="button" on:click=move |_| store.cancel()>
                        "Cancel"
                    </button>
                </div>
            }
        })
    }
}
