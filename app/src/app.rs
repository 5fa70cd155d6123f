//! The root component: provides the shared state, wires pool loading and
//! method changes to the engine, and switches between the top-level views.

use leptos::prelude::*;

use crate::components::evaluate::EvaluateView;
use crate::components::header::Header;
use crate::components::link_notice::LinkNotice;
use crate::components::search::SearchView;
use crate::evaluate::EvalStore;
use crate::offline::Offline;
use crate::pools::Pools;
use crate::semantic::{ModelStatus, Semantic};
use crate::state::{AppState, PoolChoice, View};
use crate::url_sync::LinkSync;

#[component]
pub fn App() -> impl IntoView {
    let state = AppState::new();
    provide_context(state);
    let pools = Pools::new(state);
    provide_context(pools);
    // Before the manifest arrives: the link's pool is the one loaded first.
    provide_context(LinkSync::start(state, pools));
    let semantic = Semantic::new();
    provide_context(semantic);
    provide_context(Offline::start(state, pools, semantic));
    pools.start();
    provide_context(EvalStore::new(pools, semantic));

    // A new pool brings its model (or none); BM25 setting changes keep it.
    Effect::new(move |prev: Option<Option<String>>| {
        let model = pools
            .engine
            .with(|e| e.as_ref().and_then(|e| e.dense_model().cloned()));
        let key = model.as_ref().map(|m| m.manifest_hash.clone());
        if prev.as_ref() != Some(&key) || pools.engine.with(Option::is_none) {
            semantic.set_source(model.map(|m| pools.model_source(&m)));
        }
        key
    });
    // A dense method needs the model: download it on first use.
    Effect::new(move |_| {
        let wanted = state.method.get().needs_dense();
        if wanted && matches!(semantic.status.get(), ModelStatus::Idle { .. }) {
            semantic.ensure_loaded();
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

    // Method changes apply live; invalid settings never reach the engine
    // (the advanced panel only sends valid ones).
    Effect::new(move |_| {
        let params = state.params.get();
        pools.engine.maybe_update(|engine| match engine {
            Some(e) if e.params() != params => e.set_params(params).is_ok(),
            _ => false,
        });
    });

    view! {
        <Header />
        <LinkNotice />
        <main id="main">
            {move || match state.view.get() {
                View::Search => SearchView().into_any(),
                View::Evaluate => EvaluateView().into_any(),
            }}
        </main>
    }
}
