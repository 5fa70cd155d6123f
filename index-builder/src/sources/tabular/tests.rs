use std::path::Path;

use super::*;

fn table(name: &str, content: &[u8]) -> Result<Table> {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(name), content).unwrap();
    read_table(dir.path(), name)
}

fn err(name: &str, content: &[u8]) -> String {
    match table(name, content) {
        Ok(_) => panic!("{name} should not parse"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn csv_quoted_fields_span_lines_and_escape_quotes() {
    let t = table(
        "t.csv",
        "\u{feff}id,text\na,\"one, \"\"two\"\"\nthree\"\nb,plain\n".as_bytes(),
    )
    .unwrap();
    assert_eq!(t.rows.len(), 2);
    assert_eq!(t.rows[0].string("text").unwrap(), "one, \"two\"\nthree");
    assert_eq!(t.rows[1].string("id").unwrap(), "b");
    // The second record starts on line 4, after the two-line field.
    let e = t.rows[1].string("missing").unwrap_err().to_string();
    assert!(e.ends_with("t.csv:4: missing column `missing`"), "{e}");
}

#[test]
fn tsv_uses_tabs() {
    let t = table("q.tsv", b"query-id\tcorpus-id\tscore\nq1\tAK::1\t1\n").unwrap();
    assert_eq!(t.rows[0].string("corpus-id").unwrap(), "AK::1");
    assert_eq!(t.rows[0].int("score").unwrap(), 1);
}

#[test]
fn csv_errors_name_the_line() {
    let e = err("t.csv", b"id,text\na,b\nc,d,e\n");
    assert!(e.contains("t.csv:3: bad record"), "{e}");
    let e = err("t.csv", b"id,text\na,\xff\n");
    assert!(e.contains("t.csv:2: bad record"), "{e}");
}

#[test]
fn jsonl_skips_blank_lines_and_locates_errors() {
    let t = table(
        "t.jsonl",
        b"{\"id\": 7, \"xs\": [\"a\"]}\n\n{\"id\": \"b\", \"xs\": []}\n",
    )
    .unwrap();
    assert_eq!(t.rows[0].string("id").unwrap(), "7");
    assert_eq!(t.rows[0].strings("xs").unwrap(), ["a"]);
    let e = t.rows[1].int("id").unwrap_err().to_string();
    assert!(
        e.ends_with("t.jsonl:3: column `id` must be an integer, found text"),
        "{e}"
    );
    assert!(
        err("t.jsonl", b"{}\n[1]\n").ends_with("t.jsonl:2: expected a JSON object, found a list")
    );
    assert!(err("t.jsonl", b"{}\n{\"a\":\n").contains("t.jsonl:2: malformed JSON"));
    assert!(err("t.jsonl", b"{}\n\xff\n").ends_with("t.jsonl:2: not valid UTF-8"));
}

#[test]
fn integers_in_every_spelling_exports_use() {
    let t = table(
        "t.jsonl",
        b"{\"a\": 1, \"b\": 2.0, \"c\": \"3\", \"d\": \" 4.0 \", \"e\": 2.5, \"f\": null}\n",
    )
    .unwrap();
    let row = &t.rows[0];
    let ints: Vec<i64> = ["a", "b", "c", "d"]
        .iter()
        .map(|f| row.int(f).unwrap())
        .collect();
    assert_eq!(ints, [1, 2, 3, 4]);
    assert!(row.int("e").is_err());
    assert!(row.int("f").is_err());
    assert_eq!(row.opt_string("f").unwrap(), None);
    assert!(row
        .int("g")
        .unwrap_err()
        .to_string()
        .contains("missing column `g`"));
}

#[test]
fn formats_come_from_the_extension() {
    assert_eq!(Format::of("a/b.PARQUET"), Some(Format::Parquet));
    assert_eq!(Format::of("corpus.jsonl"), Some(Format::Jsonl));
    assert_eq!(Format::of("x.json"), None);
    assert_eq!(Format::of("README"), None);
    assert!(err("corpus.txt", b"").contains("unknown table format"));
}

/// Each codec `datasets`/pyarrow may use (snappy, zstd, gzip) in a real
/// pyarrow-written file, across shards with several row groups.
#[test]
fn parquet_files_of_each_codec_read_as_rows() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/gbr-hub/parquet");
    let corpus: Vec<Table> = [
        "corpus/test-00000-of-00002.parquet",
        "corpus/test-00001-of-00002.parquet",
    ]
    .iter()
    .map(|n| read_table(&dir, n).unwrap())
    .collect();
    assert_eq!(corpus.iter().map(|t| t.rows.len()).sum::<usize>(), 16);
    let queries = read_table(&dir, "queries/test-00000-of-00001.parquet").unwrap();
    assert_eq!(queries.rows.len(), 17);
    let qrels = read_table(&dir, "qrels/test-00000-of-00001.parquet").unwrap();
    assert_eq!(qrels.rows[0].int("score").unwrap(), 1);
    let e = qrels.rows[1].strings("score").unwrap_err().to_string();
    assert!(e.ends_with("qrels/test-00000-of-00001.parquet: row 2: column `score` must be a list, found a number"), "{e}");
}

#[test]
fn damaged_parquet_is_an_error() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/gbr-hub/parquet");
    let good = std::fs::read(dir.join("queries/test-00000-of-00001.parquet")).unwrap();
    assert!(err("x.parquet", b"not parquet").contains("x.parquet: not a readable Parquet file"));
    let mut truncated = good.clone();
    truncated.drain(100..400);
    assert!(table("x.parquet", &truncated).is_err());
}
