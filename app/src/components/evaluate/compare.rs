//! Comparing the current method (A) with another (B): B's settings, the
//! measure to compare on, and the chart of per-query differences. B is
//! part of the app state (`AppState::compare`), so a shared link keeps it.

use leptos::prelude::*;
use nomos_core::blob::Field;
use nomos_core::methods::Method;
use nomos_core::search::{Bm25Params, Bm25Variant};

use super::chart::delta_chart;
use super::significance::Significance;
use super::{compared, current, use_eval_store};
use crate::components::search::advanced::{
    dense_offered, graph_offered, llm_offered, method_fields, method_options,
};
use crate::eval_config::{Config, Slot};
use crate::evaluate::measures::{label, per_query_columns};
use crate::pools::store::use_pools;
use crate::state::use_app_state;

#[component]
pub fn CompareCard() -> impl IntoView {
    let state = use_app_state();
    let store = use_eval_store();
    let pools = use_pools();
    let dense_ok = dense_offered();
    let chosen = move || state.config_untracked();
    // The form starts from B; else, against BM25, hybrid where the pool
    // has vectors; else the other BM25 variant's defaults.
    let suggestion = move || {
        state.compare.get_untracked().unwrap_or_else(|| {
            let a = chosen();
            match (a.method, dense_ok()) {
                (Method::Bm25, true) => Config {
                    method: Method::default_for(true),
                    ..a
                },
                (Method::Bm25, false) => Config {
                    params: Bm25Params::new(match a.params.variant {
                        Bm25Variant::Okapi => Bm25Variant::Lucene,
                        Bm25Variant::Lucene => Bm25Variant::Okapi,
                    }),
                    ..a
                },
                (_, _) => Config {
                    method: Method::Bm25,
                    ..a
                },
            }
        })
    };
    let form = RwSignal::new(suggestion());
    let error = RwSignal::new(None::<String>);
    let busy = move || store.job.with(Option::is_some);

    // B's method, or no B, replaces a run file shown as B.
    let forget_run_b = move || {
        if state
            .run
            .with_untracked(|r| r.as_ref().is_some_and(|r| r.slot == Slot::Compared))
        {
            state.run.set(None);
        }
    };
    let compare = move |_| {
        let b = form.get_untracked();
        if let Err(e) = b.params.validate() {
            error.set(Some(e.to_string()));
            return;
        }
        error.set(None);
        state.compare.set(Some(b));
        forget_run_b();
        let a = chosen();
        let mut targets = Vec::new();
        if store.current.with_untracked(|o| {
            o.as_ref()
                .is_none_or(|o| o.config.method().is_some_and(|c| !c.same_ranking(&a)))
        }) {
            targets.push((Slot::Current, a));
        }
        targets.push((Slot::Compared, b));
        store.evaluate(targets, state.llm_queries.get_untracked());
    };
    let stop_comparing = move |_| {
        state.compare.set(None);
        forget_run_b();
        store.compared.set(None);
    };
    let number = move |id: &'static str,
                       name: &'static str,
                       max: &'static str,
                       get: fn(&Bm25Params) -> f64,
                       put: fn(&mut Bm25Params, f64)| {
        view! {
            <label for=id>{name}</label>
            <input
                id=id
                type="number"
                min="0"
                max=max
                step="0.05"
                prop:value=move || get(&form.get().params).to_string()
                on:change=move |ev| {
                    match event_target_value(&ev).parse::<f64>() {
                        Ok(v) => form.update(|c| put(&mut c.params, v)),
                        Err(_) => error.set(Some(format!("{name} must be a number"))),
                    }
                }
            />
        }
    };
    let chart = move || {
        let (_, a) = current(store)?;
        let b = compared(store, &a)?;
        let key = state.delta_measure.get();
        let (ca, cb) = (a.column(&key)?, b.column(&key)?);
        let deltas = (0..a.rows.len())
            .map(|r| b.value(r, cb) - a.value(r, ca))
            .collect();
        Some(view! {
            <p class="legend">
                <span>"A: "{a.config.describe()}</span>
                <span>"B: "{b.config.describe()}</span>
            </p>
            {delta_chart(deltas, &label(&key))}
        })
    };
    let one_gold = move || store.bench.with(|b| b.as_ref().is_some_and(|b| b.one_gold));

    view! {
        <section class="card compare" aria-labelledby="compare-title">
            <h3 id="compare-title">"Compare two methods"</h3>
            <p class="muted">
                "A is the current method, or a run file opened as A; B is evaluated on the same queries. "
                "The chart shows B − A for every query, largest gain first."
            </p>
            <div class="compare-form">
                <label for="compare-method">"B"</label>
                <select
                    id="compare-method"
                    prop:value=move || form.get().method.name()
                    on:change=move |ev| {
                        if let Some(m) = Method::by_name(&event_target_value(&ev)) {
                            form.update(|c| c.method = m);
                        }
                    }
                >
                    {method_options(dense_ok, graph_offered(), llm_offered())}
                </select>
                {method_fields(
                    "compare-method",
                    move || form.get().method,
                    move |m| form.update(|c| c.method = m),
                )}
                {move || {
                    pools.engine().filter(|e| e.has_augmented()).map(|_| {
                        view! {
                            <label for="compare-field">"on"</label>
                            <select
                                id="compare-field"
                                prop:value=move || form.get().field.name()
                                on:change=move |ev| {
                                    let field = match event_target_value(&ev).as_str() {
                                        "augmented" => Field::Augmented,
                                        _ => Field::Text,
                                    };
                                    form.update(|c| c.field = field);
                                }
                            >
                                <option value="text">"text"</option>
                                <option value="augmented">"augmented"</option>
                            </select>
                        }
                    })
                }}
                <span class="bm25-settings" prop:hidden=move || !form.get().method.needs_lexical()>
                    <label for="compare-variant">"BM25"</label>
                    <select
                        id="compare-variant"
                        prop:value=move || form.get().params.variant.name()
                        on:change=move |ev| {
                            if let Ok(v) = event_target_value(&ev).parse::<Bm25Variant>() {
                                form.update(|c| c.params.variant = v);
                            }
                        }
                    >
                        <option value="okapi" selected=move || form.get().params.variant == Bm25Variant::Okapi>
                            "Okapi"
                        </option>
                        <option value="lucene" selected=move || form.get().params.variant == Bm25Variant::Lucene>
                            "Lucene"
                        </option>
                    </select>
                    {number("compare-k1", "k1", "3", |p| p.k1, |p, v| p.k1 = v)}
                    {number("compare-b", "b", "1", |p| p.b, |p, v| p.b = v)}
                </span>
                <button type="button" class="button primary" prop:disabled=busy on:click=compare>
                    "Compare"
                </button>
                {move || {
                    (state.compare.with(Option::is_some)
                        || state.run.with(|r| r.as_ref().is_some_and(|r| r.slot == Slot::Compared)))
                        .then(|| {
                            view! {
                                <button type="button" class="button" on:click=stop_comparing>
                                    "Stop comparing"
                                </button>
                            }
                        })
                }}
                <label for="delta-measure">"Measure"</label>
                <select
                    id="delta-measure"
                    prop:value=move || state.delta_measure.get()
                    on:change=move |ev| state.delta_measure.set(event_target_value(&ev))
                >
                    {move || {
                        per_query_columns(one_gold())
                            .into_iter()
                            .map(|k| {
                                view! {
                                    <option value=k selected=move || state.delta_measure.with(|m| m == k)>
                                        {label(k)}
                                    </option>
                                }
                            })
                            .collect_view()
                    }}
                </select>
            </div>
            {move || error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
            {chart}
            <Significance />
        </section>
    }
}
