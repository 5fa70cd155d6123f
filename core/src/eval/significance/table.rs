//! A comparison as a table for a paper: Markdown and LaTeX (`booktabs`),
//! the same text from the CLI and the app. Columns: measure, A, B, Δ with
//! its confidence interval, and the Holm-adjusted p of each test; B carries
//! † (t-test) and ‡ (randomization test) where significant. A caption line
//! says how the numbers were made.

use super::Comparison;

/// Markers of significance, t-test then randomization test.
const MARKS: [(&str, &str); 2] = [("†", "\\dagger"), ("‡", "\\ddagger")];

/// The comparison as a GitHub-flavoured Markdown table and caption.
pub fn markdown(c: &Comparison) -> String {
    let mut out = format!(
        "| Measure | A | B | Δ [{}% CI] | p (t-test) | p (randomization) |\n\
         |---|--:|--:|--:|--:|--:|\n",
        percent(c.confidence)
    );
    for m in &c.measures {
        let marks: String = significant(m)
            .zip(MARKS)
            .filter(|(s, _)| *s)
            .map(|(_, (md, _))| md)
            .collect();
        out += &format!(
            "| {} | {} | {}{marks} | {} [{}, {}] | {} | {} |\n",
            m.measure,
            value(m.a),
            value(m.b),
            signed(m.difference, "−"),
            signed(m.ci_low, "−"),
            signed(m.ci_high, "−"),
            format_p(m.t_test.p_holm),
            format_p(m.randomization.p_holm),
        );
    }
    out + "\n" + &caption(c, "†", "‡", "α") + "\n"
}

/// The comparison as a LaTeX `table` with a `booktabs` `tabular`
/// (`\usepackage{booktabs}`).
pub fn latex(c: &Comparison) -> String {
    let math = |s: String| format!("${s}$");
    let mut out = format!(
        "\\begin{{table}}\n\\centering\n\\begin{{tabular}}{{lrrrrr}}\n\\toprule\n\
         Measure & A & B & $\\Delta$ [{}\\% CI] & $p_t$ & $p_{{\\mathrm{{rand}}}}$ \\\\\n\\midrule\n",
        percent(c.confidence)
    );
    for m in &c.measures {
        let marks: String = significant(m)
            .zip(MARKS)
            .filter(|(s, _)| *s)
            .map(|(_, (_, tex))| tex)
            .collect();
        let marks = if marks.is_empty() {
            marks
        } else {
            format!("$^{{{marks}}}$")
        };
        out += &format!(
            "{} & {} & {}{marks} & {} [{}, {}] & {} & {} \\\\\n",
            m.measure,
            value(m.a),
            value(m.b),
            math(signed(m.difference, "-")),
            math(signed(m.ci_low, "-")),
            math(signed(m.ci_high, "-")),
            math(format_p(m.t_test.p_holm)),
            math(format_p(m.randomization.p_holm)),
        );
    }
    let caption = caption(c, "$^\\dagger$", "$^\\ddagger$", "$\\alpha$").replace('−', "$-$");
    out + &format!("\\bottomrule\n\\end{{tabular}}\n\\caption{{{caption}}}\n\\end{{table}}\n")
}

fn significant(m: &super::MeasureComparison) -> impl Iterator<Item = bool> {
    [m.t_test.significant, m.randomization.significant].into_iter()
}

fn caption(c: &Comparison, dagger: &str, ddagger: &str, alpha: &str) -> String {
    let s = &c.settings;
    let randomization = if c.exact {
        "all sign flips".to_owned()
    } else {
        format!("{} random sign flips, seed {}", s.permutations, s.seed)
    };
    format!(
        "B − A over {} paired queries. p-values Holm-adjusted over {} measures; \
         {dagger} paired t-test, {ddagger} paired randomization test ({randomization}) \
         significant at {alpha} = {}.",
        c.queries,
        c.measures.len(),
        s.alpha
    )
}

fn percent(confidence: f64) -> String {
    format!("{}", (confidence * 100.0).round())
}

/// A mean, 4 decimals.
fn value(v: f64) -> String {
    if v.is_nan() {
        "n/a".to_owned()
    } else {
        format!("{v:.4}")
    }
}

