//! Is B better than A? Per measure, over the per-query values of two
//! evaluations of the same queries: a two-sided paired t-test (scipy's
//! `ttest_rel`), a two-sided paired randomization test (scipy's
//! `permutation_test` with sign flips), Holm–Bonferroni across the
//! measures compared (statsmodels' `multipletests(method='holm')`), the
//! mean difference with its 95% confidence interval, and wins, ties and
//! losses. Differences are always B − A.
//!
//! **Pairing.** As trec_eval, both evaluations must cover the same queries
//! (the same qrels' queries, each run ranking all of them); a query only one
//! side has is an error, not a silent zero. Queries are paired by id and
//! taken in id order (byte-wise), so the result does not depend on the runs'
//! order.
//!
//! **Undefined values** are NaN, as scipy returns them: the t-test over one
//! query, or over differences that are all zero (t = 0/0); differences that
//! are all the same nonzero value give t = ±∞ and p = 0. An undefined
//! p-value is left out of the Holm family (m counts the defined tests).
//! Serialised to JSON, NaN and ±∞ become `null`.
//!
//! **Randomness.** Each measure's randomization test draws the same sign
//! vectors from the seed (see `randomization` for the p-value convention),
//! so a measure's p-value does not depend on which others are compared, and
//! the CLI and the browser agree for the same seed.

mod holm;
mod prng;
mod randomization;
mod student_t;
mod table;

use std::collections::{HashMap, HashSet};
use std::fmt;

use serde::{Serialize, Serializer};

use super::evaluate::Evaluation;
use super::measure::Measure;

pub use holm::holm;
/// Also the seeded stream `nomos synth` draws synthetic pools from.
pub use prng::Prng;
pub use randomization::{is_exact, p_value as randomization_p};
pub use table::{format_p, latex, markdown};

/// Sign vectors drawn by default.
pub const DEFAULT_PERMUTATIONS: u64 = 10_000;
/// The default seed, recorded with every comparison.
pub const DEFAULT_SEED: u64 = 42;
/// The default significance level.
pub const DEFAULT_ALPHA: f64 = 0.05;
/// The confidence level of the mean difference's interval.
pub const CONFIDENCE: f64 = 0.95;

/// How a comparison tests.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Settings {
    /// Random sign vectors per measure (≥ 1); exact enumeration when they
    /// would cover all 2ⁿ.
    pub permutations: u64,
    /// Seeds the sign vectors' stream.
    pub seed: u64,
    /// Significance level, in (0, 1): a test is significant when its
    /// Holm-adjusted p is ≤ alpha.
    pub alpha: f64,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            permutations: DEFAULT_PERMUTATIONS,
            seed: DEFAULT_SEED,
            alpha: DEFAULT_ALPHA,
        }
    }
}

/// The result of [`compare`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Comparison {
    /// Queries paired.
    pub queries: usize,
    /// As asked (flattened into the JSON object).
    #[serde(flatten)]
    pub settings: Settings,
    /// Whether the randomization test enumerated every sign vector.
    pub exact: bool,
    /// The confidence interval's level ([`CONFIDENCE`]).
    pub confidence: f64,
    /// One row per measure, in the order asked.
    pub measures: Vec<MeasureComparison>,
}

/// One measure of a [`Comparison`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MeasureComparison {
    /// The measure (its spec, e.g. `ndcg@10`, in JSON).
    #[serde(serialize_with = "as_text")]
    pub measure: Measure,
    /// Mean of A (as [`Evaluation::means`]).
    pub a: f64,
    /// Mean of B.
    pub b: f64,
    /// Mean of the differences B − A.
    pub difference: f64,
    /// The difference's confidence interval (Student's t): low end.
    pub ci_low: f64,
    /// High end.
    pub ci_high: f64,
    /// Queries where B scores higher than A.
    pub wins: usize,
    /// Queries where B scores the same as A.
    pub ties: usize,
    /// Queries where B scores lower than A.
    pub losses: usize,
    /// The paired t statistic of B − A.
    pub t: f64,
    /// The paired t-test.
    pub t_test: Test,
    /// The paired randomization test.
    pub randomization: Test,
}

