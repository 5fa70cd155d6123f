//! CRAwLeR-DK's context diagnostic for pools whose gold articles cite
//! others: per query, the gold's rank and how many of the articles it cites
//! outrank it, summarised as `nomos eval --context` prints it. Hidden for
//! pools without cross-references from their gold articles.

use leptos::prelude::*;

use super::{current, use_eval_store};
use crate::evaluate::context::context_report;
use crate::pools::store::use_pools;

#[component]
pub fn ContextCard() -> impl IntoView {
    let store = use_eval_store();
    let pools = use_pools();
    let report = move || {
        let (bench, a) = current(store)?;
        let engine = pools.engine()?;
        context_report(&bench, &a.hits, |d| engine.blob().explicit_refs(d as usize))
    };
    move || {
        report().map(|r| {
            let rows = r
                .rows
                .into_iter()
                .map(|row| {
                    let rank = row
                        .rank
                        .gold_rank
                        .map_or("not in the top 100".to_owned(), |k| k.to_string());
                    view! {
                        <tr>
                            <th scope="row">{row.query}</th>
                            <td>{rank}</td>
                            <td>{row.rank.n_context}</td>
                            <td>{row.rank.outranking}</td>
                        </tr>
                    }
                })
                .collect_view();
            view! {
                <section class="card context-card" aria-labelledby="context-title">
                    <h3 id="context-title">"Context"</h3>
                    <p class="context-summary">{format!("{}.", r.summary.describe())}</p>
                    <details>
                        <summary>
                            "Per query: the gold's rank and the articles it cites ranked above it"
                        </summary>
                        <div class="table-scroll">
                            <table class="metric-table context">
                                <thead>
                                    <tr>
                                        <th scope="col">"Query"</th>
                                        <th scope="col">"Gold rank"</th>
                                        <th scope="col">"Cited articles"</th>
                                        <th scope="col">"Ranked above the gold"</th>
                                    </tr>
                                </thead>
                                <tbody>{rows}</tbody>
                            </table>
                        </div>
                    </details>
                </section>
            }
        })
    }
}
