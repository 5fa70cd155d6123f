//! Per-query measure values and their means, computed as trec_eval does
//! (same operations in the same order: per-query values equal pytrec_eval's
//! bit for bit on x86_64 Linux).

use std::collections::BTreeMap;

use super::measure::{Measure, Metric};
use super::qrels::Qrels;
use super::run::{trec_eval_order, Run};

/// trec_eval's default `relevance_level`: judgments at or above it count.
const RELEVANT: i32 = 1;

/// The values of every measure for one query, parallel to
/// [`Evaluation::measures`].
#[derive(Debug, Clone, PartialEq)]
pub struct QueryEvaluation {
    /// The query evaluated.
    pub query_id: String,
    /// One value per measure, in the measures' order.
    pub values: Vec<f64>,
}

/// Results of [`evaluate`].
#[derive(Debug, Clone, PartialEq)]
pub struct Evaluation {
    /// The measures, in column order.
    pub measures: Vec<Measure>,
    /// Queries in both the run and the qrels, in run order.
    pub queries: Vec<QueryEvaluation>,
    /// Mean of each measure over `queries`; 0 when there are none.
    pub means: Vec<f64>,
}

/// Evaluates `run` against `qrels` with trec_eval semantics (see the module
/// docs for what is evaluated and how).
pub fn evaluate(qrels: &Qrels, run: &Run, measures: &[Measure]) -> Evaluation {
    let queries: Vec<QueryEvaluation> = run
        .queries()
        .filter_map(|(query_id, docs)| {
            let judged = qrels.get(query_id)?;
            let judgments = Judgments::new(judged, docs);
            Some(QueryEvaluation {
                query_id: query_id.to_owned(),
                values: measures.iter().map(|m| judgments.value(*m)).collect(),
            })
        })
        .collect();
    let means = (0..measures.len())
        .map(|i| {
            if queries.is_empty() {
                return 0.0;
            }
            let sum = queries.iter().fold(0.0, |acc, q| acc + q.values[i]);
            sum / queries.len() as f64
        })
        .collect();
    Evaluation {
        measures: measures.to_vec(),
        queries,
        means,
    }
}

/// What every measure needs to know about one query.
struct Judgments {
    /// Judgment of the document at each rank (0 when unjudged).
    ranked: Vec<i32>,
    /// Judgments ≥ 1, descending: the ideal ranking's gains.
    ideal: Vec<i32>,
}

impl Judgments {
    fn new(judged: &BTreeMap<String, i32>, docs: &[(String, f64)]) -> Self {
        let ranked = trec_eval_order(docs)
            .into_iter()
            .map(|(doc_id, _)| judged.get(doc_id).copied().unwrap_or(0))
            .collect();
        let mut ideal: Vec<i32> = judged
            .values()
            .copied()
            .filter(|&r| r >= RELEVANT)
            .collect();
        ideal.sort_unstable_by(|a, b| b.cmp(a));
        Self { ranked, ideal }
    }

    fn num_rel(&self) -> usize {
        self.ideal.len()
    }

    /// Relevant-or-not of the first `k` ranked documents.
    fn top_k_relevant(&self, k: usize) -> impl Iterator<Item = bool> + '_ {
        self.ranked.iter().take(k).map(|&r| r >= RELEVANT)
    }

    fn value(&self, measure: Measure) -> f64 {
        let k = measure.k.get();
        match measure.metric {
            Metric::Ndcg => {
                let ideal = dcg(self.ideal.iter().take(k));
                // No relevant judgment means no positive gain retrieved either:
                // trec_eval leaves the (zero) DCG unnormalised.
                if ideal > 0.0 {
                    dcg(self.ranked.iter().take(k)) / ideal
                } else {
                    0.0
                }
            }
            Metric::Map => {
                if self.num_rel() == 0 {
                    return 0.0;
                }
                let mut hits = 0usize;
                let mut sum = 0.0;
                for (i, relevant) in self.top_k_relevant(k).enumerate() {
                    if relevant {
                        hits += 1;
                        sum += hits as f64 / (i + 1) as f64;
                    }
                }
                sum / self.num_rel() as f64
            }
            Metric::Recall => {
                if self.num_rel() == 0 {
                    return 0.0;
                }
                self.top_k_relevant(k).filter(|&r| r).count() as f64 / self.num_rel() as f64
            }
            Metric::Precision => self.top_k_relevant(k).filter(|&r| r).count() as f64 / k as f64,
            Metric::Mrr => self
                .top_k_relevant(k)
                .position(|r| r)
                .map_or(0.0, |i| 1.0 / (i + 1) as f64),
        }
    }
}

