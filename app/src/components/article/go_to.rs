//! The "Go to" row above the results: where the query's citations lead
//! (`straffeloven § 244` → Straffeloven § 244, stk. 1), one button per
//! article; Enter in the search box opens the first. A citation that
//! names no act lists that article in every act that has it.

use leptos::prelude::*;

use crate::components::ids::ARTICLE_TITLE_ID;
use crate::search::store::SearchStore;
use crate::web::focus_id;

#[component]
pub fn GoToList(store: SearchStore) -> impl IntoView {
    move || {
        let rows = store.go_to.get().rows;
        (!rows.is_empty()).then(|| {
            let buttons = rows
                .into_iter()
                .map(|row| {
                    let label = row.label.clone();
                    view! {
                        <li>
                            <button
                                type="button"
                                class="button go-to-target"
                                on:click=move |_| {
                                    store.open_cited(&row);
                                    request_animation_frame(|| focus_id(ARTICLE_TITLE_ID));
                                }
                            >
                                {label}
                            </button>
                        </li>
                    }
                })
                .collect_view();
            view! {
                <nav class="go-to" aria-label="Citations in the query">
                    <span class="go-to-label">"Go to"</span>
                    <ul>{buttons}</ul>
                </nav>
            }
        })
    }
}
