//! One query opened from the per-query table: its text, its values, and
//! its ranking as evaluated (trec_eval's order: score, then document id
//! descending) with the gold articles marked, plus the gold articles the
//! ranking missed. Any article opens in place with the query's matches
//! marked, or in the Search view. For an LLM method, what the model did
//! for the query (or why it got no replies).

use std::sync::Arc;

use leptos::prelude::*;
use nomos_core::eval::trec_eval_order;
use nomos_core::pool::{BenchQuery, Benchmark};
use nomos_core::search::highlight::QueryTerms;

use super::{compared, current, use_eval_store};
use crate::components::article::marked::marked_text;
use crate::components::ids::{query_link_id, DETAIL_TITLE_ID};
use crate::components::llm::llm_trace::{cost_line, LlmTrace};
use crate::evaluate::job::{Outcome, DEPTH};
use crate::evaluate::measures::{fmt_value, label, per_query_columns};
use crate::format::thousands;
use crate::pool::engine::Engine;
use crate::pools::store::use_pools;
use crate::state::{use_app_state, View};
use crate::web::focus_id;

/// Ranks listed before "Show all".
const SHOWN: usize = 20;
const ARTICLE_TITLE_ID: &str = "eval-article-title";

/// A ranked document as the view lists it.
struct Ranked {
    rank: usize,
    doc: u32,
    score: f64,
    grade: Option<i32>,
}

#[component]
pub fn QueryDetail() -> impl IntoView {
    let state = use_app_state();
    let store = use_eval_store();
    let article = RwSignal::new(None::<String>);
    let expanded = RwSignal::new(false);
    Effect::new(move |_| {
        state.eval_query.track();
        article.set(None);
        expanded.set(false);
    });

    // Escape steps back: from an article to the ranking, from the ranking
    // to the table.
    let on_keydown = move |ev: leptos::ev::KeyboardEvent| {
        if ev.key() != "Escape" {
            return;
        }
        ev.prevent_default();
        if article.get_untracked().is_some() {
            article.set(None);
            request_animation_frame(|| focus_id(DETAIL_TITLE_ID));
        } else if let Some(id) = state.eval_query.get_untracked() {
            state.eval_query.set(None);
            request_animation_frame(move || focus_id(&query_link_id(&id)));
        }
    };

    move || {
        let id = state.eval_query.get()?;
        let (bench, a) = current(store)?;
        let b = compared(store, &a);
        let position = bench.position(&id)?;
        let summary = query_summary(&bench, position, &a, b.as_deref());
        Some(view! {
            <aside class="query-detail" aria-labelledby=DETAIL_TITLE_ID on:keydown=on_keydown>
                <div class="detail-bar">
                    <h4 id=DETAIL_TITLE_ID tabindex="-1">{format!("Query {id}")}</h4>
                    <button
                        type="button"
                        class="button close"
                        aria-label="Close query"
                        title="Close (Esc)"
                        on:click=move |_| state.eval_query.set(None)
                    >
                        "✕"
                    </button>
                </div>
                {summary}
                {move || match article.get() {
                    Some(doc_id) => article_reader(bench.clone(), position, doc_id, article).into_any(),
                    None => ranking(bench.clone(), a.clone(), position, article, expanded).into_any(),
                }}
            </aside>
        })
    }
}

