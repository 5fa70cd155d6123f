//! "Available offline": shown once the service worker keeps the app and
//! the current demo pool (see [`crate::offline`]).

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
    move || {
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
    }
}