/// One test's p-values.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Test {
    /// Two-sided p-value.
    pub p: f64,
    /// Holm-adjusted across the comparison's measures.
    pub p_holm: f64,
    /// `p_holm ≤ alpha`.
    pub significant: bool,
}

/// Side of a comparison, for errors.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The baseline.
    A,
    /// The one compared with it.
    B,
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::A => "A",
            Self::B => "B",
        })
    }
}

/// Why two evaluations cannot be compared.
#[derive(Debug, Clone, PartialEq)]
pub enum CompareError {
    /// No query was evaluated.
    NoQueries,
    /// A query evaluated on one side only.
    Unpaired {
        /// The query's id.
        query: String,
        /// The side without it.
        missing_from: Side,
    },
    /// A measure asked for that one side did not evaluate.
    MissingMeasure {
        /// The measure.
        measure: Measure,
        /// The side without it.
        side: Side,
    },
    /// Zero permutations.
    NoPermutations,
    /// An alpha outside (0, 1).
    Alpha(f64),
}

impl fmt::Display for CompareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NoQueries => f.write_str("no query was evaluated: nothing to compare"),
            Self::Unpaired {
                query,
                missing_from,
            } => write!(
                f,
                "query '{query}' is evaluated in {} but not in {missing_from}: \
                 both runs must rank the same qrels queries",
                match missing_from {
                    Side::A => Side::B,
                    Side::B => Side::A,
                }
            ),
            Self::MissingMeasure { measure, side } => {
                write!(f, "{side} was not evaluated on {measure}")
            }
            Self::NoPermutations => f.write_str("the number of permutations must be at least 1"),
            Self::Alpha(alpha) => write!(f, "alpha must lie strictly between 0 and 1, not {alpha}"),
        }
    }
}

impl std::error::Error for CompareError {}

/// The paired t-test of `differences` against a zero mean, with the
/// mean's confidence interval at [`CONFIDENCE`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TTest {
    /// Mean difference.
    pub mean: f64,
    /// t statistic.
    pub t: f64,
    /// Two-sided p-value.
    pub p: f64,
    /// Confidence interval of the mean: low end.
    pub ci_low: f64,
    /// High end.
    pub ci_high: f64,
}

/// scipy's `ttest_rel(b, a)` on `differences` = b − a, with its
/// `confidence_interval(0.95)` (see the module docs for NaN and ∞).
pub fn t_test(differences: &[f64]) -> TTest {
    let n = differences.len() as f64;
    let mean = differences.iter().sum::<f64>() / n;
    let squares: f64 = differences.iter().map(|d| (d - mean) * (d - mean)).sum();
    let df = n - 1.0;
    let standard_error = (squares / df / n).sqrt();
    let t = mean / standard_error;
    let half_width = student_t::two_sided_quantile(CONFIDENCE, df) * standard_error;
    TTest {
        mean,
        t,
        p: student_t::two_sided_p(t, df),
        ci_low: mean - half_width,
        ci_high: mean + half_width,
    }
}

