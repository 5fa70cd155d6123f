//! Nomos in the browser: pick an index blob, search it as you type, read
//! articles and follow their cross-references, evaluate methods on the
//! pool's benchmark. Everything runs client-side on `nomos-core`, the same
//! code the `nomos` CLI ranks with.
//!
//! Modules, in layers; each imports only from the layers below it (see
//! ARCHITECTURE.md at the repository root):
//!
//! 1. Views: [`components`], one per part of the page.
//! 2. Wiring: [`app`] (the root: stores as context, choices that start
//!    work), [`url_sync`] (the state in the address bar), [`offline`]
//!    (the service worker).
//! 3. Stores, the app's signals and async work: [`pools`] (manifest,
//!    loading, the current [`session`]), [`session`] (one loaded pool and
//!    what belongs to it), [`eval_store`] (an evaluation's results and
//!    job), [`semantic`] (the embedding model), [`search_store`] (the
//!    Search view's debounced, embedded, ranked query), [`wllama`] (the
//!    in-page LLM).
//! 4. Plain models, testable natively: [`state`] (what a user chose),
//!    [`manifest`], [`engine`] (a loaded blob ready to rank and show),
//!    [`search_pipeline`], [`evaluate`] (configurations, jobs, metrics,
//!    exports), [`url_state`] (links), [`latest`] (staleness).
//! 5. Leaves: [`web`] (fetch, time, hashing, DOM, JS errors), [`format`]
//!    (numbers and sizes), [`timings`] (loading milestones).

mod app;
mod components;
mod engine;
mod eval_store;
mod evaluate;
mod format;
mod latest;
mod manifest;
mod offline;
mod pools;
mod search_pipeline;
mod search_store;
mod semantic;
mod session;
mod state;
mod timings;
mod url_state;
mod url_sync;
mod web;
mod wllama;

fn main() {
    timings::mark("start");
    wllama::expose();
    leptos::mount::mount_to_body(app::App);
}
