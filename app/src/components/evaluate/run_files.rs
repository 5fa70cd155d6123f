//! Run files made elsewhere, as A or B: open one (or drop it on the
//! view), see what it holds against the benchmark or why it was refused,
//! and the ones kept for this pool. A link naming a run by hash shows it
//! from the store, or says that this browser does not have it.

use leptos::prelude::*;
use web_sys::HtmlInputElement;

use super::use_eval_store;
use crate::eval_config::{RunLink, Slot};
use crate::evaluate::imported::{RunImportError, Summary, Unknown};
use crate::evaluate::store::EvalStore;
use crate::format::{plural, thousands, utc_minute};
use crate::size_caps::RUN_FILE;
use crate::state::{use_app_state, AppState};
use crate::transcript_files::short_hash;
use crate::url_sync::use_link_sync;
use crate::web::{read_file, Limit};

/// Reads `file` and shows it as the store's chosen slot. When the link
/// names a run this browser lacks for that slot, the file must have its
/// hash.
pub fn open_file(store: EvalStore, state: AppState, file: web_sys::File) {
    if store.job.with_untracked(Option::is_some) {
        store.run_report.set(Some(Err(RunImportError::Busy)));
        return;
    }
    store.spawn(async move {
        let name = file.name();
        let bytes = match read_file(&file, Limit::Cap(RUN_FILE)).await {
            Ok(bytes) => bytes,
            Err(e) => {
                let error = e.to_string();
                let unreadable = RunImportError::Unreadable { name, error };
                store.run_report.set(Some(Err(unreadable)));
                return;
            }
        };
        let slot = store.run_slot.get_untracked();
        let wanted = state
            .run
            .get_untracked()
            .filter(|l| l.slot == slot && !shows(store, l));
        show(store, state, slot, &name, &bytes, wanted.map(|l| l.sha256));
    });
}

/// Checks and shows a run file as `slot`, and names it in the state.
fn show(
    store: EvalStore,
    state: AppState,
    slot: Slot,
    name: &str,
    bytes: &[u8],
    expected: Option<String>,
) {
    if let Some(file) = store.open_run(slot, name, bytes, expected.as_deref()) {
        if slot == Slot::Compared {
            state.compare.set(None);
        }
        state.run.set(Some(RunLink {
            slot,
            sha256: file.sha256,
        }));
    }
}

/// Whether `link`'s run is what its slot shows.
fn shows(store: EvalStore, link: &RunLink) -> bool {
    store.outcome(link.slot).with_untracked(|o| {
        o.as_ref()
            .and_then(|o| o.config.run_file())
            .is_some_and(|f| f.sha256 == link.sha256)
    })
}

fn slot_name(slot: Slot) -> &'static str {
    match slot {
        Slot::Current => "A",
        Slot::Compared => "B",
    }
}

