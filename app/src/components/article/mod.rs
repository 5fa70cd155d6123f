//! The open article: its text with the query's matches marked, and its
//! cross-references — what it cites, what cites it, and its siblings —
//! each of which opens in place. Escape closes it and returns focus to the
//! result it came from; `[` and `]` step through its cross-references.
//! Its official citation can be copied ([`CopyCitation`]); in a
//! fragmented pool its act can be kept offline ([`KeepAct`]). Printed, it
//! shows its citation, source, date and link
//! ([`PrintNote`]), without the page's controls.

pub mod copy_citation;
pub mod editorial;
pub mod explain;
pub mod go_to;
pub mod keep_act;
pub mod marked;
pub mod print_note;
pub mod standing;

use leptos::prelude::*;

use crate::article::go_to::highlighted;
use crate::components::article::copy_citation::CopyCitation;
use crate::components::article::editorial::editorial_label;
use crate::components::article::explain::Explain;
use crate::components::article::keep_act::KeepAct;
use crate::components::article::marked::marked_text;
use crate::components::article::print_note::PrintNote;
use crate::components::article::standing::{division_path, version_line};
use crate::components::ids::{ARTICLE_TITLE_ID, SEARCH_BOX_ID};
use crate::format::thousands;
use crate::pool::engine::DocLink;
use crate::pools::store::use_pools;
use crate::search::shortcuts::{step, Shortcut};
use crate::search::source::SearchSource;
use crate::state::use_app_state;
use crate::web::{dialog_open, focus_id, step_focus, typing_in};

/// Links listed per reference group before "Show all".
const LINKS_SHOWN: usize = 30;

#[component]
pub fn ArticlePane(source: SearchSource) -> impl IntoView {
    let state = use_app_state();
    let pools = use_pools();
    // Articles left by following references, for "Back".
    let trail = RwSignal::new(Vec::<String>::new());
    // Focus moves to the title of each article opened once it is shown (a
    // fragmented pool's after its fetch), unless the reader has moved on
    // meanwhile (to the search box, say).
    let titled = StoredValue::new(None::<String>);
    Effect::new(move |_| {
        let id = source.article().and_then(Result::ok).map(|a| a.id);
        if id.is_some() && id != titled.get_value() && focus_follows_article() {
            request_animation_frame(|| focus_id(ARTICLE_TITLE_ID));
        }
        titled.set_value(id);
    });

    let follow = move |id: String| {
        if let Some(current) = state.article.get_untracked() {
            trail.update(|t| t.push(current));
        }
        state.article.set(Some(id));
        request_animation_frame(|| focus_id(ARTICLE_TITLE_ID));
    };
    let back = move || {
        let previous = trail.try_update(|t| t.pop()).flatten();
        state.article.set(previous);
        request_animation_frame(|| focus_id(ARTICLE_TITLE_ID));
    };
    let close = move || {
        // The list re-renders without the current mark: find it first.
        let back_to = current_result_id();
        trail.set(Vec::new());
        state.article.set(None);
        request_animation_frame(move || focus_id(&back_to));
    };
    // Escape anywhere closes the article, unless a control (the search box,
    // a result, a dialog) already used the key; `[` and `]` move focus
    // through its cross-references, wherever focus was.
    let listener = window_event_listener(leptos::ev::keydown, move |ev| {
        if ev.default_prevented() || dialog_open() || state.article.with(Option::is_none) {
            return;
        }
        let modified = ev.ctrl_key() || ev.alt_key() || ev.meta_key();
        let forward = match Shortcut::of(&ev.key(), modified, typing_in(&ev)) {
            _ if ev.key() == "Escape" => {
                ev.prevent_default();
                return close();
            }
            Some(Shortcut::NextRef) => true,
            Some(Shortcut::PrevRef) => false,
            _ => return,
        };
        ev.prevent_default();
        step_focus(".article-pane .refs button.ref", |at, len| {
            step(at, len, forward)
        });
    });
    on_cleanup(move || listener.remove());

    let body = move || {
        match source.article() {
        None => view! {
            <div class="article-empty">
                <p>"Select a result to read the article and follow its cross-references."</p>
            </div>
        }
        .into_any(),
        Some(Err(e)) => view! { <p class="error" role="alert">{e.to_string()}</p> }.into_any(),
        Some(Ok(a)) => view! {
            <div class="article-bar">
                {move || {
                    (!trail.with(Vec::is_empty))
                        .then(|| {
                            view! {
                                <button type="button" class="button" on:click=move |_| back()>
                                    "← Back"
                                </button>
                            }
                        })
                }}
                <p class="article-meta">
                    <span class="source">{a.source.clone()}</span>
                    {a.area.clone().map(|area| view! { <span class="area">{area}</span> })}
                    {(a.id != a.title).then(|| view! { <span class="doc-id">{a.id.clone()}</span> })}
                </p>
                <button
                    type="button"
                    class="button close"
                    aria-label="Close article"
                    title="Close (Esc)"
                    on:click=move |_| close()
                >
                    "✕"
                </button>
            </div>
            {match source {
                SearchSource::Fragmented(store) => Some(
                    view! { <KeepAct store=store.get_value() source=a.source.clone() /> },
                ),
                SearchSource::Blob(_) => None,
            }}
            {division_path(a.path.clone(), a.lang)}
            <h2 id=ARTICLE_TITLE_ID tabindex="-1">{a.title.clone()}</h2>
            {version_line(a.version_date.clone())}
            {a.editorial_title.then(editorial_label)}
            <CopyCitation citation=a.citation.clone() />
            <div class="article-text" lang=a.lang>
                {
                    let cited = state.cite.get().and_then(|c| {
                        let engine = pools.engine()?;
                        highlighted(&engine, &c, &a.id, &a.paragraphs)
                    });
                    a.paragraphs
                        .iter()
                        .enumerate()
                        .map(|(i, p)| {
                            let is_cited = cited == Some(i);
                            view! {
                                <p class:cited=is_cited title=is_cited.then_some("The paragraph the citation names")>
                                    {marked_text(p)}
                                </p>
                            }
                        })
                        .collect_view()
                }
            </div>
            <PrintNote citation=a.citation.clone() />
            <Explain id=a.id.clone() query=Signal::derive(move || source.query()) source=source />
            <RefGroup title="Cites" hint="articles this one refers to" links=a.cites follow=follow />
            <RefGroup
                title="Cited by"
                hint="articles that refer to this one"
                links=a.cited_by
                follow=follow
            />
            <RefGroup
                title="Siblings"
                hint="other parts of the same provision"
                links=a.siblings
                follow=follow
            />
        }
        .into_any(),
    }
    };

    view! {
        <section class="article-pane" aria-label="Article">
            {body}
        </section>
    }
}

