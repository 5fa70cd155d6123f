use std::path::{Path, PathBuf};

use super::*;
use nomos_core::digest::sha256_hex;

fn fixture(format: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/gbr-hub")
        .join(format)
}

fn write(dir: &Path, name: &str, text: &str) {
    let path = dir.join(name);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

#[test]
fn parquet_jsonl_and_csv_exports_give_the_same_pool() {
    let parquet = read_gbr(&fixture("parquet")).unwrap();
    for format in ["jsonl", "csv"] {
        let other = read_gbr(&fixture(format)).unwrap();
        assert_eq!(other.articles, parquet.articles, "{format}");
        assert_eq!(other.queries, parquet.queries, "{format}");
        assert_eq!(other.judgments, parquet.judgments, "{format}");
        assert_eq!(other.notes, parquet.notes, "{format}");
    }
    assert_eq!(parquet.dataset, "gbr");
    assert_eq!(parquet.articles.len(), 16);
    assert_eq!(parquet.queries.len(), 17);
    assert_eq!(parquet.judgments.len(), 18);
    assert!(parquet.notes.is_empty(), "{:?}", parquet.notes);
}

/// The corpus is the real Constitution text, in source order, whatever the
/// shards and row groups it was split into.
#[test]
fn articles_are_the_source_text_in_hub_order() {
    let pool = read_gbr(&fixture("parquet")).unwrap();
    let source =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/el-syntagma/syntagma.json");
    let entries: Vec<serde_json::Value> =
        serde_json::from_str(&std::fs::read_to_string(source).unwrap()).unwrap();
    for (article, entry) in pool.articles.iter().zip(&entries) {
        let paragraphs: Vec<&str> = entry["content"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_str().unwrap())
            .collect();
        assert_eq!(article.text, paragraphs.join("\n"));
        let number = entry["title"]
            .as_str()
            .unwrap()
            .split(" - ")
            .next()
            .unwrap();
        assert_eq!(
            format!("Άρθρο {}", article.id.strip_prefix("Syntagma::").unwrap()),
            number
        );
        assert_eq!(article.source, "Syntagma");
        assert_eq!(article.area.as_deref(), Some("astiko,dimosio,poiniko"));
    }
    assert_eq!(pool.articles[5].id, "Syntagma::5Α");
}

#[test]
fn queries_take_their_area_from_the_id() {
    let pool = read_gbr(&fixture("jsonl")).unwrap();
    for q in &pool.queries {
        let tag = q.id.split('_').next().unwrap();
        assert_eq!(q.area.as_deref(), Some(tag));
    }
    let two_gold: Vec<&str> = pool
        .judgments
        .iter()
        .filter(|j| j.query_id == "astiko_synthetic_q17")
        .map(|j| j.doc_id.as_str())
        .collect();
    assert_eq!(two_gold, ["Syntagma::5", "Syntagma::5Α"]);
}

#[test]
fn every_file_read_is_recorded_with_its_digest() {
    let dir = fixture("parquet");
    let pool = read_gbr(&dir).unwrap();
    let names: Vec<&str> = pool.files.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "corpus/test-00000-of-00002.parquet",
            "corpus/test-00001-of-00002.parquet",
            "queries/test-00000-of-00001.parquet",
            "qrels/test-00000-of-00001.parquet",
        ]
    );
    for f in &pool.files {
        assert_eq!(
            f.sha256,
            sha256_hex(&std::fs::read(dir.join(&f.name)).unwrap())
        );
        assert_eq!(f.sha256.len(), 64);
    }
}

#[test]
fn ids_split_on_the_first_double_colon_only() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "corpus.jsonl",
        concat!(
            r#"{"id": "KDD/sias::5::a", "text": "x"}"#,
            "\n",
            r#"{"id": "N_4072_2012::99Α", "text": "y"}"#,
            "\n",
            r#"{"id": "Xyz::1", "text": "z"}"#,
            "\n",
            r#"{"id": "bare", "text": "w"}"#,
            "\n",
        ),
    );
    let pool = read_gbr(dir.path()).unwrap();
    let got: Vec<(&str, Option<&str>)> = pool
        .articles
        .iter()
        .map(|a| (a.source.as_str(), a.area.as_deref()))
        .collect();
    assert_eq!(
        got,
        [
            ("KDD/sias", Some("dimosio")),
            ("N_4072_2012", Some("emporiko")),
            ("Xyz", None),
            ("", None),
        ]
    );
    assert!(pool.queries.is_empty() && pool.judgments.is_empty());
    assert_eq!(pool.notes.len(), 1);
    assert!(
        pool.notes[0].ends_with(": Xyz, (ids without `::`)"),
        "{}",
        pool.notes[0]
    );
}

