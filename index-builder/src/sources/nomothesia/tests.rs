//! The reader on the committed acts and on malformed input.

use std::fs;
use std::path::{Path, PathBuf};

use super::*;

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/el-nomothesia")
}

fn article<'a>(pool: &'a Dataset, id: &str) -> &'a Article {
    pool.articles
        .iter()
        .find(|a| a.id == id)
        .unwrap_or_else(|| panic!("no article {id}"))
}

#[test]
fn reads_the_thirteen_acts() {
    let pool = read_nomothesia(&data_dir()).unwrap();
    assert_eq!(pool.dataset, "el-nomothesia");
    assert_eq!(pool.articles.len(), 772);
    let titled = pool.articles.iter().filter(|a| !a.title.is_empty()).count();
    assert_eq!(titled, 636);
    let paragraphs: usize = pool.articles.iter().map(|a| a.paragraphs.len()).sum();
    assert_eq!(paragraphs, 3026);
    assert!(pool
        .articles
        .iter()
        .all(|a| a.text == a.paragraphs.join("\n")
            && a.explicit_refs.is_empty()
            && a.implicit_refs.is_empty()
            && a.area.is_none()));

    // An articles.jsonl and a meta.json per act, in path order.
    assert_eq!(pool.files.len(), 26);
    assert_eq!(
        pool.files[0].name,
        "adeies-odigisis/pd-51-2012/articles.jsonl"
    );
    assert_eq!(pool.files[1].name, "adeies-odigisis/pd-51-2012/meta.json");
    assert_eq!(pool.files[25].name, "teli/nomos-2960-2001/meta.json");
    assert!(pool.files.iter().all(|f| f.sha256.len() == 64));
    assert_eq!(pool.articles[0].id, "pd-51-2012::1");

    let a1 = article(&pool, "kok-5209-2025::1");
    assert_eq!(a1.title, "Σκοπός");
    assert!(a1
        .text
        .starts_with("Σκοπός του παρόντος είναι: α) η προσαρμογή του Κώδικα Οδικής Κυκλοφορίας"));
    assert_eq!(a1.paragraphs.len(), 1);

    // Un-numbered introduction, then 85 numbered definitions.
    let a4 = article(&pool, "kok-5209-2025::4");
    assert_eq!(a4.title, "Ορισμοί");
    assert_eq!(a4.paragraphs.len(), 86);
    assert_eq!(
        a4.paragraphs[0],
        "Για τους σκοπούς του παρόντος ισχύουν οι παρακάτω ορισμοί:"
    );
    assert!(a4.paragraphs[1].starts_with("1. «Αντανακλαστικό στοιχείο»: "));
    assert!(a4.paragraphs[85].starts_with("85. «Φωτιστική επιφάνεια»: "));

    // Numbered from the start, no heading.
    let customs = article(&pool, "nomos-2960-2001::1");
    assert_eq!(customs.title, "");
    assert!(customs
        .text
        .starts_with("1. Η Τελωνειακή Νομοθεσία, που θεσπίζεται με τον παρόντα Κώδικα"));
    assert!(customs.paragraphs[1].starts_with("2. Οι διατάξεις του δεύτερου μέρους"));

    // An inserted article keeps its Greek capital (U+0391).
    let a6a = article(&pool, "pd-237-1986::6\u{391}");
    assert_eq!(a6a.paragraphs.len(), 4);
    assert!(a6a.text.starts_with("1. Η παροχή ασφαλιστικής κάλυψης"));
    assert!(pool.articles.iter().any(|a| a.id == "pd-237-1986::27Β"));
}

#[test]
fn unofficial_consolidations_are_labelled() {
    let pool = read_nomothesia(&data_dir()).unwrap();
    assert_eq!(article(&pool, "kok-5209-2025::1").source, "Ν. 5209/2025");
    assert_eq!(
        article(&pool, "nomos-2960-2001::1").source,
        "Ν. 2960/2001 (unofficial consolidation)"
    );
    let mut official: Vec<&str> = pool
        .articles
        .iter()
        .filter(|a| !a.source.ends_with(UNOFFICIAL))
        .map(|a| a.source.as_str())
        .collect();
    official.dedup();
    assert_eq!(official, ["Ν. 5209/2025", "Ν. 5322/2026", "Ν. 4784/2021"]);
    assert_eq!(pool.notes.len(), 1);
    let note = &pool.notes[0];
    assert!(note.starts_with("Unofficial consolidations"), "{note}");
    assert!(note.contains("Π.Δ. 237/1986") && note.contains("Ν. 2960/2001"));
    assert!(note.contains("The others (Ν. 5209/2025, Ν. 5322/2026, Ν. 4784/2021)"));
}

