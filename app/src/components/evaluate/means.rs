//! The mean of every measure `nomos eval` reports, for the current method
//! and, when comparing, the other one with the difference; then how long
//! it took and the exports. Each row carries the measure's key and the
//! mean at full precision (`data-measure`, `data-value`) for tests and
//! scripts; cells show four decimals.

use leptos::prelude::*;

use super::{compared, current, use_eval_store};
use crate::evaluate::export::{metrics_csv, metrics_json, run_file, run_tag};
use crate::evaluate::measures::{fmt_delta, fmt_value, label, REPORTED};
use crate::format::{plural, thousands};
use crate::state::{use_app_state, PoolChoice};
use crate::web::download;

#[component]
pub fn MeansCard() -> impl IntoView {
    let store = use_eval_store();
    let state = use_app_state();
    let body = move || {
        let Some((bench, a)) = current(store) else {
            return view! {
                <p class="muted">
                    "Run the evaluation to see nDCG, MAP and recall over every query."
                </p>
            }
            .into_any();
        };
        let b = compared(store, &a);
        let rows = REPORTED
            .iter()
            .map(|&key| {
                let mean_a = a.mean(key).unwrap_or_default();
                let mean_b = b.as_ref().and_then(|b| b.mean(key));
                view! {
                    <tr data-measure=key data-value=mean_a.to_string()>
                        <th scope="row">{label(key)}</th>
                        <td>{fmt_value(mean_a)}</td>
                        {mean_b
                            .map(|v| {
                                let d = v - mean_a;
                                view! {
                                    <td data-value=v.to_string()>{fmt_value(v)}</td>
                                    <td class=delta_class(d)>{fmt_delta(d)}</td>
                                }
                            })}
                    </tr>
                }
            })
            .collect_view();
        let head_b = b.as_ref().map(|b| {
            view! {
                <th scope="col" title=b.config.describe()>"B"</th>
                <th scope="col">"B − A"</th>
            }
        });
        let evaluated = a.eval.queries.len();
        let ranked = a.queries;
        let mut counted = if evaluated == ranked {
            plural(ranked, "query", "queries")
        } else {
            format!(
                "{} ({} ranked; those without judgments do not count)",
                plural(evaluated, "query", "queries"),
                thousands(ranked)
            )
        };
        if ranked < bench.queries.len() {
            counted.push_str(&format!(
                ", the first of {}",
                thousands(bench.queries.len())
            ));
        }
        view! {
            <table class="metric-table" data-testid="metric-means">
                <caption>{format!("Means over {counted}")}</caption>
                <thead>
                    <tr>
                        <th scope="col">"Measure"</th>
                        <th scope="col" title=a.config.describe()>
                            {if b.is_some() { "A" } else { "Mean" }}
                        </th>
                        {head_b}
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
            {b.as_ref().map(|b| view! {
                <p class="legend">
                    <span>"A: "{a.config.describe()}</span>
                    <span>"B: "{b.config.describe()}</span>
                </p>
            })}
            <p class="timing">
                {format!(
                    "{} ranked in {:.0} ms, evaluated in {:.0} ms",
                    thousands(ranked),
                    a.rank_millis,
                    a.eval_millis
                )}
            </p>
        }
        .into_any()
    };
    // Files are named after the pool and the method.
    let stem = move |tag: &str| {
        let pool = match state.pool.get_untracked() {
            Some(PoolChoice::Listed(f) | PoolChoice::Local(f)) => {
                f.trim_end_matches(".blob").to_owned()
            }
            None => "pool".to_owned(),
        };
        format!(
            "{pool}-{}",
            tag.trim_start_matches("nomos-")
                .replace([':', ',', '='], "_")
        )
    };
    let export = move |kind: &'static str| {
        let Some((bench, a)) = current(store) else {
            return;
        };
        let stem = stem(&run_tag(&a));
        let result = match kind {
            "run" => run_file(&bench, &a)
                .map_err(|e| e.to_string())
                .and_then(|text| {
                    download(&format!("{stem}.trec"), "text/plain", &text)
                        .map_err(|e| e.to_string())
                }),
            "json" => download(
                &format!("{stem}.metrics.json"),
                "application/json",
                &metrics_json(&a),
            )
            .map_err(|e| e.to_string()),
            _ => download(
                &format!("{stem}.metrics.csv"),
                "text/csv",
                &metrics_csv(&bench, &a),
            )
            .map_err(|e| e.to_string()),
        };
        if let Err(message) = result {
            store.message.set(message);
        }
    };
    let has_result = move || store.current.with(Option::is_some);
    view! {
        <section class="card means" aria-labelledby="means-title">
            <h3 id="means-title">"Metrics"</h3>
            {body}
            {move || {
                has_result()
                    .then(|| {
                        view! {
                            <div class="exports" role="group" aria-label="Export the current method's results">
                                <span class="muted">"Export"</span>
                                <button type="button" class="button" on:click=move |_| export("run")>
                                    "Run (TREC)"
                                </button>
                                <button type="button" class="button" on:click=move |_| export("json")>
                                    "Metrics (JSON)"
                                </button>
                                <button type="button" class="button" on:click=move |_| export("csv")>
                                    "Metrics (CSV)"
                                </button>
                            </div>
                        }
                    })
            }}
        </section>
    }
}

/// `better`, `worse` or `same`, for colouring a B − A difference.
pub fn delta_class(d: f64) -> &'static str {
    match fmt_delta(d).chars().next() {
        Some('+') => "delta better",
        Some('\u{2212}') => "delta worse",
        _ => "delta",
    }
}
