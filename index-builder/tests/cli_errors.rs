//! Bad input exits 2 with the file and line in the message, never a panic.

#[path = "support/cli.rs"]
mod cli;

use std::path::Path;
use std::process::Output;

use cli::{command, nomos, stderr};

/// A BEIR directory whose corpus.jsonl holds `corpus` verbatim.
fn beir_dir(corpus: &[u8]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("corpus.jsonl"), corpus).unwrap();
    std::fs::write(
        dir.path().join("queries.jsonl"),
        "{\"_id\": \"q1\", \"text\": \"straf\"}\n",
    )
    .unwrap();
    dir
}

fn search(dir: &Path, analyzer: &str) -> Output {
    nomos(&[
        "search",
        "--corpus",
        dir.to_str().unwrap(),
        "--analyzer",
        analyzer,
        "straf",
    ])
}

/// [`cli::assert_bad_input`], with no panic's report in the message.
fn assert_bad_input(out: &Output, needle: &str) {
    cli::assert_bad_input(out, needle);
    let stderr = stderr(out);
    assert!(!stderr.contains("panicked"), "{stderr}");
}

const GOOD: &str = "{\"_id\": \"a\", \"title\": \"\", \"text\": \"Straf kan kun pålægges\"}\n";

#[test]
fn malformed_json_line_names_file_and_line() {
    let dir = beir_dir(format!("{GOOD}\n{{\"_id\": \"b\", \"text\": \"x\"\n").as_bytes());
    assert_bad_input(&search(dir.path(), "da"), "corpus.jsonl:3: malformed JSON");
}

#[test]
fn missing_field_names_file_line_and_field() {
    let dir = beir_dir(format!("{GOOD}{{\"_id\": \"b\"}}\n").as_bytes());
    assert_bad_input(
        &search(dir.path(), "da"),
        "corpus.jsonl:2: missing field `text`",
    );
}

#[test]
fn wrong_field_type_is_reported() {
    let dir = beir_dir(format!("{GOOD}{{\"_id\": \"b\", \"text\": [1]}}\n").as_bytes());
    assert_bad_input(
        &search(dir.path(), "da"),
        "corpus.jsonl:2: field `text` must be a string",
    );
}

#[test]
fn non_utf8_file_names_the_line() {
    let mut bytes = GOOD.as_bytes().to_vec();
    bytes.extend_from_slice(b"{\"_id\": \"b\", \"text\": \"\xff\xfe\"}\n");
    let dir = beir_dir(&bytes);
    assert_bad_input(&search(dir.path(), "da"), "corpus.jsonl:2: not valid UTF-8");
}

#[test]
fn unknown_analyzer_lists_the_valid_ones() {
    let dir = beir_dir(GOOD.as_bytes());
    assert_bad_input(&search(dir.path(), "klingon"), "gbr-greek, da, zh");
}

#[test]
fn missing_corpus_is_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    assert_bad_input(&search(dir.path(), "da"), "corpus.jsonl: cannot read");
}

#[test]
fn malformed_qrels_and_run_lines_are_located() {
    let dir = tempfile::tempdir().unwrap();
    let qrels = dir.path().join("qrels.txt");
    let run = dir.path().join("run.txt");
    std::fs::write(&qrels, "q1 0 a 1\nq1 0 b\n").unwrap();
    std::fs::write(&run, "q1 Q0 a 1 2.5 t\n").unwrap();
    let out = nomos(&["trec-eval", qrels.to_str().unwrap(), run.to_str().unwrap()]);
    assert_bad_input(&out, "qrels.txt:2:");

    std::fs::write(&qrels, "q1 0 a 1\n").unwrap();
    std::fs::write(&run, "q1 Q0 a 1 2.5 t\nq1 Q0 b 2 not-a-score t\n").unwrap();
    let out = nomos(&["trec-eval", qrels.to_str().unwrap(), run.to_str().unwrap()]);
    assert_bad_input(&out, "run.txt:2:");

    std::fs::write(&run, "q1 Q0 a 1 -inf t\nq1 Q0 b 2 1e400 t\n").unwrap();
    let out = nomos(&["trec-eval", qrels.to_str().unwrap(), run.to_str().unwrap()]);
    assert_bad_input(&out, "run.txt:2: score '1e400' is out of range");

    std::fs::write(&qrels, "q1 0 a 2147483648\n").unwrap();
    std::fs::write(&run, "q1 Q0 a 1 2.5 t\n").unwrap();
    let out = nomos(&["trec-eval", qrels.to_str().unwrap(), run.to_str().unwrap()]);
    assert_bad_input(&out, "qrels.txt:1: relevance '2147483648' is out of range");
}

