//! The top bar: name, the view switch (Search | Evaluate) and the pool
//! picker.

use leptos::prelude::*;

use super::offline_badge::OfflineBadge;
use super::pool_picker::PoolPicker;
use crate::state::{use_app_state, View};

#[component]
pub fn Header() -> impl IntoView {
    let state = use_app_state();
    let tab = move |view: View, label: &'static str| {
        view! {
            <button
                type="button"
                class="tab"
                aria-pressed=move || (state.view.get() == view).to_string()
                on:click=move |_| state.view.set(view)
            >
                {label}
            </button>
        }
    };
    view! {
        <header class="topbar">
            <div class="brand">
                <span class="brand-name">"Nomos"</span>
                <span class="brand-tag">"statute search, in your browser"</span>
                <OfflineBadge />
            </div>
            <nav class="tabs" aria-label="View">
                {tab(View::Search, "Search")}
                {tab(View::Evaluate, "Evaluate")}
            </nav>
            <PoolPicker />
        </header>
    }
}
