//! Nomos in the browser: pick an index blob, search it as you type, read
//! articles and follow their cross-references. Everything runs client-side
//! on `nomos-core`, the same code the `nomos` CLI ranks with.
//!
//! - [`state`]: the app state a URL can share (view, pool, query, method,
//!   filters, open article).
//! - [`pools`]: the manifest, fetching a blob with progress, opening a file.
//! - [`engine`]: a loaded blob with its searcher, reverse references and
//!   display helpers.
//! - [`evaluate`]: benchmark runs as `nomos eval` does them, time-sliced.
//! - [`components`]: the views.

mod app;
mod components;
mod engine;
mod evaluate;
mod pools;
mod state;

fn main() {
    leptos::mount::mount_to_body(app::App);
}
