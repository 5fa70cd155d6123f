//! The table of forms, each against a small Danish and a small Greek pool.

use super::*;
use crate::blob::SourceInfo;

fn info(name: &str, aliases: &[&str], number: &str, date: &str) -> SourceInfo {
    SourceInfo {
        name: name.into(),
        title: String::new(),
        aliases: aliases.iter().map(|s| s.to_string()).collect(),
        number: number.into(),
        date: date.into(),
    }
}

/// Three Danish acts: straffeloven § 244 (two stykker, the first with
/// items), selskabsloven § 244 and § 245, serviceloven § 52 a.
fn danish() -> CiteIndex {
    let acts = [
        (
            "straffeloven",
            info("Straffeloven", &["strfl."], "LBK nr. 1294", "2025-11-07"),
        ),
        (
            "selskabsloven",
            info(
                "Selskabsloven",
                &["sel.", "lov om aktie- og anpartsselskaber"],
                "LBK nr. 331",
                "2025-03-20",
            ),
        ),
        (
            "serviceloven",
            info(
                "Serviceloven",
                &["servicel.", "lov om social service"],
                "LBK nr. 1129",
                "2025-09-22",
            ),
        ),
    ];
    let lexicon = Lexicon::new(acts.iter().map(|(id, i)| (*id, Some(i))));
    let docs = [
        ("straffeloven_nonpar_0", 0),
        ("straffeloven_§243_stk1", 0),
        ("straffeloven_§244_stk1", 0),
        ("straffeloven_§244_stk2", 0),
        ("selskabsloven_§244_stk1", 1),
        ("selskabsloven_§245_stk1", 1),
        ("serviceloven_§52_stk1", 2),
        ("serviceloven_§52a_stk1", 2),
    ];
    CiteIndex::new(lexicon, docs)
}

/// The Constitution (no sources section: known by GBR's id), the Civil
/// Code and Code of Civil Procedure by GBR's ids, and a numbered act.
fn greek() -> CiteIndex {
    let nomos = info("Ν. 4624/2019", &[], "Ν. 4624/2019", "2019-08-29");
    let sources = [
        ("Syntagma", None),
        ("AK", None),
        ("KPolD", None),
        ("PK", None),
        ("KDD/sias", None),
        ("Ν. 4624/2019", Some(&nomos)),
        ("N_702_1977", None),
    ];
    let lexicon = Lexicon::new(sources);
    let docs = [
        ("Syntagma::5Α", 0),
        ("Syntagma::14", 0),
        ("AK::914", 1),
        ("KPolD::41", 2),
        ("PK::42", 3),
        ("KDD/sias::7", 4),
        ("nomos-4624-2019::5", 5),
        ("N_702_1977::3", 6),
    ];
    CiteIndex::new(lexicon, docs)
}

/// The ids `query` jumps to, citation after citation.
fn ids(index: &CiteIndex, docs: &[&str], query: &str) -> Vec<String> {
    index
        .jumps(query, None)
        .iter()
        .flat_map(|(_, jumps)| jumps.iter().map(|j| docs[j.doc as usize].to_string()))
        .collect()
}

const DA_DOCS: [&str; 8] = [
    "straffeloven_nonpar_0",
    "straffeloven_§243_stk1",
    "straffeloven_§244_stk1",
    "straffeloven_§244_stk2",
    "selskabsloven_§244_stk1",
    "selskabsloven_§245_stk1",
    "serviceloven_§52_stk1",
    "serviceloven_§52a_stk1",
];
const EL_DOCS: [&str; 8] = [
    "Syntagma::5Α",
    "Syntagma::14",
    "AK::914",
    "KPolD::41",
    "PK::42",
    "KDD/sias::7",
    "nomos-4624-2019::5",
    "N_702_1977::3",
];