/// Compares B with A on `measures` (see the module docs).
pub fn compare(
    a: &Evaluation,
    b: &Evaluation,
    measures: &[Measure],
    settings: Settings,
) -> Result<Comparison, CompareError> {
    if settings.permutations == 0 {
        return Err(CompareError::NoPermutations);
    }
    if !(settings.alpha > 0.0 && settings.alpha < 1.0) {
        return Err(CompareError::Alpha(settings.alpha));
    }
    let pairs = pair(a, b)?;
    if pairs.is_empty() {
        return Err(CompareError::NoQueries);
    }
    let column = |e: &Evaluation, measure: Measure, side| {
        e.measures
            .iter()
            .position(|&m| m == measure)
            .ok_or(CompareError::MissingMeasure { measure, side })
    };
    let mut rows = Vec::with_capacity(measures.len());
    let mut randomization = Vec::with_capacity(measures.len());
    for &measure in measures {
        let (ca, cb) = (column(a, measure, Side::A)?, column(b, measure, Side::B)?);
        let values: Vec<(f64, f64)> = pairs
            .iter()
            .map(|&(ia, ib)| (a.queries[ia].values[ca], b.queries[ib].values[cb]))
            .collect();
        let differences: Vec<f64> = values.iter().map(|(va, vb)| vb - va).collect();
        let count = |keep: fn(&(f64, f64)) -> bool| values.iter().filter(|v| keep(v)).count();
        rows.push((
            measure,
            a.means[ca],
            b.means[cb],
            t_test(&differences),
            [
                count(|v| v.1 > v.0),
                count(|v| v.1 == v.0),
                count(|v| v.1 < v.0),
            ],
        ));
        randomization.push(randomization_p(
            &differences,
            settings.permutations,
            settings.seed,
        ));
    }
    let t_p: Vec<f64> = rows.iter().map(|r| r.3.p).collect();
    let (t_holm, r_holm) = (holm(&t_p), holm(&randomization));
    let test = |p: f64, p_holm: f64| Test {
        p,
        p_holm,
        significant: p_holm <= settings.alpha,
    };
    let measures = rows
        .into_iter()
        .enumerate()
        .map(
            |(i, (measure, mean_a, mean_b, t, [wins, ties, losses]))| MeasureComparison {
                measure,
                a: mean_a,
                b: mean_b,
                difference: t.mean,
                ci_low: t.ci_low,
                ci_high: t.ci_high,
                wins,
                ties,
                losses,
                t: t.t,
                t_test: test(t.p, t_holm[i]),
                randomization: test(randomization[i], r_holm[i]),
            },
        )
        .collect();
    Ok(Comparison {
        queries: pairs.len(),
        settings,
        exact: is_exact(pairs.len(), settings.permutations),
        confidence: CONFIDENCE,
        measures,
    })
}

/// Each query's index in `a` and in `b`, in query id order.
fn pair(a: &Evaluation, b: &Evaluation) -> Result<Vec<(usize, usize)>, CompareError> {
    let in_b: HashMap<&str, usize> = b
        .queries
        .iter()
        .enumerate()
        .map(|(i, q)| (q.query_id.as_str(), i))
        .collect();
    let mut pairs = Vec::with_capacity(a.queries.len());
    for (ia, q) in a.queries.iter().enumerate() {
        let ib = in_b
            .get(q.query_id.as_str())
            .ok_or_else(|| CompareError::Unpaired {
                query: q.query_id.clone(),
                missing_from: Side::B,
            })?;
        pairs.push((ia, *ib));
    }
    if pairs.len() < b.queries.len() {
        let in_a: HashSet<&str> = a.queries.iter().map(|q| q.query_id.as_str()).collect();
        if let Some(q) = b
            .queries
            .iter()
            .find(|q| !in_a.contains(q.query_id.as_str()))
        {
            return Err(CompareError::Unpaired {
                query: q.query_id.clone(),
                missing_from: Side::A,
            });
        }
    }
    crate::order::sort_by(&mut pairs, |x, y| {
        a.queries[x.0].query_id.cmp(&a.queries[y.0].query_id)
    });
    Ok(pairs)
}

