//! A progress bar, as every download and job on the page shows one:
//! its percent, or a sliding bar while the total is unknown.

use leptos::prelude::*;

/// The bar for `label` at `percent` (0 to 100), or indeterminate at `None`.
pub fn progress_bar(label: String, percent: Option<f64>) -> impl IntoView {
    view! {
        <div
            class="progress"
            role="progressbar"
            aria-label=label
            aria-valuemin="0"
            aria-valuemax="100"
            aria-valuenow=percent.map(|p| format!("{p:.0}"))
        >
            <div
                class="progress-fill"
                class:indeterminate=percent.is_none()
                style:width=format!("{:.1}%", percent.unwrap_or(100.0))
            ></div>
        </div>
    }
}
