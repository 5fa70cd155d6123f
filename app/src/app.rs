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
    provide_context(Offline::start(state, pools));
    pools.start();
    provide_context(EvalStore::new(pools));

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
