//! What the page shows instead of the app when it runs in a frame.
//!
//! The header policy's `frame-ancestors 'none'` keeps the page out of
//! frames, but only where the host sends it: a plain static host does not,
//! and the meta tag cannot carry it. So the page refuses too, before
//! anything starts (no pool is fetched, no stored key or setting read).
//! A page that frames Nomos could draw over it to show false results or
//! catch what is typed (an LLM key). Same-origin frames are refused as
//! well: on a plain host the origin is often shared with other people's
//! pages (`user.github.io/*`), so "same origin" is no sign of the same
//! site.

use leptos::prelude::*;

/// The refusal, with a link that opens the app in a tab of its own.
#[component]
pub fn Framed() -> impl IntoView {
    let href = window().location().href().unwrap_or_default();
    view! {
        <main class="framed" role="alert" data-testid="framed">
            <h1>"Nomos does not run inside another page"</h1>
            <p>
                "This page shows Nomos in a frame, where it could be covered or imitated. "
                <a href=href target="_blank" rel="noopener noreferrer">
                    "Open Nomos in a tab of its own"
                </a>
                "."
            </p>
        </main>
    }
}
