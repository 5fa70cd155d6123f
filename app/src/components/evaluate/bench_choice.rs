//! Which judgments Evaluate uses: the pool's benchmark or the user's own
//! (from the Search view). A pool without a benchmark always uses the
//! user's; switching drops results made with the other.

use leptos::prelude::*;

use super::use_eval_store;
use crate::format::thousands;
use crate::pools::store::use_pools;
use crate::state::use_app_state;

#[component]
pub fn BenchChoice() -> impl IntoView {
    let state = use_app_state();
    let pools = use_pools();
    let store = use_eval_store();
    let Some(session) = pools.session.get_untracked() else {
        return ().into_any();
    };
    let judgments = session.judgments.judgments;
    let pool_queries = session.engine.n_queries();
    let mine_count = move || judgments.with(|j| j.queries().len());
    let uses_mine = move || pool_queries == 0 || (state.my_judgments.get() && mine_count() > 0);
    // Kept in step with the choice and the judgments (a no-op when
    // neither changed since the results were made).
    Effect::new(move |_| {
        let mine = uses_mine();
        judgments.with(|j| store.judge_by(mine.then_some(j)));
    });
    let choose = move |mine: bool| state.my_judgments.set(mine);
    view! {
        <fieldset class="bench-choice">
            <legend>"Judgments"</legend>
            <label>
                <input
                    type="radio"
                    name="bench-choice"
                    value="pool"
                    disabled=pool_queries == 0
                    prop:checked=move || !uses_mine()
                    on:change=move |_| choose(false)
                />
                {match pool_queries {
                    0 => "the pool's benchmark (it has none)".to_owned(),
                    n => format!("the pool's benchmark ({} queries)", thousands(n)),
                }}
            </label>
            <label>
                <input
                    type="radio"
                    name="bench-choice"
                    value="mine"
                    disabled=move || mine_count() == 0
                    prop:checked=uses_mine
                    on:change=move |_| choose(true)
                />
                {move || match mine_count() {
                    0 => "my judgments (none yet: judge results in Search)".to_owned(),
                    n => format!("my judgments ({} queries)", thousands(n)),
                }}
            </label>
        </fieldset>
    }
    .into_any()
}
