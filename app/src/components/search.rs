//! The Search view: the query box with a live status line, then filters,
//! results and the open article side by side (stacked on narrow screens).
//!
//! Ranking runs on the debounced query: typing restarts a 100 ms timer, so
//! a burst of keystrokes ranks once.

use std::time::Duration;

use leptos::prelude::*;
use leptos::task::spawn_local;
use nomos_core::search::methods::Method;

use super::advanced::AdvancedPanel;
use super::article::ArticlePane;
use super::filters::Filters;
use super::model_line::ModelLine;
use super::pool_picker::LoadLine;
use super::results::ResultsList;
use super::{focus_id, plural, thousands};
use crate::engine::{facet_counts, Ranking};
use crate::pools::use_pools;
use crate::semantic::{use_semantic, ModelStatus};
use crate::state::use_app_state;

/// Results shown at first and added by "Show more".
pub const PAGE: usize = 25;
const DEBOUNCE: Duration = Duration::from_millis(100);
pub const SEARCH_BOX_ID: &str = "search-box";

/// A ranking, the method that made it, and how long it took.
#[derive(Debug, Clone, PartialEq)]
pub struct Timed {
    pub ranking: Ranking,
    pub millis: f64,
    pub method: Method,
    /// Why BM25 stands in for the chosen dense method, if it does.
    pub fallback: Option<String>,
    /// How long embedding the query took, for dense methods.
    pub embed_millis: Option<f64>,
}

/// A query's embedding (or why there is none) and how long it took.
#[derive(Debug, Clone, PartialEq)]
struct Embedded {
    query: String,
    vector: Result<Vec<f32>, String>,
    millis: f64,
}

/// The committed query's embedding, computed whenever a dense method is
/// chosen, the model is ready and the query changes (one at a time: the
/// latest query wins, stale answers are dropped).
fn query_embeddings(committed: RwSignal<String>) -> RwSignal<Option<Embedded>> {
    let state = use_app_state();
    let semantic = use_semantic();
    let embedded = RwSignal::new(None::<Embedded>);
    Effect::new(move |_| {
        let query = committed.get();
        let ready = semantic.status.with(|s| *s == ModelStatus::Ready);
        if !state.method.get().needs_dense() || !ready || query.trim().is_empty() {
            return;
        }
        if embedded.with_untracked(|e| e.as_ref().is_some_and(|e| e.query == query)) {
            return;
        }
        spawn_local(async move {
            let started = now();
            let vector = semantic.embed_query(query.clone()).await;
            if committed.get_untracked() == query {
                let millis = now() - started;
                embedded.set(Some(Embedded {
                    query,
                    vector,
                    millis,
                }));
            }
        });
    });
    // Another model (a new pool) makes every embedding stale.
    Effect::new(move |_| {
        if semantic.status.with(|s| *s != ModelStatus::Ready) {
            embedded.set(None);
        }
    });
    embedded
}

/// Why a dense method cannot run yet, for the status line.
fn waiting_reason(status: &ModelStatus) -> String {
    match status {
        ModelStatus::NoVectors => "this pool has no document vectors".to_owned(),
        ModelStatus::NotServed { model } => {
            format!("this site does not serve the model of the pool's vectors ({model})")
        }
        ModelStatus::Idle { .. } | ModelStatus::Downloading { .. } => {
            "the semantic model is downloading".to_owned()
        }
        ModelStatus::Starting => "the semantic model is starting".to_owned(),
        ModelStatus::Ready => "the query is being embedded".to_owned(),
        ModelStatus::Failed(e) => format!("the semantic model failed: {e}"),
    }
}

