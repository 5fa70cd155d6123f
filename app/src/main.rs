//! Nomos in the browser: pick an index blob, search it as you type, read
//! articles and follow their cross-references. Everything runs client-side
//! on `nomos-core`, the same code the `nomos` CLI ranks with.
//!
//! - [`state`]: the app state a URL can share (view, pool, query, method,
//!   filters, open article).
//! - [`pools`]: the manifest, fetching a blob with progress, opening a file.
//! - [`engine`]: a loaded blob with its searcher, reverse references and
//!   display helpers.
//! - [`semantic`]: the embedding model, downloaded on first use, and
//!   query embeddings for the dense and hybrid methods.
//! - [`evaluate`]: benchmark runs as `nomos eval` does them, time-sliced.
//! - [`url_state`], [`url_sync`]: the state as a shareable link, kept in
//!   the address bar.
//! - [`offline`]: the service worker that lets the app run offline.
//! - [`timings`]: loading milestones for the end-to-end benchmark.
//! - [`components`]: the views.

mod app;
mod components;
mod engine;
mod evaluate;
mod offline;
mod pools;
mod semantic;
mod state;
mod timings;
mod url_state;
mod url_sync;

fn main() {
    timings::mark("start");
    leptos::mount::mount_to_body(app::App);
}
