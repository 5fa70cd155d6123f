//! The `da-law` pool on its CI sample (`data/da-law-sample/`, 139 documents
//! of Retsinformation): each document is named by type, year and number, with
//! what a lawyer sees of it, and type and year are facets read from its source.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use nomos_core::blob::Blob;
use nomos_core::eli::DocRef;

fn sample() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/da-law-sample")
}

fn build() -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let blob = dir.path().join("da-law.blob");
    let out = Command::new(env!("CARGO_BIN_EXE_nomos"))
        .args(["build", "--format", "da-law"])
        .arg(sample())
        .arg("-o")
        .arg(&blob)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::read(&blob).unwrap()
}

/// Documents (not stykker) per facet value.
fn facet(blob: &Blob, value: impl Fn(&DocRef) -> String) -> BTreeMap<String, usize> {
    let mut counts = BTreeMap::new();
    for source in blob.sources() {
        let doc = DocRef::parse(source).unwrap_or_else(|| panic!("source {source}"));
        *counts.entry(value(&doc)).or_default() += 1;
    }
    counts
}

#[test]
fn documents_carry_type_number_date_names_and_link_and_facet_by_type_and_year() {
    let bytes = build();
    let blob = Blob::load(&bytes).unwrap();
    let kinds = facet(&blob, |d| d.kind.clone());
    let expected: BTreeMap<String, usize> = [("BEK", 99), ("LBK", 4), ("LOV", 36)]
        .into_iter()
        .map(|(k, n)| (k.to_owned(), n))
        .collect();
    assert_eq!(kinds, expected);
    let years = facet(&blob, |d| d.year.to_string());
    assert_eq!(years.keys().next().map(String::as_str), Some("2018"));
    assert_eq!(years.values().sum::<usize>(), 139);

    let doc = blob.doc_index("LBK-2025-1129_§5_stk1").unwrap() as usize;
    assert_eq!(blob.title(doc), Some("Serviceloven § 5, stk. 1"));
    let info = blob.doc_source_info(doc).unwrap();
    assert_eq!(info.name, "Serviceloven");
    assert_eq!(info.title, "Bekendtgørelse af lov om social service");
    assert_eq!(info.number, "LBK nr. 1129");
    assert_eq!(info.date, "2025-09-22");
    assert!(info.aliases.contains(&"lov om social service".to_owned()));
    let eli = DocRef::parse(blob.source(doc).unwrap()).unwrap();
    assert_eq!(
        eli.eli_url(),
        "https://www.retsinformation.dk/eli/lta/2025/1129"
    );

    // An executive order has no popular name: it is its number.
    let bek = (0..blob.n_docs())
        .find(|&d| blob.source(d).is_some_and(|s| s.starts_with("BEK-")))
        .unwrap();
    let info = blob.doc_source_info(bek).unwrap();
    assert!(info.name.starts_with("BEK nr. "), "{}", info.name);
    assert!(info.title.starts_with("Bekendtgørelse "), "{}", info.title);
}
