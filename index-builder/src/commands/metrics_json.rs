//! The metrics JSON shared by `eval` and `trec-eval`: one key per measure
//! (the mean over evaluated queries) plus `per_query`.

use anyhow::Result;
use nomos_core::eval::{evaluate, reported, Evaluation, Qrels, Run};
use nomos_core::hits::Hit;
use nomos_core::pool::Benchmark;
use serde_json::{Map, Value};

use crate::error::bad_input;

/// Evaluates `run` against `qrels` with trec_eval semantics, for the
/// reported measures ([`REPORTED`](nomos_core::eval::REPORTED)).
pub fn evaluate_reported(qrels: &Qrels, run: &Run) -> Evaluation {
    evaluate(qrels, run, &reported())
}

/// The run of `rankings`, one per query of `bench` in its order.
pub fn run_of(bench: &Benchmark, rankings: &[Vec<Hit>]) -> Result<Run> {
    let mut run = Run::new();
    for (q, hits) in bench.queries.iter().zip(rankings) {
        run.add_query(&q.id);
        for hit in hits {
            run.push(&q.id, &bench.doc_ids[hit.doc as usize], hit.score)
                .map_err(|e| bad_input(format!("query {}: {e}", q.id)))?;
        }
    }
    Ok(run)
}

/// [`evaluate_reported`] for `rankings`, one per query of `bench`.
pub fn evaluate_rankings(bench: &Benchmark, rankings: &[Vec<Hit>]) -> Result<Evaluation> {
    Ok(evaluate_reported(&bench.qrels, &run_of(bench, rankings)?))
}

/// The mean of `measure` (e.g. `recall@100`), NaN if it was not evaluated.
pub fn mean(eval: &Evaluation, measure: &str) -> f64 {
    eval.measures
        .iter()
        .position(|m| m.to_string() == measure)
        .map(|i| eval.means[i])
        .unwrap_or(f64::NAN)
}

/// Means at the top level, per-query values under `per_query`.
pub fn to_json(eval: &Evaluation) -> Value {
    let names: Vec<String> = eval.measures.iter().map(|m| m.to_string()).collect();
    let mut top = Map::new();
    for (name, mean) in names.iter().zip(&eval.means) {
        top.insert(name.clone(), Value::from(*mean));
    }
    let mut per_query = Map::new();
    for q in &eval.queries {
        let values = names
            .iter()
            .zip(&q.values)
            .map(|(n, v)| (n.clone(), Value::from(*v)))
            .collect();
        per_query.insert(q.query_id.clone(), Value::Object(values));
    }
    top.insert("per_query".into(), Value::Object(per_query));
    Value::Object(top)
}
