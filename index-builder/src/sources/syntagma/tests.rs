//! The reader on the real file and on malformed input.

use std::path::{Path, PathBuf};

use super::*;

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/el-syntagma")
}

fn article<'a>(pool: &'a Dataset, id: &str) -> &'a Article {
    pool.articles
        .iter()
        .find(|a| a.id == id)
        .unwrap_or_else(|| panic!("no article {id}"))
}

#[test]
fn reads_the_constitution() {
    let pool = read_syntagma(&data_dir()).unwrap();
    assert_eq!(pool.articles.len(), 124);
    assert_eq!(pool.files.len(), 1);
    assert_eq!(pool.files[0].sha256.len(), 64);
    let ids: Vec<&str> = pool.articles.iter().map(|a| a.id.as_str()).collect();
    assert_eq!(
        &ids[..7],
        [
            "Syntagma::1",
            "Syntagma::2",
            "Syntagma::3",
            "Syntagma::4",
            "Syntagma::5",
            "Syntagma::5Α",
            "Syntagma::6"
        ]
    );
    assert!(ids.contains(&"Syntagma::101Α"));
    assert!(pool.articles.iter().all(|a| a.source == "Syntagma"));

    let a5 = article(&pool, "Syntagma::5");
    assert_eq!(
        a5.title,
        "Ελεύθερη ανάπτυξη της προσωπικότητας, προσωπική ελευθερία"
    );
    // Six content items: five numbered paragraphs, the third item continuing
    // paragraph 2.
    assert_eq!(a5.paragraphs.len(), 5);
    assert!(a5
        .paragraphs
        .iter()
        .enumerate()
        .all(|(k, p)| p.starts_with(&format!("{}. ", k + 1))));
    assert!(a5.paragraphs[1].starts_with("2. "));
    assert!(a5.paragraphs[1].ends_with(
        "\nΑπαγορεύεται η έκδοση αλλοδαπού που διώκεται για τη δράση του υπέρ της ελευθερίας."
    ));
    assert_eq!(a5.text, a5.paragraphs.join("\n"));

    assert_eq!(
        article(&pool, "Syntagma::84").title,
        "Εμπιστοσύνη της Βουλής - αρχή της δεδηλωμένης"
    );
    let a39 = article(&pool, "Syntagma::39");
    assert_eq!(
        (a39.title.as_str(), a39.text.as_str()),
        ("Άρθρο 39", "Καταργείται")
    );
    // Art. 8 starts with an un-numbered item: it opens the first paragraph.
    assert!(article(&pool, "Syntagma::8").paragraphs[0].starts_with("Κανένας δεν στερείται"));
}

#[test]
fn cross_references_resolve_to_articles() {
    let pool = read_syntagma(&data_dir().join("syntagma.json")).unwrap();
    assert_eq!(
        article(&pool, "Syntagma::5Α").explicit_refs,
        ["Syntagma::9", "Syntagma::9Α", "Syntagma::19"]
    );
    assert_eq!(
        article(&pool, "Syntagma::15").explicit_refs,
        ["Syntagma::14"]
    );
    // Art. 19 cites itself ("του άρθρου αυτού") and 9, 9Α.
    assert_eq!(
        article(&pool, "Syntagma::19").explicit_refs,
        ["Syntagma::9", "Syntagma::9Α"]
    );
    // Art. 117 cites art. 17 and 24 of this constitution but art. 104 of 1952's.
    let a117 = &article(&pool, "Syntagma::117").explicit_refs;
    assert!(
        a117.contains(&"Syntagma::17".to_string()) && a117.contains(&"Syntagma::24".to_string())
    );
    assert!(!a117.contains(&"Syntagma::104".to_string()));
    assert!(pool.articles.iter().all(|a| a.implicit_refs.is_empty()));
    let total: usize = pool.articles.iter().map(|a| a.explicit_refs.len()).sum();
    let citing = pool
        .articles
        .iter()
        .filter(|a| !a.explicit_refs.is_empty())
        .count();
    eprintln!("Syntagma: {total} article references from {citing} articles");
    // ~98 "άρθρ* N" mentions (PROVENANCE.md), a few lists and foreign ones:
    assert!((100..=200).contains(&total), "{total} references");
}

#[test]
fn malformed_input_names_the_entry() {
    let err = parse("x.json", b"[{\"title\": \"x\"")
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("x.json:1:"), "{err}");
    let err = parse(
        "x.json",
        "[{\"title\": \"Άρθρο 1 - Σύνταγμα - Α\"}]".as_bytes(),
    )
    .unwrap_err()
    .to_string();
    assert_eq!(err, "x.json: entry 1: missing field `content`");
    let err = parse(
        "x.json",
        "[{\"title\": \"Article 1\", \"content\": [\"1. x\"]}]".as_bytes(),
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("entry 1: title \"Article 1\""), "{err}");
}
