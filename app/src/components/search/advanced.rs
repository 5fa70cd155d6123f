//! The ranking method and its parameters, then BM25's variant, k1 and b
//! for the methods that use BM25, all applied live. Only valid settings
//! reach the app state (k1 in [0, 3], b in [0, 1] by the sliders' ranges,
//! `Bm25Params::validate` and `Method::with_param` before every change).
//! The dense and hybrid methods are offered where the pool has vectors
//! and the site serves their model; the LLM methods, listed apart, where
//! an endpoint is set up or a transcript is replayed.

use leptos::prelude::*;
use nomos_core::blob::Field;
use nomos_core::methods::Method;
use nomos_core::search::{Bm25Params, Bm25Variant};

use crate::format::megabytes;
use crate::llm::{use_llm, Readiness};
use crate::pools::store::use_pools;
use crate::semantic::{query_threads, use_semantic, ModelStatus};
use crate::state::use_app_state;
use crate::web::cross_origin_isolated;

/// What the method pickers call each method.
pub fn method_label(name: &str) -> &'static str {
    match name {
        "bm25" => "BM25 (lexical)",
        "dense" => "Dense (e5, int8 vectors)",
        "dense-binary" => "Dense, 1-bit first pass",
        "prf" => "BM25 + TF-IDF feedback",
        "rocchio" => "Dense + Rocchio feedback",
        "rrf" => "Hybrid: rank fusion (RRF)",
        "weighted" => "Hybrid: weighted scores",
        "prop" => "BM25 + citations and definitions",
        "mix" => "Dense, vectors mixed with what each cites",
        "ctx-rrf" => "Fusion of the two context methods (RRF)",
        "reform-sparse" => "Reformulated as keywords → BM25",
        "reform-dense" => "Reformulated as a statement → dense",
        "reform-hybrid" => "Both reformulations, fused (RRF)",
        "react-bm25" => "ReAct: planner and observer over BM25",
        _ => "",
    }
}

/// Whether the LLM methods can run (an endpoint is set up, or a
/// transcript is replayed), for the method pickers.
pub fn llm_offered() -> impl Fn() -> bool + Copy {
    let llm = use_llm();
    move || llm.readiness().can_run()
}

/// Whether the pool offers the dense and hybrid methods (it has vectors
/// and the site serves their model), for the method pickers.
pub fn dense_offered() -> impl Fn() -> bool + Copy {
    let semantic = use_semantic();
    move || {
        !matches!(
            semantic.status.get(),
            ModelStatus::NoVectors | ModelStatus::NotServed { .. }
        )
    }
}

/// Whether the pool has citations or definition edges for the context
/// methods to follow (a blob pool that has them), for the method pickers.
pub fn graph_offered() -> impl Fn() -> bool + Copy {
    let pools = use_pools();
    move || pools.engine().is_some_and(|e| e.pool().graph().is_some())
}

/// One `<option>` per method, the dense ones disabled where `dense_ok`
/// says the pool cannot run them and the context ones where `graph_ok`
/// does; then the LLM methods in a group of their own, disabled until
/// `llm_ok`.
pub fn method_options(
    dense_ok: impl Fn() -> bool + Copy + Send + Sync + 'static,
    graph_ok: impl Fn() -> bool + Copy + Send + Sync + 'static,
    llm_ok: impl Fn() -> bool + Copy + Send + Sync + 'static,
) -> impl IntoView {
    let option = move |name: &'static str| {
        let method = Method::by_name(name);
        let needs_dense = method.is_some_and(|m| m.needs_dense());
        let needs_graph = method.is_some_and(|m| m.needs_graph());
        let needs_llm = method.is_some_and(|m| m.needs_llm());
        view! {
            <option
                value=name
                prop:disabled=move || {
                    (needs_dense && !dense_ok()) || (needs_graph && !graph_ok())
                        || (needs_llm && !llm_ok())
                }
            >
                {method_label(name)}
            </option>
        }
    };
    view! {
        {Method::NAMES.iter().map(|&n| option(n)).collect_view()}
        <optgroup label="With an LLM">
            {Method::LLM_NAMES.iter().map(|&n| option(n)).collect_view()}
        </optgroup>
    }
}

/// Under a method picker: how to make the LLM methods available, with a
/// button to the settings, while they are not.
#[component]
pub fn LlmHint() -> impl IntoView {
    let llm = use_llm();
    move || match llm.readiness() {
        Readiness::Unset(_) => Some(view! {
            <p class="param-note llm-hint">
                "The LLM methods need an OpenAI-compatible endpoint, or a transcript to replay. "
                <button type="button" class="link-button" on:click=move |_| llm.open_settings()>
                    "LLM settings…"
                </button>
            </p>
        }),
        _ => None,
    }
}