/// One list of cross-references, hidden when empty.
#[component]
fn RefGroup(
    title: &'static str,
    hint: &'static str,
    links: Vec<DocLink>,
    follow: impl Fn(String) + Copy + Send + Sync + 'static,
) -> impl IntoView {
    let expanded = RwSignal::new(false);
    let total = links.len();
    (total > 0).then(move || {
        let items = move || {
            let shown = if expanded.get() { total } else { LINKS_SHOWN };
            links
                .iter()
                .take(shown)
                .map(|l| {
                    let id = l.id.clone();
                    view! {
                        <li>
                            <button
                                type="button"
                                class="ref"
                                aria-keyshortcuts="[ ]"
                                on:click=move |_| follow(id.clone())
                            >
                                <span class="ref-title">{l.title.clone()}</span>
                                <span class="doc-id">{l.id.clone()}</span>
                            </button>
                        </li>
                    }
                })
                .collect_view()
        };
        view! {
            <section class="refs">
                <h3>
                    {title} <span class="count">{thousands(total)}</span>
                    <span class="refs-hint">{hint}</span>
                </h3>
                <ul>{items}</ul>
                {move || {
                    (total > LINKS_SHOWN && !expanded.get())
                        .then(|| {
                            view! {
                                <button type="button" class="button" on:click=move |_| expanded.set(true)>
                                    {format!("Show all {}", thousands(total))}
                                </button>
                            }
                        })
                }}
            </section>
        }
    })
}

/// Whether focus is where opening an article leaves it: on a result, in
/// the article pane, or nowhere (its button replaced).
fn focus_follows_article() -> bool {
    document().active_element().is_none_or(|el| {
        el.matches("body, .results *, .article-pane *")
            .unwrap_or(false)
    })
}

/// The DOM id of the result whose article is open, else the search box's.
fn current_result_id() -> String {
    document()
        .query_selector(".result[aria-current='true']")
        .ok()
        .flatten()
        .map(|el| el.id())
        .filter(|id| !id.is_empty())
        .unwrap_or_else(|| SEARCH_BOX_ID.to_owned())
}
