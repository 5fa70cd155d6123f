//! `nomos make-queries --kind definitions` on the da-law CI sample
//! (`data/da-law-sample/`): the set reads back with `--format crawler-dk`,
//! BM25 over the built blob finds no gold of the filtered splits in its top
//! 10 (the filter ranked as the blob does), the unfiltered set is the
//! filter's input, and the same seed makes the same files.

#[path = "support/cli.rs"]
mod cli;

use std::path::{Path, PathBuf};

use cli::{data, json, json_lines, make_definitions, nomos, ok, stderr, stdout};
use serde_json::Value;

fn sample() -> PathBuf {
    data().join("da-law-sample")
}

/// Builds `dir` as CRAwLeR-DK and returns BM25's metrics over its text.
fn bm25_metrics(dir: &Path) -> Value {
    ok(&[
        "build",
        "--format",
        "crawler-dk",
        dir.to_str().unwrap(),
        "-o",
        dir.join("set.blob").to_str().unwrap(),
    ]);
    eval(dir, "text")
}

/// BM25's metrics over `field` of `dir`'s blob, with the context
/// diagnostic over each query's `utilized_context_chunk_ids`.
fn eval(dir: &Path, field: &str) -> Value {
    let metrics = dir.join(format!("{field}.json"));
    ok(&[
        "eval",
        "--index",
        dir.join("set.blob").to_str().unwrap(),
        "--method",
        "bm25",
        "--field",
        field,
        "--run",
        dir.join(format!("{field}.run")).to_str().unwrap(),
        "--metrics",
        metrics.to_str().unwrap(),
        "--context",
        "--context-from",
        dir.join("contextual_queries.jsonl").to_str().unwrap(),
    ]);
    json(&metrics)
}

#[test]
fn definition_queries_are_filtered_split_and_read_back_as_crawler_dk() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("set");
    make_definitions(ok, &sample(), &out, None);
    let meta = json(&out.join("metadata.json"));
    let n = |key: &str| meta[key].as_u64().unwrap() as usize;
    assert_eq!(n("definitions"), 28);
    assert_eq!(n("dev") + n("test"), n("kept"));
    assert_eq!(
        n("made"),
        n("kept") + meta["left_out"]["gold_in_bm25_top_10"].as_u64().unwrap() as usize
    );
    assert!(n("dev") >= 20 && n("test") >= 20, "{meta}");

    let dev = json_lines(&out.join("dev/contextual_queries.jsonl"));
    assert_eq!(dev.len(), n("dev"));
    let unfiltered = json_lines(&out.join("unfiltered/contextual_queries.jsonl"));
    assert_eq!(unfiltered.len(), n("made"));
    for row in &dev {
        let (query, definition) = (
            row["query"].as_str().unwrap(),
            row["definition"].as_str().unwrap(),
        );
        assert!(query.contains(definition), "{row}");
        let context = row["utilized_context_chunk_ids"].as_array().unwrap();
        assert!(
            !context.is_empty() && !context.contains(&row["chunk_id"]),
            "{row}"
        );
        // The gold shares the context's document.
        let doc = |id: &Value| id.as_str().unwrap().split('_').next().unwrap().to_owned();
        assert_eq!(doc(&row["chunk_id"]), doc(&context[0]));
    }

    let metrics = bm25_metrics(&out.join("dev"));
    assert_eq!(metrics["per_query"].as_object().unwrap().len(), n("dev"));
    assert_eq!(metrics["recall@10"].as_f64(), Some(0.0));
    let before = bm25_metrics(&out.join("unfiltered"));
    assert!(before["recall@10"].as_f64().unwrap() > 0.4, "{before}");

    let again = tmp.path().join("again");
    make_definitions(ok, &sample(), &again, None);
    for file in [
        "metadata.json",
        "dev/contextual_queries.jsonl",
        "test/contextual_queries.jsonl",
    ] {
        assert_eq!(
            std::fs::read(out.join(file)).unwrap(),
            std::fs::read(again.join(file)).unwrap(),
            "{file}"
        );
    }
}

