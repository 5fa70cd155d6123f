//! The root component: creates the stores and hands them out as context,
//! wires the choices that start work (a pool chosen, a dense method
//! chosen) to the stores, and switches between the top-level views; the
//! LLM settings dialog and the list of keyboard shortcuts live beside
//! them, opened from anywhere.

use leptos::prelude::*;

use crate::components::evaluate::EvaluateView;
use crate::components::header::Header;
use crate::components::link_notice::LinkNotice;
use crate::components::llm::llm_settings::LlmSettings;
use crate::components::search::keyboard::KeyboardHelp;
use crate::components::search::SearchView;
use crate::llm::Llm;
use crate::offline::Offline;
use crate::past_worker::PastWorker;
use crate::pools::store::Pools;
use crate::semantic::{ModelStatus, Semantic};
use crate::state::{AppState, PoolChoice, View};
use crate::url_sync::LinkSync;

#[component]
pub fn App() -> impl IntoView {
    let state = AppState::new();
    provide_context(state);
    let semantic = Semantic::new();
    provide_context(semantic);
    let llm = Llm::new(state);
    provide_context(llm);
    // Made before the pools and siblings, which hold into it.
    let past_worker = PastWorker::new();
    provide_context(past_worker);
    let pools = Pools::new(state, semantic, llm, past_worker);
    provide_context(pools);
    // Before the manifest arrives: the link's pool is the one loaded first.
    provide_context(LinkSync::start(state, pools, llm));
    provide_context(Offline::start(state, pools, semantic, llm, past_worker));
    pools.start();

    // A dense method needs the model: download it on first use, and a
    // light blob's vectors with it. An LLM method reads whole articles: a
    // light blob's every text part.
    Effect::new(move |_| {
        let method = state.method.get();
        let wanted = method.needs_dense();
        if wanted && matches!(semantic.status.get(), ModelStatus::Idle { .. }) {
            semantic.ensure_loaded();
        }
        let Some(session) = pools.session.get() else {
            return;
        };
        if wanted && matches!(session.choice, Some(PoolChoice::Listed(_))) {
            session.siblings.fetch_vectors(session.engine.clone());
        }
        if method.needs_llm() {
            session.fetch_text(None);
        }
    });

    // Choosing a listed pool (or the manifest arriving after the choice)
    // loads it; blobs opened from disk are loaded by the file input.
    Effect::new(move |_| {
        if let Some(PoolChoice::Listed(file)) = state.pool.get() {
            if let Some(entry) = pools.entry(&file) {
                pools.load_listed(entry);
            }
        }
    });

    view! {
        <Header />
        <LinkNotice />
        <LlmSettings />
        <KeyboardHelp />
        <main id="main">
            {move || match state.view.get() {
                View::Search => SearchView().into_any(),
                View::Evaluate => EvaluateView().into_any(),
            }}
        </main>
    }
}
