//! The measures the Evaluate view reports: the same keys, in the same
//! order, as `nomos eval`'s metrics JSON.

use nomos_core::eval::{Measure, Metric};

pub use nomos_core::eval::{reported, REPORTED};

/// The per-query table's columns: the headline measures, with R@1, R@5 and
/// R@50 only for one-gold sets (with several gold articles the first two
/// are capped below 1 and read badly; R@50 completes CRAwLeR-DK's set).
pub fn per_query_columns(one_gold: bool) -> Vec<&'static str> {
    let mut columns = vec!["ndcg@10", "ndcg@100", "map@100"];
    if one_gold {
        columns.extend(["recall@1", "recall@5"]);
    }
    columns.push("recall@10");
    if one_gold {
        columns.push("recall@50");
    }
    columns.push("recall@100");
    columns
}

/// How a measure is shown: `nDCG@10`, `MAP@100`, `R@10`, `P@10`, `MRR@10`.
pub fn label(key: &str) -> String {
    let Ok(m) = key.parse::<Measure>() else {
        return key.to_owned();
    };
    let name = match m.metric {
        Metric::Ndcg => "nDCG",
        Metric::Map => "MAP",
        Metric::Recall => "R",
        Metric::Precision => "P",
        Metric::Mrr => "MRR",
    };
    format!("{name}@{}", m.k)
}

/// A measure value as shown in tables (the full value goes in `data-value`).
pub fn fmt_value(v: f64) -> String {
    format!("{v:.4}")
}

/// A difference, signed: `+0.0123`, `−0.0040`, `0.0000`.
pub fn fmt_delta(d: f64) -> String {
    if d > 0.0 && format!("{d:.4}") != "0.0000" {
        format!("+{d:.4}")
    } else if d < 0.0 && format!("{:.4}", -d) != "0.0000" {
        format!("\u{2212}{:.4}", -d)
    } else {
        "0.0000".to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_reported_key_parses_and_prints_back() {
        let parsed = reported();
        assert_eq!(parsed.len(), REPORTED.len());
        for (m, key) in parsed.iter().zip(REPORTED) {
            assert_eq!(m.to_string(), key);
        }
    }

    #[test]
    fn one_gold_sets_add_recall_at_1_and_5_in_cutoff_order() {
        assert_eq!(
            per_query_columns(true),
            [
                "ndcg@10",
                "ndcg@100",
                "map@100",
                "recall@1",
                "recall@5",
                "recall@10",
                "recall@50",
                "recall@100"
            ]
        );
        assert!(!per_query_columns(false).contains(&"recall@1"));
    }

    #[test]
    fn labels_and_deltas() {
        assert_eq!(label("ndcg@10"), "nDCG@10");
        assert_eq!(label("recall@100"), "R@100");
        assert_eq!(label("mrr@10"), "MRR@10");
        assert_eq!(fmt_delta(0.01234), "+0.0123");
        assert_eq!(fmt_delta(-0.004), "\u{2212}0.0040");
        assert_eq!(fmt_delta(-0.00001), "0.0000");
        assert_eq!(fmt_delta(0.0), "0.0000");
    }
}
