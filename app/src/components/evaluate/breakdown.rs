//! Means per group of queries: GBR's legal areas when queries carry one,
//! otherwise the law (source) of each query's gold articles. The grouping
//! used is stated in the caption.

use std::collections::BTreeMap;

use leptos::prelude::*;

use super::means::delta_class;
use super::{compared, current, use_eval_store};
use nomos_core::order::sort_by;
use nomos_core::pool::Benchmark;

use crate::evaluate::job::Outcome;
use crate::evaluate::measures::{fmt_delta, fmt_value, label};
use crate::format::thousands;
use crate::state::use_app_state;

/// Groups listed before "Show all".
const SHOWN: usize = 8;
const COLUMNS: [&str; 4] = ["ndcg@10", "map@100", "recall@10", "recall@100"];

/// One group's size and means.
#[derive(Debug, Clone, PartialEq)]
struct GroupRow {
    name: String,
    queries: usize,
    /// Means of [`COLUMNS`] under the current method.
    means: Vec<f64>,
    /// Mean B − A of the delta measure, when comparing.
    delta: Option<f64>,
}

#[component]
pub fn BreakdownCard() -> impl IntoView {
    let store = use_eval_store();
    let expanded = RwSignal::new(false);
    let body = move || {
        let (bench, a) = current(store)?;
        let b = compared(store, &a);
        let delta_key = use_app_state().delta_measure.get();
        let groups = group_rows(&bench, &a, b.as_deref(), &delta_key);
        let total = groups.len();
        let shown = if expanded.get() {
            total
        } else {
            SHOWN.min(total)
        };
        let delta_head = b.is_some().then(|| {
            view! { <th scope="col">{format!("B − A {}", label(&delta_key))}</th> }
        });
        let rows = groups
            .into_iter()
            .take(shown)
            .map(|g| {
                view! {
                    <tr>
                        <th scope="row" class="group-name">{g.name}</th>
                        <td>{thousands(g.queries)}</td>
                        {g.means.iter().map(|&v| view! { <td>{fmt_value(v)}</td> }).collect_view()}
                        {g.delta.map(|d| view! { <td class=delta_class(d)>{fmt_delta(d)}</td> })}
                    </tr>
                }
            })
            .collect_view();
        Some(view! {
            <div class="table-scroll">
                <table class="metric-table breakdown">
                    <caption>
                        {format!("Grouped {}.", bench.grouping.describe())}
                    </caption>
                    <thead>
                        <tr>
                            <th scope="col">{bench.grouping.heading()}</th>
                            <th scope="col">"Queries"</th>
                            {COLUMNS.map(|c| view! { <th scope="col">{label(c)}</th> }).collect_view()}
                            {delta_head}
                        </tr>
                    </thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
            {(total > SHOWN)
                .then(|| {
                    view! {
                        <button
                            type="button"
                            class="button"
                            aria-expanded=move || expanded.get().to_string()
                            on:click=move |_| expanded.update(|e| *e = !*e)
                        >
                            {move || {
                                if expanded.get() {
                                    format!("Show the first {SHOWN}")
                                } else {
                                    format!("Show all {}", thousands(total))
                                }
                            }}
                        </button>
                    }
                })}
        })
    };
    view! {
        <section class="card breakdown-card" aria-labelledby="breakdown-title">
            <h3 id="breakdown-title">"By area"</h3>
            {move || match body() {
                Some(table) => table.into_any(),
                None => {
                    view! { <p class="muted">"Means per legal area (or per law) appear after a run."</p> }
                        .into_any()
                }
            }}
        </section>
    }
}

/// Each group's means, most queries first, then by name.
fn group_rows(
    bench: &Benchmark,
    a: &Outcome,
    b: Option<&Outcome>,
    delta_key: &str,
) -> Vec<GroupRow> {
    let columns: Vec<Option<usize>> = COLUMNS.iter().map(|c| a.column(c)).collect();
    let delta_column = b.and_then(|b| Some((a.column(delta_key)?, b.column(delta_key)?, b)));
    // Sums in row order, then divided: a group's mean, as the overall one.
    let mut groups: BTreeMap<&str, (usize, Vec<f64>, f64)> = BTreeMap::new();
    for (row, &q) in a.rows.iter().enumerate() {
        for name in &bench.queries[q].groups {
            let entry = groups
                .entry(name)
                .or_insert_with(|| (0, vec![0.0; COLUMNS.len()], 0.0));
            entry.0 += 1;
            for (sum, column) in entry.1.iter_mut().zip(&columns) {
                *sum += column.map_or(0.0, |c| a.value(row, c));
            }
            if let Some((ca, cb, b)) = delta_column {
                entry.2 += b.value(row, cb) - a.value(row, ca);
            }
        }
    }
    let mut rows: Vec<GroupRow> = groups
        .into_iter()
        .map(|(name, (n, sums, delta))| GroupRow {
            name: name.to_owned(),
            queries: n,
            means: sums.iter().map(|s| s / n as f64).collect(),
            delta: delta_column.map(|_| delta / n as f64),
        })
        .collect();
    sort_by(&mut rows, |x, y| {
        y.queries.cmp(&x.queries).then_with(|| x.name.cmp(&y.name))
    });
    rows
}
