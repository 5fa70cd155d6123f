//! Is B's difference from A significant? Per measure: A, B, Δ with its
//! 95% confidence interval, the paired t-test's and randomization test's
//! p-values, both Holm-adjusted across the measures, a mark where
//! significant at α, and wins/ties/losses; exports of the table as
//! Markdown and LaTeX and of the difference chart as SVG. The numbers
//! are core's, as `nomos compare` prints them for the same runs and seed.
//!
//! Hooks for tests: `[data-testid=significance-table]`, one
//! `tr[data-measure="<key>"]` per measure with the p-values at full
//! precision (Rust `{}` of the f64, NaN as `NaN`) in `data-t-p`,
//! `data-t-holm`, `data-rand-p` and `data-rand-holm`.

use leptos::prelude::*;
use nomos_core::eval::significance::{
    format_p, latex, markdown, Comparison, MeasureComparison, Settings, Test,
};

use super::{compared, current, use_eval_store};
use crate::components::ids::DELTA_CHART_ID;
use crate::evaluate::measures::{fmt_delta, fmt_value, label};
use crate::evaluate::significance::{comparison, standalone_svg};
use crate::format::thousands;
use crate::web::{download, now, outer_html};

/// The most sign flips the page draws (about ten times the default's cost).
const MAX_PERMUTATIONS: u64 = 100_000;

