//! The Search view of a fragmented pool: the query box, what the query
//! fetched, the first rows and the open article, and "Make available
//! offline" with the pool's total size. Searching and fetching are the
//! fragmented store's ([`FragStore`]); this view only shows them.

use std::time::Duration;

use leptos::prelude::*;

use super::ids::{result_id, ARTICLE_TITLE_ID, SEARCH_BOX_ID};
use super::marked::marked_text;
use super::model_line::ModelLine;
use super::pool_picker::LoadLine;
use super::standing::{division_path, version_line};
use crate::engine::DocLink;
use crate::format::{megabytes, plural, quoted, ranked_cut, thousands};
use crate::frag_store::{FragStore, OfflineStatus, PAGE};
use crate::state::use_app_state;
use crate::url_state::QUERY_MAX;
use crate::web::focus_id;

/// Typing restarts this timer, so a burst of keystrokes fetches once.
const DEBOUNCE: Duration = Duration::from_millis(100);
/// The methods the picker offers: BM25 ranks every fragmented pool, the
/// dense ones and the fusions a pool cut with lists; the others say why
/// not.
const METHODS: [&str; 6] = ["bm25", "dense", "rrf", "weighted", "prf", "react-bm25"];

#[component]
pub fn FragSearchView(store: FragStore) -> impl IntoView {
    let state = use_app_state();
    let timer = StoredValue::new(None::<TimeoutHandle>);
    Effect::new(move |_| {
        let query = state.query.get();
        let method = state.method.get();
        let params = state.params.get();
        if let Some(t) = timer.get_value() {
            t.clear();
        }
        let run = move || store.search(query, method, params);
        timer.set_value(set_timeout_with_handle(run, DEBOUNCE).ok());
    });
    Effect::new(move |_| store.prepare(&state.method.get()));
    // The article opens once the rows that name it are shown (a shared
    // link names the query and the article).
    Effect::new(move |_| {
        let id = state.article.get();
        store.result.track();
        store.open_article(id, state.query.get_untracked());
    });

    let pool = store.pool.get_value();
    let placeholder = format!(
        "Search {} articles in {}",
        thousands(pool.n_docs()),
        pool.name
    );
    let status = move || {
        let r = store.result.get()?;
        let q = r.query.trim().to_owned();
        if q.is_empty() {
            return None;
        }
        Some(match &r.outcome {
            Ok((_, 0)) => format!("No article matches {}", quoted(&q)),
            Ok((_, total)) => format!(
                "{} for {}{}",
                plural(*total, "result", "results"),
                quoted(&q),
                ranked_cut(r.ranking.as_ref().is_some_and(|k| k.cut))
            ),
            Err(_) => format!("The search for {} failed", quoted(&q)),
        })
    };
    let timing = move || {
        let r = store.result.get()?;
        let (n, bytes) = r.fetched;
        let embedded = r
            .embed_millis
            .map(|ms| format!(" (embedding {ms:.0} ms)"))
            .unwrap_or_default();
        Some(format!(
            "{} over fragments: {:.0} ms{embedded}, {} fetched ({:.1} KB)",
            r.method.name(),
            r.millis,
            plural(n, "fragment", "fragments"),
            bytes as f64 / 1024.0
        ))
    };
    let error = move || {
        let r = store.result.get()?;
        let message = r.outcome.err()?;
        Some(view! { <p class="error frag-error" role="alert">{message}</p> })
    };
    let on_method = move |ev: leptos::ev::Event| {
        if let Ok(m) = event_target_value(&ev).parse() {
            state.method.set(m);
        }
    };
    let methods = move || {
        let chosen = state.method.get();
        METHODS
            .iter()
            .map(|&name| {
                view! { <option value=name selected=chosen.name() == name>{name}</option> }
            })
            .collect_view()
    };
    let unavailable = move || pool.unavailable(&state.method.get());

    view! {
        <div class="search-view">
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
                    prop:value=move || state.query.get()
                    on:input=move |ev| state.query.set(event_target_value(&ev))
                    on:keydown=move |ev: leptos::ev::KeyboardEvent| {
                        if ev.key() == "ArrowDown" {
                            ev.prevent_default();
                            focus_id(&result_id(0));
                        }
                    }
                />
                <LoadLine />
                {move || state.method.get().needs_dense().then(|| view! { <ModelLine /> })}
                <p class="status">
                    <span id="search-status" role="status" aria-live="polite">
                        {status}
                    </span>
                    <span class="timing">{timing}</span>
                </p>
                {error}
            </div>
            <div class="workspace" class:reading=move || state.article.with(Option::is_some)>
                <aside class="sidebar" aria-label="Method and offline use">
                    <label for="method">"Method"</label>
                    <select id="method" on:change=on_method>{methods}</select>
                    <p class="fallback-note" role="status">{unavailable}</p>
                    <p class="note">
                        "A fragmented pool: each query fetches only the parts of the index \
                         its words need, and the articles it shows."
                    </p>
                    <OfflinePrefetch store=store />
                </aside>
                <section class="results-pane" aria-label="Results">
                    <FragResults store=store />
                </section>
                <FragArticle store=store />
            </div>
        </div>
    }
}

