//! The k1 × b sweep as a heat map: rows are k1 values, columns b values,
//! each cell the mean of one measure (Recall@100 by default) over every
//! query, computed cell by cell with progress and Cancel. The best cell is
//! marked; clicking a cell makes its parameters the current method.

use leptos::prelude::*;
use nomos_core::search::Bm25Params;

use super::run_bar::JobProgress;
use super::use_eval_store;
use crate::evaluate::measures::{fmt_value, label, REPORTED};
use crate::evaluate::sweep::{best, format_axis, parse_axis, Grid, DEFAULT_B, DEFAULT_K1};
use crate::state::use_app_state;

#[component]
pub fn SweepCard() -> impl IntoView {
    let state = use_app_state();
    let store = use_eval_store();
    let k1_text = RwSignal::new(format_axis(&DEFAULT_K1));
    let b_text = RwSignal::new(format_axis(&DEFAULT_B));
    let measure = RwSignal::new("recall@100".to_owned());
    let error = RwSignal::new(None::<String>);
    let busy = move || store.job.with(Option::is_some);

    let start = move |_| {
        let grid = parse_axis(&k1_text.get_untracked(), "k1", 0.0, 3.0).and_then(|k1| {
            Ok(Grid {
                k1,
                b: parse_axis(&b_text.get_untracked(), "b", 0.0, 1.0)?,
            })
        });
        match grid {
            Ok(grid) => {
                error.set(None);
                store.sweep(
                    grid,
                    state.params.get_untracked(),
                    state.field.get_untracked(),
                    measure.get_untracked(),
                );
            }
            Err(e) => error.set(Some(e)),
        }
    };
    let cells = move || {
        store.sweep.with(|s| {
            s.as_ref()
                .map_or(Grid::default().cells(), |s| s.grid.cells())
        })
    };

    view! {
        <section class="card sweep" aria-labelledby="sweep-title">
            <h3 id="sweep-title">"k1 × b sweep"</h3>
            <p class="muted">
                "Every cell evaluates all queries with the current BM25 variant at that k1 and b. "
                "Choose a cell to make it the current method (Search uses it too)."
            </p>
            <div class="sweep-form">
                <label for="sweep-k1">"k1 values"</label>
                <input id="sweep-k1" type="text" inputmode="decimal" bind:value=k1_text />
                <label for="sweep-b">"b values"</label>
                <input id="sweep-b" type="text" inputmode="decimal" bind:value=b_text />
                <label for="sweep-measure">"Measure"</label>
                <select id="sweep-measure" on:change=move |ev| measure.set(event_target_value(&ev))>
                    {REPORTED
                        .iter()
                        .map(|&k| {
                            view! { <option value=k selected=move || measure.with(|m| m == k)>{label(k)}</option> }
                        })
                        .collect_view()}
                </select>
                <button type="button" class="button primary" prop:disabled=busy on:click=start>
                    {move || format!("Run sweep ({} settings)", cells())}
                </button>
            </div>
            {move || error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
            {move || store.sweep.with(|s| s.as_ref().map(|s| !s.finished)).unwrap_or(false).then(|| view! { <JobProgress /> })}
            <HeatMap />
        </section>
    }
}

#[component]
fn HeatMap() -> impl IntoView {
    let state = use_app_state();
    let store = use_eval_store();
    move || {
        let s = store.sweep.get()?;
        let current = state.params.get();
        let best_cell = best(&s.values);
        let known: Vec<f64> = s.values.iter().flatten().copied().collect();
        let low = known.iter().copied().fold(f64::INFINITY, f64::min);
        let high = known.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let name = label(&s.measure);
        let title = format!(
            "{name} by k1 (rows) and b (columns), BM25 {}",
            s.base.variant
        );
        let rows = s
            .grid
            .k1
            .iter()
            .enumerate()
            .map(|(r, &k1)| {
                let cells = s
                    .grid
                    .b
                    .iter()
                    .enumerate()
                    .map(|(c, &b)| {
                        let cell = r * s.grid.b.len() + c;
                        let params = s.params(cell);
                        let is_current = same_params(&params, &current);
                        match s.values[cell] {
                            None => view! {
                                <td class="pending" aria-label=format!("k1 {k1}, b {b}: not computed")>"…"</td>
                            }
                            .into_any(),
                            Some(v) => {
                                let t = if high > low { (v - low) / (high - low) } else { 1.0 };
                                let is_best = best_cell == Some(cell);
                                let describe_cell = format!(
                                    "k1 {k1}, b {b}: {name} {}{}{}. Use these parameters",
                                    fmt_value(v),
                                    if is_best { ", best" } else { "" },
                                    if is_current { ", current method" } else { "" },
                                );
                                view! {
                                    <td>
                                        <button
                                            type="button"
                                            class="cell"
                                            class:best=is_best
                                            class:current=is_current
                                            class:dark={t > 0.55}
                                            style:background-color=heat(t)
                                            aria-label=describe_cell
                                            title=format!("k1 = {k1}, b = {b}: {v}")
                                            on:click=move |_| state.params.set(params)
                                        >
                                            {fmt_value(v)}
                                            {is_best.then_some(" ★")}
                                        </button>
                                    </td>
                                }
                                .into_any()
                            }
                        }
                    })
                    .collect_view();
                view! {
                    <tr>
                        <th scope="row">{k1.to_string()}</th>
                        {cells}
                    </tr>
                }
            })
            .collect_view();
        let summary = best_cell.map(|cell| {
            let (k1, b) = s.grid.cell(cell);
            format!(
                "Best: k1 = {k1}, b = {b} with {name} {} (★). {} of {} settings in {:.1} s.",
                fmt_value(s.values[cell].unwrap_or_default()),
                known.len(),
                s.grid.cells(),
                s.millis / 1000.0
            )
        });
        // A caption is as narrow as its table: the visible title is a
        // paragraph, the caption is for screen readers.
        Some(view! {
            <div class="table-scroll">
                <p class="heatmap-title" aria-hidden="true">
                    {title.clone()}
                    <span class="muted">{format!(" · current method: {}", current.describe())}</span>
                </p>
                <table class="heatmap">
                    <caption class="visually-hidden">{title}</caption>
                    <thead>
                        <tr>
                            <th scope="col">
                                <abbr title="k1 down, b across">"k1 \\ b"</abbr>
                            </th>
                            {s.grid.b.iter().map(|b| view! { <th scope="col">{b.to_string()}</th> }).collect_view()}
                        </tr>
                    </thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
            <p class="sweep-summary">{summary}</p>
            {(known.len() > 1 && high > low)
                .then(|| {
                    view! {
                        <p class="scale" aria-hidden="true">
                            <span>{fmt_value(low)}</span>
                            <span class="scale-bar"></span>
                            <span>{fmt_value(high)}</span>
                        </p>
                    }
                })}
        })
    }
}

/// A cell's colour: from the page's light panel tone (worst) to the accent
/// blue (best).
fn heat(t: f64) -> String {
    let t = t.clamp(0.0, 1.0);
    let mix = |from: f64, to: f64| (from + (to - from) * t).round() as u8;
    format!(
        "rgb({}, {}, {})",
        mix(241.0, 29.0),
        mix(245.0, 79.0),
        mix(251.0, 140.0)
    )
}

/// Same k1 and b and variant (epsilon follows the variant).
fn same_params(a: &Bm25Params, b: &Bm25Params) -> bool {
    a.variant == b.variant && a.k1 == b.k1 && a.b == b.b
}
