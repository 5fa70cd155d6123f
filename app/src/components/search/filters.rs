//! Filters by source (law, code), legal area, document type and year,
//! each value with how many of the current results it holds, on every
//! storage (the counts are [`nomos_core::facets`]'). A group is shown
//! only when the results have more than one value for it; past
//! [`SHOWN_VALUES`] the rest fold under "N more". Sources show their
//! names (`Straffeloven`), not their ids (`straffeloven`).

use leptos::prelude::*;

use crate::format::thousands;
use crate::search::source::SearchSource;
use crate::state::use_app_state;
use nomos_core::facets::{kind_label, FacetCounts};

type Counts = Signal<Vec<(String, usize)>>;

/// Values a facet lists before the rest fold away.
const SHOWN_VALUES: usize = 12;

#[component]
pub fn Filters(source: SearchSource) -> impl IntoView {
    let state = use_app_state();
    let facets = Memo::new(move |_| source.facets());
    let group = move |pick: fn(&FacetCounts) -> &Vec<(String, usize)>| -> Counts {
        Signal::derive(move || {
            facets
                .with(|f| f.as_ref().map(|(c, _)| pick(c).clone()))
                .unwrap_or_default()
        })
    };
    let total = Signal::derive(move || facets.with(|f| f.as_ref().map_or(0, |(_, n)| *n)));
    let as_is = Callback::new(|value: String| value);
    // Each group: its legend, its radio buttons' name (the link's key),
    // its counts, the chosen value and what a value is called.
    let groups = [
        (
            "Source",
            "source",
            group(|c| &c.source),
            state.source,
            Callback::new(move |id: String| source.source_name(&id)),
        ),
        ("Legal area", "area", group(|c| &c.area), state.area, as_is),
        (
            "Type",
            "type",
            group(|c| &c.kind),
            state.kind,
            Callback::new(|kind: String| kind_label(&kind)),
        ),
        ("Year", "year", group(|c| &c.year), state.year, as_is),
    ];
    groups
        .into_iter()
        .map(|(legend, name, counts, chosen, label)| {
            view! { <FilterGroup legend name counts chosen total label /> }
        })
        .collect_view()
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
        let mut counts = counts.get();
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
        // The chosen value is never folded away.
        if let Some(at) = selected
            .as_ref()
            .and_then(|s| counts.iter().position(|(v, _)| v == s))
            .filter(|&at| at >= SHOWN_VALUES)
        {
            let picked = counts.remove(at);
            counts.insert(0, picked);
        }
        let total = total.get();
        let option = move |value: Option<String>, label: String, n: usize| {
            let checked = selected_eq(chosen, value.clone());
            let raw = value.clone().unwrap_or_default();
            view! {
                <li>
                    <label class="facet" class:zero=n == 0>
                        <input
                            type="radio"
                            name=name
                            value=raw
                            prop:checked=checked
                            on:change=move |_| chosen.set(value.clone())
                        />
                        <span class="facet-label">{label}</span>
                        <span class="count">{thousands(n)}</span>
                    </label>
                </li>
            }
        };
        let rest = counts.split_off(SHOWN_VALUES.min(counts.len()));
        let folded = (!rest.is_empty()).then(|| {
            let more = format!("{} more", thousands(rest.len()));
            view! {
                <li>
                    <details class="facet-more">
                        <summary>{more}</summary>
                        <ul class="facets">
                            {rest
                                .into_iter()
                                .map(|(value, n)| option(Some(value.clone()), label.run(value), n))
                                .collect_view()}
                        </ul>
                    </details>
                </li>
            }
        });
        Some(view! {
            <fieldset class="filter">
                <legend>{legend}</legend>
                <ul class="facets">
                    {option(None, "All".to_owned(), total)}
                    {counts
                        .into_iter()
                        .map(|(value, n)| option(Some(value.clone()), label.run(value), n))
                        .collect_view()}
                    {folded}
                </ul>
            </fieldset>
        })
    }
}

fn selected_eq(chosen: RwSignal<Option<String>>, value: Option<String>) -> impl Fn() -> bool {
    move || chosen.with(|c| *c == value)
}
