//! What a printed article carries besides its text: its citation and
//! source, the pool and version it was read in, the date, and the link
//! that reproduces the search. Shown only in print (`style.css`, `@media
//! print`), where the page's controls are hidden.

use leptos::prelude::*;

use crate::pools::store::use_pools;
use crate::url_sync::use_link_sync;
use crate::web::today;

/// Hex digits of the pool's content hash printed (as the link banner).
const HASH_PRINTED: usize = 12;

#[component]
pub fn PrintNote(citation: String) -> impl IntoView {
    let address = use_link_sync().address;
    let pools = use_pools();
    // The date is read again when the user prints, so a page left open
    // overnight prints the day it is printed.
    let date = RwSignal::new(today());
    let listener = window_event_listener_untyped("beforeprint", move |_| date.set(today()));
    on_cleanup(move || listener.remove());
    let pool = move || {
        pools.engine().map(|e| {
            let hash: String = e.content_hash().chars().take(HASH_PRINTED).collect();
            format!("{} (version {hash}) in Nomos", e.name)
        })
    };
    view! {
        <dl class="print-note print-only">
            <dt>"Citation"</dt>
            <dd class="print-citation">{citation}</dd>
            <dt>"Source"</dt>
            <dd class="print-source">{pool}</dd>
            <dt>"Printed"</dt>
            <dd class="print-date">{move || date.get()}</dd>
            <dt>"This search"</dt>
            <dd class="print-link">{move || address.get()}</dd>
        </dl>
    }
}
