//! The semantic model's download and start, under the search box: a
//! progress bar while it downloads (the search works with BM25 meanwhile),
//! and what went wrong, with a retry, if it fails.

use leptos::prelude::*;

use crate::components::progress::progress_bar;
use crate::format::megabytes;
use crate::semantic::{use_semantic, ModelStatus};

#[component]
pub fn ModelLine() -> impl IntoView {
    let semantic = use_semantic();
    move || match semantic.status.get() {
        ModelStatus::Downloading { received, total } => {
            let percent = (total > 0).then(|| 100.0 * received as f64 / total as f64);
            let label = format!(
                "Downloading the semantic model (once; kept for offline use): {} of {}",
                megabytes(received),
                megabytes(total)
            );
            view! {
                <div class="loadline model-line" role="status">
                    {progress_bar("Semantic model download".to_owned(), percent)}
                    <span class="loadline-text">{label}</span>
                </div>
            }
            .into_any()
        }
        ModelStatus::Starting => view! {
            <div class="loadline model-line" role="status">
                <div class="progress"><div class="progress-fill indeterminate"></div></div>
                <span class="loadline-text">"Checking and starting the semantic model…"</span>
            </div>
        }
        .into_any(),
        ModelStatus::Failed(message) => view! {
            <div class="loadline model-line error" role="alert">
                {format!("Semantic search is unavailable: {message}")}
                " "
                <button type="button" class="button" on:click=move |_| semantic.ensure_loaded()>
                    "Retry"
                </button>
            </div>
        }
        .into_any(),
        _ => ().into_any(),
    }
}
