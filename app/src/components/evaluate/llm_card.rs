//! What the LLM did in an evaluation, for A and B when they are LLM
//! methods: the transcript that reproduces the results (download it, or
//! share the page's link, which names it), what the calls cost per query
//! and in all, the queries that got no replies and why, and for ReAct
//! the measures had the loop stopped after 0 (BM25), 1, 2, 3, 5 and 10
//! rounds. Rows carry full-precision values in `data-value`, as the
//! means table does.

use std::sync::Arc;

use leptos::prelude::*;
use nomos_core::llm::Cost;

use super::use_eval_store;
use crate::components::llm::transcripts::DownloadButton;
use crate::evaluate::job::Outcome;
use crate::evaluate::measures::{fmt_value, label};
use crate::format::{duration, plural, thousands};
use crate::llm::use_llm;
use crate::transcript_files::short_hash;

/// The measures the round table shows.
const ROUND_MEASURES: [&str; 5] = ["ndcg@10", "map@100", "recall@10", "recall@100", "mrr@10"];

#[component]
pub fn LlmCard() -> impl IntoView {
    let store = use_eval_store();
    let llm = use_llm();
    let outcomes = move || {
        let a = store.current.get().filter(|o| o.llm.is_some());
        let b = store.compared.get().filter(|o| o.llm.is_some());
        [("A", a), ("B", b)]
            .into_iter()
            .filter_map(|(slot, o)| Some((slot, o?)))
            .collect::<Vec<_>>()
    };
    move || {
        let shown = outcomes();
        (!shown.is_empty()).then(|| {
            let transcript = store.transcript.get().map(|t| {
                view! {
                    <p class="llm-transcript" data-testid="eval-transcript" data-sha256=t.sha256.clone()>
                        {format!(
                            "These results replay from the transcript {}… (SHA-256, in this page's \
                             link). ",
                            short_hash(&t.sha256)
                        )}
                        <DownloadButton llm=llm sha256=t.sha256.clone() label="Download transcript (.jsonl)" />
                    </p>
                }
            });
            let both = shown.len() > 1;
            let sections = shown
                .into_iter()
                .map(|(slot, o)| view! { <LlmOutcomeView name=slot outcome=o titled=both /> })
                .collect_view();
            view! {
                <section class="card llm-card" aria-labelledby="llm-card-title" data-testid="llm-card">
                    <h3 id="llm-card-title">"LLM"</h3>
                    {transcript}
                    {sections}
                </section>
            }
        })
    }
}

/// One LLM method's cost, failures and rounds.
#[component]
fn LlmOutcomeView(name: &'static str, outcome: Arc<Outcome>, titled: bool) -> impl IntoView {
    let Some(llm) = &outcome.llm else {
        return ().into_any();
    };
    let n = outcome.queries;
    let failures: Vec<String> = llm.failures().map(|f| f.to_string()).collect();
    let failed = failures.len();
    let failure_list = match failed {
        0 => view! {
            <p class="muted">{format!("Every query got its replies ({} asked of {}).", n, llm.model)}</p>
        }
        .into_any(),
        _ => view! {
            <p class="error" data-testid="llm-failed" data-count=failed>
                {format!(
                    "{} of {n} got no replies and count as empty rankings:",
                    plural(failed, "query", "queries")
                )}
            </p>
            <ul class="llm-failures">
                {failures.into_iter().map(|why| view! { <li>{why}</li> }).collect_view()}
            </ul>
        }
        .into_any(),
    };
    let steps = llm.cost.failures;
    let steps_note = (steps > 0).then(|| {
        view! {
            <p class="note">
                {format!(
                    "{} gave replies that were not the JSON asked for, twice; the method went on \
                     without them (the query itself, or without that round).",
                    plural(steps as usize, "step", "steps")
                )}
            </p>
        }
    });
    let rounds = (!llm.rounds.is_empty()).then(|| {
        let columns: Vec<(usize, &str)> = ROUND_MEASURES
            .iter()
            .filter_map(|k| outcome.column(k).map(|c| (c, *k)))
            .collect();
        let head = columns
            .iter()
            .map(|(_, k)| view! { <th scope="col">{label(k)}</th> })
            .collect_view();
        let rows = llm
            .rounds
            .iter()
            .map(|r| {
                let cells = columns
                    .iter()
                    .map(|&(c, k)| {
                        let v = r.means[c];
                        view! { <td data-measure=k data-value=v.to_string()>{fmt_value(v)}</td> }
                    })
                    .collect_view();
                let name = match r.round {
                    0 => "0 (BM25)".to_owned(),
                    n => n.to_string(),
                };
                view! {
                    <tr data-round=r.round>
                        <th scope="row">{name}</th>
                        {cells}
                        <td>{r.kept.map_or_else(|| "—".to_owned(), |k| format!("{k:.1}"))}</td>
                    </tr>
                }
            })
            .collect_view();
        view! {
            <div class="table-scroll">
                <table class="metric-table compact" data-testid="react-rounds">
                    <caption>"Had the loop stopped after each round (round 0: BM25 on the query, no LLM)"</caption>
                    <thead>
                        <tr>
                            <th scope="col">"Rounds"</th>
                            {head}
                            <th scope="col">"Kept (mean)"</th>
                        </tr>
                    </thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
        }
    });
    view! {
        <div class="llm-outcome">
            {titled.then(|| view! { <h4>{format!("{name}: {}", outcome.config.describe_method())}</h4> })}
            <CostTable cost=llm.cost queries=n />
            {steps_note}
            {failure_list}
            {rounds}
        </div>
    }
    .into_any()
}

/// Calls, tokens and LLM time, per query and in all.
#[component]
fn CostTable(cost: Cost, queries: usize) -> impl IntoView {
    let per = |x: f64| x / queries.max(1) as f64;
    let row = |name: &'static str, key: &'static str, total: f64, shown: fn(f64) -> String| {
        view! {
            <tr data-cost=key data-value=total.to_string()>
                <th scope="row">{name}</th>
                <td>{shown(per(total))}</td>
                <td>{shown(total)}</td>
            </tr>
        }
    };
    let count = |x: f64| match x.fract() {
        0.0 => thousands(x as usize),
        _ => format!("{x:.1}"),
    };
    view! {
        <table class="metric-table compact" data-testid="llm-cost">
            <caption>{format!("What the LLM calls cost, over {}", plural(queries, "query", "queries"))}</caption>
            <thead>
                <tr>
                    <th scope="col"></th>
                    <th scope="col">"Per query"</th>
                    <th scope="col">"In all"</th>
                </tr>
            </thead>
            <tbody>
                {row("Calls", "calls", cost.calls as f64, count)}
                {row("Prompt tokens", "prompt_tokens", cost.prompt_tokens as f64, count)}
                {row("Completion tokens", "completion_tokens", cost.completion_tokens as f64, count)}
                {row("LLM time", "millis", cost.millis, duration)}
                {row("Retries (reply not JSON)", "retries", cost.retries as f64, count)}
                {row("Retries (no answer, timeout, 429, 5xx)", "http_retries", cost.http_retries as f64, count)}
                {row("Retries in a less strict format", "fallbacks", cost.fallbacks as f64, count)}
            </tbody>
        </table>
    }
}
