//! The CRAwLeR-DK-format sample (`data/crawler-dk-sample/`, made from two
//! Danish acts; queries and contexts written by us): its chunks are what
//! `nomos chunks` makes from the acts, it builds with both fields, and
//! `eval --field augmented --context` ranks the augmented texts and reports
//! the context diagnostic consistently with the run it wrote.

#[path = "support/cli.rs"]
mod cli;

use std::collections::BTreeSet;
use std::path::PathBuf;

use cli::{data, json, json_lines, ok, stdout};
use serde_json::Value;

fn sample() -> PathBuf {
    data().join("crawler-dk-sample")
}

fn keys(row: &Value) -> BTreeSet<&str> {
    row.as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect()
}

/// The committed chunks are what `nomos chunks` makes from the acts today,
/// byte for byte (`make.py`'s first step).
#[test]
fn chunks_are_regenerated_from_the_acts() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("chunks.jsonl");
    ok(&[
        "chunks",
        "--format",
        "da-acts",
        data().join("da-statutes").to_str().unwrap(),
        "--law",
        "forvaltningsloven",
        "--law",
        "offentlighedsloven",
        "-o",
        out.to_str().unwrap(),
    ]);
    let made = std::fs::read_to_string(&out).unwrap();
    let committed = std::fs::read_to_string(sample().join("chunks.jsonl")).unwrap();
    assert_eq!(made, committed);
}

/// The dataset card's file and field names, exactly; our extra `note`
/// labels what we wrote.
#[test]
fn the_sample_has_the_cards_fields() {
    let chunks = json_lines(&sample().join("chunks.jsonl"));
    assert!((200..400).contains(&chunks.len()), "{}", chunks.len());
    for row in &chunks {
        assert_eq!(
            keys(row),
            BTreeSet::from([
                "chunk",
                "chunk_id",
                "chunk_idx",
                "explicit_context_chunks",
                "implicit_context_chunks"
            ])
        );
    }
    let with_context = chunks
        .iter()
        .filter(|r| !r["explicit_context_chunks"].as_array().unwrap().is_empty())
        .count();
    assert!(with_context >= 40, "{with_context}");
    let augmented = json_lines(&sample().join("augmented_chunks.jsonl"));
    assert_eq!(augmented.len(), chunks.len());
    let ids: Vec<&str> = augmented
        .iter()
        .map(|r| r["chunk_id"].as_str().unwrap())
        .collect();
    let mut sorted = ids.clone();
    sorted.sort();
    assert_eq!(ids, sorted, "sorted by chunk_id, as the dataset's file");
    for row in augmented.iter() {
        assert_eq!(keys(row), BTreeSet::from(["chunk", "chunk_id", "note"]));
        assert!(row["note"].as_str().unwrap().contains("not by an LLM"));
    }
    let queries = json_lines(&sample().join("contextual_queries.jsonl"));
    assert!((25..=40).contains(&queries.len()), "{}", queries.len());
    for row in &queries {
        assert!(keys(row).is_superset(&BTreeSet::from([
            "chunk_id",
            "query",
            "chunk",
            "utilized_context_chunk_ids"
        ])));
        assert!(row["note"].as_str().unwrap().contains("not by an LLM"));
    }
}

/// Builds the sample (both fields), evaluates the augmented field with the
/// context diagnostic, and checks every reported gold rank against the
/// run file and the summary against the rows.
#[test]
fn eval_ranks_the_augmented_field_and_reports_context() {
    let dir = tempfile::tempdir().unwrap();
    let blob = dir.path().join("sample.blob");
    let blob = blob.to_str().unwrap();
    ok(&[
        "build",
        "--format",
        "crawler-dk",
        sample().to_str().unwrap(),
        "-o",
        blob,
    ]);
    let mut means = Vec::new();
    for field in ["text", "augmented"] {
        let run = dir.path().join(format!("{field}.trec"));
        let metrics = dir.path().join(format!("{field}.json"));
        let out = ok(&[
            "eval",
            "--index",
            blob,
            "--field",
            field,
            "--context",
            "--run",
            run.to_str().unwrap(),
            "--metrics",
            metrics.to_str().unwrap(),
        ]);
        let stdout = stdout(&out);
        let m = json(&metrics);
        for key in [
            "recall@1",
            "recall@5",
            "recall@10",
            "recall@50",
            "recall@100",
        ] {
            assert!(m[key].is_f64(), "{key}");
        }
        let context = &m["context"];
        let per_query = context["per_query"].as_object().unwrap();
        assert_eq!(
            context["queries"].as_u64().unwrap() as usize,
            per_query.len()
        );
        let outranked = per_query
            .values()
            .filter(|r| r["outranking"].as_u64().unwrap() > 0)
            .count();
        assert_eq!(context["outranked"].as_u64().unwrap() as usize, outranked);
        assert!(stdout.ends_with(&format!(
            "context outranks the gold in {outranked} of {} queries\n",
            per_query.len()
        )));

        // Each gold rank is the gold chunk's line in the run file.
        let queries = json_lines(&sample().join("contextual_queries.jsonl"));
        let run = std::fs::read_to_string(&run).unwrap();
        for (q, row) in per_query {
            let n: usize = q.trim_start_matches('q').parse().unwrap();
            let gold = queries[n]["chunk_id"].as_str().unwrap();
            let rank = run
                .lines()
                .map(|l| l.split(' ').collect::<Vec<_>>())
                .find(|f| f[0] == q && f[2] == gold)
                .map(|f| f[3].parse::<u64>().unwrap());
            assert_eq!(row["gold_rank"].as_u64(), rank, "{q}");
            assert_eq!(
                row["context"].as_u64().unwrap() as usize,
                queries[n]["utilized_context_chunk_ids"]
                    .as_array()
                    .unwrap()
                    .len(),
                "{q}"
            );
        }
        means.push(m["recall@10"].as_f64().unwrap());
    }
    // The two fields really rank different texts.
    assert_ne!(means[0], means[1]);
}
