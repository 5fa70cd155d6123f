//! The chunker against CRAwLeR-DK's own records
//! (`../shared/reference/crawler-dk/chunk_examples.jsonl`, ten rows of its
//! `chunks.jsonl`) and chunk counts (`chunk_counts.tsv`), on the acts in
//! `../shared/data/da-statutes/`.
//!
//! Our acts are newer consolidations than the ones CRAwLeR chunked, so where
//! the wording changed the test names the record, says why, and still checks
//! everything that applies.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use serde_json::Value;

use super::*;

fn shared() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared")
}

fn pool() -> &'static Dataset {
    static POOL: OnceLock<Dataset> = OnceLock::new();
    POOL.get_or_init(|| read_da_acts(&shared().join("data/da-statutes")).unwrap())
}

/// One row of CRAwLeR's `chunks.jsonl`.
struct Record {
    id: String,
    text: String,
    idx: i64,
    implicit: Vec<String>,
    explicit: Vec<String>,
}

fn records() -> Vec<Record> {
    let path = shared().join("reference/crawler-dk/chunk_examples.jsonl");
    let strings = |v: &Value, field: &str| -> Vec<String> {
        v[field]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap().to_string())
            .collect()
    };
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|line| {
            let v: Value = serde_json::from_str(line).unwrap();
            Record {
                id: v["chunk_id"].as_str().unwrap().into(),
                text: v["chunk"].as_str().unwrap().into(),
                idx: v["chunk_idx"].as_i64().unwrap(),
                implicit: strings(&v, "implicit_context_chunks"),
                explicit: strings(&v, "explicit_context_chunks"),
            }
        })
        .collect()
}

/// Records whose wording changed since CRAwLeR's consolidation: (record,
/// CRAwLeR's words, ours, why). Undoing the change must give its text.
const REWORDED: &[(&str, &str, &str, &str)] = &[
    (
        "almenboligloven_§96b_stk1",
        "Indenrigs- og boligministeren",
        "Social- og boligministeren",
        "the ministry was renamed before LBK 207/2026",
    ),
    (
        "almenboligloven_§101a_stk4",
        "Indenrigs- og boligministeren",
        "Social- og boligministeren",
        "the ministry was renamed before LBK 207/2026",
    ),
];

/// Stykker our consolidation has and CRAwLeR's lacked: (id, why). They are
/// extra siblings in the implicit lists of the other stykker of their §.
const ADDED_STYKKER: &[(&str, &str)] = &[(
    "almenboligloven_§91_stk17",
    "§ 91 gained a stk. 17 (reporting to the minister) after CRAwLeR's version",
)];

/// CRAwLeR's heading chunks: our JSON flattens headings away.
const HEADINGS: &[(&str, &str)] = &[(
    "erhversfondsloven_nonpar_219",
    "a chapter heading; the Retsinformation JSON has no headings",
)];

#[test]
fn matches_crawler_records() {
    let pool = pool();
    let by_id: HashMap<&str, (usize, &Article)> = pool
        .articles
        .iter()
        .enumerate()
        .map(|(i, a)| (a.id.as_str(), (i, a)))
        .collect();
    let added: Vec<&str> = ADDED_STYKKER.iter().map(|a| a.0).collect();
    for (id, _) in ADDED_STYKKER {
        assert!(
            by_id.contains_key(id),
            "{id} should exist in our consolidation"
        );
    }
    let mut compared = 0;
    for rec in records() {
        if let Some((_, why)) = HEADINGS.iter().find(|h| h.0 == rec.id) {
            eprintln!("{}: text not compared: {why}", rec.id);
            assert!(rec.implicit.is_empty() && rec.explicit.is_empty());
            assert!(
                !pool.articles.iter().any(|a| a.text == rec.text),
                "{} is in our data after all",
                rec.id
            );
            // What still applies: nonpar chunks carry no context.
            for a in pool.articles.iter().filter(|a| a.id.contains("_nonpar_")) {
                assert!(
                    a.implicit_refs.is_empty() && a.explicit_refs.is_empty(),
                    "{}",
                    a.id
                );
            }
            continue;
        }
        let (_, ours) = by_id
            .get(rec.id.as_str())
            .unwrap_or_else(|| panic!("no chunk {}", rec.id));
        match REWORDED.iter().find(|r| r.0 == rec.id) {
            Some((_, theirs, now, why)) => {
                eprintln!(
                    "{}: wording differs ({why}); text compared after undoing it",
                    rec.id
                );
                assert_ne!(ours.text, rec.text);
                assert_eq!(ours.text.replacen(now, theirs, 1), rec.text, "{}", rec.id);
            }
            None => assert_eq!(ours.text, rec.text, "{}", rec.id),
        }
        let implicit: Vec<&String> = ours
            .implicit_refs
            .iter()
            .filter(|id| !added.contains(&id.as_str()))
            .collect();
        assert_eq!(
            implicit,
            rec.implicit.iter().collect::<Vec<_>>(),
            "implicit of {}",
            rec.id
        );
        assert_eq!(ours.explicit_refs, rec.explicit, "explicit of {}", rec.id);
        compared += 1;
    }
    assert_eq!(compared, 9);
}

