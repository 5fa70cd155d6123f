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

#[test]
fn csv_quote_left_open_at_the_end_is_an_error_not_one_long_field() {
    // Read leniently, `"one` would swallow the records for b and c.
    let e = err("t.csv", b"id,text\na,\"one\nb,two\nc,three\n");
    assert!(
        e.ends_with("t.csv:2: a quoted field opens here and is never closed (the rest of the file would be read as one field)"),
        "{e}"
    );
    let e = err("t.tsv", b"id\ttext\na\tok\nb\t\"x\"\"y\n");
    assert!(e.contains("t.tsv:3: a quoted field opens"), "{e}");
    // Quotes that close, or that do not open a field, are fine.
    let t = table("t.csv", b"id,text\na,\"x\"\"\ny\"\nb,5\" long\n").unwrap();
    assert_eq!(t.rows[0].string("text").unwrap(), "x\"\ny");
    assert_eq!(t.rows[1].string("text").unwrap(), "5\" long");
}

fn gbr_fixture(name: &str) -> Vec<u8> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/gbr-hub/parquet");
    std::fs::read(dir.join(name)).unwrap()
}

const QRELS: &str = "qrels/test-00000-of-00001.parquet";

/// The qrels fixture with `at` set to `value`.
fn qrels_with(at: usize, value: u8) -> Vec<u8> {
    let mut bytes = gbr_fixture(QRELS);
    bytes[at] = value;
    bytes
}

/// The qrels fixture with its first column chunk replaced by `page` (a page
/// header and body, written by hand) stored with `codec`: the footer is
/// rewritten by the crate, so only the page is crafted.
fn qrels_with_page(page: &[u8], codec: parquet::basic::Compression) -> Vec<u8> {
    use parquet::file::metadata::{ParquetMetaDataReader, ParquetMetaDataWriter};
    let good = bytes::Bytes::from(gbr_fixture(QRELS));
    let meta = ParquetMetaDataReader::new()
        .parse_and_finish(&good)
        .unwrap();
    let footer = u32::from_le_bytes(good[good.len() - 8..good.len() - 4].try_into().unwrap());
    let mut file = good[..good.len() - 8 - footer as usize].to_vec();
    let offset = file.len() as i64;
    file.extend_from_slice(page);
    let mut builder = meta.into_builder();
    for (g, group) in builder.take_row_groups().into_iter().enumerate() {
        let mut columns = group.columns().to_vec();
        if g == 0 {
            columns[0] = columns[0]
                .clone()
                .into_builder()
                .set_dictionary_page_offset(None)
                .set_data_page_offset(offset)
                .set_total_compressed_size(page.len() as i64)
                .set_compression(codec)
                .build()
                .unwrap();
        }
        builder = builder.add_row_group(
            group
                .into_builder()
                .set_column_metadata(columns)
                .build()
                .unwrap(),
        );
    }
    ParquetMetaDataWriter::new(&mut file, &builder.build())
        .finish()
        .unwrap();
    file
}

/// A data page header in Thrift's compact protocol: `uncompressed` and
/// `stored` sizes, `encoding` for the values (0 plain, 8 dictionary).
fn page_header(uncompressed: i64, stored: usize, encoding: i64) -> Vec<u8> {
    fn int(out: &mut Vec<u8>, v: i64) {
        let mut z = ((v << 1) ^ (v >> 63)) as u64;
        while z >= 0x80 {
            out.push((z as u8) | 0x80);
            z >>= 7;
        }
        out.push(z as u8);
    }
    let mut h = vec![0x15, 0x00, 0x15]; // 1: type DATA_PAGE; 2: i32 follows
    int(&mut h, uncompressed);
    h.push(0x15); // 3: stored size
    int(&mut h, stored as i64);
    h.push(0x2c); // 5: DataPageHeader
    h.extend([0x15, 0x02, 0x15]); // num_values 1; encoding
    int(&mut h, encoding);
    h.extend([0x15, 0x06, 0x15, 0x06, 0x00, 0x00]); // levels RLE; stops
    h
}