/// Discounted cumulative gain: Σ gain / log2(rank + 1) over positive gains,
/// summed in rank order like trec_eval.
fn dcg<'a>(gains: impl Iterator<Item = &'a i32>) -> f64 {
    gains
        .enumerate()
        .filter(|(_, &g)| g > 0)
        .fold(0.0, |sum, (i, &g)| {
            sum + f64::from(g) / ((i + 2) as f64).log2()
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{parse_trec_qrels, parse_trec_run};

    fn measures(specs: &[&str]) -> Vec<Measure> {
        specs.iter().map(|s| s.parse().unwrap()).collect()
    }

    #[test]
    fn only_queries_in_both_count_in_run_order() {
        let qrels = parse_trec_qrels("a 0 d 1\nb 0 d 1\nc 0 d 1\n").unwrap();
        let mut run = parse_trec_run("c Q0 d 1 1 t\nx Q0 d 1 1 t\na Q0 e 1 1 t\n").unwrap();
        run.add_query("b");
        let ev = evaluate(&qrels, &run, &measures(&["p@1", "mrr@10"]));
        let ids: Vec<&str> = ev.queries.iter().map(|q| q.query_id.as_str()).collect();
        assert_eq!(ids, ["c", "a", "b"]);
        // `a` retrieved nothing relevant and `b` nothing at all: both score 0.
        assert_eq!(ev.queries[1].values, [0.0, 0.0]);
        assert_eq!(ev.queries[2].values, [0.0, 0.0]);
        assert_eq!(ev.means, [1.0 / 3.0, 1.0 / 3.0]);
    }

    #[test]
    fn nothing_evaluated_gives_zero_means() {
        let qrels = parse_trec_qrels("a 0 d 1\n").unwrap();
        let run = parse_trec_run("b Q0 d 1 1 t\n").unwrap();
        let ev = evaluate(&qrels, &run, &measures(&["ndcg@10", "map@10"]));
        assert!(ev.queries.is_empty());
        assert_eq!(ev.means, [0.0, 0.0]);
    }

    #[test]
    fn queries_without_relevant_judgments_score_zero() {
        let qrels = parse_trec_qrels("a 0 d1 0\na 0 d2 -1\nb 0 d1 -2\n").unwrap();
        let run = parse_trec_run("a Q0 d1 1 2 t\na Q0 d2 2 1 t\nb Q0 d1 1 1 t\n").unwrap();
        let all = measures(&["ndcg@10", "map@10", "recall@10", "p@10", "mrr@10"]);
        let ev = evaluate(&qrels, &run, &all);
        assert_eq!(ev.queries.len(), 2);
        for q in &ev.queries {
            assert!(q.values.iter().all(|&v| v == 0.0), "{q:?}");
        }
    }

    #[test]
    fn a_perfect_ranking_scores_one() {
        let qrels = parse_trec_qrels("q 0 a 3\nq 0 b 1\nq 0 c 0\nq 0 z 2\n").unwrap();
        let run =
            parse_trec_run("q Q0 c 4 0 t\nq Q0 a 1 9 t\nq Q0 b 3 1 t\nq Q0 z 2 5 t\n").unwrap();
        let all = measures(&["ndcg@2", "ndcg@10", "map@10", "recall@3", "p@3", "mrr@1"]);
        let ev = evaluate(&qrels, &run, &all);
        assert_eq!(ev.queries[0].values, [1.0; 6]);
    }
}
