//! `--method` on `search` and `eval`: lexical methods run on any pool, dense
//! ones explain what is missing, and the run tag says what ran.

#[path = "support/cli.rs"]
mod cli;

use std::path::PathBuf;
use std::process::Output;

use cli::{nomos, stderr, stdout};

fn corpus() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/beir-syntagma")
}

fn eval(method: &str, dir: &std::path::Path) -> (Output, String, serde_json::Value) {
    let run = dir.join("run.trec");
    let metrics = dir.join("metrics.json");
    let out = nomos(&[
        "eval",
        "--corpus",
        corpus().to_str().unwrap(),
        "--analyzer",
        "gbr-greek",
        "--method",
        method,
        "--run",
        run.to_str().unwrap(),
        "--metrics",
        metrics.to_str().unwrap(),
    ]);
    let run = std::fs::read_to_string(run).unwrap_or_default();
    let metrics = std::fs::read_to_string(metrics)
        .map(|m| serde_json::from_str(&m).unwrap())
        .unwrap_or_default();
    (out, run, metrics)
}

#[test]
fn prf_runs_and_the_tag_names_method_and_bm25() {
    let dir = tempfile::tempdir().unwrap();
    let (out, run, metrics) = eval("prf:terms=10", dir.path());
    assert!(out.status.success(), "{}", stderr(&out));
    let method = "prf:docs=10,terms=10+okapi:k1=1.5,b=0.75";
    assert!(
        run.lines()
            .all(|l| l.ends_with(&format!(" nomos-{method}"))),
        "{run}"
    );
    assert!(stderr(&out).contains(&format!("method {method}")));
    // Same top-level keys as a BM25 run.
    let (_, _, bm25) = eval("bm25", dir.path());
    let keys = |v: &serde_json::Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
    assert_eq!(keys(&metrics), keys(&bm25));
    assert_ne!(
        metrics["per_query"], bm25["per_query"],
        "PRF changes rankings"
    );
}

#[test]
fn dense_methods_need_vectors() {
    let dir = tempfile::tempdir().unwrap();
    for method in ["dense", "dense-binary", "rocchio", "rrf", "weighted:w=0.3"] {
        let (out, _, _) = eval(method, dir.path());
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        assert!(
            stderr(&out).contains("no dense vectors; build it with --embed MODEL_DIR"),
            "{}",
            stderr(&out)
        );
    }
}

#[test]
fn bad_method_strings_are_rejected_with_the_reason() {
    let out = nomos(&[
        "search",
        "--corpus",
        corpus().to_str().unwrap(),
        "--analyzer",
        "gbr-greek",
        "--method",
        "rrf:k=-1",
        "σύνταγμα",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("k = -1 is out of range"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn search_with_bm25_method_is_plain_search() {
    let query = "ελευθερία του τύπου";
    let dir = corpus();
    let common = [
        "search",
        "--corpus",
        dir.to_str().unwrap(),
        "--analyzer",
        "gbr-greek",
    ];
    let plain = nomos(&[&common[..], &[query]].concat());
    let bm25 = nomos(&[&common[..], &["--method", "bm25", query]].concat());
    assert!(plain.status.success());
    assert_eq!(plain.stdout, bm25.stdout);
    assert!(!plain.stdout.is_empty());
}

#[test]
fn search_explain_sets_each_hits_terms_under_it() {
    let query = "ελευθερία του τύπου";
    let dir = corpus();
    let common = [
        "search",
        "--corpus",
        dir.to_str().unwrap(),
        "--analyzer",
        "gbr-greek",
        "-k",
        "3",
    ];
    let plain = nomos(&[&common[..], &[query]].concat());
    let explained = nomos(&[&common[..], &["--explain", query]].concat());
    assert!(explained.status.success(), "{}", stderr(&explained));
    let (plain, text) = (stdout(&plain), stdout(&explained));
    // The hit lines are unchanged; explanations are indented under them.
    let hits: Vec<&str> = text.lines().filter(|l| !l.starts_with('\t')).collect();
    assert_eq!(hits, plain.lines().collect::<Vec<_>>());
    let first = plain.lines().next().unwrap();
    let score = first.rsplit('\t').next().unwrap();
    let block: Vec<&str> = text
        .lines()
        .skip(1)
        .take_while(|l| l.starts_with('\t'))
        .collect();
    // The total is the hit's score, digit for digit; then one line per token.
    assert!(
        block[0].starts_with(&format!("\tBM25 {score} = okapi:k1=1.5,b=0.75 over ")),
        "{text}"
    );
    assert!(block[1..].iter().all(|l| l.starts_with("\t  ")), "{text}");
    assert!(block.len() >= 2, "{text}");
}