#[component]
fn FragResults(store: FragStore) -> impl IntoView {
    let state = use_app_state();
    let rows = move || {
        store
            .result
            .with(|r| r.as_ref().and_then(|r| r.outcome.as_ref().ok().cloned()))
    };
    let list = move || {
        let (rows, _) = rows().unwrap_or_default();
        rows.into_iter()
            .enumerate()
            .map(|(i, row)| {
                let id = row.id.clone();
                let doc_id = (row.id != row.title).then(|| row.id.clone());
                let current = {
                    let id = row.id.clone();
                    move || (state.article.with(|a| a.as_ref() == Some(&id))).then_some("true")
                };
                view! {
                    <li class="result-item">
                        <button
                            type="button"
                            class="result"
                            id=result_id(i)
                            data-doc=row.id.clone()
                            aria-current=current
                            on:click=move |_| {
                                state.article.set(Some(id.clone()));
                                request_animation_frame(|| focus_id(ARTICLE_TITLE_ID));
                            }
                        >
                            <span class="result-head">
                                <span class="rank">{row.rank}</span>
                                <span class="result-title">{row.title.clone()}</span>
                                <span class="score" title="BM25 score">
                                    {format!("{:.2}", row.score)}
                                </span>
                            </span>
                            <span class="result-meta">
                                <span class="source">{row.source.clone()}</span>
                                {doc_id.map(|d| view! { <span class="doc-id">{d}</span> })}
                            </span>
                            <span class="snippet">
                                {row.cut_start.then_some("… ")}
                                {marked_text(&row.snippet)}
                                {row.cut_end.then_some(" …")}
                            </span>
                        </button>
                    </li>
                }
            })
            .collect_view()
    };
    let more = move || {
        let (rows, total) = rows()?;
        let next = PAGE.min(total - rows.len());
        (next > 0).then(|| {
            view! {
                <div class="more">
                    <span>
                        {format!("Showing {} of {}", rows.len(), thousands(total))}
                    </span>
                    <button type="button" class="button" on:click=move |_| store.show_more()>
                        {format!("Show {next} more")}
                    </button>
                </div>
            }
        })
    };
    view! {
        <ol class="results">{list}</ol>
        {more}
    }
}

#[component]
fn FragArticle(store: FragStore) -> impl IntoView {
    let state = use_app_state();
    let follow = move |id: String| {
        state.article.set(Some(id));
        request_animation_frame(|| focus_id(ARTICLE_TITLE_ID));
    };
    let refs = move |title: &'static str, links: Vec<DocLink>| {
        (!links.is_empty()).then(|| {
            let total = links.len();
            let items = links
                .into_iter()
                .map(|l| {
                    let id = l.id.clone();
                    view! {
                        <li>
                            <button type="button" class="ref" on:click=move |_| follow(id.clone())>
                                <span class="ref-title">{l.title}</span>
                                <span class="doc-id">{l.id}</span>
                            </button>
                        </li>
                    }
                })
                .collect_view();
            view! {
                <section class="refs">
                    <h3>{title} " " <span class="count">{thousands(total)}</span></h3>
                    <ul>{items}</ul>
                </section>
            }
        })
    };
    let body = move || {
        match store.article.get() {
        None => view! {
            <div class="article-empty">
                <p>"Select a result to read the article and follow its cross-references."</p>
            </div>
        }
        .into_any(),
        Some(Err(message)) => view! { <p class="error" role="alert">{message}</p> }.into_any(),
        Some(Ok(a)) => view! {
            <div class="article-bar">
                <p class="article-meta">
                    <span class="source">{a.source.clone()}</span>
                    {(a.id != a.title).then(|| view! { <span class="doc-id">{a.id.clone()}</span> })}
                </p>
                <button type="button" class="button close" on:click=move |_| state.article.set(None)>
                    "Close"
                </button>
            </div>
            {division_path(a.path.clone(), a.lang)}
            <h2 id=ARTICLE_TITLE_ID tabindex="-1">{a.title.clone()}</h2>
            {version_line(a.version_date.clone())}
            <div class="article-text" lang=a.lang>
                {a.paragraphs.iter().map(|p| view! { <p>{marked_text(p)}</p> }).collect_view()}
            </div>
            {refs("Cites", a.cites)}
            {refs("Siblings", a.siblings)}
        }
        .into_any(),
    }
    };
    view! { <section class="article-pane" aria-label="Article">{body}</section> }
}

/// "Make available offline": the total size first, then progress.
#[component]
fn OfflinePrefetch(store: FragStore) -> impl IntoView {
    let pool = store.pool.get_value();
    let total = pool.total_bytes();
    let count = pool.meta().n_fragments();
    move || match store.offline.get() {
        OfflineStatus::Idle => view! {
            <button
                type="button"
                class="button"
                data-testid="make-offline"
                on:click=move |_| store.make_offline()
            >
                {format!(
                    "Make available offline ({}, {})",
                    megabytes(total),
                    plural(count, "file", "files")
                )}
            </button>
        }
        .into_any(),
        OfflineStatus::Fetching { done, total } => {
            let percent = done as f64 * 100.0 / total.max(1) as f64;
            let label = format!(
                "Downloading for offline use: {} of {}",
                megabytes(done),
                megabytes(total)
            );
            view! {
                <div class="loadline" role="status">
                    <div
                        class="progress"
                        role="progressbar"
                        aria-label=label.clone()
                        aria-valuemin="0"
                        aria-valuemax="100"
                        aria-valuenow=format!("{percent:.0}")
                    >
                        <div class="progress-fill" style:width=format!("{percent:.1}%")></div>
                    </div>
                    <span class="loadline-text">{label}</span>
                </div>
            }
            .into_any()
        }
        OfflineStatus::Ready => view! {
            <p class="offline-ready" data-testid="fragments-offline">
                {format!("Available offline ({})", megabytes(total))}
            </p>
        }
        .into_any(),
        OfflineStatus::Failed(e) => view! {
            <p class="error" role="alert">{format!("Not made available offline: {e}")}</p>
        }
        .into_any(),
    }
}
