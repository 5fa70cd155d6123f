//! The compare card's statistics: core's comparison of B with A
//! (`nomos_core::eval::significance`, the same numbers as `nomos compare`
//! for the same runs and seed) over the measures both evaluated, and the
//! per-query difference chart as a standalone SVG file.

use nomos_core::eval::significance::{compare, CompareError, Comparison, Settings};
use nomos_core::eval::Measure;

use super::job::Outcome;

/// B compared with A on every measure both evaluated, in A's order.
pub fn comparison(
    a: &Outcome,
    b: &Outcome,
    settings: Settings,
) -> Result<Comparison, CompareError> {
    let measures: Vec<Measure> = a
        .eval
        .measures
        .iter()
        .copied()
        .filter(|m| b.eval.measures.contains(m))
        .collect();
    compare(&a.eval, &b.eval, &measures, settings)
}

/// The page's chart styles (style.css's `.delta-chart` rules, variables
/// resolved), so the file looks as the page does.
const CHART_STYLE: &str = ".grid{stroke:#ebe8e1;stroke-width:1}\
.zero{stroke:#1b1d21;stroke-width:1.2}\
.tick,.axis-label{font:11px system-ui,-apple-system,\"Segoe UI\",Roboto,Arial,sans-serif;fill:#5a5f69}\
.bars.better{fill:#2b6cb0}.bars.worse{fill:#c05621}";

/// A standalone SVG file from the chart's `<svg>` markup as the page has
/// it: the XML declaration, the SVG namespace and the chart's styles
/// added. `None` when `markup` is not an `<svg>` element.
pub fn standalone_svg(markup: &str) -> Option<String> {
    let rest = markup.strip_prefix("<svg")?;
    let open_end = rest.find('>')?;
    let (attributes, body) = rest.split_at(open_end);
    let namespace = if attributes.contains("xmlns=") {
        ""
    } else {
        " xmlns=\"http://www.w3.org/2000/svg\""
    };
    Some(format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg{namespace}{attributes}><style>{CHART_STYLE}</style>{}\n",
        &body[1..]
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standalone_svg_adds_namespace_and_styles() {
        let got = standalone_svg("<svg viewBox=\"0 0 10 10\" role=\"img\"><path class=\"bars better\" d=\"M0,0\"></path></svg>")
            .unwrap();
        assert_eq!(
            got,
            format!(
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" \
                 viewBox=\"0 0 10 10\" role=\"img\"><style>{CHART_STYLE}</style>\
                 <path class=\"bars better\" d=\"M0,0\"></path></svg>\n"
            )
        );
        let namespaced =
            standalone_svg("<svg xmlns=\"http://www.w3.org/2000/svg\"></svg>").unwrap();
        assert_eq!(namespaced.matches("xmlns=").count(), 1);
        assert_eq!(standalone_svg("<div></div>"), None);
    }
}
