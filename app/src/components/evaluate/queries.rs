//! Every evaluated query with its values: sortable by id, number of gold
//! articles, each measure and (when comparing) the difference, by header
//! buttons that keyboards reach; a query's row opens its ranking.

use std::cmp::Ordering;

use leptos::prelude::*;

use super::detail::QueryDetail;
use super::means::delta_class;
use super::{compared, current, use_eval_store};
use nomos_core::order::stable_order;
use nomos_core::pool::Benchmark;

use crate::components::ids::{query_link_id, DETAIL_TITLE_ID};
use crate::evaluate::job::Outcome;
use crate::evaluate::measures::{fmt_delta, fmt_value, label, per_query_columns};
use crate::format::{plural, thousands};
use crate::state::{use_app_state, EvalSort};
use crate::web::focus_id;

/// Rows shown at first and added by "Show more".
const PAGE: usize = 50;

#[component]
pub fn QueriesCard() -> impl IntoView {
    let state = use_app_state();
    let store = use_eval_store();
    let limit = RwSignal::new(PAGE);

    // Evaluated rows (positions in the outcome) in the chosen order.
    let order = Memo::new(move |_| {
        let (bench, a) = current(store)?;
        let b = compared(store, &a);
        let sort = state.eval_sort.get();
        let delta_key = state.delta_measure.get();
        Some(sorted_rows(&bench, &a, b.as_deref(), &delta_key, &sort))
    });

    let header = move |key: String, text: String| {
        let sort_key = key.clone();
        let aria = move || {
            state.eval_sort.with(|s| {
                let order = if s.descending {
                    "descending"
                } else {
                    "ascending"
                };
                (s.column == key).then_some(order)
            })
        };
        let arrow = {
            let key = sort_key.clone();
            move || {
                state
                    .eval_sort
                    .with(|s| match (s.column == key, s.descending) {
                        (false, _) => "",
                        (true, true) => " ↓",
                        (true, false) => " ↑",
                    })
            }
        };
        view! {
            <th scope="col" aria-sort=aria>
                <button
                    type="button"
                    class="sort"
                    on:click=move |_| {
                        state.eval_sort.update(|s| {
                            if s.column == sort_key {
                                s.descending = !s.descending;
                            } else {
                                // Ids read up; counts and values best first.
                                s.descending = sort_key != "id";
                                s.column.clone_from(&sort_key);
                            }
                        })
                    }
                >
                    {text}
                    <span aria-hidden="true">{arrow}</span>
                </button>
            </th>
        }
    };

    let table = move || {
        let (bench, a) = current(store)?;
        let b = compared(store, &a);
        let columns = per_query_columns(bench.one_gold);
        let col_index: Vec<usize> = columns.iter().filter_map(|c| a.column(c)).collect();
        let delta_key = state.delta_measure.get();
        let delta_cols = b
            .as_ref()
            .and_then(|b| Some((a.column(&delta_key)?, b.column(&delta_key)?)));
        let order = order.get().unwrap_or_default();
        let total = order.len();
        let shown = limit.get().min(total);
        let selected = state.eval_query.get();
        // With a query open the table shares the width: the text goes.
        let show_text = selected.is_none();
        let rows = order[..shown]
            .iter()
            .map(|&row| {
                let q = &bench.queries[a.rows[row]];
                let id = q.id.clone();
                let open = {
                    let id = id.clone();
                    move |_| {
                        state.eval_query.set(Some(id.clone()));
                        request_animation_frame(|| focus_id(DETAIL_TITLE_ID));
                    }
                };
                let is_selected = selected.as_deref() == Some(id.as_str());
                view! {
                    <tr class:selected=is_selected>
                        <th scope="row">
                            <button
                                type="button"
                                class="query-link"
                                id=query_link_id(&id)
                                aria-pressed=is_selected.to_string()
                                on:click=open
                            >
                                {id.clone()}
                            </button>
                        </th>
                        {show_text
                            .then(|| view! { <td class="query-text" title=q.text.clone()>{q.text.clone()}</td> })}
                        <td>{q.n_gold()}</td>
                        {col_index
                            .iter()
                            .map(|&c| view! { <td>{fmt_value(a.value(row, c))}</td> })
                            .collect_view()}
                        {delta_cols
                            .zip(b.as_ref())
                            .map(|((ca, cb), b)| {
                                let d = b.value(row, cb) - a.value(row, ca);
                                view! { <td class=delta_class(d)>{fmt_delta(d)}</td> }
                            })}
                    </tr>
                }
            })
            .collect_view();
        let delta_head = delta_cols
            .is_some()
            .then(|| header("delta".to_owned(), format!("B − A {}", label(&delta_key))));
        Some(view! {
            <div class="table-scroll">
                <table class="metric-table per-query">
                    <caption class="visually-hidden">
                        "Per-query values; the column buttons sort the table"
                    </caption>
                    <thead>
                        <tr>
                            {header("id".to_owned(), "Query".to_owned())}
                            {show_text.then(|| view! { <th scope="col">"Text"</th> })}
                            {header("gold".to_owned(), "Gold".to_owned())}
                            {columns
                                .iter()
                                .map(|c| header((*c).to_owned(), label(c)))
                                .collect_view()}
                            {delta_head}
                        </tr>
                    </thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
            <div class="more">
                <span>{format!("Showing {} of {}", thousands(shown), plural(total, "query", "queries"))}</span>
                {(shown < total)
                    .then(|| {
                        view! {
                            <button type="button" class="button" on:click=move |_| limit.update(|l| *l += PAGE)>
                                {format!("Show {} more", PAGE.min(total - shown))}
                            </button>
                            <button type="button" class="button" on:click=move |_| limit.set(usize::MAX)>
                                "Show all"
                            </button>
                        }
                    })}
            </div>
        })
    };

    view! {
        <section class="card queries" aria-labelledby="queries-title">
            <h3 id="queries-title">"Per query"</h3>
            <div class="queries-layout" class:open=move || state.eval_query.with(Option::is_some)>
                <div class="queries-table">
                    {move || {
                        table()
                            .map(|t| t.into_any())
                            .unwrap_or_else(|| {
                                view! { <p class="muted">"Each query's values appear after a run."</p> }
                                    .into_any()
                            })
                    }}
                </div>
                <QueryDetail />
            </div>
        </section>
    }
}

