//! Measure specs such as `ndcg@10`.

use std::fmt;
use std::num::NonZeroUsize;
use std::str::FromStr;

/// A metric family; each is evaluated at a cutoff `k`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Metric {
    /// trec_eval `ndcg_cut`.
    Ndcg,
    /// trec_eval `map_cut`.
    Map,
    /// trec_eval `recall`.
    Recall,
    /// trec_eval `P`.
    Precision,
    /// trec_eval `recip_rank` on the top k.
    Mrr,
}

impl Metric {
    /// The spec name, as parsed and displayed.
    pub fn name(self) -> &'static str {
        match self {
            Self::Ndcg => "ndcg",
            Self::Map => "map",
            Self::Recall => "recall",
            Self::Precision => "p",
            Self::Mrr => "mrr",
        }
    }
}

/// A metric at a cutoff, e.g. `ndcg@10`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Measure {
    /// What is measured.
    pub metric: Metric,
    /// The cutoff.
    pub k: NonZeroUsize,
}

/// A measure spec that is not `<metric>@<k>` with a known metric and `k ≥ 1`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MeasureParseError(pub String);

impl fmt::Display for MeasureParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid measure '{}': expected ndcg|map|recall|p|mrr@k with k >= 1",
            self.0
        )
    }
}

impl std::error::Error for MeasureParseError {}

impl FromStr for Measure {
    type Err = MeasureParseError;

    /// Parses `ndcg@10`, `map@100`, `recall@5`, `p@10`, `mrr@10`; the metric
    /// name is case-insensitive (`P@10` works).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = || MeasureParseError(s.to_owned());
        let (name, k) = s.split_once('@').ok_or_else(err)?;
        let metric = [
            Metric::Ndcg,
            Metric::Map,
            Metric::Recall,
            Metric::Precision,
            Metric::Mrr,
        ]
        .into_iter()
        .find(|m| m.name().eq_ignore_ascii_case(name))
        .ok_or_else(err)?;
        let k = k.parse().map_err(|_| err())?;
        Ok(Self { metric, k })
    }
}

impl fmt::Display for Measure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}@{}", self.metric.name(), self.k)
    }
}

/// The measures Nomos reports (the CLI's metrics JSON and the app's
/// Evaluate view), in their output order.
pub const REPORTED: [&str; 10] = [
    "ndcg@10",
    "ndcg@100",
    "map@100",
    "recall@1",
    "recall@5",
    "recall@10",
    "recall@50",
    "recall@100",
    "p@10",
    "mrr@10",
];

/// [`REPORTED`], parsed.
pub fn reported() -> Vec<Measure> {
    REPORTED
        .iter()
        .map(|m| m.parse().expect("the reported measure names are valid"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_metric_case_insensitively() {
        for (spec, metric, k) in [
            ("ndcg@10", Metric::Ndcg, 10),
            ("MAP@100", Metric::Map, 100),
            ("recall@5", Metric::Recall, 5),
            ("P@10", Metric::Precision, 10),
            ("mrr@1", Metric::Mrr, 1),
        ] {
            let m: Measure = spec.parse().unwrap();
            assert_eq!((m.metric, m.k.get()), (metric, k), "{spec}");
            assert_eq!(m.to_string(), spec.to_ascii_lowercase());
            assert_eq!(m.to_string().parse::<Measure>().unwrap(), m);
        }
    }

    #[test]
    fn rejects_malformed_specs() {
        for spec in [
            "ndcg",
            "ndcg@0",
            "ndcg@-1",
            "ndcg@x",
            "@10",
            "ndcg_cut@10",
            "ndcg@ 10",
            "",
        ] {
            let err = spec.parse::<Measure>().unwrap_err();
            assert_eq!(err.0, spec);
        }
    }
}