#[test]
fn danish_forms() {
    let d = danish();
    let table: &[(&str, &[&str])] = &[
        ("straffeloven § 244", &["straffeloven_§244_stk1"]),
        ("Straffeloven §244", &["straffeloven_§244_stk1"]),
        ("straffelovens § 244", &["straffeloven_§244_stk1"]),
        ("strfl. § 244, stk. 2", &["straffeloven_§244_stk2"]),
        ("strfl § 244 stk 2", &["straffeloven_§244_stk2"]),
        ("§ 244, stk. 2 i straffeloven", &["straffeloven_§244_stk2"]),
        ("§ 244 i strfl.", &["straffeloven_§244_stk1"]),
        (
            "§§ 243-244 i straffeloven",
            &["straffeloven_§243_stk1", "straffeloven_§244_stk1"],
        ),
        (
            "strfl. §§ 243 og 244",
            &["straffeloven_§243_stk1", "straffeloven_§244_stk1"],
        ),
        (
            "serviceloven §§ 52 og 52 a",
            &["serviceloven_§52_stk1", "serviceloven_§52a_stk1"],
        ),
        ("serviceloven § 52 a", &["serviceloven_§52a_stk1"]),
        ("serviceloven § 52a", &["serviceloven_§52a_stk1"]),
        ("serviceloven § 52", &["serviceloven_§52_stk1"]),
        ("lov om social service § 52 a", &["serviceloven_§52a_stk1"]),
        ("sel. § 245", &["selskabsloven_§245_stk1"]),
        ("lov nr. 1294", &["straffeloven_nonpar_0"]),
        ("LBK nr 1294 af 2025", &["straffeloven_nonpar_0"]),
        (
            "LBK nr. 1294 af 07/11/2025 § 243",
            &["straffeloven_§243_stk1"],
        ),
        (
            "lovbekendtgørelse nr. 1294 af 7. november 2025",
            &["straffeloven_nonpar_0"],
        ),
        ("LBK nr 1294 af 2024", &[]),
        ("straffeloven § 999", &[]),
        ("strfl. § 244, stk. 7", &[]),
        ("vold og trusler", &[]),
    ];
    for (query, want) in table {
        assert_eq!(ids(&d, &DA_DOCS, query), *want, "{query}");
    }
}

#[test]
fn danish_stykke_and_item() {
    let d = danish();
    let found = d.jumps("§ 244, stk. 1, nr. 2", Some(0));
    assert_eq!(found.len(), 1);
    let (c, jumps) = &found[0];
    assert_eq!((c.paragraph, c.item), (Some(1), Some(2)));
    assert_eq!(jumps[0].doc, 2);
    assert_eq!(jumps[0].highlight, Some(2));
}

#[test]
fn a_bare_section_lists_every_act_that_has_it_last_opened_first() {
    let d = danish();
    let docs = |preferred| {
        d.jumps("§ 244", preferred)[0]
            .1
            .iter()
            .map(|j| DA_DOCS[j.doc as usize])
            .collect::<Vec<_>>()
    };
    assert_eq!(
        docs(None),
        ["straffeloven_§244_stk1", "selskabsloven_§244_stk1"]
    );
    assert_eq!(
        docs(Some(1)),
        ["selskabsloven_§244_stk1", "straffeloven_§244_stk1"]
    );
}

#[test]
fn greek_forms() {
    let g = greek();
    let table: &[(&str, &[&str])] = &[
        ("ΑΚ 914", &["AK::914"]),
        ("άρθρο 914 ΑΚ", &["AK::914"]),
        ("Άρθρο 914 ΑΚ", &["AK::914"]),
        ("αρθ. 914 ΑΚ", &["AK::914"]),
        ("αρ. 914 ΑΚ", &["AK::914"]),
        ("914 ΑΚ", &["AK::914"]),
        ("Α.Κ. 914", &["AK::914"]),
        ("AK::914", &["AK::914"]),
        ("ΚΠολΔ 41", &["KPolD::41"]),
        ("KPolD::41", &["KPolD::41"]),
        ("άρθρο 41 ΚΠολΔ", &["KPolD::41"]),
        ("ΠΚ 42", &["PK::42"]),
        ("PK::42", &["PK::42"]),
        ("KDD/sias::7", &["KDD/sias::7"]),
        ("άρθρο 14 Συντάγματος", &["Syntagma::14"]),
        ("άρθρο 14 του Συντάγματος", &["Syntagma::14"]),
        ("Σ 14", &["Syntagma::14"]),
        ("άρθρο 14 παρ. 2 Σ", &["Syntagma::14"]),
        ("άρθρο 5Α Σ", &["Syntagma::5Α"]),
        ("άρθρο 5A Συντάγματος", &["Syntagma::5Α"]),
        ("Syntagma::5Α", &["Syntagma::5Α"]),
        ("ν. 4624/2019 άρθρο 5", &["nomos-4624-2019::5"]),
        ("άρθρο 5 ν. 4624/2019", &["nomos-4624-2019::5"]),
        ("ν. 702/1977 άρθρο 3", &["N_702_1977::3"]),
        (
            "των άρθρων 5Α και 14 του Συντάγματος",
            &["Syntagma::5Α", "Syntagma::14"],
        ),
        ("άρθρο 14 παράγραφοι 2 και 3 Σ", &["Syntagma::14"]),
        // Folded words end in σ: `έως`, `της`, `παράγραφος` are read.
        ("άρθρα 5Α έως 14 Σ", &["Syntagma::5Α", "Syntagma::14"]),
        ("άρθρο 14 της Σ", &["Syntagma::14"]),
        // "And following", and Greek words after a number that are not
        // an article's letter.
        ("άρθρα 914 επ. ΑΚ", &["AK::914"]),
        ("άρθρο 914 και επόμενα ΑΚ", &["AK::914"]),
        ("άρθρο 914 η ΑΚ", &["AK::914"]),
        ("των άρθρων 14, ο Σ", &["Syntagma::14"]),
        ("ΑΚ 915", &[]),
        ("η καταγγελία της μισθώσεως", &[]),
    ];
    for (query, want) in table {
        assert_eq!(ids(&g, &EL_DOCS, query), *want, "{query}");
    }
}

