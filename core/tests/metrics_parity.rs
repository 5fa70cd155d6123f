//! Parity of `nomos_core::eval` with pytrec_eval (trec_eval 9.0.x) on the
//! fixtures written by `scripts/fixtures/gen_metrics.py`: qrels and run texts
//! go through our parsers, then every per-query value and mean must match.

use nomos_core::eval::{
    evaluate, parse_beir_qrels, parse_trec_qrels, parse_trec_run, Measure, Qrels,
};
use serde_json::Value;

/// Absolute tolerance; every measure lies in [0, 1]. Per-query values are in
/// fact bit-identical on x86_64 Linux; the slack covers the means (pytrec_eval
/// averages with `np.mean`, which sums pairwise; we sum in order as trec_eval
/// does) and other platforms' `log2`.
const TOLERANCE: f64 = 1e-12;

fn as_f64(v: &Value) -> f64 {
    v.as_f64().expect("fixture value is a number")
}

fn str_list(v: &Value) -> Vec<&str> {
    v.as_array()
        .expect("fixture list")
        .iter()
        .map(|s| s.as_str().expect("fixture string"))
        .collect()
}

/// Checks every case of a fixture file and returns how many values it compared.
fn check_fixture(json: &str) -> usize {
    let fixture: Value = serde_json::from_str(json).expect("fixture is JSON");
    let mut compared = 0;
    for case in fixture["cases"].as_array().expect("cases") {
        let name = case["name"].as_str().expect("name");
        let qrels_text = case["qrels"].as_str().expect("qrels");
        let qrels: Qrels = match case["qrels_format"].as_str() {
            Some("trec") => parse_trec_qrels(qrels_text),
            Some("beir") => parse_beir_qrels(qrels_text),
            other => panic!("{name}: unknown qrels format {other:?}"),
        }
        .unwrap_or_else(|e| panic!("{name}: qrels: {e}"));
        let mut run = parse_trec_run(case["run"].as_str().expect("run"))
            .unwrap_or_else(|e| panic!("{name}: run: {e}"));
        for query_id in str_list(&case["empty_queries"]) {
            run.add_query(query_id);
        }
        let measures: Vec<Measure> = str_list(&case["measures"])
            .into_iter()
            .map(|m| m.parse().expect("fixture measure parses"))
            .collect();

        let got = evaluate(&qrels, &run, &measures);

        let want = case["queries"].as_array().expect("queries");
        let got_ids: Vec<&str> = got.queries.iter().map(|q| q.query_id.as_str()).collect();
        let want_ids: Vec<&str> = want.iter().map(|q| q[0].as_str().expect("qid")).collect();
        assert_eq!(got_ids, want_ids, "{name}: evaluated queries");
        for (g, w) in got.queries.iter().zip(want) {
            let values = w[1].as_array().expect("values");
            assert_eq!(g.values.len(), values.len(), "{name}: value count");
            for ((m, &gv), wv) in measures.iter().zip(&g.values).zip(values) {
                let wv = as_f64(wv);
                assert!(
                    (gv - wv).abs() <= TOLERANCE,
                    "{name}: query {} {m}: got {gv:?}, pytrec_eval {wv:?}",
                    g.query_id
                );
                compared += 1;
            }
        }
        let want_means = case["means"].as_array().expect("means");
        for ((m, &gv), wv) in measures.iter().zip(&got.means).zip(want_means) {
            let wv = as_f64(wv);
            assert!(
                (gv - wv).abs() <= TOLERANCE,
                "{name}: mean {m}: got {gv:?}, pytrec_eval {wv:?}"
            );
            compared += 1;
        }
    }
    compared
}

#[test]
fn random_cases_match_pytrec_eval() {
    let compared = check_fixture(include_str!("fixtures/metrics/random.json"));
    assert!(compared > 5_000, "only {compared} values compared");
}

#[test]
fn stard_dev_matches_pytrec_eval() {
    let compared = check_fixture(include_str!("fixtures/metrics/stard.json"));
    assert!(compared > 2_000, "only {compared} values compared");
}