/// The query text, its gold count and its values.
fn query_summary(
    bench: &Benchmark,
    position: usize,
    a: &Outcome,
    b: Option<&Outcome>,
) -> impl IntoView {
    let pools = use_pools();
    let q = &bench.queries[position];
    let lang = pools.engine_untracked().map_or("", |e| e.lang());
    let row = a.rows.iter().position(|&r| r == position);
    let values = row.map(|row| {
        let columns = per_query_columns(bench.one_gold);
        view! {
            <table class="metric-table compact">
                <caption class="visually-hidden">"This query's values"</caption>
                <thead>
                    <tr>
                        <th scope="col">"Method"</th>
                        {columns.iter().map(|c| view! { <th scope="col">{label(c)}</th> }).collect_view()}
                    </tr>
                </thead>
                <tbody>
                    {[Some(("A", a)), b.map(|b| ("B", b))]
                        .into_iter()
                        .flatten()
                        .map(|(name, o)| {
                            view! {
                                <tr>
                                    <th scope="row">{if b.is_some() { name } else { "Value" }}</th>
                                    {columns
                                        .iter()
                                        .map(|c| {
                                            let v = o.column(c).map(|c| o.value(row, c)).unwrap_or_default();
                                            view! { <td>{fmt_value(v)}</td> }
                                        })
                                        .collect_view()}
                                </tr>
                            }
                        })
                        .collect_view()}
                </tbody>
            </table>
        }
    });
    let traces = [Some(("A", a)), b.map(|b| ("B", b))]
        .into_iter()
        .flatten()
        .filter_map(|(name, o)| {
            let trace = o.llm.as_ref()?.traces.get(position)?.clone();
            let engine = pools.engine_untracked()?;
            let title = format!(
                "What the LLM did ({name}: {})",
                o.config.method()?.method.name()
            );
            Some(match trace {
                Ok(trace) => view! {
                    <details class="llm-what">
                        <summary>{title}</summary>
                        <p class="muted">{cost_line(&trace.cost())}</p>
                        <LlmTrace trace=trace engine=engine />
                    </details>
                }
                .into_any(),
                Err(why) => view! { <p class="error">{format!("{title}: no replies — {why}")}</p> }
                    .into_any(),
            })
        })
        .collect_view();
    view! {
        <p class="query-full" lang=lang>{q.text.clone()}</p>
        <p class="detail-meta">
            <span>{format!("{} gold", thousands(q.n_gold()))}</span>
            <span>{q.groups.join(" · ")}</span>
        </p>
        {values}
        {traces}
    }
}

/// The ranking with gold marked, and the gold it missed.
fn ranking(
    bench: Arc<Benchmark>,
    a: Arc<Outcome>,
    position: usize,
    article: RwSignal<Option<String>>,
    expanded: RwSignal<bool>,
) -> impl IntoView {
    let pools = use_pools();
    let q = &bench.queries[position];
    let ranked = evaluated_order(&bench, q, a.hits.get(position).map_or(&[], Vec::as_slice));
    let missed: Vec<u32> = q
        .gold()
        .filter(|g| !ranked.iter().any(|r| r.doc == *g))
        .collect();
    let open = move |doc_id: String| {
        article.set(Some(doc_id));
        request_animation_frame(|| focus_id(ARTICLE_TITLE_ID));
    };
    let item = move |e: &Engine, r: &Ranked| {
        let doc_id = e
            .blob()
            .doc_id(r.doc as usize)
            .unwrap_or_default()
            .to_owned();
        let title = e
            .blob()
            .title(r.doc as usize)
            .unwrap_or_default()
            .to_owned();
        let gold = r.grade.filter(|&g| g >= 1);
        let shown_id = (doc_id != title).then(|| doc_id.clone());
        let id = doc_id.clone();
        view! {
            <li class:gold=gold.is_some() class:filler=r.score == 0.0>
                <button type="button" class="ranked" on:click=move |_| open(id.clone())>
                    <span class="rank">{r.rank}</span>
                    <span class="ranked-title">{title}</span>
                    {gold.map(|g| view! { <span class="badge">{if g > 1 { format!("gold {g}") } else { "gold".to_owned() }}</span> })}
                    <span class="score">{format!("{:.2}", r.score)}</span>
                    <span class="doc-id">{shown_id}</span>
                </button>
            </li>
        }
    };
    let total = ranked.len();
    let list = move || {
        let shown = if expanded.get() {
            total
        } else {
            SHOWN.min(total)
        };
        pools
            .engine_untracked()
            .map(|e| ranked[..shown].iter().map(|r| item(&e, r)).collect_view())
    };
    let missed_list = pools.engine_untracked().and_then(|e| {
        (!missed.is_empty()).then(|| {
            view! {
                <h5>{format!("Gold not in the top {DEPTH}")}</h5>
                <ul class="missed">
                    {missed
                        .iter()
                        .map(|&doc| {
                            let id = e.blob().doc_id(doc as usize).unwrap_or_default().to_owned();
                            let title = e.blob().title(doc as usize).unwrap_or_default().to_owned();
                            let open_id = id.clone();
                            view! {
                                <li>
                                    <button type="button" class="ref" on:click=move |_| open(open_id.clone())>
                                        <span class="ref-title">{title}</span>
                                        <span class="badge">"gold"</span>
                                    </button>
                                </li>
                            }
                        })
                        .collect_view()}
                </ul>
            }
        })
    });
    view! {
        <h5>
            {format!("Ranking as evaluated (top {})", thousands(total))}
            <span class="refs-hint">"score order, ties by document id as trec_eval; "<span class="badge">"gold"</span>" marks a relevant article"</span>
        </h5>
        <ol class="eval-ranking">{list}</ol>
        {(total > SHOWN)
            .then(|| {
                view! {
                    <button
                        type="button"
                        class="button"
                        aria-expanded=move || expanded.get().to_string()
                        on:click=move |_| expanded.update(|x| *x = !*x)
                    >
                        {move || if expanded.get() { format!("Show the first {SHOWN}") } else { format!("Show all {total}") }}
                    </button>
                }
            })}
        {missed_list}
    }
}