#[test]
fn flipped_footer_bytes_are_errors_not_panics() {
    // A column chunk's offset turned negative (the crate asserts on it) and
    // a column that then reads a dictionary page it does not have.
    let e = err("x.parquet", &qrels_with(687, 0xff));
    assert!(
        e.ends_with("x.parquet: damaged Parquet file: row group 1, column `query-id`: claims -320 bytes at offset 4, outside the file's 1377 bytes"),
        "{e}"
    );
    let e = err("x.parquet", &qrels_with(808, 0x01));
    assert!(
        e.contains("x.parquet: damaged Parquet file: row group 1"),
        "{e}"
    );
}

#[test]
fn a_page_claiming_4_gib_is_refused_before_anything_inflates() {
    use parquet::basic::Compression;
    let mut page = page_header(4 << 30, 16, 0);
    page.extend([0; 16]);
    let e = err("x.parquet", &qrels_with_page(&page, Compression::SNAPPY));
    assert!(
        e.ends_with("claims to inflate to 4294967296 bytes (at most 268435456 are read)"),
        "{e}"
    );
    let mut page = page_header(16, 1 << 20, 0);
    page.extend([0; 16]);
    let e = err(
        "x.parquet",
        &qrels_with_page(&page, Compression::UNCOMPRESSED),
    );
    assert!(
        e.ends_with("claims 1048576 stored bytes, past the end of its column chunk"),
        "{e}"
    );
}

#[test]
fn a_gzip_page_that_inflates_past_its_claim_is_refused() {
    use parquet::basic::{Compression, GzipLevel};
    use std::io::Write;
    // 64 gzip members of 1 MiB of zeros each: 64 MiB from a few kB.
    let mut member = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    member.write_all(&[0; 1 << 20]).unwrap();
    let member = member.finish().unwrap();
    let body = member.repeat(64);
    let mut page = page_header(1000, body.len(), 0);
    page.extend(&body);
    let e = err(
        "x.parquet",
        &qrels_with_page(&page, Compression::GZIP(GzipLevel::default())),
    );
    assert!(e.ends_with("inflates past the 1000 bytes it claims"), "{e}");
}

#[test]
fn a_dictionary_page_that_is_not_there_is_an_error() {
    use parquet::basic::Compression;
    let mut page = page_header(4, 4, 8);
    page.extend([2, 0, 0, 0]);
    let e = err(
        "x.parquet",
        &qrels_with_page(&page, Compression::UNCOMPRESSED),
    );
    assert!(
        e.ends_with("uses a dictionary, but no dictionary page precedes it"),
        "{e}"
    );
}

#[test]
fn a_value_the_decoder_asserts_on_is_bad_input() {
    // A byte in the first data page's values: the crate's bit reader asserts
    // rather than returning an error, and the reader turns that into one.
    let Err(e) = table("x.parquet", &qrels_with(270, 0x5e)) else {
        panic!("the damaged file was read");
    };
    assert_eq!(crate::error::exit_code(&e), 2);
    let e = e.to_string();
    assert!(
        e.contains("x.parquet: row 1: damaged Parquet data (the decoder failed: "),
        "{e}"
    );
}

/// Every byte of a real file flipped in turn: each read either succeeds or
/// fails with an error naming the file, and none panics (a panic fails this
/// test: the reader's own checks run outside the decoders' guard).
#[test]
fn no_single_flipped_byte_panics() {
    let good = gbr_fixture(QRELS);
    for at in 0..good.len() {
        for flip in [0xff, 0x01] {
            let mut bytes = good.clone();
            bytes[at] ^= flip;
            if let Err(e) = table("x.parquet", &bytes) {
                assert!(e.to_string().contains("x.parquet: "), "{at}: {e}");
            }
        }
    }
}