/// Row positions of `a` in the order `sort` asks for; ties keep run
/// order either way.
fn sorted_rows(
    bench: &Benchmark,
    a: &Outcome,
    b: Option<&Outcome>,
    delta_key: &str,
    sort: &EvalSort,
) -> Vec<usize> {
    let query = |row: usize| &bench.queries[a.rows[row]];
    let delta = b.and_then(|b| Some((b, a.column(delta_key)?, b.column(delta_key)?)));
    let column = a.column(&sort.column);
    let compare = |x: usize, y: usize| -> Ordering {
        match sort.column.as_str() {
            "gold" => query(x).n_gold().cmp(&query(y).n_gold()),
            "delta" => match delta {
                Some((b, ca, cb)) => {
                    let d = |r| b.value(r, cb) - a.value(r, ca);
                    d(x).total_cmp(&d(y))
                }
                None => Ordering::Equal,
            },
            _ => match column {
                Some(c) => a.value(x, c).total_cmp(&a.value(y, c)),
                None => natural_cmp(&query(x).id, &query(y).id),
            },
        }
    };
    // A stable sort: equal keys stay in run order.
    stable_order(a.rows.len(), &|x, y| {
        let order = compare(x as usize, y as usize);
        if sort.descending {
            order.reverse()
        } else {
            order
        }
    })
    .into_iter()
    .map(|i| i as usize)
    .collect()
}

/// Numbers by value (`2` before `10`), anything else by text.
fn natural_cmp(a: &str, b: &str) -> Ordering {
    match (a.parse::<u64>(), b.parse::<u64>()) {
        (Ok(x), Ok(y)) => x.cmp(&y),
        (Ok(_), Err(_)) => Ordering::Less,
        (Err(_), Ok(_)) => Ordering::Greater,
        (Err(_), Err(_)) => a.cmp(b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_sort_numbers_by_value_before_text() {
        let mut ids = ["10", "b", "2", "a", "1"];
        ids.sort_by(|x, y| natural_cmp(x, y));
        assert_eq!(ids, ["1", "2", "10", "a", "b"]);
    }
}
