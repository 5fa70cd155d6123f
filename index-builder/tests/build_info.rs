//! `nomos build` and `nomos info` as a user runs them: the real binary on
//! real text (the Greek Constitution), checking exit codes, messages and
//! that a damaged blob is refused with a clear reason.

#[path = "support/cli.rs"]
mod cli;

use std::path::{Path, PathBuf};
use std::process::Output;

use cli::{json, nomos, ok, stderr, stdout};

const SYNTAGMA: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../shared/data/el-syntagma/syntagma.json"
);

fn build_syntagma(dir: &Path) -> PathBuf {
    let out = dir.join("syntagma.blob");
    let run = nomos(&[
        "build",
        "--format",
        "el-syntagma",
        SYNTAGMA,
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    assert!(stderr(&run).contains("wrote"), "{}", stderr(&run));
    out
}

#[test]
fn build_then_info_describes_the_blob() {
    let dir = tempfile::tempdir().unwrap();
    let blob = build_syntagma(dir.path());
    // The write is atomic: only the blob is left behind.
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["syntagma.blob"]);

    let run = nomos(&["info", blob.to_str().unwrap()]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let out = stdout(&run);
    for expected in [
        "format:       version 1",
        "analyzer:     gbr-greek",
        "bm25:         okapi k1=1.5 b=0.75 epsilon=0.25",
        "dataset:      el-syntagma",
        "source file:  syntagma.json  sha256:",
        "field:        text (",
        "lexical:text",
        "per document",
        "whole file",
    ] {
        assert!(out.contains(expected), "missing {expected:?} in:\n{out}");
    }
    let docs = out
        .lines()
        .find_map(|l| l.strip_prefix("counts:       "))
        .and_then(|l| l.split(' ').next())
        .and_then(|n| n.parse::<usize>().ok())
        .unwrap();
    let articles: Vec<serde_json::Value> =
        serde_json::from_str(&std::fs::read_to_string(SYNTAGMA).unwrap()).unwrap();
    assert!(
        docs >= articles.len(),
        "{docs} documents from {} articles",
        articles.len()
    );
}

#[test]
fn damaged_blobs_exit_2_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let blob = build_syntagma(dir.path());
    let bytes = std::fs::read(&blob).unwrap();
    let cases: [(&str, Vec<u8>, &str); 3] = [
        (
            "flipped",
            {
                let mut b = bytes.clone();
                b[bytes.len() / 2] ^= 0x10;
                b
            },
            "corrupted",
        ),
        (
            "truncated",
            bytes[..bytes.len() - 100].to_vec(),
            "truncated",
        ),
        (
            "foreign",
            b"not a blob at all, just some text".to_vec(),
            "not a Nomos index blob",
        ),
    ];
    for (name, damaged, reason) in cases {
        let path = dir.path().join(format!("{name}.blob"));
        std::fs::write(&path, damaged).unwrap();
        let run = nomos(&["info", path.to_str().unwrap()]);
        let err = stderr(&run);
        assert_eq!(run.status.code(), Some(2), "{name}: {err}");
        assert!(err.contains(reason), "{name}: {err}");
    }
}

/// A BEIR directory made from the Constitution's articles, with optional
/// damage, for the input policy checks.
fn beir_dir(dir: &Path, duplicate_id: bool, empty_text: bool) -> PathBuf {
    let articles: Vec<serde_json::Value> =
        serde_json::from_str(&std::fs::read_to_string(SYNTAGMA).unwrap()).unwrap();
    let root = dir.join("beir");
    std::fs::create_dir_all(root.join("qrels")).unwrap();
    let mut corpus = String::new();
    for (i, a) in articles.iter().take(40).enumerate() {
        let id = if duplicate_id && i == 1 { 0 } else { i };
        let body = a["content"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_str().unwrap());
        let empty = empty_text && i == 2;
        let (title, body) = match empty {
            true => (String::new(), String::new()),
            false => (
                a["title"].as_str().unwrap().to_owned(),
                body.collect::<Vec<_>>().join("\n"),
            ),
        };
        let rec = serde_json::json!({"_id": format!("d{id}"), "title": title, "text": body});
        corpus.push_str(&format!("{rec}\n"));
    }
    std::fs::write(root.join("corpus.jsonl"), corpus).unwrap();
    let query = articles[5]["title"]
        .as_str()
        .unwrap()
        .rsplit(" - ")
        .next()
        .unwrap();
    let rec = serde_json::json!({"_id": "q1", "text": query});
    std::fs::write(root.join("queries.jsonl"), format!("{rec}\n")).unwrap();
    std::fs::write(
        root.join("qrels/test.tsv"),
        "query-id\tcorpus-id\tscore\nq1\td5\t1\nq1\tnowhere\t1\nq1\tnowhere2\t1\n",
    )
    .unwrap();
    root
}

fn build_beir(src: &Path, out: &Path, analyzer: Option<&str>) -> Output {
    let mut args = vec![
        "build",
        "--format",
        "beir",
        src.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ];
    if let Some(a) = analyzer {
        args.extend(["--analyzer", a]);
    }
    nomos(&args)
}

#[test]
fn beir_needs_an_analyzer() {
    let dir = tempfile::tempdir().unwrap();
    let src = beir_dir(dir.path(), false, false);
    let out = dir.path().join("out.blob");
    let run = build_beir(&src, &out, None);
    assert_eq!(run.status.code(), Some(2));
    assert!(
        stderr(&run).contains("--analyzer is required"),
        "{}",
        stderr(&run)
    );
    assert!(!out.exists());
    let run = build_beir(&src, &out, Some("klingon"));
    assert_eq!(run.status.code(), Some(2));
}

#[test]
fn unknown_judged_documents_are_dropped_and_empty_texts_kept_with_warnings() {
    let dir = tempfile::tempdir().unwrap();
    let src = beir_dir(dir.path(), false, true);
    let out = dir.path().join("out.blob");
    let run = build_beir(&src, &out, Some("gbr-greek"));
    let err = stderr(&run);
    assert_eq!(run.status.code(), Some(0), "{err}");
    assert!(
        err.contains("warning: 2 judgments name unknown documents (dropped)"),
        "{err}"
    );
    assert!(
        err.contains("warning: 1 documents have empty text"),
        "{err}"
    );
    let info = nomos(&["info", out.to_str().unwrap()]);
    assert!(
        stdout(&info).contains("40 documents, 1 queries, 1 judgments"),
        "{}",
        stdout(&info)
    );
}

#[test]
fn duplicate_document_ids_fail_with_a_count() {
    let dir = tempfile::tempdir().unwrap();
    let src = beir_dir(dir.path(), true, false);
    let out = dir.path().join("out.blob");
    let run = build_beir(&src, &out, Some("gbr-greek"));
    let err = stderr(&run);
    assert_eq!(run.status.code(), Some(2), "{err}");
    assert!(err.contains("1 duplicate document ids, e.g. `d0`"), "{err}");
    assert!(!out.exists());
}

#[test]
fn a_missing_source_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.blob");
    let run = nomos(&[
        "build",
        "--format",
        "el-syntagma",
        dir.path().join("nope.json").to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(run.status.code(), Some(2), "{}", stderr(&run));
    assert!(!out.exists());
}

#[test]
fn manifest_lists_valid_blobs_and_refuses_damaged_ones() {
    let dir = tempfile::tempdir().unwrap();
    let blob = dir.path().join("syntagma.blob");
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/el-syntagma");
    ok(&[
        "build",
        "--format",
        "el-syntagma",
        src.to_str().unwrap(),
        "-o",
        blob.to_str().unwrap(),
    ]);
    let manifest = |dir: &Path| nomos(&["manifest", dir.to_str().unwrap()]);
    let out = manifest(dir.path());
    assert!(out.status.success(), "{}", stderr(&out));
    let manifest_json = json(&dir.path().join("manifest.json"));
    let entry = &manifest_json["indexes"][0];
    assert_eq!(entry["file"], "syntagma.blob");
    assert_eq!(entry["title"], "Greek Constitution");
    assert_eq!(entry["analyzer"], "gbr-greek");
    assert_eq!(entry["docs"], 124);
    assert_eq!(entry["content_hash"].as_str().unwrap().len(), 32);

    let mut bytes = std::fs::read(&blob).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x10;
    std::fs::write(dir.path().join("broken.blob"), bytes).unwrap();
    let out = manifest(dir.path());
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("broken.blob"));
}

/// The Greek acts' headings are enacted text, so lexical search finds an
/// article by words of its heading alone (none of them is in its text).
#[test]
fn greek_acts_are_found_by_their_headings() {
    let dir = tempfile::tempdir().unwrap();
    let blob = dir.path().join("nomothesia.blob");
    let src = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/el-nomothesia");
    let run = nomos(&[
        "build",
        "--format",
        "el-nomothesia",
        src,
        "-o",
        blob.to_str().unwrap(),
    ]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let run = nomos(&[
        "search",
        "--index",
        blob.to_str().unwrap(),
        "-k",
        "1",
        "Προσόντα και κωλύματα διορισμού",
    ]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    assert!(
        stdout(&run).starts_with("1\tpd-237-1986::46\t"),
        "{}",
        stdout(&run)
    );
}

/// The first hit's id for `query` on `blob`, ranked with BM25 and `extra`.
fn first_bm25_hit(blob: &Path, query: &str, extra: &[&str]) -> String {
    let mut args = vec![
        "search",
        "--index",
        blob.to_str().unwrap(),
        "--method",
        "bm25",
    ];
    args.extend(extra);
    args.extend(["-k", "3", query]);
    let run = nomos(&args);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let out = stdout(&run);
    let first = out.lines().next().unwrap_or_default();
    first.split('\t').nth(1).unwrap_or_default().to_owned()
}

/// The Constitution's headings are lawspot's, shown but not enacted: the
/// blob indexes them apart (`lexical:editorial`), and a reader who
/// types the heading of Article 14 finds it first; the text alone ranks
/// Article 13 first.
#[test]
fn a_shown_heading_finds_its_article() {
    let dir = tempfile::tempdir().unwrap();
    let blob = build_syntagma(dir.path());
    let info = nomos(&["info", blob.to_str().unwrap()]);
    assert!(
        stdout(&info).contains("lexical:editorial"),
        "{}",
        stdout(&info)
    );
    let query = "ελευθερία του τύπου";
    assert_eq!(first_bm25_hit(&blob, query, &[]), "Syntagma::14");
    let alone = first_bm25_hit(&blob, query, &["--editorial-weight", "0"]);
    assert_eq!(alone, "Syntagma::13");
    let run = nomos(&[
        "search",
        "--index",
        blob.to_str().unwrap(),
        "--editorial-weight=-1",
        query,
    ]);
    assert_eq!(run.status.code(), Some(2), "{}", stderr(&run));
    assert!(stderr(&run).contains("weight"), "{}", stderr(&run));
}

/// `nomos split --part-bytes`: the text in parts of whole blocks beside the
/// light blob, each listed by `nomos info` with the documents it holds,
/// and every command reads the pool whole again.
#[test]
fn split_writes_the_text_in_parts_and_info_lists_them() {
    let dir = tempfile::tempdir().unwrap();
    let blob = build_syntagma(dir.path());
    let light = dir.path().join("light.blob");
    let args = |part_bytes: &str| {
        let run = nomos(&[
            "split",
            blob.to_str().unwrap(),
            "-o",
            light.to_str().unwrap(),
            "--part-bytes",
            part_bytes,
        ]);
        assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    };
    args("1");
    let mut parts: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".text"))
        .collect();
    parts.sort();
    assert!(parts.len() > 1 && parts[0] == "light.0.text", "{parts:?}");
    let run = nomos(&["info", light.to_str().unwrap()]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let out = stdout(&run);
    let listed: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("sibling:      text of documents "))
        .collect();
    assert_eq!(listed.len(), parts.len(), "{out}");
    assert!(
        listed[0].starts_with("sibling:      text of documents 0–"),
        "{out}"
    );
    // The whole blob and its light form find the same articles.
    let search = |b: &Path| {
        let run = nomos(&[
            "search",
            "--index",
            b.to_str().unwrap(),
            "ελευθερία του τύπου",
        ]);
        assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
        stdout(&run)
    };
    assert_eq!(search(&light), search(&blob));

    let run = nomos(&["split", blob.to_str().unwrap(), "--part-bytes", "0"]);
    assert_eq!(run.status.code(), Some(2), "{}", stderr(&run));
    assert!(
        stderr(&run).contains("a text part must hold at least one byte"),
        "{}",
        stderr(&run)
    );
}
