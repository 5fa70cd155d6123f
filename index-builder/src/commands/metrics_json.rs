//! The metrics JSON shared by `eval` and `trec-eval`: one key per measure
//! (the mean over evaluated queries) plus `per_query`.

use nomos_core::eval::{evaluate, reported, Evaluation, Qrels, Run};
use serde_json::{Map, Value};

/// Evaluates `run` against `qrels` with trec_eval semantics, for the
/// reported measures ([`REPORTED`](nomos_core::eval::REPORTED)).
pub fn evaluate_reported(qrels: &Qrels, run: &Run) -> Evaluation {
    evaluate(qrels, run, &reported())
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