#[test]
fn a_source_without_definitions_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let src = data().join("crawler-dk-sample");
    let out = nomos(&[
        "make-queries",
        "--kind",
        "definitions",
        "--format",
        "crawler-dk",
        src.to_str().unwrap(),
        "-o",
        tmp.path().join("set").to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(err.contains("no document defines a term"), "{err}");
}

#[test]
fn the_definitions_context_field_finds_what_bm25_over_the_text_misses() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("set");
    make_definitions(ok, &sample(), &out, None);
    let dev = out.join("dev");
    ok(&[
        "augment",
        "--context",
        "--format",
        "da-law",
        sample().to_str().unwrap(),
        "-o",
        dev.join("augmented_chunks.jsonl").to_str().unwrap(),
    ]);
    let text = bm25_metrics(&dev);
    assert_eq!(text["recall@10"].as_f64(), Some(0.0));
    let context = eval(&dev, "augmented");
    let recall = context["recall@10"].as_f64().unwrap();
    assert!(recall > 0.5, "R@10 over the context field: {recall}");
    // Every dev query has its definition's stykke as context, and over the
    // text it outranks the gold (the filter kept the gold out of the top).
    let outranked = |m: &Value| m["context"]["outranked"].as_u64().unwrap();
    let queries = text["context"]["queries"].as_u64().unwrap();
    assert_eq!(queries, text["per_query"].as_object().unwrap().len() as u64);
    assert_eq!(outranked(&text), queries);
    assert!(outranked(&context) < queries / 2, "{}", context["context"]);

    // A context chunk the pool lacks is an error naming the file's line.
    let rows = std::fs::read_to_string(dev.join("contextual_queries.jsonl")).unwrap();
    let first = rows.lines().next().unwrap().to_owned();
    let mut row: Value = serde_json::from_str(&first).unwrap();
    row["utilized_context_chunk_ids"] = serde_json::json!(["nowhere_§1_stk1"]);
    std::fs::write(dev.join("bad.jsonl"), format!("{row}\n")).unwrap();
    let out = nomos(&[
        "eval",
        "--index",
        dev.join("set.blob").to_str().unwrap(),
        "--method",
        "bm25",
        "--run",
        dev.join("bad.run").to_str().unwrap(),
        "--metrics",
        dev.join("bad.json").to_str().unwrap(),
        "--context",
        "--context-from",
        dev.join("bad.jsonl").to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(
        err.contains("bad.jsonl:1") && err.contains("nowhere_§1_stk1"),
        "{err}"
    );
}

#[test]
fn the_context_field_needs_no_endpoint() {
    let tmp = tempfile::tempdir().unwrap();
    let out = nomos(&[
        "augment",
        "--context",
        "--llm-url",
        "http://127.0.0.1:9/v1",
        "--format",
        "da-law",
        sample().to_str().unwrap(),
        "-o",
        tmp.path().join("a.jsonl").to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(err.contains("without an LLM"), "{err}");
}

/// The graph carries definition edges (`definition_context_chunks`, read
/// back by `--format crawler-dk`): each dev gold points to its query's
/// context, so `prop` lifts the gold with the context's score, and ranks
/// what BM25 over the text filtered out.
#[test]
fn propagation_along_definition_edges_finds_what_bm25_misses() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("set");
    make_definitions(ok, &sample(), &out, None);
    let dev = out.join("dev");
    let edges: std::collections::HashMap<String, Value> = json_lines(&dev.join("chunks.jsonl"))
        .into_iter()
        .map(|r| (r["chunk_id"].as_str().unwrap().to_owned(), r))
        .collect();
    for q in json_lines(&dev.join("contextual_queries.jsonl")) {
        let gold = &edges[q["chunk_id"].as_str().unwrap()];
        let defining = gold["definition_context_chunks"].as_array().unwrap();
        for context in q["utilized_context_chunk_ids"].as_array().unwrap() {
            assert!(defining.contains(context), "{gold} {q}");
        }
    }
    let text = bm25_metrics(&dev);
    assert_eq!(text["recall@10"].as_f64(), Some(0.0));
    // A blob built from the source itself carries the edges too.
    let blob = tmp.path().join("da-law.blob");
    let blob = blob.to_str().unwrap();
    ok(&[
        "build",
        "--format",
        "da-law",
        sample().to_str().unwrap(),
        "-o",
        blob,
    ]);
    let info = stdout(&ok(&["info", blob]));
    assert!(
        info.lines().any(|l| l.starts_with("definitions ")),
        "{info}"
    );
    let metrics = dev.join("prop.json");
    ok(&[
        "eval",
        "--index",
        dev.join("set.blob").to_str().unwrap(),
        "--method",
        "prop:share=1,dir=out",
        "--run",
        dev.join("prop.run").to_str().unwrap(),
        "--metrics",
        metrics.to_str().unwrap(),
    ]);
    let prop = json(&metrics);
    // Measured: R@10 0.886 (31 of 35), nDCG@10 0.465.
    let recall = prop["recall@10"].as_f64().unwrap();
    assert!(recall > 0.8, "R@10 with prop: {recall}");

    // By hand, on the first dev query: the gold's score is its BM25 score
    // plus the best BM25 score among what it cites or uses a term of.
    let q = &json_lines(&dev.join("contextual_queries.jsonl"))[0];
    let scores = |method: &str| -> std::collections::HashMap<String, f64> {
        let out = ok(&[
            "search",
            "--index",
            dev.join("set.blob").to_str().unwrap(),
            "--method",
            method,
            "--top",
            "100000",
            q["query"].as_str().unwrap(),
        ]);
        stdout(&out)
            .lines()
            .map(|l| {
                let f: Vec<&str> = l.split('\t').collect();
                (f[1].to_owned(), f[2].parse().unwrap())
            })
            .collect()
    };
    let (bm25, prop) = (scores("bm25"), scores("prop:share=0.5,dir=out"));
    let s = |id: &str| bm25.get(id).copied().unwrap_or(0.0);
    let gold = &edges[q["chunk_id"].as_str().unwrap()];
    let best = ["explicit_context_chunks", "definition_context_chunks"]
        .iter()
        .flat_map(|k| gold[*k].as_array().unwrap())
        .map(|id| s(id.as_str().unwrap()))
        .fold(0.0, f64::max);
    let id = gold["chunk_id"].as_str().unwrap();
    assert!(best > 0.0);
    assert_eq!(prop[id], s(id) + 0.5 * best, "{id}");
}