/// A difference, signed, 4 decimals, with `minus` for its minus sign.
fn signed(v: f64, minus: &str) -> String {
    if v.is_nan() {
        "n/a".to_owned()
    } else {
        format!("{v:+.4}").replace('-', minus)
    }
}

/// A p-value as the tables show it: 4 decimals, "<0.0001", or "n/a".
pub fn format_p(p: f64) -> String {
    if p.is_nan() {
        "n/a".to_owned()
    } else if p < 1e-4 {
        "<0.0001".to_owned()
    } else {
        format!("{p:.4}")
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Comparison, MeasureComparison, Settings, Test};
    use super::*;

    fn comparison() -> Comparison {
        let test = |p: f64, p_holm: f64| Test {
            p,
            p_holm,
            significant: p_holm <= 0.05,
        };
        let row =
            |measure: &str, a, b, difference, ci: (f64, f64), t: Test, r: Test| MeasureComparison {
                measure: measure.parse().unwrap(),
                a,
                b,
                difference,
                ci_low: ci.0,
                ci_high: ci.1,
                wins: 1,
                ties: 0,
                losses: 0,
                t: 2.0,
                t_test: t,
                randomization: r,
            };
        Comparison {
            queries: 1543,
            settings: Settings::default(),
            exact: false,
            confidence: 0.95,
            measures: vec![
                row(
                    "ndcg@10",
                    0.41234,
                    0.45678,
                    0.04444,
                    (0.01, 0.07888),
                    test(1e-6, 2e-6),
                    test(0.0001, 0.0002),
                ),
                row(
                    "mrr@10",
                    0.5,
                    0.49,
                    -0.01,
                    (-0.03, 0.01),
                    test(0.2, 0.2),
                    test(0.04, 0.06),
                ),
                row(
                    "p@10",
                    0.1,
                    0.1,
                    0.0,
                    (0.0, 0.0),
                    test(f64::NAN, f64::NAN),
                    test(1.0, 1.0),
                ),
            ],
        }
    }

    #[test]
    fn markdown_table() {
        assert_eq!(
            markdown(&comparison()),
            "| Measure | A | B | Δ [95% CI] | p (t-test) | p (randomization) |\n\
             |---|--:|--:|--:|--:|--:|\n\
             | ndcg@10 | 0.4123 | 0.4568†‡ | +0.0444 [+0.0100, +0.0789] | <0.0001 | 0.0002 |\n\
             | mrr@10 | 0.5000 | 0.4900 | −0.0100 [−0.0300, +0.0100] | 0.2000 | 0.0600 |\n\
             | p@10 | 0.1000 | 0.1000 | +0.0000 [+0.0000, +0.0000] | n/a | 1.0000 |\n\
             \n\
             B − A over 1543 paired queries. p-values Holm-adjusted over 3 measures; \
             † paired t-test, ‡ paired randomization test (10000 random sign flips, seed 42) \
             significant at α = 0.05.\n"
        );
    }

    #[test]
    fn latex_booktabs_table() {
        let tex = latex(&comparison());
        let lines: Vec<&str> = tex.lines().collect();
        assert_eq!(
            lines[..4],
            [
                "\\begin{table}",
                "\\centering",
                "\\begin{tabular}{lrrrrr}",
                "\\toprule"
            ]
        );
        assert_eq!(
            lines[6],
            "ndcg@10 & 0.4123 & 0.4568$^{\\dagger\\ddagger}$ & $+0.0444$ [$+0.0100$, $+0.0789$] \
             & $<0.0001$ & $0.0002$ \\\\"
        );
        assert_eq!(
            lines[7],
            "mrr@10 & 0.5000 & 0.4900 & $-0.0100$ [$-0.0300$, $+0.0100$] & $0.2000$ & $0.0600$ \\\\"
        );
        assert_eq!(lines[9..11], ["\\bottomrule", "\\end{tabular}"]);
        assert!(
            lines[11].starts_with("\\caption{B $-$ A over 1543 paired queries."),
            "{}",
            lines[11]
        );
        assert!(
            !tex.contains('−') && !tex.contains('α'),
            "pdflatex-safe: {tex}"
        );
    }
}