fn as_text<S: Serializer>(measure: &Measure, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(measure)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{evaluate, parse_trec_qrels, parse_trec_run, reported};

    /// Five queries; A finds the relevant `g` at rank 2 on q0–q2, B at
    /// rank 1 on q0–q3.
    fn evaluations(b_run: &str) -> (Evaluation, Evaluation) {
        let qrels =
            parse_trec_qrels(&(0..5).map(|q| format!("q{q} 0 g 1\n")).collect::<String>()).unwrap();
        let a = parse_trec_run(
            &(0..5)
                .map(|q| {
                    format!(
                        "q{q} Q0 x 1 2 A\nq{q} Q0 {} 2 1 A\n",
                        if q < 3 { "g" } else { "y" }
                    )
                })
                .collect::<String>(),
        )
        .unwrap();
        let b = parse_trec_run(b_run).unwrap();
        let measures = reported();
        (
            evaluate(&qrels, &a, &measures),
            evaluate(&qrels, &b, &measures),
        )
    }

    fn b_run(order: impl Iterator<Item = usize>) -> String {
        order
            .map(|q| format!("q{q} Q0 {} 1 1 B\n", if q < 4 { "g" } else { "y" }))
            .collect()
    }

    #[test]
    fn compares_per_measure_and_ignores_run_order() {
        let (a, b) = evaluations(&b_run(0..5));
        let mrr: Measure = "mrr@10".parse().unwrap();
        let c = compare(&a, &b, &[mrr], Settings::default()).unwrap();
        assert_eq!((c.queries, c.exact), (5, true));
        let m = &c.measures[0];
        // Differences: 0.5, 0.5, 0.5, 1, 0.
        assert_eq!((m.a, m.b, m.difference), (0.3, 0.8, 0.5));
        assert_eq!((m.wins, m.ties, m.losses), (4, 1, 0));
        // Exact: of the 32 sign vectors, only the observed one and its twin
        // with the zero difference flipped reach 2.5, so p = 2 · 2 / 32.
        assert_eq!(m.randomization.p, 2.0 * 2.0 / 32.0);
        assert_eq!(m.randomization.p_holm, m.randomization.p);
        let (_, reversed) = evaluations(&b_run((0..5).rev()));
        assert_eq!(
            compare(&a, &reversed, &[mrr], Settings::default()).unwrap(),
            c
        );
    }

    #[test]
    fn holm_runs_across_the_measures() {
        let (a, b) = evaluations(&b_run(0..5));
        let c = compare(&a, &b, &reported(), Settings::default()).unwrap();
        let t_p: Vec<f64> = c.measures.iter().map(|m| m.t_test.p).collect();
        let adjusted: Vec<f64> = c.measures.iter().map(|m| m.t_test.p_holm).collect();
        assert_eq!(holm(&t_p), adjusted);
        for m in &c.measures {
            assert_eq!(m.t_test.significant, m.t_test.p_holm <= DEFAULT_ALPHA);
        }
    }

    #[test]
    fn a_query_on_one_side_only_is_an_error() {
        let (a, b) = evaluations(&b_run(0..4));
        let err = compare(&a, &b, &reported(), Settings::default()).unwrap_err();
        assert_eq!(
            err,
            CompareError::Unpaired {
                query: "q4".into(),
                missing_from: Side::B
            }
        );
        assert!(err
            .to_string()
            .starts_with("query 'q4' is evaluated in A but not in B"));
        let err = compare(&b, &a, &reported(), Settings::default()).unwrap_err();
        assert!(matches!(
            err,
            CompareError::Unpaired {
                missing_from: Side::A,
                ..
            }
        ));
    }

    #[test]
    fn rejects_bad_settings_and_missing_measures() {
        let (a, b) = evaluations(&b_run(0..5));
        let map10: Measure = "map@10".parse().unwrap();
        assert_eq!(
            compare(&a, &b, &[map10], Settings::default()),
            Err(CompareError::MissingMeasure {
                measure: map10,
                side: Side::A
            })
        );
        let settings = |permutations, alpha| Settings {
            permutations,
            seed: 1,
            alpha,
        };
        let m = reported();
        assert_eq!(
            compare(&a, &b, &m, settings(0, 0.05)),
            Err(CompareError::NoPermutations)
        );
        assert_eq!(
            compare(&a, &b, &m, settings(10, 1.0)),
            Err(CompareError::Alpha(1.0))
        );
        assert!(compare(&a, &b, &m, settings(10, f64::NAN)).is_err());
        let empty = Evaluation {
            measures: m.clone(),
            queries: vec![],
            means: vec![0.0; m.len()],
        };
        assert_eq!(
            compare(&empty, &empty, &m, Settings::default()),
            Err(CompareError::NoQueries)
        );
    }
}
