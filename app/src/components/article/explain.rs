//! "Why this article?": the open article's BM25 score taken apart, term
//! by term (idf, occurrences, contribution) with the length figures they
//! share, as core's `Bm25Scorer::explain` computes it, and the editorial
//! heading's weighted share where the pool has one (one more row, summed
//! last, as the ranking sums it). Its total is the score to the last bit.
//! Computed only when the reader opens it, through the [`SearchSource`],
//! so a fragmented pool's article is explained as a blob's.

use leptos::prelude::*;
use nomos_core::methods::Method;
use nomos_core::search::Explanation;

use crate::latest::Latest;
use crate::search::source::SearchSource;
use crate::state::use_app_state;

/// The explanation of article `id` for the `query` that ranked it.
#[component]
pub fn Explain(id: String, query: Signal<String>, source: SearchSource) -> impl IntoView {
    let state = use_app_state();
    let open = RwSignal::new(false);
    let explanation = RwSignal::new(None::<Result<Option<Explanation>, String>>);
    // A fragmented pool's answer may come after the query changed again.
    let asked = Latest::new();
    Effect::new(move |_| {
        explanation.set(None);
        if !open.get() {
            return;
        }
        let ticket = asked.begin();
        let (field, params) = (state.field.get(), state.params.get());
        source.explain(&id, field, params, query.get(), move |explained| {
            if ticket.is_current() {
                explanation.try_set(Some(explained));
            }
        });
    });
    let context = move || {
        let method = state.method.get();
        let bm25 = format!("BM25 {}", state.params.get().describe());
        match (method, method.needs_lexical()) {
            (Method::Bm25, _) => format!("{bm25}: the score is the sum of the terms' shares."),
            (m, true) => format!("{bm25}, the lexical part of {}:", m.name()),
            (m, false) => format!(
                "{bm25}, for comparison: {} ranks by the cosine of the embeddings, \
                 which no single term explains.",
                m.name()
            ),
        }
    };
    let body = move || {
        explanation.get().map(|e| match e {
            Err(e) => view! { <p class="error" role="alert">{e}</p> }.into_any(),
            Ok(None) => view! {
                <p class="muted">"None of the query's terms is in this article: BM25 scores it 0."</p>
            }
            .into_any(),
            Ok(Some(e)) => view! {
                <p class="muted">{context}</p>
                <table class="metric-table compact explain-table">
                    <caption class="visually-hidden">"Each query term's share of the score"</caption>
                    <thead>
                        <tr>
                            <th scope="col">"Term"</th>
                            <th scope="col" title="inverse document frequency">"idf"</th>
                            <th scope="col" title="occurrences in this article">"tf"</th>
                            <th scope="col">"Share"</th>
                        </tr>
                    </thead>
                    <tbody>
                        {e
                            .terms
                            .iter()
                            .map(|t| {
                                let absent = (!t.in_index).then_some("not in the index");
                                view! {
                                    <tr
                                        class="explain-term"
                                        data-token=t.token.clone()
                                        data-contribution=t.contribution.to_string()
                                    >
                                        <th scope="row">{t.token.clone()}</th>
                                        <td>{absent.map_or_else(|| format!("{:.3}", t.idf), str::to_owned)}</td>
                                        <td>{t.tf}</td>
                                        <td>{format!("{:.3}", t.contribution)}</td>
                                    </tr>
                                }
                            })
                            .collect_view()}
                        {e.editorial.as_ref().map(|h| {
                            let share = h.share();
                            view! {
                                <tr
                                    class="explain-term explain-editorial"
                                    data-token="editorial heading"
                                    data-contribution=share.to_string()
                                >
                                    <th scope="row">{format!("editorial heading × {}", h.weight)}</th>
                                    <td colspan="2" class="muted">{format!("its BM25 {:.3}", h.heading.total)}</td>
                                    <td>{format!("{share:.3}")}</td>
                                </tr>
                            }
                        })}
                    </tbody>
                    <tfoot>
                        <tr>
                            <th scope="row">"Score"</th>
                            <td colspan="2"></td>
                            <td class="explain-total" data-total=e.score().to_string()>
                                {format!("{:.3}", e.score())}
                            </td>
                        </tr>
                    </tfoot>
                </table>
                <p class="muted">
                    {format!(
                        "This article has {} terms (the pool's average is {:.1}); its length \
                         normalisation k1·(1 − b + b·length/average) is {:.3}.",
                        e.doc_len, e.avg_len, e.norm
                    )}
                </p>
            }
            .into_any(),
        })
    };
    view! {
        <details class="explain" on:toggle=move |ev| open.set(event_target::<web_sys::HtmlDetailsElement>(&ev).open())>
            <summary>"Why this article?"</summary>
            {body}
        </details>
    }
}
