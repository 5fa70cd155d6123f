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
//!    what belongs to it), [`siblings`] (a light blob's text and vectors
//!    files, fetched when needed), [`eval_store`] (an evaluation's results and
//!    job), [`run_store`] (run files imported into Evaluate, kept per
//!    pool), [`semantic`] (the embedding model), [`llm`] (the LLM
//!    endpoint, runs' backends, transcripts), [`search_store`] (the
//!    Search view's debounced, embedded, ranked query), [`llm_search`]
//!    (the Search view's LLM run), [`wllama`] (the in-page LLM),
//!    [`judgment_store`] (the user's judgments, in IndexedDB),
//!    [`frag_store`] (a fragmented pool's fetched fragments and results).
//! 4. Plain models, testable natively: [`state`] (what a user chose),
//!    [`manifest`], [`blob_intake`] (a blob's bytes taken in within the
//!    size cap), [`engine`] (a loaded blob ready to rank and show),
//!    [`fragmented`] (a fragmented pool: what a query needs, BM25, rows),
//!    [`go_to`] (where a query's citations lead),
//!    [`search_pipeline`], [`evaluate`] (configurations, jobs, metrics,
//!    exports), [`url_state`] (links), [`latest`] (staleness),
//!    [`endpoint`] (an LLM endpoint's settings, checked),
//!    [`transcript_files`] (transcripts' names, paths and the site's
//!    list), [`judgments`] (the user's judgments, their export and
//!    import, and the benchmark they make), [`shortcuts`] (the keyboard
//!    shortcuts and their help), [`size_caps`] (how much of a file whose
//!    size nothing lists the app reads).
//! 5. Leaves: [`web`] (fetch within a size limit, POST with Cancel, time, hashing, storage,
//!    the Content-Security-Policy's refusals, DOM, JS errors), [`format`]
//!    (numbers, sizes, durations), [`timings`] (loading milestones).

mod app;
mod blob_intake;
mod components;
mod endpoint;
mod engine;
mod eval_store;
mod evaluate;
mod format;
mod frag_store;
mod fragmented;
mod go_to;
mod judgment_store;
mod latest;
mod llm;
mod llm_search;
mod offline;
mod past_worker;
mod pool_scope;
mod pools;
mod run_store;
mod search_pipeline;
mod search_source;
mod search_store;
mod semantic;
mod session;
mod shortcuts;
mod siblings;
mod size_caps;
mod timings;
mod url_sync;
mod web;
mod wllama;

// The link codec and what it carries: the library's (lib.rs).
use nomos_app::{judgments, manifest, note, state, transcript_files, url_state};

fn main() {
    timings::mark("start");
    if web::framed() {
        // Before anything starts: see `components::framed`.
        leptos::mount::mount_to_body(components::framed::Framed);
        return;
    }
    wllama::expose();
    leptos::mount::mount_to_body(app::App);
}