#[component]
pub fn Significance() -> impl IntoView {
    let store = use_eval_store();
    let settings = RwSignal::new(Settings::default());
    let input_error = RwSignal::new(None::<String>);
    // (result, milliseconds): computed once per pair of outcomes and settings.
    let result = Memo::new(move |_| {
        let (_, a) = current(store)?;
        let b = compared(store, &a)?;
        let started = now();
        let result = comparison(&a, &b, settings.get());
        Some((result, now() - started))
    });
    let save = move |name: &str, mime: &str, text: Option<String>| {
        let Some(text) = text else { return };
        if let Err(message) = download(name, mime, &text) {
            store.message.set(message.to_string());
        }
    };
    let table_text = move |format: fn(&Comparison) -> String| {
        result.with(|r| match r {
            Some((Ok(c), _)) => Some(format(c)),
            _ => None,
        })
    };
    let number = move |id: &'static str,
                       name: &'static str,
                       get: fn(&Settings) -> String,
                       put: fn(&mut Settings, &str) -> Result<(), String>| {
        view! {
            <label for=id>{name}</label>
            <input
                id=id
                type="number"
                prop:value=move || get(&settings.get())
                on:change=move |ev| {
                    let mut next = settings.get_untracked();
                    match put(&mut next, &event_target_value(&ev)) {
                        Ok(()) => {
                            input_error.set(None);
                            settings.set(next);
                        }
                        Err(e) => input_error.set(Some(e)),
                    }
                }
            />
        }
    };
    let body = move || {
        let (result, millis) = result.get()?;
        Some(match result {
            Err(e) => view! { <p class="error" role="alert">{e.to_string()}</p> }.into_any(),
            Ok(c) => view! {
                {table(&c)}
                <p class="timing">
                    {format!(
                        "{} queries; randomization test: {}; computed in {millis:.0} ms",
                        thousands(c.queries),
                        if c.exact {
                            "all sign flips".to_owned()
                        } else {
                            format!("{} sign flips, seed {}", thousands(c.settings.permutations as usize), c.settings.seed)
                        },
                    )}
                </p>
            }
            .into_any(),
        })
    };
    let comparing = move || result.with(Option::is_some);
    move || {
        comparing().then(|| view! {
        <div class="significance" data-testid="significance">
            <h4>"Significance"</h4>
            <div class="compare-form">
                {number(
                    "sig-permutations",
                    "Permutations",
                    |s| s.permutations.to_string(),
                    |s, v| {
                        let n: u64 = v.parse().map_err(|_| "permutations must be a whole number ≥ 1".to_owned())?;
                        // The page computes on its main thread: keep it to a second or so.
                        if n > MAX_PERMUTATIONS {
                            return Err(format!("at most {} permutations here; use nomos compare for more", thousands(MAX_PERMUTATIONS as usize)));
                        }
                        s.permutations = n;
                        Ok(())
                    },
                )}
                {number(
                    "sig-seed",
                    "Seed",
                    |s| s.seed.to_string(),
                    |s, v| {
                        s.seed = v.parse().map_err(|_| "the seed must be a whole number ≥ 0".to_owned())?;
                        Ok(())
                    },
                )}
                {number(
                    "sig-alpha",
                    "α",
                    |s| s.alpha.to_string(),
                    |s, v| {
                        s.alpha = v.parse().map_err(|_| "α must be a number".to_owned())?;
                        Ok(())
                    },
                )}
            </div>
            {move || input_error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
            {body}
            <div class="exports" role="group" aria-label="Export the comparison">
                <span class="muted">"Export"</span>
                <button type="button" class="button" on:click=move |_| save("comparison.md", "text/markdown", table_text(markdown))>
                    "Table (Markdown)"
                </button>
                <button type="button" class="button" on:click=move |_| save("comparison.tex", "application/x-tex", table_text(latex))>
                    "Table (LaTeX)"
                </button>
                <button
                    type="button"
                    class="button"
                    on:click=move |_| save("difference-chart.svg", "image/svg+xml", outer_html(DELTA_CHART_ID).and_then(|m| standalone_svg(&m)))
                >
                    "Chart (SVG)"
                </button>
            </div>
        </div>
    })
    }
}

/// † t-test, ‡ randomization test, where the Holm-adjusted p ≤ α.
fn marks(m: &MeasureComparison) -> String {
    let mut s = String::new();
    if m.t_test.significant {
        s.push('†');
    }
    if m.randomization.significant {
        s.push('‡');
    }
    s
}

fn p_cells(test: Test) -> impl IntoView {
    view! {
        <td>{format_p(test.p)}</td>
        <td class=if test.significant { "significant" } else { "" }>{format_p(test.p_holm)}</td>
    }
}

fn table(c: &Comparison) -> impl IntoView {
    let rows = c
        .measures
        .iter()
        .map(|m| {
            let key = m.measure.to_string();
            view! {
                <tr
                    data-measure=key.clone()
                    data-t-p=m.t_test.p.to_string()
                    data-t-holm=m.t_test.p_holm.to_string()
                    data-rand-p=m.randomization.p.to_string()
                    data-rand-holm=m.randomization.p_holm.to_string()
                >
                    <th scope="row">{label(&key)}</th>
                    <td>{fmt_value(m.a)}</td>
                    <td>{fmt_value(m.b)}{marks(m)}</td>
                    <td>{fmt_delta(m.difference)}" ["{fmt_delta(m.ci_low)}", "{fmt_delta(m.ci_high)}"]"</td>
                    {p_cells(m.t_test)}
                    {p_cells(m.randomization)}
                    <td>{format!("{}/{}/{}", m.wins, m.ties, m.losses)}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <table class="metric-table significance-table" data-testid="significance-table">
            <caption>
                {format!(
                    "B − A. Holm-adjusted over {} measures; † t-test, ‡ randomization test significant at α = {}.",
                    c.measures.len(),
                    c.settings.alpha
                )}
            </caption>
            <thead>
                <tr>
                    <th scope="col">"Measure"</th>
                    <th scope="col">"A"</th>
                    <th scope="col">"B"</th>
                    <th scope="col">"Δ [95% CI]"</th>
                    <th scope="col">"t-test p"</th>
                    <th scope="col">"Holm"</th>
                    <th scope="col">"Randomization p"</th>
                    <th scope="col">"Holm"</th>
                    <th scope="col" title="Queries where B is better / equal / worse">"W/T/L"</th>
                </tr>
            </thead>
            <tbody>{rows}</tbody>
        </table>
    }
}
