//! Running the `nomos` binary from the CLI tests, and the paths they
//! share. One copy, so every test runs the binary the same way and a
//! failed run reports the same things: its arguments and its stderr.
//! Included by each test with `#[path = "support/cli.rs"] mod cli;`.

// Each test crate that includes this uses part of it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

/// The repository root: the models, `.venv-model` and the data live there.
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The repository's `data/`, the committed sources and samples.
pub fn data() -> PathBuf {
    repo().join("data")
}

/// The embedding model the dense tests need, `models/e5-small`; a test
/// without it fails saying how to make it.
pub fn model() -> PathBuf {
    let dir = repo().join("models/e5-small");
    assert!(
        dir.join("manifest.json").is_file(),
        "{} is missing: run `scripts/build-demo.sh --embed el-syntagma,stard` \
         (or `nomos model prepare --out models/e5-small`) first",
        dir.display()
    );
    dir
}

/// The binary cargo built for these tests, for a test that sets more
/// than arguments (environment, stdin, a signal); run it with
/// [`output`].
pub fn command() -> Command {
    Command::new(env!("CARGO_BIN_EXE_nomos"))
}

/// Runs `command` with `args` and waits for it.
pub fn output(command: &mut Command, args: &[&str]) -> Output {
    command.args(args).output().expect("the nomos binary runs")
}

/// Runs `nomos` with `args` in cargo's working directory (this crate's);
/// the test checks the outcome.
pub fn nomos(args: &[&str]) -> Output {
    output(&mut command(), args)
}

/// Runs `nomos` with `args` from the repository root, where a run that
/// embeds finds `.venv-model` (relative paths are the repository's).
/// `ORT_DYLIB_PATH` is unset, so the ONNX Runtime loaded is that venv's,
/// not whatever the developer's shell points at.
pub fn nomos_in_repo(args: &[&str]) -> Output {
    output(
        command().current_dir(repo()).env_remove("ORT_DYLIB_PATH"),
        args,
    )
}

/// [`nomos`], asserting it succeeded.
pub fn ok(args: &[&str]) -> Output {
    succeeded(args, nomos(args))
}

/// [`nomos_in_repo`], asserting it succeeded.
pub fn ok_in_repo(args: &[&str]) -> Output {
    succeeded(args, nomos_in_repo(args))
}

/// `out`, once asserted successful; the message names `args` and gives
/// the stderr, which says why it failed.
fn succeeded(args: &[&str], out: Output) -> Output {
    assert!(out.status.success(), "nomos {args:?}: {}", stderr(&out));
    out
}

/// Asserts `out` refused bad input: exit 2, with `needle` in the message.
pub fn assert_bad_input(out: &Output, needle: &str) {
    let stderr = stderr(out);
    assert_eq!(out.status.code(), Some(2), "stderr: {stderr}");
    assert!(stderr.contains(needle), "expected {needle:?} in {stderr:?}");
}

/// What a run wrote to stderr. Lossy: an error may quote bytes of a
/// damaged input.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// What a run printed, which must be UTF-8.
pub fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("nomos prints UTF-8")
}

/// The JSON file at `path` (metrics, a set's metadata, a manifest).
pub fn json(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

/// The JSON Lines file at `path`, a value a line (chunks, queries).
pub fn json_lines(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Makes the definitions query set (`make-queries --kind definitions`,
/// with the window and cap these tests measured) from the da-law
/// documents in `src` into `out`, through `run` ([`ok`] or
/// [`ok_in_repo`]). With `dense`, a blob with vectors of `src`'s chunks,
/// the set is filtered by dense retrieval with [`model`] as well as by
/// BM25.
pub fn make_definitions(run: fn(&[&str]) -> Output, src: &Path, out: &Path, dense: Option<&Path>) {
    let dense = dense.map(|blob| (blob.to_str().unwrap(), model()));
    let mut args = vec![
        "make-queries",
        "--kind",
        "definitions",
        "--format",
        "da-law",
        src.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--window",
        "4",
        "--per-definition",
        "100",
    ];
    if let Some((blob, model)) = &dense {
        args.extend(["--dense", blob, "--model", model.to_str().unwrap()]);
    }
    run(&args);
}