#[test]
fn keeps_crawler_order_within_a_law() {
    // CRAwLeR's chunk_idx counts heading chunks we do not have, so positions
    // differ by a per-law offset between headings; but the records keep
    // their order, and stykker of one § are consecutive in both.
    let pool = pool();
    let pos: HashMap<&str, usize> = pool
        .articles
        .iter()
        .enumerate()
        .map(|(i, a)| (a.id.as_str(), i))
        .collect();
    let mut almen: Vec<(i64, usize, &str)> = records()
        .into_iter()
        .filter(|r| r.id.starts_with("almenboligloven_§"))
        .map(|r| {
            (
                r.idx,
                pos[r.id.as_str()],
                pos.get_key_value(r.id.as_str()).unwrap().0.to_owned(),
            )
        })
        .collect();
    almen.sort();
    assert_eq!(almen.len(), 8);
    assert!(almen.windows(2).all(|w| w[0].1 < w[1].1), "{almen:?}");
    let at = |id: &str| almen.iter().find(|r| r.2 == id).unwrap();
    let (s1, s5, s12) = (
        at("almenboligloven_§91_stk1"),
        at("almenboligloven_§91_stk5"),
        at("almenboligloven_§91_stk12"),
    );
    assert_eq!(
        (s5.0 - s1.0, s12.0 - s1.0),
        ((s5.1 - s1.1) as i64, (s12.1 - s1.1) as i64)
    );
}

#[test]
fn chunk_counts_are_plausible() {
    // Ours lack CRAwLeR's heading chunks, and serviceloven lost its
    // children's chapters to barnets lov (2024), so ours are lower; the band
    // catches a chunker that splits far too much or too little.
    let tsv =
        std::fs::read_to_string(shared().join("reference/crawler-dk/chunk_counts.tsv")).unwrap();
    let mut ours: HashMap<&str, usize> = HashMap::new();
    for a in &pool().articles {
        *ours.entry(a.source.as_str()).or_default() += 1;
    }
    let mut laws = 0;
    for line in tsv.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        if cols[0] == "TOTAL" {
            continue;
        }
        let theirs: usize = cols[1].parse().unwrap();
        let n = ours[cols[0]];
        let ratio = n as f64 / theirs as f64;
        eprintln!(
            "{:<18} ours {n:>5}  CRAwLeR {theirs:>5}  ratio {ratio:.2}",
            cols[0]
        );
        assert!((0.4..=1.0).contains(&ratio), "{}: {n} vs {theirs}", cols[0]);
        laws += 1;
    }
    assert_eq!(laws, 7);
    let mut all: Vec<_> = ours.into_iter().collect();
    all.sort();
    eprintln!("all acts: {all:?}");
}

