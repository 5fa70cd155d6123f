//! `nomos eval` and `nomos trec-eval` end to end, against what the reference
//! pipeline (GBR tokenizer, rank_bm25 / bm25s, pytrec_eval) produced on the
//! same BEIR directory (`scripts/fixtures/gen_cli_eval.py`).

#[path = "support/cli.rs"]
mod cli;

use std::path::{Path, PathBuf};

use cli::{json, nomos, ok, stdout};
use serde_json::Value;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

fn expected() -> Value {
    let text = std::fs::read_to_string(fixtures().join("beir-syntagma.expected.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// Runs `nomos eval` and returns (run file text, metrics JSON).
fn eval(variant: &str, dir: &Path) -> (String, Value) {
    let corpus = fixtures().join("beir-syntagma");
    let run = dir.join(format!("{variant}.trec"));
    let metrics = dir.join(format!("{variant}.json"));
    ok(&[
        "eval",
        "--corpus",
        corpus.to_str().unwrap(),
        "--analyzer",
        "gbr-greek",
        "--bm25",
        variant,
        "--run",
        run.to_str().unwrap(),
        "--metrics",
        metrics.to_str().unwrap(),
    ]);
    let run_text = std::fs::read_to_string(&run).unwrap();
    let metrics = json(&metrics);
    (run_text, metrics)
}

fn check_variant(variant: &str) {
    let dir = tempfile::tempdir().unwrap();
    let (run_text, metrics) = eval(variant, dir.path());
    let expected = &expected()[variant];

    // The run: same ids in the same order, same scores, ranks from 1.
    let mut by_query: std::collections::BTreeMap<String, Vec<(String, f64)>> = Default::default();
    for line in run_text.lines() {
        let f: Vec<&str> = line.split(' ').collect();
        assert_eq!(f.len(), 6, "run line {line:?}");
        assert_eq!(f[1], "Q0");
        let ranked = by_query.entry(f[0].to_string()).or_default();
        assert_eq!(
            f[3].parse::<usize>().unwrap(),
            ranked.len() + 1,
            "ranks count from 1"
        );
        ranked.push((f[2].to_string(), f[4].parse().unwrap()));
    }
    let reference = expected["ranking"].as_object().unwrap();
    assert_eq!(by_query.len(), reference.len());
    for (q, refs) in reference {
        let ours = &by_query[q];
        let refs = refs.as_array().unwrap();
        assert_eq!(ours.len(), refs.len(), "{variant} {q}: depth");
        for ((id, score), r) in ours.iter().zip(refs) {
            assert_eq!(id, r[0].as_str().unwrap(), "{variant} {q}: ranking");
            let want = r[1].as_f64().unwrap();
            assert!(
                (score - want).abs() <= 1e-9 * want.abs(),
                "{variant} {q} {id}: score {score} vs {want}"
            );
        }
    }

    // The metrics: every per-query value as pytrec_eval computed it.
    let per_query = expected["metrics"].as_object().unwrap();
    for (q, values) in per_query {
        for (m, want) in values.as_object().unwrap() {
            let got = metrics["per_query"][q][m].as_f64().unwrap();
            assert!(
                (got - want.as_f64().unwrap()).abs() <= 1e-12,
                "{variant} {q} {m}"
            );
        }
    }

    // trec-eval on the written run agrees with eval's own metrics.
    let qrels = dir.path().join("qrels.trec");
    let tsv = std::fs::read_to_string(fixtures().join("beir-syntagma/qrels/test.tsv")).unwrap();
    let trec: String = tsv
        .lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            format!("{} 0 {} {}\n", f[0], f[1], f[2])
        })
        .collect();
    std::fs::write(&qrels, trec).unwrap();
    let run_path = dir.path().join(format!("{variant}.trec"));
    let out = ok(&[
        "trec-eval",
        qrels.to_str().unwrap(),
        run_path.to_str().unwrap(),
    ]);
    let from_trec_eval: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(from_trec_eval, metrics);
    let keys: Vec<&str> = from_trec_eval
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
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
            "per_query"
        ]
    );
}

#[test]
fn eval_okapi_matches_rank_bm25_and_pytrec_eval() {
    check_variant("okapi");
}

#[test]
fn eval_lucene_matches_bm25s_and_pytrec_eval() {
    check_variant("lucene");
}

#[test]
fn positive_only_and_depth_limit_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = fixtures().join("beir-syntagma");
    let run = dir.path().join("r.trec");
    let metrics = dir.path().join("m.json");
    ok(&[
        "eval",
        "--corpus",
        corpus.to_str().unwrap(),
        "--analyzer",
        "gbr-greek",
        "--bm25",
        "okapi",
        "--positive-only",
        "--depth",
        "5",
        "--run",
        run.to_str().unwrap(),
        "--metrics",
        metrics.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&run).unwrap();
    let mut per_query: std::collections::HashMap<&str, usize> = Default::default();
    for line in text.lines() {
        let f: Vec<&str> = line.split(' ').collect();
        assert!(f[4].parse::<f64>().unwrap() > 0.0, "positive only: {line}");
        *per_query.entry(f[0]).or_default() += 1;
    }
    assert!(per_query.values().all(|&n| n <= 5));
    assert!(per_query.values().any(|&n| n == 5));
}

#[test]
fn search_prints_ranked_ids_and_scores() {
    let corpus = fixtures().join("beir-syntagma");
    let out = ok(&[
        "search",
        "--corpus",
        corpus.to_str().unwrap(),
        "--analyzer",
        "gbr-greek",
        "--bm25",
        "okapi",
        "-k",
        "3",
        "Η ελευθερία της θρησκευτικής συνείδησης είναι απαραβίαστη",
    ]);
    let stdout = stdout(&out);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 3);
    // Article 13 is the freedom of religious conscience.
    assert!(lines[0].starts_with("1\tSyntagma::13\t"), "{stdout}");
}

