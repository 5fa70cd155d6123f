//! "Available offline": shown once the service worker keeps the app and
//! the current demo pool (see [`crate::offline`]); "Not stored for offline
//! use", with the reason as its title, when the worker refused something.

use leptos::prelude::*;

use crate::offline::use_offline;
use crate::state::{use_app_state, PoolChoice};

#[component]
pub fn OfflineBadge() -> impl IntoView {
    let state = use_app_state();
    let offline = use_offline();
    let kept = move || {
        state
            .pool
            .with(|p| matches!(p, Some(PoolChoice::Listed(f)) if offline.has(f)))
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
    view! { {badge} {failure} }
}