#[test]
fn the_paragraph_of_a_greek_article_is_highlighted() {
    let g = greek();
    let found = g.jumps("άρθρο 14 παρ. 2 Σ", None);
    assert_eq!(found[0].1[0].highlight, Some(2));
    let found = g.jumps("άρθρο 14 παράγραφος 2 Σ", None);
    assert_eq!(found[0].1[0].highlight, Some(2));
}

#[test]
fn every_gbr_prefix_resolves_by_its_latin_id_and_greek_abbreviation() {
    let lexicon = Lexicon::new(GBR_CODES.iter().map(|c| (c.0, None)));
    let ids: Vec<String> = GBR_CODES.iter().map(|c| format!("{}::9", c.0)).collect();
    let index = CiteIndex::new(
        lexicon,
        ids.iter().enumerate().map(|(i, id)| (id.as_str(), i)),
    );
    for (i, (latin, abbr, _)) in GBR_CODES.iter().enumerate() {
        for query in [
            format!("{latin}::9"),
            format!("{abbr} 9"),
            format!("άρθρο 9 {abbr}"),
        ] {
            let docs: Vec<u32> = index
                .jumps(&query, None)
                .iter()
                .flat_map(|(_, j)| j.iter().map(|j| j.doc))
                .collect();
            assert_eq!(docs, [i as u32], "{query}");
        }
    }
}

#[test]
fn spans_say_what_the_citation_covers() {
    let d = danish();
    let query = "vold strfl. § 244, stk. 2 mod tjenestemand";
    let found = d.jumps(query, None);
    assert_eq!(&query[found[0].0.span.clone()], "strfl. § 244, stk. 2");
}

#[test]
fn official_forms() {
    let d = danish();
    assert_eq!(
        d.official(0, "straffeloven_§244_stk1").as_deref(),
        Some("Straffeloven § 244, stk. 1 (LBK nr. 1294 af 2025)")
    );
    assert_eq!(
        d.official(2, "serviceloven_§52a_stk1").as_deref(),
        Some("Serviceloven § 52 a (LBK nr. 1129 af 2025)")
    );
    let g = greek();
    assert_eq!(
        g.official(0, "Syntagma::14").as_deref(),
        Some("Άρθρο 14 Συντάγματος")
    );
    assert_eq!(g.official(1, "AK::914").as_deref(), Some("ΑΚ 914"));
    assert_eq!(d.official(0, "straffeloven_nonpar_0"), None);
}

#[test]
fn hostile_queries_end_quickly_and_find_nothing_wrong() {
    let d = danish();
    let long = "§ ".repeat(5_000) + &"strfl. ".repeat(5_000) + &"9".repeat(50);
    let started = std::time::Instant::now();
    let _ = d.jumps(&long, None);
    let _ = d.jumps("§ 99999999999999999999 stk. 99999999999", None);
    assert!(started.elapsed().as_secs() < 5);
}
