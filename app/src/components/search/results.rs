//! The ranked result list: rank, title, source, score and a snippet with
//! the query's matches marked (from the closest passage, for dense methods
//! over articles embedded in several windows). Arrow keys move between results, Enter
//! opens one, Escape returns to the search box. In judging mode (see
//! `AppState::judging`) each result carries Relevant / Not relevant /
//! Clear, and R, N and X mark the focused result (the user's own
//! judgments, see [`crate::judgments`]).

use leptos::prelude::*;
use nomos_core::methods::Method;

use crate::components::article::editorial::editorial_label;
use crate::components::article::marked::marked_text;
use crate::components::evaluate::judgments::MyJudgments;
use crate::components::ids::{result_id, ARTICLE_TITLE_ID, SEARCH_BOX_ID};
use crate::format::thousands;
use crate::judgments::Mark;
use crate::pools::store::use_pools;
use crate::search::source::SearchSource;
use crate::state::use_app_state;
use crate::web::{focus_anchor, focus_id, restore_focus};

/// The attribute naming the document a result is for.
const DOC_ATTR: &str = "data-doc";

#[component]
pub fn ResultsList(source: SearchSource) -> impl IntoView {
    let state = use_app_state();
    let pools = use_pools();
    // The user's judgments, where the pool keeps them.
    let judgments = move || pools.session.with(|s| s.as_ref().map(|s| s.judgments));
    let judge = move |doc: &str, mark: Option<Mark>| {
        if let Some(store) = judgments() {
            store.set(&source.query(), doc, mark);
        }
    };
    let mark_of = move |doc: &str| {
        let store = judgments()?;
        let query = source.query();
        store.judgments.with(|j| j.mark(&query, doc))
    };
    // BM25's results while the chosen method's are on their way.
    let pending = move || source.pending().then_some("true");

    let open = move |id: String| {
        state.article.set(Some(id));
        request_animation_frame(|| focus_id(ARTICLE_TITLE_ID));
    };
    let on_keydown = move |i: usize, doc: &str, ev: leptos::ev::KeyboardEvent| {
        if ev.ctrl_key() || ev.meta_key() || ev.alt_key() {
            return;
        }
        let mark = match ev.key().as_str() {
            "r" | "R" => Some(Some(Mark::Relevant)),
            "n" | "N" => Some(Some(Mark::NotRelevant)),
            "x" | "X" => Some(None),
            _ => None,
        };
        if let Some(mark) = mark.filter(|_| state.judging_untracked()) {
            ev.prevent_default();
            return judge(doc, mark);
        }
        let target = match ev.key().as_str() {
            "ArrowDown" => result_id(i + 1),
            "ArrowUp" if i == 0 => SEARCH_BOX_ID.to_owned(),
            "ArrowUp" => result_id(i - 1),
            "Escape" => SEARCH_BOX_ID.to_owned(),
            _ => return,
        };
        ev.prevent_default();
        focus_id(&target);
    };

    let list = move || {
        let rows = source.rows().unwrap_or_default();
        // A result the user is on stays focused, and in place, when the
        // list changes under it (semantic results replacing BM25's).
        if let Some(anchor) = focus_anchor(DOC_ATTR) {
            request_animation_frame(move || restore_focus(DOC_ATTR, &anchor));
        }
        let (kind, decimals) = source.method().map_or(("BM25 score", 2), score_kind);
        let judged = judgments().is_some();
        rows.into_iter()
            .enumerate()
            .map(|(i, row)| {
                let id = row.id.clone();
                let current = {
                    let id = row.id.clone();
                    move || (state.article.with(|a| a.as_ref() == Some(&id))).then_some("true")
                };
                let doc_id = (row.id != row.title).then(|| row.id.clone());
                let key_doc = row.id.clone();
                view! {
                    <li class="result-item">
                        <button
                            type="button"
                            class="result"
                            id=result_id(i)
                            data-doc=row.id.clone()
                            aria-current=current
                            on:click=move |_| open(id.clone())
                            aria-keyshortcuts="R N X"
                            on:keydown=move |ev| on_keydown(i, &key_doc, ev)
                        >
                            <span class="result-head">
                                <span class="rank">{row.rank}</span>
                                <span class="result-title">{row.title.clone()}</span>
                                {row.editorial_title.then(editorial_label)}
                                <span class="score" title=kind>
                                    {format!("{:.*}", decimals, row.score)}
                                </span>
                            </span>
                            <span class="result-meta">
                                <span class="source">{row.source.clone()}</span>
                                {doc_id.map(|d| view! { <span class="doc-id">{d}</span> })}
                                {row.passage.map(|(n, of)| view! {
                                    <span
                                        class="passage"
                                        title="The snippet is from the part of the article whose vector is closest to the query"
                                    >
                                        {format!("closest passage: {n} of {of}")}
                                    </span>
                                })}
                            </span>
                            <span class="snippet">
                                {row.cut_start.then_some("… ")}
                                {marked_text(&row.snippet)}
                                {row.cut_end.then_some(" …")}
                            </span>
                        </button>
                        {judged.then(|| judge_buttons(row.id.clone(), row.title.clone(), mark_of, judge))}
                    </li>
                }
            })
            .collect_view()
    };
    let more = move || {
        let total = source.total();
        let shown = source.rows().map_or(0, |r| r.len()).min(total);
        (shown < total).then(|| {
            view! {
                <div class="more">
                    <span>{format!("Showing {} of {}", thousands(shown), thousands(total))}</span>
                    <button type="button" class="button" on:click=move |_| source.show_more()>
                        {format!("Show {} more", source.page().min(total - shown))}
                    </button>
                </div>
            }
        })
    };

    view! {
        <MyJudgments />
        // Out of judging mode the buttons are hidden, not removed: the
        // rows stay as they are when the mode changes.
        <ol class="results" class:judging=move || state.judging() aria-busy=pending>{list}</ol>
        {more}
        <Hint source=source />
    }
}

