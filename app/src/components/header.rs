//! The top bar: name, the view switch (Search | Evaluate), the keyboard
//! shortcuts, the LLM settings (saying where LLM methods get their
//! replies) and the pool picker.

use leptos::prelude::*;

use crate::components::offline::offline_badge::OfflineBadge;
use crate::components::pools::pool_picker::PoolPicker;
use crate::components::search::keyboard::KeyboardButton;
use crate::llm::{use_llm, Readiness};
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
                <h1 class="brand-name">"Nomos"</h1>
                <span class="brand-tag">"statute search, in your browser"</span>
                <OfflineBadge />
            </div>
            <nav class="tabs" aria-label="View">
                {tab(View::Search, "Search")}
                {tab(View::Evaluate, "Evaluate")}
            </nav>
            <div class="header-end">
                <KeyboardButton />
                <LlmButton />
                <PoolPicker />
            </div>
        </header>
    }
}

/// Opens the LLM settings; its label says what LLM methods would use.
#[component]
fn LlmButton() -> impl IntoView {
    let llm = use_llm();
    let label = move || match llm.readiness() {
        Readiness::Endpoint(_) => "LLM: endpoint",
        Readiness::InPage(_) => "LLM: in page",
        Readiness::Replay { .. } => "LLM: transcript",
        Readiness::Unset(_) => "LLM: not set up",
    };
    view! {
        <button
            type="button"
            class="button llm-button"
            aria-haspopup="dialog"
            data-testid="llm-button"
            on:click=move |_| llm.open_settings()
        >
            {label}
        </button>
    }
}