/// One number field per parameter of `method()`, ids `{prefix}-{key}`;
/// a valid change goes to `set` (an invalid one is ignored, leaving the
/// method as it was).
pub fn method_fields(
    prefix: &'static str,
    method: impl Fn() -> Method + Copy + Send + Sync + 'static,
    set: impl Fn(Method) + Copy + Send + Sync + 'static,
) -> impl Fn() -> AnyView + Send + Sync + 'static {
    move || {
        method()
            .parameters()
            .into_iter()
            .map(|(key, value)| {
                let id = format!("{prefix}-{key}");
                let change = move |ev: leptos::ev::Event| {
                    if let Ok(m) = method().with_param(key, &event_target_value(&ev)) {
                        set(m);
                    }
                };
                view! {
                    <div class="param">
                        <label for=id.clone()>{key}</label>
                        <input
                            id=id
                            // `dir` is a word (out, in, both), the rest numbers.
                            type=if key == "dir" { "text" } else { "number" }
                            inputmode="decimal"
                            prop:value=value
                            on:change=change
                        />
                    </div>
                }
                .into_any()
            })
            .collect_view()
            .into_any()
    }
}

/// The method picker and the chosen method's parameters.
#[component]
fn MethodPicker() -> impl IntoView {
    let state = use_app_state();
    let semantic = use_semantic();
    let pools = use_pools();
    let on_method = move |ev: leptos::ev::Event| {
        if let Some(m) = Method::by_name(&event_target_value(&ev)) {
            state.method.set(m);
        }
    };
    let fields = method_fields(
        "method",
        move || state.method.get(),
        move |m| state.method.set(m),
    );
    let note = move || match semantic.status.get() {
        ModelStatus::NoVectors => Some(
            "Dense and hybrid methods need a pool built with vectors (nomos build --embed)."
                .to_owned(),
        ),
        ModelStatus::NotServed { model } => Some(format!(
            "Dense and hybrid methods need the model {model}, which this site does not serve."
        )),
        ModelStatus::Idle { bytes } => Some(format!(
            "Dense and hybrid methods download the semantic model once ({}).",
            megabytes(bytes)
        )),
        ModelStatus::Ready => Some(match (cross_origin_isolated(), query_threads()) {
            (false, _) => "Query embedding runs on one thread: this host does not make the \
                           page cross-origin isolated. The offline copy does, from the next \
                           visit."
                .to_owned(),
            (true, 1) => "Query embedding runs on one thread.".to_owned(),
            (true, n) => format!("Query embedding runs on {n} threads."),
        }),
        _ => None,
    };
    view! {
        <div class="param">
            <label for="method">"Method"</label>
            <select id="method" prop:value=move || state.method.get().name() on:change=on_method>
                {method_options(dense_offered(), graph_offered(), llm_offered())}
            </select>
        </div>
        {fields}
        <FieldPicker />
        <p class="param-note">{note}</p>
        <LlmHint />
        <p class="param-note pooling">
            {move || {
                pools
                    .engine()
                    .and_then(|e| e.dense_model().map(|m| m.pooling))
                    .map(|p| format!("Articles are embedded as: {}.", p.describe()))
            }}
        </p>
    }
}

/// Text or augmented text, for pools with both.
#[component]
fn FieldPicker() -> impl IntoView {
    let state = use_app_state();
    let pools = use_pools();
    move || {
        pools.engine().filter(|e| e.has_augmented()).map(|_| {
            let on_field = move |ev: leptos::ev::Event| {
                state.field.set(match event_target_value(&ev).as_str() {
                    "augmented" => Field::Augmented,
                    _ => Field::Text,
                });
            };
            view! {
                <div class="param">
                    <label for="field">"Field"</label>
                    <select id="field" prop:value=move || state.field.get().name() on:change=on_field>
                        <option value="text">"text"</option>
                        <option value="augmented">"augmented"</option>
                    </select>
                </div>
                <p class="param-note">
                    "Augmented: each text with the context written for it, as the pool's builder \
                     supplied it. Results always show the text."
                </p>
            }
        })
    }
}

#[component]
pub fn AdvancedPanel() -> impl IntoView {
    let state = use_app_state();
    let pools = use_pools();
    let defaults = move || pools.engine().map(|e| e.default_params());
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
            <MethodPicker />
            <div class="bm25-settings" prop:hidden=move || !state.method.get().needs_lexical()>
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
                                "Pool default: BM25 {} k1 = {:.2}, b = {:.2}",
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
            </div>
        </details>
    }
}
