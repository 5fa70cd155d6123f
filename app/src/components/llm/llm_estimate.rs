//! Before an LLM run, what it will cost in calls and tokens
//! (`nomos_core::llm::estimate`): a link can preset the method, its
//! parameters and how many queries, and an endpoint bills what it
//! answers, so the cost is said before the run is started. A replayed
//! transcript asks nothing, so it shows none.

use leptos::prelude::*;
use nomos_core::llm::estimate::Estimate;
use nomos_core::methods::Method;

use crate::format::{plural, thousands};
use crate::llm::{use_llm, Readiness};
use crate::pools::store::use_pools;

/// The estimate for ranking with `methods` (those that ask no LLM add
/// nothing) the benchmark's first `queries` queries, or with `queries`
/// `None` the query `typed`.
#[component]
pub fn LlmEstimate(
    methods: Signal<Vec<Method>>,
    queries: Signal<Option<usize>>,
    typed: Signal<String>,
) -> impl IntoView {
    let llm = use_llm();
    let pools = use_pools();
    move || {
        if !matches!(
            llm.readiness(),
            Readiness::Endpoint(_) | Readiness::InPage(_)
        ) {
            return None;
        }
        let engine = pools.engine()?;
        let settings = llm.config.with(|c| c.settings(""));
        let (queries, typed) = (queries.get(), typed.get());
        let total = methods
            .get()
            .iter()
            .filter_map(|m| engine.llm_estimate(m, &settings, queries, &typed))
            .reduce(Estimate::plus)?;
        Some(view! {
            <p class="muted llm-estimate" data-testid="llm-estimate">{estimate_line(&total)}</p>
        })
    }
}

/// `This run makes 60 calls: about 12,345 prompt tokens and at most
/// 61,440 reply tokens.`
pub fn estimate_line(e: &Estimate) -> String {
    let replies = match e.completion_tokens {
        Some(n) => format!(" and at most {} reply tokens", thousands(n as usize)),
        None => String::new(),
    };
    format!(
        "This run makes {}: about {} prompt tokens{replies}.",
        plural(e.calls as usize, "call", "calls"),
        thousands(e.prompt_tokens as usize),
    )
}
