//! What the LLM did for one query, shown the same way in Search and in
//! the Evaluate view's query detail: the reformulated query, or each
//! ReAct round's planner query, candidates and kept articles, and every
//! failure (a reply that was not the JSON asked for, twice; ids the
//! observer made up) — failures are shown, never hidden.

use leptos::prelude::*;
use nomos_core::llm::react::Stage;
use nomos_core::llm::Cost;

use crate::format::{duration, plural, thousands};
use crate::pool::engine::Engine;
use nomos_core::llm::rank::Trace;

/// `8 calls · 12,345 + 456 tokens · 35.2 s of LLM time · 1 retry · 2
/// requests repeated`.
pub fn cost_line(cost: &Cost) -> String {
    let mut parts = vec![
        plural(cost.calls as usize, "call", "calls"),
        format!(
            "{} prompt + {} completion tokens",
            thousands(cost.prompt_tokens as usize),
            thousands(cost.completion_tokens as usize)
        ),
        format!("{} of LLM time", duration(cost.millis)),
    ];
    if cost.retries > 0 {
        parts.push(plural(cost.retries as usize, "retry", "retries"));
    }
    if cost.http_retries > 0 {
        parts.push(plural(
            cost.http_retries as usize,
            "request repeated",
            "requests repeated",
        ));
    }
    if cost.fallbacks > 0 {
        parts.push(plural(
            cost.fallbacks as usize,
            "format fallback",
            "format fallbacks",
        ));
    }
    if cost.failures > 0 {
        parts.push(plural(
            cost.failures as usize,
            "failed step",
            "failed steps",
        ));
    }
    parts.join(" · ")
}

#[component]
pub fn LlmTrace(trace: Trace, engine: std::sync::Arc<Engine>) -> impl IntoView {
    let id = move |doc: u32| engine.doc_id(doc);
    match trace {
        Trace::Reform {
            keywords,
            statement,
        } => {
            let line = |label: &'static str, r: Option<nomos_core::llm::reform::Reformulation>| {
                r.map(|r| {
                    let failed = r.failure.map(|f| {
                        format!(
                            "The model's replies were not the JSON asked for, twice (it wrote \
                             “{}”), so the query itself was used.",
                            f.reply
                        )
                    });
                    view! {
                        <p class="reformulated" data-kind=label>
                            <span class="muted">{format!("{label}: ")}</span>
                            <q>{r.text}</q>
                        </p>
                        {failed.map(|f| view! { <p class="error">{f}</p> })}
                    }
                })
            };
            view! {
                <div class="llm-trace">
                    {line("Keywords", keywords)}
                    {line("Statement", statement)}
                </div>
            }
            .into_any()
        }
        Trace::React(run) => {
            let rows = run
                .rounds
                .iter()
                .enumerate()
                .map(|(i, round)| {
                    let kept: Vec<String> = round.kept.iter().map(|&d| id(d)).collect();
                    let mut notes = Vec::new();
                    if let Some((stage, failure)) = &round.failure {
                        let step = match stage {
                            Stage::Plan => "the planner",
                            Stage::Search => "the search",
                            Stage::Observe => "the observer",
                        };
                        notes.push(format!("{step} failed (its reply: “{}”)", failure.reply));
                    }
                    if !round.unknown_ids.is_empty() {
                        notes.push(format!(
                            "named {} not among the candidates: {}",
                            plural(round.unknown_ids.len(), "id", "ids"),
                            round.unknown_ids.join(", ")
                        ));
                    }
                    if let Some(cut) = round.cut {
                        notes.push(format!(
                            "each candidate's text cut to {cut} bytes to fit the model's context"
                        ));
                    }
                    if round.query.is_some() && round.candidates.is_empty() {
                        notes.push("BM25 found nothing".to_owned());
                    }
                    view! {
                        <tr class="llm-round" data-round=i + 1 data-kept=kept.join(" ")>
                            <th scope="row">{i + 1}</th>
                            <td class="planner-query">
                                {round.query.clone().unwrap_or_else(|| "—".to_owned())}
                            </td>
                            <td>{round.candidates.len()}</td>
                            <td class="kept">
                                {if kept.is_empty() { "—".to_owned() } else { kept.join(", ") }}
                            </td>
                            <td class="error">{notes.join("; ")}</td>
                        </tr>
                    }
                })
                .collect_view();
            view! {
                <div class="llm-trace table-scroll">
                    <table class="metric-table compact react-rounds">
                        <caption>
                            {format!(
                                "{} kept over {}",
                                plural(run.kept().len(), "article", "articles"),
                                plural(run.rounds.len(), "round", "rounds")
                            )}
                        </caption>
                        <thead>
                            <tr>
                                <th scope="col">"Round"</th>
                                <th scope="col">"The planner's query"</th>
                                <th scope="col">"Candidates"</th>
                                <th scope="col">"Kept by the observer"</th>
                                <th scope="col">"Failures"</th>
                            </tr>
                        </thead>
                        <tbody>{rows}</tbody>
                    </table>
                </div>
            }
            .into_any()
        }
    }
}