#[test]
fn eval_over_a_blob_equals_eval_over_the_directory() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = fixtures().join("beir-syntagma");
    let blob = dir.path().join("s.blob");
    ok(&[
        "build",
        "--format",
        "beir",
        corpus.to_str().unwrap(),
        "-o",
        blob.to_str().unwrap(),
        "--analyzer",
        "gbr-greek",
    ]);
    let (direct_run, direct_metrics) = eval("okapi", dir.path());
    let run = dir.path().join("blob.trec");
    let metrics = dir.path().join("blob.json");
    ok(&[
        "eval",
        "--index",
        blob.to_str().unwrap(),
        "--bm25",
        "okapi",
        "--run",
        run.to_str().unwrap(),
        "--metrics",
        metrics.to_str().unwrap(),
    ]);
    assert_eq!(std::fs::read_to_string(&run).unwrap(), direct_run);
    let from_blob = json(&metrics);
    assert_eq!(from_blob, direct_metrics);

    // The blob records its analyzer: asking for another one is refused.
    let out = nomos(&[
        "search",
        "--index",
        blob.to_str().unwrap(),
        "--analyzer",
        "da",
        "x",
    ]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn eval_queries_and_qrels_override_the_blobs_own() {
    // As the GreekBarRetrieval paper's Reform-BM25: rewritten queries run
    // against a blob, judged by a separate qrels file.
    let dir = tempfile::tempdir().unwrap();
    let corpus = fixtures().join("beir-syntagma");
    let blob = dir.path().join("s.blob");
    ok(&[
        "build",
        "--format",
        "beir",
        corpus.to_str().unwrap(),
        "-o",
        blob.to_str().unwrap(),
        "--analyzer",
        "gbr-greek",
    ]);
    let queries = dir.path().join("rewritten.jsonl");
    std::fs::write(
        &queries,
        "{\"_id\": \"r1\", \"text\": \"ελευθερία θρησκευτικής συνείδησης\"}\n\
         {\"_id\": \"r2\", \"text\": \"Προεδρευόμενη Κοινοβουλευτική Δημοκρατία\"}\n",
    )
    .unwrap();
    let qrels = dir.path().join("qrels.trec");
    std::fs::write(&qrels, "r1 0 Syntagma::13 1\nr2 0 Syntagma::1 1\n").unwrap();
    let run = dir.path().join("r.trec");
    let metrics = dir.path().join("m.json");
    ok(&[
        "eval",
        "--index",
        blob.to_str().unwrap(),
        "--queries",
        queries.to_str().unwrap(),
        "--qrels",
        qrels.to_str().unwrap(),
        "--run",
        run.to_str().unwrap(),
        "--metrics",
        metrics.to_str().unwrap(),
    ]);
    let metrics = json(&metrics);
    let per_query = metrics["per_query"].as_object().unwrap();
    assert_eq!(per_query.keys().collect::<Vec<_>>(), ["r1", "r2"]);
    // Both gold articles are ranked first.
    assert_eq!(metrics["recall@1"], 1.0);
    let run_text = std::fs::read_to_string(&run).unwrap();
    assert!(run_text.starts_with("r1 Q0 Syntagma::13 1 "), "{run_text}");
}

#[test]
fn eval_reads_the_apps_judgments_export() {
    // The browser's "My judgments" export (its model's test checks these
    // files are what it writes): queries my-1.. with 0/1 grades, one
    // judging an article only as not relevant.
    let dir = tempfile::tempdir().unwrap();
    let blob = dir.path().join("s.blob");
    let corpus = fixtures().join("beir-syntagma");
    ok(&[
        "build",
        "--format",
        "beir",
        corpus.to_str().unwrap(),
        "-o",
        blob.to_str().unwrap(),
        "--analyzer",
        "gbr-greek",
    ]);
    let export = fixtures().join("my-judgments");
    let (run, metrics) = (dir.path().join("r.trec"), dir.path().join("m.json"));
    ok(&[
        "eval",
        "--index",
        blob.to_str().unwrap(),
        "--queries",
        export.join("queries.jsonl").to_str().unwrap(),
        "--qrels",
        export.join("qrels.txt").to_str().unwrap(),
        "--run",
        run.to_str().unwrap(),
        "--metrics",
        metrics.to_str().unwrap(),
    ]);
    let metrics = json(&metrics);
    let per_query = metrics["per_query"].as_object().unwrap();
    assert_eq!(
        per_query.keys().collect::<Vec<_>>(),
        ["my-1", "my-2", "my-3"]
    );

    // The numbers are core's evaluation of the run against the export.
    let qrels = std::fs::read_to_string(export.join("qrels.txt")).unwrap();
    let qrels = nomos_core::eval::parse_trec_qrels(&qrels).unwrap();
    let run = nomos_core::eval::parse_trec_run(&std::fs::read_to_string(&run).unwrap()).unwrap();
    assert_eq!(
        run.queries()
            .map(|(q, docs)| (q, docs.len()))
            .collect::<Vec<_>>(),
        [("my-1", 100), ("my-2", 100), ("my-3", 100)]
    );
    let eval = nomos_core::eval::evaluate(&qrels, &run, &nomos_core::eval::reported());
    for (measure, mean) in eval.measures.iter().zip(&eval.means) {
        assert_eq!(
            metrics[measure.to_string()].as_f64(),
            Some(*mean),
            "{measure}"
        );
    }
    // Not all zero: the gold articles are found.
    assert!(metrics["recall@100"].as_f64().unwrap() > 0.5);
}