/// A temporary tree with one act `t/a/` holding these lines and a meta.json.
fn act_dir(lines: &[String], meta: bool) -> tempfile::TempDir {
    let root = tempfile::tempdir().unwrap();
    let act = root.path().join("t").join("a");
    fs::create_dir_all(&act).unwrap();
    fs::write(act.join(ARTICLES), lines.join("\n") + "\n").unwrap();
    if meta {
        fs::write(
            act.join(META),
            r#"{"id": "a", "pigi_url": "https://www.e-nomothesia.gr/a.html"}"#,
        )
        .unwrap();
    }
    root
}

/// One paragraph record.
fn line(arthro: &str, heading: &str, par: &str, text: &str) -> String {
    serde_json::json!({
        "id": format!("a:art-{arthro}:par-{par}"),
        "nomothetima_id": "a",
        "nomothetima": "Ν. 1/2000",
        "arthro": arthro,
        "titlos_arthrou": heading,
        "paragrafos": par,
        "keimeno": text,
    })
    .to_string()
}

fn error(root: &Path) -> String {
    read_nomothesia(root).unwrap_err().to_string()
}

#[test]
fn a_small_act_reads() {
    let dir = act_dir(
        &[
            line("1", " Σκοπός ", "", " Εισαγωγή. "),
            line("1", " Σκοπός ", "1", "Πρώτη."),
            line("2", "", "1", "Άλλο."),
        ],
        true,
    );
    let pool = read_nomothesia(dir.path()).unwrap();
    assert_eq!(pool.articles.len(), 2);
    let a = &pool.articles[0];
    assert_eq!(
        (a.id.as_str(), a.title.as_str(), a.text.as_str()),
        ("a::1", "Σκοπός", "Εισαγωγή.\n1. Πρώτη.")
    );
    assert_eq!(a.source, "Ν. 1/2000 (unofficial consolidation)");
    assert_eq!(pool.files[0].name, "t/a/articles.jsonl");
    assert!(pool.notes[0].contains("Ν. 1/2000"));
}

#[test]
fn malformed_line_names_file_and_line() {
    let dir = act_dir(&[line("1", "", "1", "x"), "{\"id\": ".into()], true);
    let err = error(dir.path());
    assert!(err.contains("articles.jsonl:2: malformed JSON"), "{err}");
}

#[test]
fn missing_text_field() {
    let mut rec: serde_json::Value = serde_json::from_str(&line("1", "", "1", "x")).unwrap();
    rec.as_object_mut().unwrap().remove("keimeno");
    let dir = act_dir(&[line("1", "", "1", "x"), rec.to_string()], true);
    let err = error(dir.path());
    assert!(
        err.contains("articles.jsonl:2: missing field `keimeno`"),
        "{err}"
    );
    let dir = act_dir(&[line("1", "", "1", "x").replace("\"x\"", "7.5")], true);
    let err = error(dir.path());
    assert!(
        err.contains("articles.jsonl:1: field `keimeno` must be a string"),
        "{err}"
    );
}

#[test]
fn article_split_in_two_fails() {
    let dir = act_dir(
        &[
            line("1", "", "1", "x"),
            line("2", "", "1", "y"),
            line("1", "", "2", "z"),
        ],
        true,
    );
    let err = error(dir.path());
    assert!(
        err.contains("articles.jsonl:3: article a::1 continues"),
        "{err}"
    );
    assert!(err.contains("articles.jsonl:1)"), "{err}");
}

#[test]
fn heading_changing_within_an_article_fails() {
    let dir = act_dir(&[line("1", "Α", "1", "x"), line("1", "Β", "2", "y")], true);
    let err = error(dir.path());
    assert!(
        err.contains("articles.jsonl:2: article a::1 has heading \"Β\" here but \"Α\" on line 1"),
        "{err}"
    );
}

#[test]
fn act_without_meta_fails() {
    let dir = act_dir(&[line("1", "", "1", "x")], false);
    let err = error(dir.path());
    assert!(
        err.ends_with("has articles.jsonl but no meta.json"),
        "{err}"
    );
}

#[test]
fn directory_without_acts_fails() {
    let dir = tempfile::tempdir().unwrap();
    let err = error(dir.path());
    assert!(err.contains("no articles.jsonl found"), "{err}");
}
