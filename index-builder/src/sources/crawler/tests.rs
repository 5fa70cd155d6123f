use std::path::{Path, PathBuf};

use super::*;

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/crawler-dk")
}

fn json_lines(path: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn strings(v: &serde_json::Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect()
}

/// The ten real records become ten articles in file order, with their
/// context lists as references.
#[test]
fn chunks_become_articles_in_file_order() {
    let pool = read_crawler_dk(&fixture()).unwrap();
    let records = json_lines(&fixture().join("chunks.jsonl"));
    assert_eq!(pool.dataset, "crawler-dk");
    assert_eq!(pool.articles.len(), 10);
    for (a, r) in pool.articles.iter().zip(&records) {
        assert_eq!(a.id, r["chunk_id"].as_str().unwrap());
        assert_eq!(a.text, r["chunk"].as_str().unwrap());
        assert_eq!(a.implicit_refs, strings(&r["implicit_context_chunks"]));
        assert_eq!(a.explicit_refs, strings(&r["explicit_context_chunks"]));
    }
    let sources: Vec<&str> = pool.articles.iter().map(|a| a.source.as_str()).collect();
    assert_eq!(sources[0], "almenboligloven");
    assert_eq!(sources[8], "erhversfondsloven");
    let names: Vec<&str> = pool.files.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "chunks.jsonl",
            "augmented_chunks.jsonl",
            "contextual_queries.jsonl"
        ]
    );
}

#[test]
fn augmented_texts_attach_by_id_and_gaps_are_reported() {
    let pool = read_crawler_dk(&fixture()).unwrap();
    let augmented = json_lines(&fixture().join("augmented_chunks.jsonl"));
    for a in &pool.articles {
        let row = augmented.iter().find(|r| r["chunk_id"] == a.id.as_str());
        assert_eq!(
            a.augmented.as_deref(),
            row.map(|r| r["chunk"].as_str().unwrap()),
            "{}",
            a.id
        );
    }
    let without: Vec<&str> = pool
        .articles
        .iter()
        .filter(|a| a.augmented.is_none())
        .map(|a| a.id.as_str())
        .collect();
    assert_eq!(
        without,
        ["almenboligloven_§28_stk5", "erhversfondsloven_nonpar_219"]
    );
    assert_eq!(
        pool.notes,
        [
            "2 of 10 chunks have no augmented text (indexed with their plain text only)",
            "augmented_chunks.jsonl has 1 chunk ids not in the pool (ignored): straffeloven_§1_stk1",
        ]
    );
}

#[test]
fn each_query_has_its_gold_chunk() {
    let pool = read_crawler_dk(&fixture()).unwrap();
    let rows = json_lines(&fixture().join("contextual_queries.jsonl"));
    let ids: Vec<&str> = pool.queries.iter().map(|q| q.id.as_str()).collect();
    assert_eq!(ids, ["q0", "q1", "q2"]);
    for ((q, j), r) in pool.queries.iter().zip(&pool.judgments).zip(&rows) {
        assert_eq!(q.text, r["query"].as_str().unwrap());
        assert_eq!(
            (j.query_id.as_str(), j.doc_id.as_str(), j.relevance),
            (q.id.as_str(), r["chunk_id"].as_str().unwrap(), 1)
        );
    }
}

#[test]
fn optional_files_may_be_absent_and_bad_ones_are_located() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::copy(fixture().join("chunks.jsonl"), d.join("chunks.jsonl")).unwrap();
    let pool = read_crawler_dk(d).unwrap();
    assert_eq!(pool.articles.len(), 10);
    assert!(pool.queries.is_empty() && pool.notes.is_empty());
    assert!(pool.articles.iter().all(|a| a.augmented.is_none()));

    std::fs::write(
        d.join("contextual_queries.jsonl"),
        "{\"query_id\": \"x1\", \"chunk_id\": \"nope_§1_stk1\", \"query\": \"q\"}\n\
         {\"chunk_id\": \"almenboligloven_§91_stk1\", \"query\": \"r\"}\n",
    )
    .unwrap();
    let pool = read_crawler_dk(d).unwrap();
    let ids: Vec<&str> = pool.queries.iter().map(|q| q.id.as_str()).collect();
    assert_eq!(ids, ["x1", "q1"]);
    assert_eq!(
        pool.notes,
        ["1 queries have a gold chunk not in chunks.jsonl (unretrievable): nope_§1_stk1"]
    );

    std::fs::write(
        d.join("contextual_queries.jsonl"),
        "{\"chunk_id\": \"a\"}\n",
    )
    .unwrap();
    let e = read_crawler_dk(d).unwrap_err().to_string();
    assert!(
        e.ends_with("contextual_queries.jsonl:1: missing column `query`"),
        "{e}"
    );

    let first = std::fs::read_to_string(fixture().join("chunks.jsonl")).unwrap();
    let first = first.lines().next().unwrap();
    std::fs::write(d.join("chunks.jsonl"), format!("{first}\n{first}\n")).unwrap();
    let e = read_crawler_dk(d).unwrap_err().to_string();
    assert!(
        e.ends_with("chunks.jsonl:2: duplicate chunk_id `almenboligloven_§91_stk1`"),
        "{e}"
    );

    let empty = tempfile::tempdir().unwrap();
    let e = read_crawler_dk(empty.path()).unwrap_err().to_string();
    assert!(e.contains("chunks.jsonl: cannot read"), "{e}");
}

/// Our CRAwLeR-format sample made from real acts (`data/crawler-dk-sample/`):
/// every chunk gets its augmented text, every query its one gold chunk, with
/// nothing to report.
#[test]
fn reads_the_sample_made_from_danish_acts() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/crawler-dk-sample");
    let pool = read_crawler_dk(&dir).unwrap();
    let chunks = json_lines(&dir.join("chunks.jsonl"));
    assert_eq!(pool.articles.len(), chunks.len());
    assert!(pool.articles.iter().all(|a| a.augmented.is_some()));
    let queries = json_lines(&dir.join("contextual_queries.jsonl"));
    assert_eq!(pool.queries.len(), queries.len());
    for (j, q) in pool.judgments.iter().zip(&queries) {
        assert_eq!(j.doc_id, q["chunk_id"].as_str().unwrap());
        let gold = pool.articles.iter().find(|a| a.id == j.doc_id).unwrap();
        assert_eq!(
            gold.explicit_refs,
            strings(&q["utilized_context_chunk_ids"])
        );
    }
    assert!(pool.notes.is_empty(), "{:?}", pool.notes);
    let sources: HashSet<&str> = pool.articles.iter().map(|a| a.source.as_str()).collect();
    assert_eq!(
        sources,
        HashSet::from(["forvaltningsloven", "offentlighedsloven"])
    );
}
