//! Filters by source (law, code) and legal area, each value with how many
//! of the current results it holds. A group is shown only when the pool
//! has more than one value for it. Sources show their names
//! (`Straffeloven`), not their ids (`straffeloven`).

use leptos::prelude::*;

use crate::format::thousands;
use crate::pools::store::use_pools;
use crate::state::use_app_state;

type Counts = Memo<Option<Vec<(String, usize)>>>;

#[component]
pub fn Filters(
    source_counts: Counts,
    area_counts: Counts,
    /// Results before filtering.
    total: Signal<usize>,
) -> impl IntoView {
    let state = use_app_state();
    let pools = use_pools();
    let source_name = Callback::new(move |id: String| {
        pools
            .engine()
            .map_or_else(|| id.clone(), |e| e.source_name(&id))
    });
    view! {
        <FilterGroup
            legend="Source"
            name="source"
            counts=source_counts
            chosen=state.source
            total=total
            label=source_name
        />
        <FilterGroup
            legend="Legal area"
            name="area"
            counts=area_counts
            chosen=state.area
            total=total
            label=Callback::new(|area| area)
        />
    }
}

#[component]
fn FilterGroup(
    legend: &'static str,
    name: &'static str,
    counts: Counts,
    chosen: RwSignal<Option<String>>,
    total: Signal<usize>,
    /// What a value is called.
    label: Callback<String, String>,
) -> impl IntoView {
    move || {
        let mut counts = counts.get().unwrap_or_default();
        let selected = chosen.get();
        // A chosen value the new results lack stays listed, so it can be
        // cleared.
        if let Some(s) = &selected {
            if !counts.iter().any(|(v, _)| v == s) {
                counts.push((s.clone(), 0));
            }
        }
        if counts.is_empty() || (counts.len() == 1 && selected.is_none()) {
            return None;
        }
        let total = total.get();
        let option = move |value: Option<String>, label: String, n: usize| {
            let checked = selected_eq(chosen, value.clone());
            view! {
                <li>
                    <label class="facet" class:zero=n == 0>
                        <input
                            type="radio"
                            name=name
                            prop:checked=checked
                            on:change=move |_| chosen.set(value.clone())
                        />
                        <span class="facet-label">{label}</span>
                        <span class="count">{thousands(n)}</span>
                    </label>
                </li>
            }
        };
        Some(view! {
            <fieldset class="filter">
                <legend>{legend}</legend>
                <ul class="facets">
                    {option(None, "All".to_owned(), total)}
                    {counts
                        .into_iter()
                        .map(|(value, n)| option(Some(value.clone()), label.run(value), n))
                        .collect_view()}
                </ul>
            </fieldset>
        })
    }
}

fn selected_eq(chosen: RwSignal<Option<String>>, value: Option<String>) -> impl Fn() -> bool {
    move || chosen.with(|c| *c == value)
}
