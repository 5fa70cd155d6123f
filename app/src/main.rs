//! Nomos in the browser: pick an index blob, search it as you type, read
//! articles and follow their cross-references, evaluate methods on the
//! pool's benchmark. Everything runs client-side on `nomos-core`, the same
//! code the `nomos` CLI ranks with.
//!
//! Modules, in layers; each imports only from the layers below it (see
//! ARCHITECTURE.md at the repository root). A feature's models and
//! stores share its folder; its views are in [`components`], one folder
//! per feature, since a page puts every feature's views together.
//!
//! 1. Views: [`components`].
//! 2. Wiring: [`app`] (the root: stores as context, choices that start
//!    work), [`url_sync`] (the state in the address bar).
//! 3. Features above the loaded pool: [`search`] (the Search view's
//!    store and ranking steps, keyboard shortcuts), [`offline`] (the
//!    service worker), [`article`] (where a query's citations lead,
//!    which search uses).
//! 4. [`pools`]: which pool is loaded, and the session that owns its
//!    stores.
//! 5. Features whose stores a session owns: [`evaluate`] (configurations,
//!    jobs, metrics, exports; the results, run files and judgments of a
//!    pool), [`llm`] (the LLM endpoint, runs' backends, transcripts, the
//!    Search view's LLM run, the in-page LLM), which evaluate uses.
//! 6. [`pool`]: one pool in memory, whatever its storage (blob, light
//!    blob's siblings, fragments), and the owner of its state.
//! 7. Shared stores and models: [`semantic`] (the embedding model),
//!    [`state`] (what a user chose), [`url_state`] (links),
//!    [`eval_config`], `views`, [`note`], [`manifest`],
//!    [`transcript_files`] (transcripts' names, paths and the site's
//!    list), [`judgments`] (the user's judgments, their export and import,
//!    and the benchmark they make), [`latest`] (staleness), [`size_caps`] (how much of a file whose size nothing
//!    lists the app reads), [`past_worker`].
//! 8. Leaves: [`web`] (fetch within a size limit, POST with Cancel, time,
//!    hashing, storage, the Content-Security-Policy's refusals, DOM, JS
//!    errors), [`format`] (numbers, sizes, durations), [`timings`]
//!    (loading milestones).

mod app;
mod article;
mod components;
mod evaluate;
mod format;
mod latest;
mod llm;
mod offline;
mod past_worker;
mod pool;
mod pools;
mod search;
mod semantic;
mod size_caps;
mod timings;
mod url_sync;
mod web;

// The link codec and what it carries: the library's (lib.rs).
use nomos_app::{eval_config, judgments, manifest, note, state, transcript_files, url_state};

fn main() {
    timings::mark("start");
    if web::framed() {
        // Before anything starts: see `components::framed`.
        leptos::mount::mount_to_body(components::framed::Framed);
        return;
    }
    llm::wllama::expose();
    leptos::mount::mount_to_body(app::App);
}
