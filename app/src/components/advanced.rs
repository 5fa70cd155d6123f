//! The ranking method: BM25 variant, k1 and b, applied live. Only valid
//! settings reach the app state (k1 in [0, 3], b in [0, 1] by the sliders'
//! ranges, and `Bm25Params::validate` before every change).

use leptos::prelude::*;
use nomos_core::search::{Bm25Params, Bm25Variant};

use crate::pools::use_pools;
use crate::state::use_app_state;

#[component]
pub fn AdvancedPanel() -> impl IntoView {
    let state = use_app_state();
    let pools = use_pools();
    let defaults = move || {
        pools
            .engine
            .with(|e| e.as_ref().map(|e| e.default_params()))
    };
    let set = move |change: &dyn Fn(&mut Bm25Params)| {
        let mut p = state.params.get_untracked();
        change(&mut p);
        if p.validate().is_ok() {
            state.params.set(p);
        }
    };
    let on_variant = move |ev: leptos::ev::Event| {
        let value = event_target_value(&ev);
        if let Ok(v) = value.parse::<Bm25Variant>() {
            set(&|p| p.variant = v);
        }
    };
    let slider = move |label: &'static str,
                       id: &'static str,
                       max: f64,
                       step: f64,
                       get: fn(&Bm25Params) -> f64,
                       put: fn(&mut Bm25Params, f64)| {
        view! {
            <div class="param">
                <label for=id>{label}</label>
                <input
                    id=id
                    type="range"
                    min="0"
                    max=max
                    step=step
                    prop:value=move || get(&state.params.get()).to_string()
                    on:input=move |ev| {
                        if let Ok(v) = event_target_value(&ev).parse::<f64>() {
                            set(&|p| put(p, v));
                        }
                    }
                />
                <output for=id>{move || format!("{:.2}", get(&state.params.get()))}</output>
            </div>
        }
    };
    let is_default = move || defaults() == Some(state.params.get());

    view! {
        <details class="advanced">
            <summary>"Ranking method"</summary>
            <div class="param">
                <label for="bm25-variant">"BM25"</label>
                <select
                    id="bm25-variant"
                    prop:value=move || state.params.get().variant.name()
                    on:change=on_variant
                >
                    <option value="okapi">"Okapi (rank_bm25)"</option>
                    <option value="lucene">"Lucene (bm25s)"</option>
                </select>
            </div>
            {slider("k1", "bm25-k1", 3.0, 0.05, |p| p.k1, |p, v| p.k1 = v)}
            {slider("b", "bm25-b", 1.0, 0.01, |p| p.b, |p, v| p.b = v)}
            <p class="param-note">
                {move || {
                    defaults()
                        .map(|d| {
                            format!(
                                "Pool default: {} k1 = {:.2}, b = {:.2}",
                                d.variant.name(),
                                d.k1,
                                d.b,
                            )
                        })
                }}
            </p>
            <button
                type="button"
                class="button"
                prop:disabled=is_default
                on:click=move |_| {
                    if let Some(d) = defaults() {
                        state.params.set(d);
                    }
                }
            >
                "Reset to pool default"
            </button>
        </details>
    }
}