#[test]
fn ids_are_unique_and_contexts_point_into_the_pool() {
    let pool = pool();
    let ids: std::collections::HashSet<&str> =
        pool.articles.iter().map(|a| a.id.as_str()).collect();
    assert_eq!(ids.len(), pool.articles.len());
    assert_eq!(pool.files.len(), 17);
    let mut with_explicit = 0;
    for a in &pool.articles {
        for r in a.implicit_refs.iter().chain(&a.explicit_refs) {
            assert!(ids.contains(r.as_str()) && r != &a.id, "{} -> {r}", a.id);
        }
        assert!(a.explicit_refs.windows(2).all(|w| w[0] < w[1]), "{}", a.id);
        with_explicit += usize::from(!a.explicit_refs.is_empty());
    }
    eprintln!(
        "{} chunks, {with_explicit} with explicit context",
        pool.articles.len()
    );
    // Repealed ranges and amending acts' clauses are nonpar chunks.
    let strl_28 = pool
        .articles
        .iter()
        .find(|a| a.text == "§§ 28-30. (Ophævet)")
        .unwrap();
    assert!(strl_28.id.starts_with("straffeloven_nonpar_"));
    assert_eq!(strl_28.title, "Straffeloven §§ 28-30");
    assert!(!ids.contains("straffeloven_§29_stk1"));
    let first = &pool.articles[0];
    assert_eq!(
        (first.id.as_str(), first.text.as_str()),
        (
            "forvaltningsloven_nonpar_0",
            "Bekendtgørelse af forvaltningsloven"
        )
    );
}

#[test]
fn bad_files_are_reported_with_their_place() {
    let err = read_act(
        "a.json",
        "{\n  \"title\": \"Bekendtgørelse af straffeloven\",\n  \"provisions\": [\n}".as_bytes(),
        Naming::Crawler,
    )
    .unwrap_err()
    .to_string();
    assert!(err.starts_with("a.json:4:"), "{err}");
    let json = r#"{"title": "Bekendtgørelse af straffeloven", "id": "2025:1294", "issued_date": "2025-11-07",
        "provisions": [{"provision_ref": "1:1", "chapter": "1", "section": "1", "content": "§ 1. Tekst."},
                       {"provision_ref": "1:2", "chapter": "1", "section": "2"}]}"#;
    let err = read_act("a.json", json.as_bytes(), Naming::Crawler)
        .unwrap_err()
        .to_string();
    assert_eq!(
        err,
        "a.json: provision 2 (provision_ref \"1:2\"): missing field `content`"
    );
    let err = read_act(
        "a.json",
        br#"{"title": "Bekendtgoerelse om noget", "provisions": []}"#,
        Naming::Crawler,
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("unknown act"), "{err}");
    let err = read_act(
        "a.json",
        r#"{"title": "Bekendtgørelse af straffeloven", "id": "2025:1294", "issued_date": "7/11/2025", "provisions": []}"#.as_bytes(),
        Naming::Crawler,
    )
    .unwrap_err()
    .to_string();
    assert_eq!(
        err,
        "a.json: field `issued_date` is \"7/11/2025\", not YYYY-MM-DD"
    );
}

#[test]
fn each_act_is_named_numbered_and_dated_from_its_file() {
    let pool = pool();
    assert_eq!(pool.sources.len(), 17);
    assert!(pool.source_names_indexed);
    let straffeloven = pool
        .sources
        .iter()
        .find(|s| s.source == "straffeloven")
        .unwrap();
    assert_eq!(straffeloven.info.name, "Straffeloven");
    assert_eq!(straffeloven.info.title, "Bekendtgørelse af straffeloven");
    assert_eq!(straffeloven.info.aliases, ["strfl.", "straffeloven"]);
    assert_eq!(straffeloven.info.number, "LBK nr. 1294");
    assert_eq!(straffeloven.info.date, "2025-11-07");
    let koeb = pool
        .sources
        .iter()
        .find(|s| s.source == "koebeloven")
        .unwrap();
    assert_eq!(
        (koeb.info.name.as_str(), koeb.info.number.as_str()),
        ("Købeloven", "LBK nr. 1853")
    );
    assert_eq!(koeb.info.aliases, ["kbl.", "lov om køb"]);
}