/// Relevant / Not relevant / Clear for one result, the current mark
/// pressed.
fn judge_buttons(
    doc: String,
    title: String,
    mark_of: impl Fn(&str) -> Option<Mark> + Copy + Send + Sync + 'static,
    judge: impl Fn(&str, Option<Mark>) + Copy + Send + Sync + 'static,
) -> impl IntoView {
    let button = move |mark: Option<Mark>, text: &'static str, class: &'static str| {
        let doc = doc.clone();
        let pressed = {
            let doc = doc.clone();
            move || {
                let now = mark_of(&doc);
                match mark {
                    Some(_) => (now == mark).to_string(),
                    None => "false".to_owned(),
                }
            }
        };
        let disabled = {
            let doc = doc.clone();
            move || mark.is_none() && mark_of(&doc).is_none()
        };
        let label = match mark {
            Some(m) => format!("Mark {title} {}", m.label()),
            None => format!("Clear the mark of {title}"),
        };
        view! {
            <button
                type="button"
                class=format!("judge-button {class}")
                aria-pressed=move || mark.is_some().then(pressed.clone())
                aria-label=label
                disabled=disabled
                on:click=move |_| judge(&doc, mark)
            >
                {text}
            </button>
        }
    };
    view! {
        <div class="judge" role="group" aria-label="Your judgment">
            {button(Some(Mark::Relevant), "✓ Relevant", "judge-relevant")}
            {button(Some(Mark::NotRelevant), "✗ Not relevant", "judge-not")}
            {button(None, "Clear", "judge-clear")}
        </div>
    }
}

/// What to do when there is nothing to list.
#[component]
fn Hint(source: SearchSource) -> impl IntoView {
    let state = use_app_state();
    let pools = use_pools();
    move || {
        let loaded = pools.session.with(Option::is_some) || pools.fragmented.with(Option::is_some);
        let empty_query = state.query.with(|q| q.trim().is_empty());
        let no_hits = source.total() == 0;
        (loaded && empty_query && no_hits).then(|| {
            view! {
                <div class="hint">
                    <p>"Type words from the statute you are looking for. Inflected forms match: the same analyzer that built the index reads your query."</p>
                    <p class="keys">
                        <kbd>"↓"</kbd>" moves to the results, "<kbd>"Enter"</kbd>" opens one, "
                        <kbd>"Esc"</kbd>" goes back; on a result, "<kbd>"R"</kbd>" marks it relevant, "
                        <kbd>"N"</kbd>" not relevant, "<kbd>"X"</kbd>" clears the mark; "
                        <kbd>"?"</kbd>" lists every key."
                    </p>
                </div>
            }
        })
    }
}

/// What a method's scores are, and the decimals that tell them apart
/// (RRF sums of 1/(60 + rank) differ in the third or fourth).
fn score_kind(method: Method) -> (&'static str, usize) {
    match method {
        Method::Bm25 | Method::Prf { .. } | Method::ReformSparse => ("BM25 score", 2),
        Method::Dense { .. }
        | Method::DenseBinary { .. }
        | Method::Rocchio { .. }
        | Method::ReformDense => ("cosine", 3),
        Method::Mix { .. } => ("cosine with the mixed vector", 3),
        Method::Rrf { .. } | Method::ReformHybrid { .. } | Method::CtxRrf { .. } => {
            ("reciprocal rank fusion score", 4)
        }
        Method::ReactBm25 { .. } => ("ReAct rank score (100 − rank)", 0),
        Method::Weighted { .. } => ("fused normalised score", 3),
        Method::Prop { .. } => ("BM25 score with its neighbours' share", 2),
    }
}
