//! "Available offline": shown once the service worker keeps the app and
//! the current demo pool (see [`crate::offline`]), a light blob with every
//! text part; until then, for a light blob, "Make available offline"
//! fetches the parts not shown yet. "Not stored for offline use", with the
//! reason as its title, when the worker refused something.

use leptos::prelude::*;
use nomos_core::blob::SiblingKind;

use crate::format::megabytes;
use crate::offline::use_offline;
use crate::pool::siblings::SiblingStatus;
use crate::pools::store::use_pools;
use crate::state::{use_app_state, PoolChoice};

#[component]
pub fn OfflineBadge() -> impl IntoView {
    let state = use_app_state();
    let offline = use_offline();
    let pools = use_pools();
    let text_parts = move || {
        pools.session.with(|s| {
            s.iter()
                .flat_map(|s| s.engine.blob().siblings())
                .filter(|f| f.kind == SiblingKind::Text)
                .map(|f| f.file.clone())
                .collect::<Vec<_>>()
        })
    };
    let kept = move || {
        let parts = text_parts();
        state
            .pool
            .with(|p| matches!(p, Some(PoolChoice::Listed(f)) if offline.has(f, &parts)))
    };
    // A light blob's text parts not fetched yet, with their size.
    let make = move || {
        let session = pools.session.get()?;
        if !matches!(session.choice, Some(PoolChoice::Listed(_))) {
            return None;
        }
        let label = match session.siblings.text.get() {
            SiblingStatus::Ready | SiblingStatus::Failed(_) => return None,
            SiblingStatus::Fetching { received, total } => format!(
                "Downloading the text ({} of {})",
                megabytes(received),
                megabytes(total)
            ),
            SiblingStatus::Idle => {
                let missing: u64 = session
                    .engine
                    .missing(SiblingKind::Text)
                    .iter()
                    .map(|s| s.len)
                    .sum();
                format!("Make available offline ({})", megabytes(missing))
            }
        };
        Some(view! {
            <button
                type="button"
                class="button"
                data-testid="make-offline"
                title="Download every article's text, so that the pool works without a network."
                on:click=move |_| session.fetch_text(None)
            >
                {label}
            </button>
        })
    };
    let badge = move || {
        kept().then(|| {
            view! {
                <span
                    class="offline-badge"
                    data-testid="offline-ready"
                    title="The app and this pool are stored in your browser: they work without a network."
                >
                    "Available offline"
                </span>
            }
        })
    };
    // Why something was not stored: a full disk says so here, not only in
    // the console.
    let failure = move || {
        offline.failure.get().map(|why| {
            view! {
                <span class="offline-failure" data-testid="offline-failure" title=why.clone()>
                    "Not stored for offline use"
                </span>
            }
        })
    };
    view! { {badge} {make} {failure} }
}
