//! Per-query differences B − A as an SVG bar chart we draw ourselves:
//! one bar per query, sorted from the largest gain to the largest loss,
//! around a zero line. With a thousand queries a bar is under a pixel
//! wide, so each sign is drawn as one step-shaped path rather than a
//! thousand rectangles. Title and description give screen readers the
//! chart's content in words.

use leptos::prelude::*;
use nomos_core::order::sort_by;

use crate::components::ids::DELTA_CHART_ID;
use crate::evaluate::measures::fmt_delta;
use crate::format::thousands;

const WIDTH: f64 = 720.0;
const HEIGHT: f64 = 210.0;
const LEFT: f64 = 48.0;
const RIGHT: f64 = 8.0;
const TOP: f64 = 10.0;
const BOTTOM: f64 = 24.0;

/// How the differences fall.
#[derive(Debug, Clone, PartialEq)]
pub struct DeltaSummary {
    pub better: usize,
    pub worse: usize,
    pub same: usize,
    pub mean: f64,
    /// Largest gain and largest loss (0 when there is none).
    pub max: f64,
    pub min: f64,
}

pub fn summarize(deltas: &[f64]) -> DeltaSummary {
    let n = deltas.len().max(1) as f64;
    DeltaSummary {
        better: deltas.iter().filter(|&&d| d > 0.0).count(),
        worse: deltas.iter().filter(|&&d| d < 0.0).count(),
        same: deltas.iter().filter(|&&d| d == 0.0).count(),
        mean: deltas.iter().sum::<f64>() / n,
        max: deltas.iter().copied().fold(0.0, f64::max),
        min: deltas.iter().copied().fold(0.0, f64::min),
    }
}

/// The y axis runs from −scale to +scale: the smallest round value that
/// holds every difference.
fn scale(summary: &DeltaSummary) -> f64 {
    let reach = summary.max.max(-summary.min);
    [0.05, 0.1, 0.2, 0.25, 0.5, 1.0]
        .into_iter()
        .find(|&s| reach <= s)
        .unwrap_or(reach)
}

/// The outline of the bars of one sign, for differences sorted from
/// largest to smallest: from the zero line, up (or down) each bar's
/// height and across its width, and back to the zero line.
fn bars_path(sorted: &[f64], positive: bool, y: impl Fn(f64) -> f64) -> String {
    let n = sorted.len();
    let bar = (WIDTH - LEFT - RIGHT) / n.max(1) as f64;
    let zero = y(0.0);
    let mut d = String::new();
    let mut open = false;
    for (i, &v) in sorted.iter().enumerate() {
        let in_sign = if positive { v > 0.0 } else { v < 0.0 };
        let x = LEFT + i as f64 * bar;
        if in_sign {
            if !open {
                d.push_str(&format!("M{x:.2},{zero:.2}"));
                open = true;
            }
            d.push_str(&format!("V{:.2}H{:.2}", y(v), x + bar));
        } else if open {
            d.push_str(&format!("V{zero:.2}Z"));
            open = false;
        }
    }
    if open {
        d.push_str(&format!("V{zero:.2}Z"));
    }
    d
}

/// The chart for `deltas` (any order) of the measure called `measure`.
pub fn delta_chart(mut deltas: Vec<f64>, measure: &str) -> impl IntoView {
    sort_by(&mut deltas, |a, b| b.total_cmp(a));
    let s = summarize(&deltas);
    let top = scale(&s);
    let plot = HEIGHT - TOP - BOTTOM;
    let y = move |v: f64| TOP + plot / 2.0 * (1.0 - v / top);
    let ticks = [top, top / 2.0, 0.0, -top / 2.0, -top];
    let title = format!("Per-query difference in {measure}, B − A, sorted");
    let desc = format!(
        "{} queries: B is better on {}, worse on {}, and equal on {}. \
         Largest gain {}, largest loss {}, mean difference {}.",
        thousands(deltas.len()),
        thousands(s.better),
        thousands(s.worse),
        thousands(s.same),
        fmt_delta(s.max),
        fmt_delta(s.min),
        fmt_delta(s.mean),
    );
    let better = bars_path(&deltas, true, y);
    let worse = bars_path(&deltas, false, y);
    view! {
        <figure class="delta-chart">
            <svg
                id=DELTA_CHART_ID
                viewBox=format!("0 0 {WIDTH} {HEIGHT}")
                role="img"
                aria-labelledby="delta-chart-title delta-chart-desc"
            >
                <title id="delta-chart-title">{title}</title>
                <desc id="delta-chart-desc">{desc.clone()}</desc>
                {ticks
                    .iter()
                    .map(|&t| {
                        let yy = format!("{:.2}", y(t));
                        view! {
                            <line
                                class=if t == 0.0 { "zero" } else { "grid" }
                                x1=LEFT.to_string()
                                x2=(WIDTH - RIGHT).to_string()
                                y1=yy.clone()
                                y2=yy.clone()
                            ></line>
                            <text class="tick" x=(LEFT - 6.0).to_string() y=yy text-anchor="end" dominant-baseline="middle">
                                {if t == 0.0 { "0".to_owned() } else { format!("{t:+}").replace('-', "\u{2212}") }}
                            </text>
                        }
                    })
                    .collect_view()}
                <path class="bars better" d=better></path>
                <path class="bars worse" d=worse></path>
                <text class="axis-label" x=LEFT.to_string() y=(HEIGHT - 6.0).to_string()>
                    {format!("← B better · {} queries, sorted by difference · B worse →", thousands(deltas.len()))}
                </text>
            </svg>
            <figcaption>{desc}</figcaption>
        </figure>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_counts_each_sign_and_scale_rounds_up() {
        let s = summarize(&[0.3, 0.0, -0.1, 0.0, 0.2]);
        assert_eq!((s.better, s.worse, s.same), (2, 1, 2));
        assert_eq!((s.max, s.min), (0.3, -0.1));
        assert!((s.mean - 0.08).abs() < 1e-12);
        assert_eq!(scale(&s), 0.5);
        assert_eq!(scale(&summarize(&[0.04])), 0.05);
        assert_eq!(scale(&summarize(&[])), 0.05);
    }

    #[test]
    fn each_sign_is_one_closed_step_outline() {
        let sorted = [0.5, 0.25, 0.0, -0.5];
        // Unit y: the value itself, zero line at 0.
        let path = bars_path(&sorted, true, |v| -v);
        let bar = (WIDTH - LEFT - RIGHT) / 4.0;
        assert_eq!(
            path,
            format!(
                "M{LEFT:.2},-0.00V-0.50H{:.2}V-0.25H{:.2}V-0.00Z",
                LEFT + bar,
                LEFT + 2.0 * bar
            )
        );
        let path = bars_path(&sorted, false, |v| -v);
        assert_eq!(
            path,
            format!(
                "M{:.2},-0.00V0.50H{:.2}V-0.00Z",
                LEFT + 3.0 * bar,
                LEFT + 4.0 * bar
            )
        );
        assert_eq!(bars_path(&[0.0], true, |v| v), "");
    }
}