#[test]
fn by_eli_documents_without_chapters_keep_their_paragraphs_and_empty_ones_are_skipped() {
    // An executive order without chapters (BEK 2020:2025, abridged): its §§
    // are its own, not an amending act's reprinted clauses.
    let json = r#"{"title": "Bekendtgørelse om ophold i varetægtsfængsel", "id": "2020:2025",
        "short_name": "BEK H#LOKDOK04", "issued_date": "2020-12-15",
        "provisions": [{"provision_ref": "10a", "section": "10a", "content": "§ 10 a. Tekst, jf. § 11 a."},
                       {"provision_ref": "11a", "section": "11a", "content": "§ 11 a. Tekst. Stk. 2. Mere."}]}"#;
    let read = read_act("a.json", json.as_bytes(), Naming::Eli)
        .unwrap()
        .unwrap();
    let (articles, names) = (read.articles, read.names);
    let ids: Vec<&str> = articles.iter().map(|a| a.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "BEK-2020-2025_nonpar_0",
            "BEK-2020-2025_§10a_stk1",
            "BEK-2020-2025_§11a_stk1",
            "BEK-2020-2025_§11a_stk2"
        ]
    );
    assert_eq!(articles[1].title, "BEK nr. 2025 af 2020 § 10 a");
    assert_eq!(
        articles[1].explicit_refs,
        ["BEK-2020-2025_§11a_stk1", "BEK-2020-2025_§11a_stk2"]
    );
    assert_eq!(names.source, "BEK-2020-2025");
    let empty = r#"{"title": "Bekendtgørelse om noget", "id": "CM016392", "provisions": []}"#;
    assert!(read_act("b.json", empty.as_bytes(), Naming::Eli)
        .unwrap()
        .is_none());
}

#[test]
fn by_eli_a_repeated_paragraph_is_text_and_other_files_are_no_documents() {
    // LBK 2007:1009 (abridged): "§ 7 B" filed as section 7, after § 7.
    let json = r#"{"title": "Bekendtgørelse af lov om en garantifond", "id": "2007:1009",
        "short_name": "LBK H#LOKDOK03", "issued_date": "2007-08-28",
        "provisions": [{"provision_ref": "4:7", "chapter": "4", "section": "7", "content": "§ 7. Fondens formue."},
                       {"provision_ref": "10:7", "chapter": "10", "section": "7", "content": "§ 7 B. Beløb."}]}"#;
    let read = read_act("a.json", json.as_bytes(), Naming::Eli)
        .unwrap()
        .unwrap();
    let ids: Vec<&str> = read.articles.iter().map(|a| a.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "LBK-2007-1009_nonpar_0",
            "LBK-2007-1009_§7_stk1",
            "LBK-2007-1009_nonpar_2"
        ]
    );
    assert_eq!(read.repeated, 1);
    let known = json.replace("lov om en garantifond", "straffeloven");
    let err = read_act("a.json", known.as_bytes(), Naming::Crawler).unwrap_err();
    assert!(err.to_string().contains("repeats § 7"), "{err}");
    assert!(is_document_file("2025_1129.json"));
    for name in [
        "eu-references.json",
        "case-u-2024-1004h.json",
        "2025_.json",
        "_2025_1.json",
    ] {
        assert!(!is_document_file(name), "{name}");
    }
}

#[test]
fn by_eli_text_outside_paragraphs_cites_other_acts_too() {
    // LBK 2020:1327 (abridged): a § met again is text outside §§, and its
    // "personskattelovens § 20" is a citation of another act all the same.
    let json = r#"{"title": "Bekendtgørelse af lov om beskatningen af pensionsordninger m.v. (pensionsbeskatningsloven)",
        "id": "2020:1327", "short_name": "LBK H#LOKDOK03", "issued_date": "2020-09-16",
        "provisions": [{"provision_ref": "1:5A", "chapter": "1", "section": "5A", "content": "§ 5 A. Tekst."},
                       {"provision_ref": "9:5A", "chapter": "9", "section": "5A", "content": "§ 5 A. Grundbeløbet reguleres efter personskattelovens § 20."}]}"#;
    let read = read_act("a.json", json.as_bytes(), Naming::Eli)
        .unwrap()
        .unwrap();
    assert_eq!(read.articles[2].id, "LBK-2020-1327_nonpar_2");
    let cites = read.cross.unwrap().cites;
    assert_eq!(cites.len(), 1);
    assert_eq!(cites[0].0, 2);
    assert_eq!(
        cites[0].1[0].law,
        refs::LawRef::Genitive("personskatteloven".into())
    );
}