/// `hits` in the order trec_eval ranks them, with their grades.
fn evaluated_order(
    bench: &Benchmark,
    q: &BenchQuery,
    hits: &[nomos_core::hits::Hit],
) -> Vec<Ranked> {
    let pairs: Vec<(String, f64)> = hits
        .iter()
        .map(|h| (bench.doc_ids[h.doc as usize].clone(), h.score))
        .collect();
    let doc_of = |id: &str| {
        hits.iter()
            .find(|h| bench.doc_ids[h.doc as usize] == id)
            .map(|h| h.doc)
    };
    trec_eval_order(&pairs)
        .into_iter()
        .enumerate()
        .filter_map(|(i, (id, score))| {
            let doc = doc_of(id)?;
            Some(Ranked {
                rank: i + 1,
                doc,
                score: *score,
                grade: q.grade(doc),
            })
        })
        .collect()
}

/// An article with the query's matches marked; Back returns to the
/// ranking, "Open in Search" continues there.
fn article_reader(
    bench: Arc<Benchmark>,
    position: usize,
    doc_id: String,
    article: RwSignal<Option<String>>,
) -> impl IntoView {
    let state = use_app_state();
    let pools = use_pools();
    let text = bench.queries[position].text.clone();
    // A light blob's text part for the article, fetched if needed.
    if let Some(session) = pools.session.get_untracked() {
        if let Some(doc) = session.engine.blob().doc_index(&doc_id) {
            session.fetch_text(Some(&[doc as usize]));
        }
    }
    let shown = {
        let (doc_id, text) = (doc_id.clone(), text.clone());
        move || {
            let session = pools.session.get()?;
            session.siblings.text.track();
            let e = &session.engine;
            let q = &bench.queries[position];
            let terms = QueryTerms::new(&e.pool().analyzer(), &text);
            let grade = e.blob().doc_index(&doc_id).and_then(|d| q.grade(d));
            Some((e.article(&doc_id, &terms), grade))
        }
    };
    let back = move |_| {
        article.set(None);
        request_animation_frame(|| focus_id(DETAIL_TITLE_ID));
    };
    let in_search = {
        let doc_id = doc_id.clone();
        move |_| {
            state.query.set(text.clone());
            state.article.set(Some(doc_id.clone()));
            state.view.set(View::Search);
        }
    };
    let body = move || match shown() {
        None => ().into_any(),
        Some((Err(e), _)) => view! { <p class="error" role="alert">{e.to_string()}</p> }.into_any(),
        Some((Ok(a), grade)) => view! {
            <p class="article-meta">
                <span class="source">{a.source.clone()}</span>
                {grade.filter(|&g| g >= 1).map(|_| view! { <span class="badge">"gold"</span> })}
                {(a.id != a.title).then(|| view! { <span class="doc-id">{a.id.clone()}</span> })}
            </p>
            <h5 id=ARTICLE_TITLE_ID class="eval-article-title" tabindex="-1">{a.title.clone()}</h5>
            <div class="article-text" lang=a.lang>
                {a.paragraphs.iter().map(|p| view! { <p>{marked_text(p)}</p> }).collect_view()}
            </div>
        }
        .into_any(),
    };
    view! {
        <div class="detail-article">
            <div class="article-actions">
                <button type="button" class="button" on:click=back>"← Ranking"</button>
                <button type="button" class="button" on:click=in_search>"Open in Search"</button>
            </div>
            {body}
        </div>
    }
}
