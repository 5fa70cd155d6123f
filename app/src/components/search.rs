//! The Search view: the query box with a live status line, then filters,
//! results and the open article side by side (stacked on narrow screens).
//! What is ranked, and how, is [`SearchStore`]'s; this view only shows it.

use leptos::prelude::*;
use nomos_core::blob::Field;

use super::advanced::AdvancedPanel;
use super::article::ArticlePane;
use super::filters::Filters;
use super::go_to::GoToList;
use super::ids::{result_id, ARTICLE_TITLE_ID, SEARCH_BOX_ID};
use super::llm_run::LlmRun;
use super::model_line::ModelLine;
use super::pool_picker::LoadLine;
use super::results::ResultsList;
use crate::format::{duration, plural, quoted, ranked_cut, thousands};
use crate::llm::use_llm;
use crate::pools::use_pools;
use crate::search_store::SearchStore;
use crate::semantic::use_semantic;
use crate::state::use_app_state;
use crate::url_state::QUERY_MAX;
use crate::web::focus_id;

#[component]
pub fn SearchView() -> impl IntoView {
    let state = use_app_state();
    let pools = use_pools();
    let store = SearchStore::new(state, pools, use_semantic(), use_llm());
    let SearchStore {
        committed,
        ranking,
        filtered,
        source_counts,
        area_counts,
        ..
    } = store;

    // Time to first result, for the end-to-end loading benchmark.
    Effect::new(move |_| {
        if ranking.with(|r| r.as_ref().is_some_and(|t| !t.ranking.hits.is_empty())) {
            crate::timings::mark("results");
        }
    });

    let reading = move || state.article.with(Option::is_some);

    view! {
        <div class="search-view">
            <SearchBox store=store />
            <div class="workspace" class:reading=reading>
                <aside class="sidebar" aria-label="Filters and method">
                    <Filters
                        source_counts=source_counts
                        area_counts=area_counts
                        total=Signal::derive(move || {
                            ranking.with(|r| r.as_ref().map_or(0, |t| t.ranking.hits.len()))
                        })
                    />
                    <AdvancedPanel />
                </aside>
                <section class="results-pane" aria-label="Results">
                    <GoToList store=store />
                    <ResultsList ranking=ranking filtered=filtered query=committed />
                </section>
                <ArticlePane ranking=ranking query=committed.into() />
            </div>
        </div>
    }
}

#[component]
fn SearchBox(store: SearchStore) -> impl IntoView {
    let SearchStore {
        committed,
        ranking,
        filtered,
        ..
    } = store;
    let state = use_app_state();
    let pools = use_pools();
    let placeholder = move || match pools.engine() {
        Some(e) => format!("Search {} articles in {}", thousands(e.n_docs()), e.name),
        None => "Search".to_owned(),
    };
    // What screen readers hear after each ranking (the live region).
    let status = move || {
        let query = committed.get();
        let query = query.trim();
        let Some(timed) = ranking.get() else {
            return String::new();
        };
        if query.is_empty() {
            return String::new();
        }
        if timed.ranking.terms.is_empty() {
            return format!(
                "{} has no searchable words (only stop words or punctuation)",
                quoted(query)
            );
        }
        let total = timed.ranking.hits.len();
        let shown = filtered.with(|f| f.as_ref().map_or(0, Vec::len));
        let source = state.source.get().map(|s| {
            pools
                .engine()
                .map_or_else(|| s.clone(), |e| e.source_name(&s))
        });
        let filter = [source, state.area.get()]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>();
        let by_llm = timed.method.needs_llm();
        let counted = match (total, filter.is_empty()) {
            (0, _) if by_llm => format!("The LLM's ranking has no article for {}", quoted(query)),
            (0, _) => format!("No article matches {}", quoted(query)),
            (_, true) => format!(
                "{} for {}",
                plural(total, "result", "results"),
                quoted(query)
            ),
            (_, false) => format!(
                "{} of {} for {} in {}",
                thousands(shown),
                plural(total, "result", "results"),
                quoted(query),
                filter.join(", ")
            ),
        };
        let cut = ranked_cut(timed.ranking.cut);
        match timed.updated {
            true => format!("{counted}, updated with semantic results{cut}"),
            false => format!("{counted}{cut}"),
        }
    };
    let timing = move || {
        let timed = ranking.get()?;
        if committed.with(|q| q.trim().is_empty()) {
            return None;
        }
        let ranked = match timed.millis {
            ms if timed.method.needs_llm() => format!("ranked with the LLM in {}", duration(ms)),
            // Browsers coarsen timers to 0.1 ms or more.
            ms if ms < 0.1 => "ranked in < 0.1 ms".to_owned(),
            ms => format!("ranked in {ms:.1} ms"),
        };
        let method = match timed.field {
            Field::Text => timed.method.name().to_owned(),
            field => format!("{} on {}", timed.method.name(), field.name()),
        };
        Some(match timed.embed_millis {
            Some(ms) => format!("{method}: embedded in {ms:.0} ms, {ranked}"),
            None if timed.pending => format!(
                "{method}: {ranked}; {} follows once the query is embedded",
                state.method.get().name()
            ),
            None => format!("{method}: {ranked}"),
        })
    };
    // Why the chosen dense method is not what ranked (yet).
    let fallback = move || {
        let timed = ranking.get()?;
        let reason = timed.fallback?;
        let chosen = state.method.get();
        Some(match chosen.needs_llm() {
            true => format!("BM25 results until {} has ranked: {reason}.", chosen.name()),
            false => format!(
                "BM25 results: {reason}; {} follows when it can run.",
                chosen.name()
            ),
        })
    };
    let on_keydown = move |ev: leptos::ev::KeyboardEvent| match ev.key().as_str() {
        "ArrowDown" => {
            ev.prevent_default();
            focus_id(&result_id(0));
        }
        "Enter" if state.method.get_untracked().needs_llm() => {
            ev.prevent_default();
            store.ask_llm();
        }
        "Enter" => {
            if let Some(row) = store.first_cited() {
                ev.prevent_default();
                store.open_cited(&row);
                request_animation_frame(|| focus_id(ARTICLE_TITLE_ID));
            }
        }
        "Escape" if !state.query.with(String::is_empty) => {
            ev.prevent_default();
            state.query.set(String::new());
        }
        _ => {}
    };

    view! {
        <div class="searchbar" role="search">
            <label class="visually-hidden" for=SEARCH_BOX_ID>
                "Search the pool"
            </label>
            <input
                id=SEARCH_BOX_ID
                class="search-input"
                type="search"
                autocomplete="off"
                spellcheck="false"
                placeholder=placeholder
                maxlength=QUERY_MAX
                aria-describedby="search-status"
                aria-keyshortcuts="/ ArrowDown"
                prop:value=move || state.query.get()
                on:input=move |ev| state.query.set(event_target_value(&ev))
                on:keydown=on_keydown
            />
            <LoadLine />
            <p class="status">
                <span id="search-status" role="status" aria-live="polite">
                    {status}
                </span>
                <span class="timing">{timing}</span>
            </p>
            <p class="fallback" role="status">{fallback}</p>
            <ModelLine />
            <LlmRun store=store />
        </div>
    }
}
