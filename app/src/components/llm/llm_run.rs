//! Under the search box, while an LLM method is chosen: what answers
//! (an endpoint, or a transcript replayed), the Ask button (or Enter)
//! with what the run will cost,
//! the run's progress with Cancel (round r of R and its step, or
//! "reformulating…"), and once done what the model did, what it cost and
//! the transcript to download. A failure says what failed and, for a
//! replay that lacks the query, offers to ask the endpoint instead.

use leptos::prelude::*;

use crate::components::llm::llm_estimate::LlmEstimate;
use crate::components::llm::llm_settings::StopReplaying;
use crate::components::llm::llm_trace::{cost_line, LlmTrace};
use crate::components::llm::transcripts::DownloadButton;
use crate::components::progress::progress_bar;
use crate::format::duration;
use crate::llm::search::{RunStatus, SearchKey};
use crate::llm::{use_llm, Readiness};
use crate::pools::store::use_pools;
use crate::search::store::SearchStore;
use crate::state::use_app_state;
use crate::transcript_files::{short_hash, LlmSource};
use nomos_core::llm::rank::Step;

#[component]
pub fn LlmRun(store: SearchStore) -> impl IntoView {
    let state = use_app_state();
    let pools = use_pools();
    let llm = use_llm();
    let key = move || SearchKey {
        query: store.committed.get(),
        method: state.method.get(),
        params: state.params.get(),
        field: state.field.get(),
        source: state.llm.get(),
    };
    let status = move || {
        let session = pools.session.get()?;
        session.llm_search.status_for(&key())
    };
    let cancel = move |_| {
        if let Some(s) = pools.session.get_untracked() {
            s.llm_search.cancel();
        }
    };
    let source = move || match llm.readiness() {
        Readiness::Endpoint(origin) => {
            let model = llm.config.with(|c| c.model.clone());
            format!("Asks {model} at {origin}.")
        }
        Readiness::InPage(model) => format!("Asks {model}, loaded in this page."),
        Readiness::Replay { sha256, known } => format!(
            "Replays the transcript {}…{}",
            short_hash(&sha256),
            if known {
                ""
            } else {
                ", which this browser does not have"
            }
        ),
        Readiness::Unset(why) => why,
    };
    let body = move || {
        let asking = state.query.with(|q| !q.trim().is_empty());
        match status() {
            None => asking
                .then(|| {
                    view! {
                        <button
                            type="button"
                            class="button primary"
                            data-testid="ask-llm"
                            prop:disabled=move || !llm.readiness().can_run()
                            on:click=move |_| store.ask_llm()
                        >
                            {move || format!("Rank with {}", state.method.get().name())}
                        </button>
                        <span class="muted">" or press Enter"</span>
                        <LlmEstimate
                            methods=Signal::derive(move || vec![state.method.get()])
                            queries=Signal::derive(|| None)
                            typed=Signal::derive(move || state.query.get())
                        />
                    }
                })
                .into_any(),
            Some(RunStatus::Running(step)) => {
                let fraction = match step {
                    Some(Step::React(p)) => {
                        let stage = p.stage as usize;
                        Some(((p.round - 1) * 3 + stage) as f64 / (p.rounds * 3) as f64)
                    }
                    _ => None,
                };
                let label = step.map_or_else(
                    || "Starting…".to_owned(),
                    |s| {
                        let mut text = s.describe();
                        text[..1].make_ascii_uppercase();
                        format!("{text}…")
                    },
                );
                view! {
                    <div class="job" data-testid="llm-progress">
                        {progress_bar(label.clone(), fraction.map(|f| f * 100.0))}
                        <span class="job-label" role="status">{label}</span>
                        <button type="button" class="button" on:click=cancel>"Cancel"</button>
                    </div>
                }
                .into_any()
            }
            Some(RunStatus::Cancelled) => view! {
                <p class="muted" role="status">"Cancelled. Press Enter to ask again."</p>
            }
            .into_any(),
            Some(RunStatus::Failed(why)) => {
                let replaying = matches!(state.llm.get_untracked(), LlmSource::Replay(_));
                view! {
                    <p class="error" role="alert" data-testid="llm-error">{why}</p>
                    {replaying.then(|| view! { <StopReplaying /> })}
                }
                .into_any()
            }
            Some(RunStatus::Done(done)) => {
                let engine = pools.engine_untracked();
                let cost = done.ranking.trace.cost();
                view! {
                    <p class="llm-done" data-testid="llm-done" data-transcript=done.transcript.sha256.clone()>
                        {format!(
                            "Ranked with {} in {}: {}.",
                            done.model,
                            duration(done.millis),
                            cost_line(&cost)
                        )}
                        " "
                        <DownloadButton
                            llm=llm
                            sha256=done.transcript.sha256.clone()
                            label="Download transcript"
                        />
                    </p>
                    <details class="llm-what" open=true>
                        <summary>"What the LLM did"</summary>
                        {engine.map(|engine| view! {
                            <LlmTrace trace=done.ranking.trace.clone() engine=engine />
                        })}
                    </details>
                }
                .into_any()
            }
        }
    };
    move || {
        state.method.get().needs_llm().then(|| {
            view! {
                <section class="llm-run" aria-label="LLM run">
                    <p class="llm-source muted">
                        {source}
                        " "
                        <button type="button" class="link-button" on:click=move |_| llm.open_settings()>
                            "LLM settings…"
                        </button>
                    </p>
                    {body}
                </section>
            }
        })
    }
}