#[component]
pub fn RunFilesCard() -> impl IntoView {
    let state = use_app_state();
    let store = use_eval_store();
    let notice = use_link_sync().notice;
    let busy = move || store.job.with(Option::is_some);
    // The run a link names, missing here (once the kept list is read).
    let missing = RwSignal::new(None::<RunLink>);
    Effect::new(move |_| {
        let Some(link) = state.run.get() else {
            missing.set(None);
            return;
        };
        if !store.runs.ready.get() || shows(store, &link) {
            return;
        }
        store.spawn(async move {
            if store.restore_run(link.slot, &link.sha256).await {
                missing.set(None);
                return;
            }
            store.run_slot.set(link.slot);
            notice.set(Some(format!(
                "This link compares with an imported run you do not have ({}, SHA-256 {}…): \
                 open it (Evaluate → Run files) to continue.",
                slot_name(link.slot),
                short_hash(&link.sha256)
            )));
            missing.set(Some(link));
        });
    });
    let on_file = move |ev: leptos::ev::Event| {
        let input: HtmlInputElement = event_target(&ev);
        if let Some(file) = input.files().and_then(|f| f.get(0)) {
            open_file(store, state, file);
        }
        input.set_value("");
    };
    let slot_choice = move |slot: Slot, id: &'static str| {
        view! {
            <input
                type="radio"
                id=id
                name="run-slot"
                prop:checked=move || store.run_slot.get() == slot
                on:change=move |_| store.run_slot.set(slot)
            />
            <label for=id>{slot_name(slot)}</label>
        }
    };
    let kept = move || {
        let list = store.runs.list.get();
        if list.is_empty() {
            return view! { <p class="muted">"None kept for this pool yet."</p> }.into_any();
        }
        view! {
            <ul class="run-files" data-testid="run-files">
                {list
                    .into_iter()
                    .map(|m| {
                        let sha = m.sha256.clone();
                        let use_sha = m.sha256.clone();
                        view! {
                            <li>
                                <span class="run-name">{m.name.clone()}</span>
                                <span class="muted">
                                    {format!(
                                        "{} · {} · SHA-256 {}…",
                                        utc_minute(m.added),
                                        plural(m.lines, "line", "lines"),
                                        short_hash(&m.sha256)
                                    )}
                                </span>
                                <button
                                    type="button"
                                    class="button"
                                    prop:disabled=busy
                                    on:click=move |_| {
                                        let slot = store.run_slot.get_untracked();
                                        let sha = use_sha.clone();
                                        store.spawn(async move {
                                            if let Some((name, text)) = store.runs.get(&sha).await {
                                                show(store, state, slot, &name, text.as_bytes(), Some(sha));
                                            }
                                        });
                                    }
                                >
                                    {move || format!("Show as {}", slot_name(store.run_slot.get()))}
                                </button>
                                <button
                                    type="button"
                                    class="button"
                                    on:click=move |_| store.runs.forget(sha.clone())
                                >
                                    "Remove"
                                </button>
                            </li>
                        }
                    })
                    .collect_view()}
            </ul>
        }
        .into_any()
    };
    view! {
        <section class="card run-files-card" aria-labelledby="run-files-title">
            <h3 id="run-files-title">"Run files"</h3>
            <p class="muted">
                "A TREC run made elsewhere (qid Q0 docid rank score tag), evaluated as A or B "
                "beside any method. Benchmark queries it does not rank score 0, as trec_eval -c "
                "counts them (nomos trec-eval and pytrec_eval skip them). Drop a file on this view, or:"
            </p>
            <div class="run-open">
                <span>"Open as"</span>
                {slot_choice(Slot::Current, "run-slot-a")}
                {slot_choice(Slot::Compared, "run-slot-b")}
                <label class="button file-button">
                    "Open a run file…"
                    <input
                        type="file"
                        data-testid="run-file-input"
                        accept=".trec,.run,.txt,text/plain"
                        prop:disabled=busy
                        on:change=on_file
                    />
                </label>
            </div>
            {move || {
                missing.get().map(|l| view! {
                    <p class="note" role="status">
                        {format!(
                            "This link shows a run file as {} that this browser does not have \
                             (SHA-256 {}). Open it to continue; it is checked against that hash.",
                            slot_name(l.slot),
                            l.sha256
                        )}
                    </p>
                })
            }}
            {move || {
                store.run_report.get().map(|r| match r {
                    Ok(s) => report(&s, state).into_any(),
                    Err(e) => view! {
                        <p class="error" role="alert" data-testid="run-error">{e.to_string()}</p>
                    }.into_any(),
                })
            }}
            {move || {
                store.runs.memory_only.get().map(|why| view! {
                    <p class="note">
                        {format!("Run files are kept in memory for this visit only ({why}).")}
                    </p>
                })
            }}
            <h4>"Kept for this pool"</h4>
            {kept}
        </section>
    }
}

/// What an opened run file holds, measured against the benchmark.
fn report(s: &Summary, state: AppState) -> impl IntoView {
    let slot = state.run.with_untracked(|l| {
        l.as_ref()
            .filter(|l| l.sha256 == s.file.sha256)
            .map(|l| slot_name(l.slot))
    });
    let total = s.ranked + s.unranked;
    let head = format!(
        "{} (SHA-256 {}…): {} for {} of {} benchmark queries{}.",
        s.file.name,
        s.file.short(),
        plural(s.lines, "ranked document", "ranked documents"),
        thousands(s.ranked),
        thousands(total),
        slot.map_or(String::new(), |n| format!(", shown as {n}"))
    );
    let unknown = |u: &Unknown, what: &str, then: &str| {
        (u.count > 0).then(|| {
            let more = if u.count > u.examples.len() { ", …" } else { "" };
            view! {
                <li>{format!("{} {what} ({}{more}): {then}", thousands(u.count), u.examples.join(", "))}</li>
            }
        })
    };
    view! {
        <div class="run-report" role="status" data-testid="run-report">
            <p>{head}</p>
            <ul>
                {(s.unranked > 0).then(|| view! {
                    <li>
                        {format!(
                            "{} not in the file: evaluated with empty rankings (score 0).",
                            plural(s.unranked, "benchmark query", "benchmark queries")
                        )}
                    </li>
                })}
                {unknown(
                    &s.unknown_queries,
                    "query ids not in the benchmark",
                    "not evaluated, having no judgments.",
                )}
                {unknown(
                    &s.unknown_docs,
                    "document ids not in the pool",
                    "they keep their ranks and count as relevant only where the judgments name \
                     them; a query's ranking below lists the pool's articles only.",
                )}
            </ul>
        </div>
    }
}
