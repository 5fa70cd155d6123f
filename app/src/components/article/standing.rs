//! Where an article stands and which version it is: its division path as
//! a breadcrumb above its heading, and its version's date under it, for
//! sources that give them (the Greek codes). Shown, never searched.

use leptos::prelude::*;

use crate::format::version_of;

/// The divisions, outermost first (`ΒΙΒΛΙΟ ΠΡΩΤΟ: … › ΚΕΦΑΛΑΙΟ ΠΡΩΤΟ: …`);
/// nothing when there are none.
pub fn division_path(path: Vec<String>, lang: &'static str) -> impl IntoView {
    (!path.is_empty()).then(|| {
        view! {
            <nav class="division-path" aria-label="Divisions" lang=lang>
                <ol>{path.into_iter().map(|d| view! { <li>{d}</li> }).collect_view()}</ol>
            </nav>
        }
    })
}

/// "Version of 23 February 1946"; nothing without a date.
pub fn version_line(date: Option<String>) -> impl IntoView {
    date.map(|d| view! { <p class="version-date">{version_of(&d)}</p> })
}
