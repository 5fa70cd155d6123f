//! Choosing the pool: the manifest's blobs, or a blob opened from disk,
//! with the load progress and any error.

use leptos::prelude::*;
use web_sys::HtmlInputElement;

use crate::components::progress::progress_bar;
use crate::format::thousands;
use crate::note::fold;
use crate::pools::store::{use_pools, LoadStatus};
use crate::state::{use_app_state, PoolChoice};

/// Value of the `<option>` that stands for a blob opened from disk.
const LOCAL: &str = "\u{0}local";

#[component]
pub fn PoolPicker() -> impl IntoView {
    let state = use_app_state();
    let pools = use_pools();

    let options = move || {
        pools.manifest.with(|m| match m {
            Some(Ok(m)) => m
                .indexes
                .iter()
                .map(|e| {
                    let label = e.title.clone();
                    let file = e.file.clone();
                    let selected = {
                        let file = file.clone();
                        move || state.pool.get() == Some(PoolChoice::Listed(file.clone()))
                    };
                    view! { <option value=file selected=selected>{label}</option> }
                })
                .collect_view()
                .into_any(),
            _ => ().into_any(),
        })
    };
    let local_option = move || match state.pool.get() {
        Some(PoolChoice::Local(name)) => {
            view! { <option value=LOCAL selected=true>{format!("{name} (from disk)")}</option> }
                .into_any()
        }
        _ => ().into_any(),
    };
    let on_select = move |ev: leptos::ev::Event| {
        let file = event_target_value(&ev);
        if file != LOCAL {
            state.pool.set(Some(PoolChoice::Listed(file)));
        }
    };
    let on_file = move |ev: leptos::ev::Event| {
        let input: HtmlInputElement = event_target(&ev);
        let files: Vec<web_sys::File> = input
            .files()
            .map(|list| (0..list.length()).filter_map(|i| list.get(i)).collect())
            .unwrap_or_default();
        // The blob, and the sibling files (text, vectors) picked with it.
        let blob = files
            .iter()
            .position(|f| f.name().ends_with(".blob"))
            .unwrap_or(0);
        if blob < files.len() {
            let mut others = files;
            let file = others.remove(blob);
            pools.load_file(file, others);
        }
        // Picking the same file again must fire `change` again.
        input.set_value("");
    };

    view! {
        <div class="pool">
            <label class="pool-label" for="pool-select">"Pool"</label>
            <select id="pool-select" on:change=on_select>
                {options}
                {local_option}
            </select>
            <label class="button file-button">
                "Open blob…"
                <input
                    type="file"
                    multiple
                    accept=".blob,.text,.vectors,application/octet-stream"
                    on:change=on_file
                />
            </label>
        </div>
    }
}

/// Progress while a pool loads, the error when it failed, else the loaded
/// pool's size, analyzer and caveats. Shown under the search box, in space
/// reserved for it, so nothing below moves.
#[component]
pub fn LoadLine() -> impl IntoView {
    let pools = use_pools();
    move || match pools.status.get() {
        LoadStatus::Reading {
            name,
            received,
            total,
        } => {
            let percent = total
                .filter(|&t| t > 0 && received <= t)
                .map(|t| received as f64 * 100.0 / t as f64);
            let label = match percent {
                Some(p) => format!("Downloading {name}: {p:.0}%"),
                None => format!("Downloading {name}: {} KB", received / 1024),
            };
            view! {
                <div class="loadline" role="status">
                    {progress_bar(label.clone(), percent)}
                    <span class="loadline-text">{label}</span>
                </div>
            }
            .into_any()
        }
        LoadStatus::Validating { name } => view! {
            <div class="loadline" role="status">
                <div class="progress"><div class="progress-fill indeterminate"></div></div>
                <span class="loadline-text">{format!("Checking {name}…")}</span>
            </div>
        }
        .into_any(),
        LoadStatus::Failed(error) => view! {
            <div class="loadline error" role="alert">{error.to_string()}</div>
        }
        .into_any(),
        LoadStatus::Idle | LoadStatus::Ready => view! { <PoolInfo /> }.into_any(),
    }
}

/// The loaded pool's size and analyzer, and its caveats (which documents
/// have vectors, where only some do), whatever its storage.
#[component]
fn PoolInfo() -> impl IntoView {
    let pools = use_pools();
    move || {
        let about = match (pools.engine(), pools.fragmented.get()) {
            (Some(e), _) => Some((e.n_docs(), e.analyzer_description(), e.notes())),
            (None, Some(f)) => Some(
                f.pool
                    .with_value(|p| (p.n_docs(), p.analyzer_description(), p.notes())),
            ),
            (None, None) => None,
        };
        about.map(|(n_docs, analyzer, notes)| {
            view! {
                <p class="loadline pool-info">
                    {format!("{} articles · ", thousands(n_docs))}
                    {analyzer}
                </p>
                {notes.into_iter().map(|n| match fold(&n) {
                    None => view! { <p class="note">{n}</p> }.into_any(),
                    Some((head, rest)) => view! {
                        <details class="note">
                            <summary>{head}</summary>
                            {rest}
                        </details>
                    }.into_any(),
                }).collect_view()}
            }
        })
    }
}