#[test]
fn out_of_range_bm25_parameters_are_rejected() {
    let dir = beir_dir(GOOD.as_bytes());
    let out = nomos(&[
        "search",
        "--corpus",
        dir.path().to_str().unwrap(),
        "--analyzer",
        "da",
        "--b",
        "1.5",
        "straf",
    ]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn analyze_writes_one_line_per_input_line() {
    use std::io::Write;
    let mut child = command()
        .args(["analyze", "--analyzer", "gbr-greek"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all("Η καταγγελία της μισθώσεως\n\nκαι\n".as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "ΚΑΤΑΓΓΕΛ ΜΙΣΘΩΣ\n\n\n"
    );
}

/// The GBR Parquet fixture copied, with one byte of its qrels file changed.
fn gbr_with_qrels_byte(at: usize, value: u8) -> tempfile::TempDir {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/gbr-hub/parquet");
    let dir = tempfile::tempdir().unwrap();
    for part in ["corpus", "queries", "qrels"] {
        std::fs::create_dir(dir.path().join(part)).unwrap();
        for entry in std::fs::read_dir(fixture.join(part)).unwrap() {
            let entry = entry.unwrap();
            std::fs::copy(entry.path(), dir.path().join(part).join(entry.file_name())).unwrap();
        }
    }
    let qrels = dir.path().join("qrels/test-00000-of-00001.parquet");
    let mut bytes = std::fs::read(&qrels).unwrap();
    bytes[at] = value;
    std::fs::write(&qrels, bytes).unwrap();
    dir
}

#[test]
fn damaged_parquet_exits_2_without_a_panic_report() {
    for (at, value, needle) in [
        // A footer byte that makes a column chunk's offset negative.
        (
            687,
            0xff,
            "test-00000-of-00001.parquet: damaged Parquet file: row group 1",
        ),
        // A value byte the crate's decoder asserts on.
        (
            270,
            0x5e,
            "test-00000-of-00001.parquet: row 1: damaged Parquet data",
        ),
    ] {
        let dir = gbr_with_qrels_byte(at, value);
        let blob = dir.path().join("out.blob");
        let out = nomos(&[
            "build",
            "--format",
            "gbr",
            dir.path().to_str().unwrap(),
            "-o",
            blob.to_str().unwrap(),
        ]);
        assert_bad_input(&out, needle);
        assert!(!blob.exists());
    }
}

#[test]
fn a_malformed_code_of_the_greek_codes_export_names_its_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("ΑΣΤΙΚΟΣ ΚΩΔΙΚΑΣ.txt"),
        "ΣΤΟΙΧΕΙΑ ΑΡΘΡΩΝ\n\nΑρθρο: 1\nΗμ/νία: 23.2.1946\nΚείμενο Αρθρου\nκείμενο\n",
    )
    .unwrap();
    let blob = dir.path().join("out.blob");
    let out = nomos(&[
        "build",
        "--format",
        "el-codes",
        dir.path().to_str().unwrap(),
        "-o",
        blob.to_str().unwrap(),
    ]);
    assert_bad_input(
        &out,
        "ΑΣΤΙΚΟΣ ΚΩΔΙΚΑΣ.txt:4: date \"23.2.1946\" is not DD.MM.YYYY",
    );
}