#[test]
fn dangling_judgments_are_kept_and_noted() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "corpus.csv", "id,text\nAK::1,a\n");
    write(dir.path(), "queries.csv", "id,text\nastiko_A_2023_q1,q\n");
    write(
        dir.path(),
        "qrels.csv",
        "query-id,corpus-id,score\nastiko_A_2023_q1,AK::1,1\nastiko_A_2023_q1,AK::2,1\nx,AK::1,1\n",
    );
    let pool = read_gbr(dir.path()).unwrap();
    assert_eq!(pool.judgments.len(), 3);
    assert_eq!(pool.notes.len(), 2, "{:?}", pool.notes);
    assert!(pool.notes[0].starts_with("1 GBR qrels name articles missing"));
    assert!(pool.notes[1].starts_with("1 GBR qrels name queries missing"));
}

#[test]
fn bad_rows_are_located() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "corpus.csv",
        "id,text\nAK::1,\"a\nb\"\nAK::1,c\n",
    );
    let err = read_gbr(dir.path()).unwrap_err().to_string();
    assert!(err.ends_with("corpus.csv:4: duplicate id `AK::1`"), "{err}");

    std::fs::remove_file(dir.path().join("corpus.csv")).unwrap();
    write(dir.path(), "corpus.jsonl", "{\"id\": \"AK::1\"}\n");
    let err = read_gbr(dir.path()).unwrap_err().to_string();
    assert!(
        err.ends_with("corpus.jsonl:1: missing column `text`"),
        "{err}"
    );

    write(
        dir.path(),
        "corpus.jsonl",
        "{\"id\": \"AK::1\", \"text\": \"t\"}\n",
    );
    write(
        dir.path(),
        "qrels.jsonl",
        "{\"query-id\": \"q\", \"corpus-id\": \"AK::1\", \"score\": \"yes\"}\n",
    );
    let err = read_gbr(dir.path()).unwrap_err().to_string();
    assert!(
        err.ends_with("qrels.jsonl:1: column `score` must be an integer, found text"),
        "{err}"
    );

    let empty = tempfile::tempdir().unwrap();
    let err = read_gbr(empty.path()).unwrap_err().to_string();
    assert!(err.contains("no GBR `corpus` subset"), "{err}");
}

mod layout_search {
    use super::*;
    use crate::sources::gbr::layout::find_subset;

    fn found(dir: &Path) -> Option<Vec<String>> {
        find_subset(dir, "corpus").unwrap()
    }

    #[test]
    fn earlier_locations_win() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        write(d, "corpus.jsonl", "");
        assert_eq!(found(d).unwrap(), ["corpus.jsonl"]);
        write(d, "data/corpus-00000-of-00001.parquet", "");
        assert_eq!(found(d).unwrap(), ["data/corpus-00000-of-00001.parquet"]);
        write(d, "data/corpus/part.csv", "");
        assert_eq!(found(d).unwrap(), ["data/corpus/part.csv"]);
        write(d, "corpus/test/0000.parquet", "");
        assert_eq!(found(d).unwrap(), ["corpus/test/0000.parquet"]);
        write(d, "corpus/test-00001-of-00002.parquet", "");
        write(d, "corpus/test-00000-of-00002.parquet", "");
        assert_eq!(
            found(d).unwrap(),
            [
                "corpus/test-00000-of-00002.parquet",
                "corpus/test-00001-of-00002.parquet"
            ]
        );
    }

    #[test]
    fn one_format_and_the_test_split_are_kept() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        for name in [
            "corpus/train-00000-of-00001.parquet",
            "corpus/test-00000-of-00001.jsonl",
            "corpus/test-00000-of-00001.parquet",
            "corpus/.test-00001-of-00002.parquet.part",
            "corpus/README.md",
        ] {
            write(d, name, "");
        }
        assert_eq!(found(d).unwrap(), ["corpus/test-00000-of-00001.parquet"]);
    }

    #[test]
    fn other_subsets_names_do_not_match() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        for name in [
            "corpus_augmented.jsonl",
            "corpusx.csv",
            "data/greekbarbench.csv",
            "corpus.txt",
        ] {
            write(d, name, "");
        }
        assert_eq!(found(d), None);
        write(d, "corpus-00000-of-00001.tsv", "");
        assert_eq!(found(d).unwrap(), ["corpus-00000-of-00001.tsv"]);
    }
}
