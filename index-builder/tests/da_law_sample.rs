//! The `da-law` pool on its CI sample (`data/da-law-sample/`, 139 documents
//! of Retsinformation): each document is named by type, year and number, with
//! what a lawyer sees of it, and type and year are facets read from its source.

#[path = "support/cli.rs"]
mod cli;

use std::collections::BTreeMap;
use std::path::PathBuf;

use cli::{data, ok};
use nomos_core::blob::Blob;
use nomos_core::eli::DocRef;

fn sample() -> PathBuf {
    data().join("da-law-sample")
}

fn build() -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let blob = dir.path().join("da-law.blob");
    ok(&[
        "build",
        "--format",
        "da-law",
        sample().to_str().unwrap(),
        "-o",
        blob.to_str().unwrap(),
    ]);
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

/// The explicit references of document `id`, as ids.
fn cited(blob: &Blob, id: &str) -> Vec<String> {
    let doc = blob.doc_index(id).unwrap_or_else(|| panic!("no {id}")) as usize;
    blob.explicit_refs(doc)
        .into_iter()
        .map(|d| blob.doc_id(d as usize).unwrap().to_owned())
        .collect()
}

#[test]
fn citations_across_documents_resolve_to_the_act_and_paragraph_they_name() {
    let bytes = build();
    let blob = Blob::load(&bytes).unwrap();
    // BEK 864/2025 § 2: "takster efter § 174, stk. 3, i lov om social
    // service og § 195, stk. 4, nr. 1, i barnets lov".
    let refs = cited(&blob, "BEK-2025-864_§2_stk1");
    assert!(
        refs.contains(&"LBK-2025-1129_§174_stk3".to_owned()),
        "{refs:?}"
    );
    assert!(
        refs.contains(&"LBK-2025-282_§195_stk4".to_owned()),
        "{refs:?}"
    );
    // Serviceloven lists the executive orders that cite it.
    let beks = cited(&blob, "LBK-2025-1129_nonpar_0");
    assert!(
        beks.contains(&"BEK-2025-864_nonpar_0".to_owned()),
        "{beks:?}"
    );
    assert!(beks.iter().all(|id| id.starts_with("BEK-")), "{beks:?}");
}