#[component]
pub fn SearchView() -> impl IntoView {
    let state = use_app_state();
    let pools = use_pools();
    let semantic = use_semantic();

    // The query the ranking uses: the box's text, 100 ms after typing stops.
    let committed = RwSignal::new(state.query.get_untracked());
    let timer = StoredValue::new(None::<TimeoutHandle>);
    Effect::new(move |_| {
        let text = state.query.get();
        if let Some(t) = timer.get_value() {
            t.clear();
        }
        let handle = set_timeout_with_handle(move || committed.set(text), DEBOUNCE).ok();
        timer.set_value(handle);
    });

    let embedded = query_embeddings(committed);
    let ranking = Memo::new(move |previous: Option<&Option<Timed>>| {
        let query = committed.get();
        let method = state.method.get();
        let wanted = method.needs_dense() && !query.trim().is_empty();
        let embedding = wanted
            .then(|| embedded.with(|e| e.as_ref().filter(|e| e.query == query).cloned()))
            .flatten();
        let vector = embedding.as_ref().and_then(|e| e.vector.as_ref().ok());
        let embed_millis = embedding.as_ref().map(|e| e.millis);
        let fallback = match (wanted, &embedding) {
            (false, _) => None,
            (true, Some(e)) => e.vector.as_ref().err().cloned(),
            (true, None) => match semantic.status.get() {
                // Ready and embedding this query: keep the last semantic
                // ranking for the few milliseconds rather than flash BM25.
                ModelStatus::Ready => {
                    let last = previous.cloned().flatten();
                    if last.as_ref().is_some_and(|t| t.fallback.is_none()) {
                        return last;
                    }
                    Some("the query is being embedded".to_owned())
                }
                status => Some(waiting_reason(&status)),
            },
        };
        let used = match fallback {
            Some(_) => Method::Bm25,
            None => method,
        };
        pools.engine.with(|engine| {
            let engine = engine.as_ref()?;
            let started = now();
            let ranked = engine.rank(&used, &query, vector.map(Vec::as_slice));
            let millis = now() - started;
            let (ranking, fallback) = match ranked {
                Ok(r) => (r, fallback),
                Err(e) => (engine.rank(&Method::Bm25, &query, None).ok()?, Some(e)),
            };
            Some(Timed {
                ranking,
                millis,
                method: used,
                fallback,
                embed_millis: embed_millis.filter(|_| used.needs_dense()),
            })
        })
    });
    // Hits that pass the source and area filters.
    let filtered = Memo::new(move |_| {
        let source = state.source.get();
        let area = state.area.get();
        let timed = ranking.get()?;
        pools.engine.with(|engine| {
            let engine = engine.as_ref()?;
            let hits = timed
                .ranking
                .hits
                .iter()
                .copied()
                .filter(|h| source.as_deref().is_none_or(|s| engine.source(h.doc) == s))
                .filter(|h| {
                    area.as_deref()
                        .is_none_or(|a| engine.area(h.doc) == Some(a))
                })
                .collect::<Vec<_>>();
            Some(hits)
        })
    });
    let source_counts = Memo::new(move |_| {
        let timed = ranking.get()?;
        pools.engine.with(|e| {
            let e = e.as_ref()?;
            Some(facet_counts(&timed.ranking.hits, |d| Some(e.source(d))))
        })
    });
    let area_counts = Memo::new(move |_| {
        let timed = ranking.get()?;
        pools.engine.with(|e| {
            let e = e.as_ref()?;
            Some(facet_counts(&timed.ranking.hits, |d| e.area(d)))
        })
    });

    // Time to first result, for the end-to-end loading benchmark.
    Effect::new(move |_| {
        if ranking.with(|r| r.as_ref().is_some_and(|t| !t.ranking.hits.is_empty())) {
            crate::timings::mark("results");
        }
    });

    let reading = move || state.article.with(Option::is_some);

    view! {
        <div class="search-view">
            <SearchBox committed=committed ranking=ranking filtered=filtered />
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
                    <ResultsList ranking=ranking filtered=filtered />
                </section>
                <ArticlePane ranking=ranking />
            </div>
        </div>
    }
}

#[component]
fn SearchBox(
    committed: RwSignal<String>,
    ranking: Memo<Option<Timed>>,
    filtered: Memo<Option<Vec<nomos_core::search::Hit>>>,
) -> impl IntoView {
    let state = use_app_state();
    let pools = use_pools();
    let placeholder = move || {
        pools.engine.with(|e| match e {
            Some(e) => format!("Search {} articles in {}", thousands(e.n_docs()), e.name),
            None => "Search".to_owned(),
        })
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
            return format!("“{query}” has no searchable words (only stop words or punctuation)");
        }
        let total = timed.ranking.hits.len();
        let shown = filtered.with(|f| f.as_ref().map_or(0, Vec::len));
        let filter = [state.source.get(), state.area.get()]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>();
        match (total, filter.is_empty()) {
            (0, _) => format!("No article matches “{query}”"),
            (_, true) => format!("{} for “{query}”", plural(total, "result", "results")),
            (_, false) => format!(
                "{} of {} for “{query}” in {}",
                thousands(shown),
                plural(total, "result", "results"),
                filter.join(", ")
            ),
        }
    };
    let timing = move || {
        let timed = ranking.get()?;
        if committed.with(|q| q.trim().is_empty()) {
            return None;
        }
        let ranked = match timed.millis {
            // Browsers coarsen timers to 0.1 ms or more.
            ms if ms < 0.1 => "ranked in < 0.1 ms".to_owned(),
            ms => format!("ranked in {ms:.1} ms"),
        };
        Some(match timed.embed_millis {
            Some(ms) => format!("{}: embedded in {ms:.0} ms, {ranked}", timed.method.name()),
            None => format!("{}: {ranked}", timed.method.name()),
        })
    };
    // Why the chosen dense method is not what ranked (yet).
    let fallback = move || {
        let timed = ranking.get()?;
        let reason = timed.fallback?;
        let chosen = state.method.get();
        Some(format!(
            "BM25 results: {reason}; {} follows when it can run.",
            chosen.name()
        ))
    };
    let on_keydown = move |ev: leptos::ev::KeyboardEvent| match ev.key().as_str() {
        "ArrowDown" => {
            ev.prevent_default();
            focus_id(&super::results::result_id(0));
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
                aria-describedby="search-status"
                aria-keyshortcuts="ArrowDown"
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
        </div>
    }
}

/// Milliseconds from the page's time origin.
fn now() -> f64 {
    window().performance().map_or(0.0, |p| p.now())
}
