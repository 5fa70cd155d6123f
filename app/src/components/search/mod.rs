//! The Search view of every pool: the query box with a live status line,
//! then the sidebar, results and the open article side by side (stacked
//! on narrow screens). The box, the rows and the article are the same
//! components whichever store feeds them ([`SearchSource`]), and so are
//! the filters; a blob adds the method settings, "Go to" and the LLM run,
//! a fragmented pool its methods and offline use ([`FragSidebar`]).

pub mod advanced;
pub mod filters;
pub mod fragmented;
pub mod keyboard;
pub mod model_line;
pub mod results;

use leptos::prelude::*;

use crate::components::article::go_to::GoToList;
use crate::components::article::ArticlePane;
use crate::components::ids::{result_id, ARTICLE_TITLE_ID, SEARCH_BOX_ID};
use crate::components::llm::llm_run::LlmRun;
use crate::components::pools::pool_picker::LoadLine;
use crate::components::search::advanced::AdvancedPanel;
use crate::components::search::filters::Filters;
use crate::components::search::fragmented::FragSidebar;
use crate::components::search::model_line::ModelLine;
use crate::components::search::results::ResultsList;
use crate::llm::use_llm;
use crate::pools::store::use_pools;
use crate::search::source::SearchSource;
use crate::search::store::SearchStore;
use crate::semantic::use_semantic;
use crate::state::use_app_state;
use crate::url_state::QUERY_MAX;
use crate::web::focus_id;

/// The loaded pool's Search view, its store started for as long as the
/// view lives.
#[component]
pub fn SearchView() -> impl IntoView {
    let state = use_app_state();
    let pools = use_pools();
    move || match pools.fragmented.get() {
        Some(store) => {
            store.follow(state);
            view! { <SearchLayout source=SearchSource::Fragmented(StoredValue::new(store)) /> }
        }
        None => {
            let store = SearchStore::new(state, pools, use_semantic(), use_llm());
            // Time to first result, for the end-to-end loading benchmark.
            Effect::new(move |_| {
                let ranking = store.ranking;
                if ranking.with(|r| r.as_ref().is_some_and(|t| !t.ranking.hits.is_empty())) {
                    crate::timings::mark("results");
                }
            });
            view! { <SearchLayout source=SearchSource::Blob(StoredValue::new(store)) /> }
        }
    }
}

#[component]
fn SearchLayout(source: SearchSource) -> impl IntoView {
    let state = use_app_state();
    let reading = move || state.article.with(Option::is_some);
    // The filters are every pool's; the method settings a blob's, the
    // methods fragments rank and offline use a fragmented pool's.
    let storage = match source {
        SearchSource::Blob(_) => view! { <AdvancedPanel /> }.into_any(),
        SearchSource::Fragmented(store) => {
            view! { <FragSidebar store=store.get_value() /> }.into_any()
        }
    };
    let sidebar = view! {
        <aside class="sidebar" aria-label="Filters and method">
            <Filters source=source />
            {storage}
        </aside>
    };
    let go_to = match source {
        SearchSource::Blob(store) => Some(view! { <GoToList store=store.get_value() /> }),
        SearchSource::Fragmented(_) => None,
    };

    view! {
        <div class="search-view">
            <SearchBox source=source />
            <div class="workspace" class:reading=reading>
                {sidebar}
                <section class="results-pane" aria-label="Results">
                    {go_to}
                    <ResultsList source=source />
                </section>
                <ArticlePane source=source />
            </div>
        </div>
    }
}

#[component]
fn SearchBox(source: SearchSource) -> impl IntoView {
    let state = use_app_state();
    let on_keydown = move |ev: leptos::ev::KeyboardEvent| match (ev.key().as_str(), source) {
        ("ArrowDown", _) => {
            ev.prevent_default();
            focus_id(&result_id(0));
        }
        ("Enter", SearchSource::Blob(store)) if state.method.get_untracked().needs_llm() => {
            ev.prevent_default();
            store.get_value().ask_llm();
        }
        ("Enter", SearchSource::Blob(store)) => {
            let store = store.get_value();
            if let Some(row) = store.first_cited() {
                ev.prevent_default();
                store.open_cited(&row);
                request_animation_frame(|| focus_id(ARTICLE_TITLE_ID));
            }
        }
        ("Escape", _) if !state.query.with(String::is_empty) => {
            ev.prevent_default();
            state.query.set(String::new());
        }
        _ => {}
    };
    let error = move || {
        source
            .error()
            .map(|message| view! { <p class="error frag-error" role="alert">{message}</p> })
    };
    let llm_run = match source {
        SearchSource::Blob(store) => Some(view! { <LlmRun store=store.get_value() /> }),
        SearchSource::Fragmented(_) => None,
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
                placeholder=move || source.placeholder()
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
                    {move || source.status()}
                </span>
                <span class="timing">{move || source.timing()}</span>
            </p>
            <p class="fallback" role="status">{move || source.fallback()}</p>
            {error}
            <ModelLine />
            {llm_run}
        </div>
    }
}
