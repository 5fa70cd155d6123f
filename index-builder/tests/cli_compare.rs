//! `nomos compare`: the JSON it prints, its tables, and its errors on real
//! files.

#[path = "support/cli.rs"]
mod cli;

use std::path::{Path, PathBuf};

use cli::{assert_bad_input, nomos, ok, stdout};
use serde_json::Value;

/// Qrels for 30 queries (one relevant doc `g`), run A finding it at rank 3
/// on every third query and run B at rank 1 on every other one.
fn files(dir: &Path) -> (PathBuf, PathBuf, PathBuf) {
    let (mut qrels, mut a, mut b) = (String::new(), String::new(), String::new());
    for q in 0..30 {
        qrels += &format!("q{q} 0 g 1\nq{q} 0 n 0\n");
        let gold_a = if q % 3 == 0 { "g" } else { "x" };
        a += &format!("q{q} Q0 y 1 3 A\nq{q} Q0 z 2 2 A\nq{q} Q0 {gold_a} 3 1 A\n");
        let gold_b = if q % 2 == 0 { "g" } else { "x" };
        b += &format!("q{q} Q0 {gold_b} 1 3 B\nq{q} Q0 z 2 2 B\n");
    }
    let write = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path
    };
    (
        write("qrels", &qrels),
        write("a.run", &a),
        write("b.run", &b),
    )
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The JSON that a successful `nomos` with `args` prints.
fn printed_json(args: &[&str]) -> Value {
    serde_json::from_slice(&ok(args).stdout).expect("JSON on stdout")
}

#[test]
fn prints_the_comparison_as_json() {
    let dir = tempfile::tempdir().unwrap();
    let (qrels, a, b) = files(dir.path());
    let got = printed_json(&[
        "compare",
        "--qrels",
        s(&qrels),
        s(&a),
        s(&b),
        "--measures",
        "mrr@10,p@1",
    ]);
    assert_eq!(got["queries"], 30);
    assert_eq!(got["permutations"], 10_000);
    assert_eq!(got["seed"], 42);
    assert_eq!(got["alpha"], 0.05);
    assert_eq!(got["exact"], false);
    let rows = got["measures"].as_array().unwrap();
    assert_eq!(rows.len(), 2);
    // The means are trec-eval's.
    let means = |run: &Path| printed_json(&["trec-eval", s(&qrels), s(run)]);
    let (ma, mb) = (means(&a), means(&b));
    let mrr = &rows[0];
    assert_eq!(mrr["measure"], "mrr@10");
    assert_eq!(mrr["a"], ma["mrr@10"]);
    assert_eq!(mrr["b"], mb["mrr@10"]);
    // B finds g at rank 1 on 15 queries, A at rank 3 on 10: B wins on the
    // 15 even queries, loses on q3, q9, …, q27 (5), ties on the other 10.
    assert_eq!(
        (
            mrr["wins"].as_u64(),
            mrr["ties"].as_u64(),
            mrr["losses"].as_u64()
        ),
        (Some(15), Some(10), Some(5))
    );
    for test in ["t_test", "randomization"] {
        let p = mrr[test]["p"].as_f64().unwrap();
        let holm = mrr[test]["p_holm"].as_f64().unwrap();
        assert!(p > 0.0 && p <= holm && holm <= 1.0, "{test}: {p} {holm}");
    }
    // A never has g at rank 1: p@1's every difference is 0 or +1.
    assert_eq!(rows[1]["losses"], 0);
    // Another seed moves the randomization p, not the t-test.
    let other = printed_json(&[
        "compare",
        "--qrels",
        s(&qrels),
        s(&a),
        s(&b),
        "--measures",
        "mrr@10,p@1",
        "--seed",
        "9",
    ]);
    assert_eq!(other["measures"][0]["t_test"], mrr["t_test"]);
    assert_ne!(
        other["measures"][0]["randomization"]["p"],
        mrr["randomization"]["p"]
    );
}

#[test]
fn prints_markdown_and_latex_tables() {
    let dir = tempfile::tempdir().unwrap();
    let (qrels, a, b) = files(dir.path());
    let table = |format| {
        stdout(&ok(&[
            "compare",
            "--qrels",
            s(&qrels),
            s(&a),
            s(&b),
            "--format",
            format,
        ]))
    };
    let md = table("markdown");
    assert!(md.starts_with("| Measure | A | B |"), "{md}");
    assert!(md.contains("\n| mrr@10 | "), "{md}");
    let tex = table("latex");
    assert!(
        tex.contains("\\toprule") && tex.contains("\\bottomrule"),
        "{tex}"
    );
    assert!(tex.contains("\nmrr@10 & "), "{tex}");
}

#[test]
fn bad_input_exits_2_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let (qrels, a, b) = files(dir.path());
    let short = dir.path().join("short.run");
    let text = std::fs::read_to_string(&b).unwrap();
    std::fs::write(&short, text.replace("q7 Q0 x 1 3 B\nq7 Q0 z 2 2 B\n", "")).unwrap();
    assert_bad_input(
        &nomos(&["compare", "--qrels", s(&qrels), s(&a), s(&short)]),
        "query 'q7' is evaluated in A but not in B",
    );
    let broken = dir.path().join("broken.run");
    std::fs::write(&broken, "q1 Q0 g 1 1 B\nq1 Q0 oops\n").unwrap();
    assert_bad_input(
        &nomos(&["compare", "--qrels", s(&qrels), s(&a), s(&broken)]),
        &format!("{}:2:", s(&broken)),
    );
    assert_bad_input(
        &nomos(&[
            "compare",
            "--qrels",
            s(&qrels),
            s(&a),
            s(&b),
            "--measures",
            "ndcg@10,bleu@4",
        ]),
        "invalid measure 'bleu@4'",
    );
    assert_bad_input(
        &nomos(&[
            "compare",
            "--qrels",
            s(&qrels),
            s(&a),
            s(&b),
            "--permutations",
            "0",
        ]),
        "at least 1",
    );
    assert_bad_input(
        &nomos(&[
            "compare",
            "--qrels",
            s(&qrels),
            s(&a),
            s(&b),
            "--alpha",
            "1.5",
        ]),
        "alpha must lie strictly between 0 and 1",
    );
}
