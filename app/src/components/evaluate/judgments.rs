//! "My judgments": the user's judgments on the pool, by query, editable,
//! exported as TREC qrels plus a BEIR `queries.jsonl` (what `nomos eval
//! --queries --qrels` reads) and imported back from those two files.

use leptos::prelude::*;

use crate::components::ids::MY_JUDGMENTS_ID;
use crate::evaluate::judgment_store::JudgmentStore;
use crate::judgments::{JudgedQuery, Mark};
use crate::pools::store::use_pools;
use crate::state::use_app_state;
use crate::web::{download, show_dialog};

/// The button that opens the dialog, and the dialog, for the session's pool.
#[component]
pub fn MyJudgments() -> impl IntoView {
    let pools = use_pools();
    let state = use_app_state();
    move || {
        let session = pools.session.get()?;
        let store = session.judgments;
        let stem = session
            .engine
            .name
            .trim_end_matches(".blob")
            .replace(|c: char| !c.is_alphanumeric() && c != '-', "_");
        let count = move || store.judgments.with(|j| j.queries().len());
        Some(view! {
            <div class="my-judgments-bar">
                <button
                    type="button"
                    class="button judging-toggle"
                    aria-pressed=move || state.judging().to_string()
                    title="Show Relevant / Not relevant / Clear on each result (keys R, N, X), to build your own test collection"
                    on:click=move |_| state.judging.update(|on| *on = !*on)
                >
                    "Judge results"
                </button>
                <button type="button" class="button" on:click=move |_| show_dialog(MY_JUDGMENTS_ID)>
                    {move || format!("My judgments ({})", count())}
                </button>
                {move || store.message.get().map(|m| view! { <span class="error" role="alert">{m}</span> })}
            </div>
            <JudgmentsDialog store=store stem=stem />
        })
    }
}

#[component]
fn JudgmentsDialog(store: JudgmentStore, stem: String) -> impl IntoView {
    let export = move |qrels: bool| {
        let result = store.judgments.with_untracked(|j| match qrels {
            true => download(
                &format!("{stem}.my-qrels.txt"),
                "text/plain",
                &j.to_trec_qrels(),
            ),
            false => download(
                &format!("{stem}.my-queries.jsonl"),
                "application/jsonl",
                &j.to_queries_jsonl(),
            ),
        });
        if let Err(e) = result {
            store.message.set(Some(e.to_string()));
        }
    };
    let export_q = export.clone();
    let on_import = move |ev: leptos::ev::Event| {
        let input: web_sys::HtmlInputElement = event_target(&ev);
        let files = input.files().map_or_else(Vec::new, |list| {
            (0..list.length()).filter_map(|i| list.get(i)).collect()
        });
        store.import_files(files);
        input.set_value("");
    };
    let summary = move || {
        store.judgments.with(|j| match j.is_empty() {
            true => "None yet: mark search results relevant or not relevant.".to_owned(),
            false => format!(
                "{} judgments over {} queries.",
                j.n_marks(),
                j.queries().len()
            ),
        })
    };
    let empty = move || store.judgments.with(|j| j.is_empty());
    view! {
        <dialog id=MY_JUDGMENTS_ID class="my-judgments" aria-labelledby="my-judgments-title">
            <div class="dialog-head">
                <h2 id="my-judgments-title">"My judgments"</h2>
                <form method="dialog">
                    <button type="submit" class="button close" aria-label="Close">"✕"</button>
                </form>
            </div>
            <p class="muted">
                "Kept in this browser for this pool. Evaluate can use them as the benchmark; \
                 the export is what nomos eval --queries --qrels reads."
            </p>
            <p class="judgments-summary" role="status">{summary}</p>
            {move || store.message.get().map(|m| view! { <p class="error" role="alert">{m}</p> })}
            <div class="exports" role="group" aria-label="Export or import your judgments">
                <button type="button" class="button" disabled=empty on:click=move |_| export(true)>
                    "Qrels (TREC)"
                </button>
                <button type="button" class="button" disabled=empty on:click=move |_| export_q(false)>
                    "Queries (JSONL)"
                </button>
                <label class="button file-button">
                    "Import…"
                    <input
                        type="file"
                        multiple
                        accept=".txt,.tsv,.qrels,.jsonl,text/plain"
                        data-testid="judgments-import"
                        aria-label="Import an export: pick its qrels and queries.jsonl together (replaces your judgments)"
                        on:change=on_import
                    />
                </label>
                <button
                    type="button"
                    class="button"
                    disabled=empty
                    on:click=move |_| store.replace(Default::default())
                >
                    "Forget all"
                </button>
            </div>
            <div class="judged-queries">
                {move || {
                    store
                        .judgments
                        .get()
                        .queries()
                        .iter()
                        .map(|q| query_view(store, q))
                        .collect_view()
                }}
            </div>
        </dialog>
    }
}

/// One query with its judged documents, each changeable or removable.
fn query_view(store: JudgmentStore, q: &JudgedQuery) -> impl IntoView {
    let (id, text) = (q.id.clone(), q.text.clone());
    let rows = q
        .docs
        .iter()
        .map(|(doc, &mark)| {
            let (doc, text_c, text_r) = (doc.clone(), text.clone(), text.clone());
            let doc_r = doc.clone();
            let doc_c = doc.clone();
            view! {
                <li class="judged-doc">
                    <span class="doc-id">{doc.clone()}</span>
                    <select
                        aria-label=format!("Judgment of {doc}")
                        on:change=move |ev| {
                            let mark = match event_target_value(&ev).as_str() {
                                "1" => Mark::Relevant,
                                _ => Mark::NotRelevant,
                            };
                            store.set(&text_c, &doc_c, Some(mark));
                        }
                    >
                        <option value="1" selected=mark == Mark::Relevant>"relevant"</option>
                        <option value="0" selected=mark == Mark::NotRelevant>"not relevant"</option>
                    </select>
                    <button
                        type="button"
                        class="button"
                        aria-label=format!("Remove the judgment of {doc}")
                        on:click=move |_| store.set(&text_r, &doc_r, None)
                    >
                        "Remove"
                    </button>
                </li>
            }
        })
        .collect_view();
    let remove = id.clone();
    view! {
        <section class="judged-query">
            <h3>
                <span class="query-id">{id.clone()}</span>
                " "
                <span class="query-text">{text.clone()}</span>
            </h3>
            <ul>{rows}</ul>
            <button
                type="button"
                class="button"
                aria-label=format!("Remove query {id} and its judgments")
                on:click=move |_| store.remove_query(&remove)
            >
                "Remove query"
            </button>
        </section>
    }
}
