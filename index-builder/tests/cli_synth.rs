//! `nomos synth` as a user runs it: a small synthetic pool is the same bytes
//! for the same seed, builds, and its references resolve; bad arguments
//! exit 2. A few hundred documents, so it runs in seconds in debug.

#[path = "support/cli.rs"]
mod cli;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Output;

use cli::{nomos, stderr};
use nomos_core::blob::Blob;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../data");

fn synth(from: &str, docs: usize, seed: u64, out: &Path) -> Output {
    let (docs, seed) = (docs.to_string(), seed.to_string());
    nomos(&[
        "synth",
        "--from",
        from,
        "--docs",
        &docs,
        "--seed",
        &seed,
        "--data",
        DATA,
        "--out",
        out.to_str().unwrap(),
    ])
}

/// Every file under `dir` by relative path, with its bytes.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let path = e.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let name = path.strip_prefix(dir).unwrap().display().to_string();
                out.insert(name, std::fs::read(&path).unwrap());
            }
        }
    }
    out
}

/// The number after "(" and before " cross-references" in synth's summary.
fn planned_refs(summary: &str) -> usize {
    let end = summary.find(" cross-references").expect(summary);
    let start = summary[..end].rfind('(').unwrap() + 1;
    summary[start..end].parse().unwrap()
}

fn build(format: &str, src: &Path, out: &Path) -> Blob {
    let run = nomos(&[
        "build",
        "--format",
        format,
        src.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    Blob::load(&std::fs::read(out).unwrap()).unwrap()
}

#[test]
fn the_same_seed_gives_the_same_bytes_and_another_seed_other_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let [a, b, c] = ["a", "b", "c"].map(|n| dir.path().join(n));
    for (out, seed) in [(&a, 7), (&b, 7), (&c, 8)] {
        let run = synth("da", 300, seed, out);
        assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    }
    let (fa, fb, fc) = (files(&a), files(&b), files(&c));
    assert!(fa.len() > 1 && fa.contains_key("PROVENANCE.md"));
    assert_eq!(fa, fb);
    assert_ne!(fa, fc);
    let provenance = String::from_utf8_lossy(&fa["PROVENANCE.md"]);
    assert!(
        provenance.contains("SYNTHETIC TEXT — NOT LAW"),
        "{provenance}"
    );
    assert!(provenance.contains("--seed 7"), "{provenance}");
    assert!(provenance.contains("2025_1294.json"), "{provenance}");
}

#[test]
fn danish_pool_builds_with_its_references_resolved() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    let run = synth("da", 400, 3, &src);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let planned = planned_refs(&stderr(&run));
    let blob = build("da-acts", &src, &dir.path().join("pool.blob"));
    assert_eq!(blob.n_docs(), 400);
    for doc in 0..blob.n_docs() {
        assert!(blob.doc_id(doc).unwrap().starts_with("synthetic"));
        assert!(blob.title(doc).unwrap().starts_with("Synthetic"));
    }
    let notes = &blob.header().manifest.notes;
    assert!(
        notes.iter().any(|n| n.contains("SYNTHETIC TEXT, NOT LAW")),
        "{notes:?}"
    );
    let edges: usize = (0..blob.n_docs())
        .map(|d| blob.explicit_refs(d).len())
        .sum();
    // The real acts cite about one stykke in two; every planned reference
    // names a distinct stykke or § of the same act, so all resolve.
    assert!(planned > 40, "planned {planned}");
    assert_eq!(edges, planned);
}

#[test]
fn greek_pool_builds() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    let run = synth("el", 200, 3, &src);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let blob = build("el-nomothesia", &src, &dir.path().join("pool.blob"));
    assert_eq!(blob.n_docs(), 200);
    assert!(blob.doc_id(0).unwrap().starts_with("synthetic::"));
    // Neither official text nor a consolidation: the reader says synthetic.
    assert_eq!(blob.source(0), Some("SYNTHETIC Ν. 1/0001"));
    let notes = &blob.header().manifest.notes;
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(notes[0].contains("SYNTHETIC TEXT, NOT LAW"), "{notes:?}");
}

#[test]
fn bad_arguments_exit_2_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let cases: [(Output, &str); 4] = [
        (synth("da", 0, 1, &out), "--docs must be at least 1"),
        (
            nomos(&["synth", "--from", "fr", "--docs", "5", "--out", "x"]),
            "invalid value 'fr'",
        ),
        (
            nomos(&[
                "synth",
                "--from",
                "da",
                "--docs",
                "5",
                "--data",
                dir.path().to_str().unwrap(),
                "--out",
                out.to_str().unwrap(),
            ]),
            "da-statutes: no such directory",
        ),
        (synth("da", 5, 1, Path::new(DATA)), "not empty"),
    ];
    for (run, needle) in cases {
        let err = stderr(&run);
        assert_eq!(run.status.code(), Some(2), "{err}");
        assert!(err.contains(needle), "expected {needle:?} in {err:?}");
        assert!(!err.contains("panicked"), "{err}");
    }
}
