//! The reader on the real export and on malformed input.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use super::*;
use nomos_core::cite::{CiteIndex, Lexicon};

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/el-codes")
}

/// The lawyer's pool, read once for every test.
fn pool() -> &'static Dataset {
    static POOL: OnceLock<Dataset> = OnceLock::new();
    POOL.get_or_init(|| read_el_codes(&data_dir()).unwrap())
}

fn article<'a>(pool: &'a Dataset, id: &str) -> &'a Article {
    pool.articles
        .iter()
        .find(|a| a.id == id)
        .unwrap_or_else(|| panic!("no article {id}"))
}

/// `(id, heading, start of text)`: the first article of every file read.
const FIRST: &[(&str, &str, &str)] = &[
    (
        "PD_141_1991::1",
        "Αρχηγός",
        "(Με την περίπτ. δ άρθρου 51 ΠΔ 14/2001, ΦΕΚ Α' 12,",
    ),
    (
        "AthlN::1",
        "Εννοια - Σκοπός",
        "Αθλητικό σωματείο είναι η κατά τις διατάξεις",
    ),
    (
        "EmpN::1",
        "",
        "Εμποροι είναι όσοι μετέρχονται πράξεις εμπορικάς",
    ),
    (
        "KD::1",
        "Η φύση της δικηγορίας",
        "1. Ο δικηγόρος είναι δημόσιος λειτουργός.",
    ),
    (
        "AK::1",
        "Πηγές του δικαίου",
        "Οι κανόνες του δικαίου περιλαμβάνονται στους νόμους",
    ),
    (
        "DasK::1",
        "",
        "(Καταργήθηκε από την περ. α' παρ. 1 άρ. 79 Ν. 998/1979",
    ),
    (
        "KAD::1",
        "Αεροσκάφος",
        "1. Αντικείμενο του Κώδικα αυτού είναι η ρύθμιση",
    ),
    (
        "KBPN::1",
        "Ορισμοί(άρθρο 1 ν. 360/1976, άρθρο 2 παρ. 3 ν. 1032/1980).",
        "Στο παρόν κεφάλαιο νοούνται:",
    ),
    ("KDND::1", "", "Εισαγωγικαί διατάξεις"),
    (
        "KDY::1",
        "Εκταση εφαρμογής",
        "1. Στις διατάξεις του παρόντος Κώδικα υπάγονται",
    ),
    (
        "KDikDim::1",
        "",
        "1. Η ενώπιον των Δικαστηρίων εκπροσώπησις του Δημοσίου",
    ),
    (
        "KDD/sias::1",
        "Πεδίο εφαρμογής των διατάξεων του Κώδικα",
        "«Οι διατάξεις του Κώδικα αυτού εφαρμόζονται στο Δημόσιο",
    ),
    (
        "KDD::1",
        "",
        "Οι διατάξεις του Κώδικα αυτού διέπουν την εκδίκαση",
    ),
    (
        "KEDE::1",
        "Είσπραξις Δημοσίων Εσόδων",
        "1. Η είσπραξις των εκ πάσης αιτίας δημοσίων εσόδων",
    ),
    // Its chapter heading, quoted by the amending act, is its path.
    (
        "KNN::1",
        "Ορισμός ναρκωτικών",
        "2. Οι ουσίες που υπάγονται στα ναρκωτικά",
    ),
    (
        "KOK::1",
        "Πεδίο εφαρμογής του Κώδικα",
        "Ο Κώδικας Οδικής Κυκλοφορίας εφαρμόζεται σε οδούς",
    ),
    ("KOD::1", "Εκταση εφαρμογής.", "Γενικές διατάξεις."),
    (
        "KPD::1",
        "Κύρωση του Κώδικα Ποινικής Δικονομίας.",
        "Ποινική δικαιοδοσία ασκούν",
    ),
    (
        "KPolD::1",
        "",
        "Στη δικαιοδοσία των τακτικών πολιτικών δικαστηρίων ανήκουν: α) Οι διαφ",
    ),
    (
        "KFE::1",
        "Πεδίο Εφαρμογής",
        "1. Ο Κώδικας Φορολογίας Εισοδήματος (Κ.Φ.Ε.) ρυθμίζει",
    ),
    (
        "KFD::1",
        "",
        "«Στη δικαιοδοσία των τακτικών και διοικητικών υπάγονται",
    ),
    (
        "YK::1",
        "Αρχές του Υπαλληλικού Κώδικα",
        "Σκοπός του παρόντος Κώδικα είναι η καθιέρωση",
    ),
];

#[test]
fn reads_every_file_of_the_lawyers_pool() {
    let pool = pool();
    assert_eq!(pool.dataset, "el-codes");
    assert_eq!(pool.articles.len(), 7584);
    assert_eq!(pool.sources.len(), 22);
    assert_eq!(pool.files.len(), 22);
    assert!(pool.titles_are_headings);
    for &(id, heading, start) in FIRST {
        let a = article(pool, id);
        assert_eq!(a.title, heading, "{id}");
        assert!(a.text.starts_with(start), "{id}: {}", a.text);
        assert_eq!(a.text, a.paragraphs.join("\n"), "{id}");
        let first = pool.articles.iter().find(|b| b.source == a.source).unwrap();
        assert_eq!(first.id, id, "the first article of {}", a.source);
    }
    // Every source of the pool is pinned above.
    assert_eq!(FIRST.len(), pool.sources.len());
    // Numbers as printed, letters kept (Greek Α, or the Latin A a file has).
    for id in [
        "AK::612Α",
        "KPolD::662ΣΤ",
        "KPolD::675A",
        "KDD::272ΣΤ",
        "AthlN::128ΙΑ",
    ] {
        article(pool, id);
    }
    assert!(pool.articles.iter().all(|a| !a.text.is_empty()));
}

#[test]
fn articles_are_unwrapped_without_their_division_headings() {
    let pool = pool();
    // AK 1 opens Book One, "ΓΕΝΙΚΕΣ ΑΡΧΕΣ", and its first chapter: they head
    // the division, not the article.
    assert_eq!(
        article(pool, "AK::1").paragraphs,
        ["Οι κανόνες του δικαίου περιλαμβάνονται στους νόμους και στα έθιμα."]
    );
    // Two wrapped lines are one sentence again.
    assert_eq!(
        article(pool, "AK::2").text,
        "Ο νόμος ορίζει για το μέλλον, δεν έχει αναδρομική δύναμη και διατηρεί την ισχύ του \
         εφόσον άλλος κανόνας δικαίου δεν τον καταργήσει ρητά ή σιωπηρά."
    );
    let a914 = article(pool, "AK::914");
    assert_eq!(a914.title, "Εννοια.");
    assert_eq!(
        a914.text,
        "Οποιος ζημιώσει άλλον παράνομα και υπαίτια έχει υποχρέωση να τον αποζημιώσει."
    );
    // A note pointing to the editorial comments, then the chapter's heading
    // (AK 904), and headings spaced with a no-break space (KFE 10): none is
    // the article's text.
    assert!(article(pool, "AK::904")
        .text
        .starts_with("Οποιος έγινε πλουσιότερος χωρίς νόμιμη αιτία"));
    assert!(article(pool, "KFE::10")
        .text
        .starts_with("«Φόρος εισοδήματος φυσικών προσώπων» είναι ο φόρος"));
    assert!(article(pool, "KPolD::663")
        .text
        .starts_with("Κατά την ειδική διαδικασία των άρθρων 664 έως 676"));
    assert_eq!(
        article(pool, "KPolD::675A").text,
        "Το άρθρο 669 εφαρμόζεται και στην αναίρεση."
    );
    // Numbered paragraphs stay paragraphs.
    let kpold338 = article(pool, "KPolD::338");
    assert_eq!(kpold338.paragraphs.len(), 2);
    assert!(kpold338.paragraphs[1].starts_with("2. Οταν ο νόμος ορίζει κάποιο τεκμήριο"));
    // The Lawyers' Code, with no labels: heading up to the blank line, then
    // its chapter heading, then the text.
    let kd1 = article(pool, "KD::1");
    assert_eq!(kd1.paragraphs.len(), 2);
    assert!(kd1.paragraphs[1].starts_with("2. Περιεχόμενο του λειτουργήματος"));
    // Look-alike characters (∆, µ) are the Greek letters again.
    assert!(article(pool, "PD_141_1991::1").text.contains("ΠΔ 14/2001"));
}

#[test]
fn the_version_in_force_is_the_latest() {
    // KPolD 207 has two versions; the later one is read.
    let text =
        std::fs::read_to_string(data_dir().join("Κώδικας-Πολιτικής-Δικονομίας.txt")).unwrap();
    let recs = records::records("KPolD", &text).unwrap();
    let versions: Vec<&records::Record> = recs.iter().filter(|r| r.number == "207").collect();
    assert_eq!(versions.len(), 2);
    let latest = versions.iter().max_by_key(|r| r.date.clone()).unwrap();
    let lines: Vec<&str> = latest
        .body
        .iter()
        .flatten()
        .map(|(_, l)| l.as_str())
        .collect();
    assert_eq!(
        article(pool(), "KPolD::207").paragraphs,
        layout::lay_out(&lines).paragraphs
    );
    assert_eq!(
        pool()
            .articles
            .iter()
            .filter(|a| a.id == "KPolD::207")
            .count(),
        1
    );
}

#[test]
fn the_editorial_layer_is_never_read() {
    let text = "Αρθρο: 7\nΗμ/νία: 01.02.2003\nΗμ/νία Ισχύος: 01.02.2003\n\
                Περιγραφή όρου θησαυρού: ΘΗΣΑΥΡΟΣ\nΣΥΝΕΧΕΙΑ ΘΗΣΑΥΡΟΥ\n\nΤίτλος Αρθρου\nΕπικεφαλίδα\n\
                Λήμματα\nΛΗΜΜΑ ΕΝΑ, ΛΗΜΜΑ ΔΥΟ\nΣχόλια\nΣημείωση του εκδότη.\nΚείμενο Αρθρου\n\n\
                Το κείμενο του άρθρου.\n*** Σύμφωνα με το άρθρο 2 σημείωση.\n";
    let recs = records::records("x.txt", text).unwrap();
    assert_eq!(recs.len(), 1);
    assert_eq!(recs[0].heading, "Επικεφαλίδα");
    assert_eq!(recs[0].date, "2003-02-01");
    let lines: Vec<&str> = recs[0]
        .body
        .iter()
        .flatten()
        .map(|(_, l)| l.as_str())
        .collect();
    assert_eq!(
        layout::lay_out(&lines).paragraphs,
        ["Το κείμενο του άρθρου."]
    );
    // On the real export: no article shows a field of the layer, nor a
    // paragraph of the database's notes.
    for a in &pool().articles {
        for field in ["Λήμματα", "Περιγραφή όρου θησαυρού", "Σχόλια\n"]
        {
            assert!(
                !a.text.contains(field) && !a.title.contains(field),
                "{}: {field}",
                a.id
            );
        }
    }
    assert!(pool()
        .articles
        .iter()
        .all(|a| a.paragraphs.iter().all(|p| !p.starts_with('*'))));
    // The export's header, repeated after AK 1000, is not its text.
    assert!(
        article(pool(), "AK::1000")
            .text
            .ends_with("κάθε ενέργεια άλλου πάνω σ' αυτό."),
        "{}",
        article(pool(), "AK::1000").text
    );
    // KPolD 265 lost its labels; it is an article of its own, not the end of 264.
    assert!(article(pool(), "KPolD::265")
        .text
        .starts_with("Ο κληρονόμος που ενάγεται"));
    assert!(!article(pool(), "KPolD::264").text.contains("κληρονόμος"));
    assert_eq!(article(pool(), "AK::883").title, "Ανάκληση της έκταξης.");
    // AK 1's keywords («ΚΑΝΟΝΕΣ ΔΙΚΑΙΟΥ, ΝΟΜΟΙ, ΕΘΙΜΑ») are not its text.
    assert!(!article(pool(), "AK::1").text.contains("ΝΟΜΟΙ"));
}

#[test]
fn repealed_codes_are_only_in_the_historical_pool() {
    let pool = pool();
    assert!(pool
        .articles
        .iter()
        .all(|a| !a.source.starts_with("PK") && !a.source.starts_with("PtK")));
    let notes = pool.notes.join("\n");
    for name in [
        "ΠΟΙΝΙΚΟΣ ΚΩΔΙΚΑΣ.txt",
        "Πτωχευτικός-Κώδικας.txt",
        "ergatikos nomos.txt",
        "syntagma1_1.txt",
    ] {
        assert!(notes.contains(name), "{name} left out silently");
    }
    assert!(notes.contains("before ν. 4842/2021"));
    let historical = read_el_codes_historical(&data_dir()).unwrap();
    assert_eq!(historical.dataset, "el-codes-historical");
    assert!(historical.notes[0].starts_with("HISTORICAL"));
    let sources: Vec<&str> = historical
        .sources
        .iter()
        .map(|s| s.source.as_str())
        .collect();
    assert_eq!(sources, ["PK_1950", "PtK_3588_2007"]);
    let pk2 = article(&historical, "PK_1950::2");
    assert_eq!(pk2.title, "Αναδρομική ισχύς του ηπιότερου νόμου");
    assert!(pk2.text.starts_with("1.\tΑν από την τέλεση της πράξης"));
    let ptk1 = article(&historical, "PtK_3588_2007::1");
    assert_eq!(ptk1.title, "Σκοπός της πτώχευσης");
    assert!(ptk1.text.starts_with("Ι. Γενική διάταξη"));
}

#[test]
fn citations_in_the_text_resolve_across_codes() {
    let pool = pool();
    // "του άρθρου 78 και επόμενα του Αστικού Κώδικα".
    let athl1 = article(pool, "AthlN::1");
    assert!(
        athl1.explicit_refs.contains(&"AK::78".to_string()),
        "{:?}",
        athl1.explicit_refs
    );
    // "άρθρου 51 ΠΔ 14/2001": another act, not art. 51 of this decree.
    assert!(article(pool, "PD_141_1991::1").explicit_refs.is_empty());
    let refs: usize = pool.articles.iter().map(|a| a.explicit_refs.len()).sum();
    assert!(refs > 4000, "{refs}");
}

#[test]
fn the_share_of_citations_resolved() {
    let pool = pool();
    let keys: Vec<(usize, &str)> = pool
        .articles
        .iter()
        .map(|a| {
            let s = pool
                .sources
                .iter()
                .position(|s| s.source == a.source)
                .unwrap();
            (s, a.id.split_once("::").unwrap().1)
        })
        .collect();
    let resolver = refs::Resolver::new(&pool.sources, &keys);
    let (mut found, mut resolved) = (0, 0);
    for (a, &(s, _)) in pool.articles.iter().zip(&keys) {
        let (_, tally) = resolver.cited(&a.text, s);
        found += tally.found;
        resolved += tally.resolved;
    }
    let share = resolved as f64 / found as f64;
    eprintln!(
        "citations of the pool's codes: {found}, resolved {resolved} ({:.2} %)",
        100.0 * share
    );
    assert!(share >= 0.99, "{resolved}/{found}");
}

#[test]
fn go_to_reads_the_codes_names() {
    let pool = pool();
    let lexicon = Lexicon::new(
        pool.sources
            .iter()
            .map(|s| (s.source.as_str(), Some(&s.info))),
    );
    let act = |a: &Article| {
        pool.sources
            .iter()
            .position(|s| s.source == a.source)
            .unwrap()
    };
    let index = CiteIndex::new(
        lexicon,
        pool.articles.iter().map(|a| (a.id.as_str(), act(a))),
    );
    for (query, id) in [
        ("ΑΚ 914", "AK::914"),
        ("914 ΑΚ", "AK::914"),
        ("άρθρο 338 ΚΠολΔ", "KPolD::338"),
        ("338 KPolD", "KPolD::338"),
        ("AK::612Α", "AK::612Α"),
        ("άρθρο 5 ΚΔ", "KD::5"),
        ("άρθρο 17 ΚΔιοικΔιαδ", "KDD/sias::17"),
        ("άρθρο 17 ν. 2717/1999", "KDD::17"),
    ] {
        let jumps = index.jumps(query, None);
        assert_eq!(jumps.len(), 1, "{query}");
        let doc = jumps[0]
            .1
            .first()
            .map(|j| pool.articles[j.doc as usize].id.as_str());
        assert_eq!(doc, Some(id), "{query}");
    }
}

#[test]
fn bad_input_names_file_and_line() {
    let err = records::records("x.txt", "Αρθρο: 7\nΗμ/νία: 1.2.2003\n").unwrap_err();
    assert!(
        err.to_string().starts_with("x.txt:2: date \"1.2.2003\""),
        "{err}"
    );
    let err = records::records(
        "x.txt",
        "header\nΑρθρο: 7\nΗμ/νία: 01.02.2003\nΚάτι άλλο\nΚείμενο Αρθρου\nκείμενο\n",
    )
    .unwrap_err();
    assert!(
        err.to_string().starts_with("x.txt:4: unexpected line"),
        "{err}"
    );
    let err = records::records("x.txt", "Αρθρο: επτά\nΗμ/νία: 01.02.2003\n").unwrap_err();
    assert!(
        err.to_string().starts_with("x.txt:1: article number"),
        "{err}"
    );
    let err = records::records("x.txt", "no records\n").unwrap_err();
    assert!(err.to_string().contains("no `Αρθρο:` line"), "{err}");

    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("άγνωστος.txt"), "Αρθρο: 1\n").unwrap();
    let err = read_el_codes(dir.path()).unwrap_err();
    assert!(
        err.to_string()
            .contains("άγνωστος.txt: not a file of the ΙΣΟΚΡΑΤΗΣ export"),
        "{err}"
    );
}

#[test]
fn each_article_carries_its_division_path_and_version_date() {
    let pool = pool();
    let shown = |id: &str| {
        let a = article(pool, id);
        (a.path.clone(), a.version_date.clone().unwrap())
    };
    // The book and chapter that open AK 1 head AK 2 as well.
    let ak1 = (
        vec![
            "ΒΙΒΛΙΟ ΠΡΩΤΟ: ΓΕΝΙΚΕΣ ΑΡΧΕΣ".to_string(),
            "ΚΕΦΑΛΑΙΟ ΠΡΩΤΟ: ΟΙ ΚΑΝΟΝΕΣ ΤΟΥ ΔΙΚΑΙΟΥ ΓΕΝΙΚΑ".to_string(),
        ],
        "1946-02-23".to_string(),
    );
    assert_eq!(shown("AK::1"), ak1);
    assert_eq!(shown("AK::2"), ak1);
    assert_eq!(
        shown("AK::914").0,
        [
            "ΒΙΒΛΙΟ ΔΕΥΤΕΡΟ: ΕΝΟΧΙΚΟ ΔΙΚΑΙΟ",
            "ΚΕΦΑΛΑΙΟ ΤΡΙΑΚΟΣΤΟ ΕΝΑΤΟ: ΑΔΙΚΟΠΡΑΞΙΕΣ"
        ]
    );
    // Misspelt (`ΚΑΦΑΛΑΙΟ`), it still replaces the chapter before it.
    assert_eq!(
        shown("AK::211").0,
        [
            "ΒΙΒΛΙΟ ΠΡΩΤΟ: ΓΕΝΙΚΕΣ ΑΡΧΕΣ",
            "ΚΑΦΑΛΑΙΟ ΕΒΔΟΜΟ: ΑΝΤΙΠΡΟΣΩΠΕΥΣΗ ΚΑΙ ΠΛΗΡΕΞΟΥΣΙΟΤΗΤΑ"
        ]
    );
    // The Code of Civil Procedure puts titles under chapters (`ΔΕΥΤΕΡΟ
    // ΒΙΒΛΙΟ` with its ordinal first); the next chapter clears the title.
    assert_eq!(
        shown("KPolD::338"),
        (
            vec![
                "ΔΕΥΤΕΡΟ ΒΙΒΛΙΟ: ΔΙΑΔΙΚΑΣΙΑ ΣΤΑ ΠΡΩΤΟΒΑΘΜΙΑ ΔΙΚΑΣΤΗΡΙΑ".to_string(),
                "ΚΕΦΑΛΑΙΟ ΔΩΔΕΚΑΤΟ: ΑΠΟΔΕΙΞΗ".to_string(),
                "ΤΙΤΛΟΣ ΠΡΩΤΟΣ: Γενικές διατάξεις".to_string(),
            ],
            "1968-09-16".to_string()
        )
    );
    assert_eq!(
        shown("KPolD::466").0,
        [
            "ΔΕΥΤΕΡΟ ΒΙΒΛΙΟ: ΔΙΑΔΙΚΑΣΙΑ ΣΤΑ ΠΡΩΤΟΒΑΘΜΙΑ ΔΙΚΑΣΤΗΡΙΑ",
            "ΚΕΦΑΛΑΙΟ ΔΕΚΑΤΟ ΤΡΙΤΟ: Ειδικές διατάξεις για τις μικροδιαφορές"
        ]
    );
    // Letters spaced out (`Β Ι Β Λ Ι Ο Π Ε Μ Π Τ Ο`).
    assert_eq!(
        shown("KPolD::682").0,
        [
            "ΒΙΒΛΙΟ ΠΕΜΠΤΟ: ΑΣΦΑΛΙΣΤΙΚΑ ΜΕΤΡΑ",
            "ΚΕΦΑΛΑΙΟ ΠΡΩΤΟ: Γενικές διατάξεις"
        ]
    );
    // The Code of Criminal Procedure: book, section, chapter.
    assert_eq!(
        shown("KPD::246"),
        (
            vec![
                "ΤΡΙΤΟ ΒΙΒΛΙΟ: ΠΡΟΔΙΚΑΣΙΑ".to_string(),
                "ΠΡΩΤΟ ΤΜΗΜΑ: ΑΝΑΚΡΙΣΗ".to_string(),
                "ΤΕΤΑΡΤΟ ΚΕΦΑΛΑΙΟ: ΚΥΡΙΑ ΑΝΑΚΡΙΣΗ".to_string(),
            ],
            "2019-07-01".to_string()
        )
    );
    // Its first divisions stand inside the enacting act's quotation of the
    // code (`«ΚΩΔΙΚΑΣ ΠΟΙΝΙΚΗΣ ΔΙΚΟΝΟΜΙΑΣ`), which is no division; they head
    // KPD 1 and 2, and KPD 3 opens the next chapter.
    let kpd1 = vec![
        "ΠΡΩΤΟ ΒΙΒΛΙΟ: ΓΕΝΙΚΟΙ ΟΡΙΣΜΟΙ".to_string(),
        "ΠΡΩΤΟ ΤΜΗΜΑ: ΠΟΙΝΙΚΑ ΔΙΚΑΣΤΗΡΙΑ ΚΑΙ ΔΙΚΑΣΤΙΚΑ ΠΡΟΣΩΠΑ".to_string(),
        "ΠΡΩΤΟ ΚΕΦΑΛΑΙΟ: ΠΟΙΝΙΚΗ ΔΙΚΑΙΟΔΟΣΙΑ".to_string(),
    ];
    assert_eq!(shown("KPD::1").0, kpd1);
    assert_eq!(shown("KPD::2").0, kpd1);
    assert_eq!(
        shown("KPD::3").0[2],
        "ΔΕΥΤΕΡΟ ΚΕΦΑΛΑΙΟ: ΤΑ ΠΟΙΝΙΚΑ ΔΙΚΑΣΤΗΡΙΑ"
    );
    // The Lawyers' Code, unlabelled: sections under chapters, a name in
    // lowercase (`Γενικό Μέρος` names the chapter, it is no part), and a
    // name on two lines.
    assert_eq!(
        shown("KD::1"),
        (
            vec!["ΚΕΦΑΛΑΙΟ Α: Γενικό Μέρος".to_string()],
            "2013-09-27".to_string()
        )
    );
    assert_eq!(
        shown("KD::16"),
        (
            vec![
                "ΚΕΦΑΛΑΙΟ Β: ΑΠΟΚΤΗΣΗ ΔΙΚΗΓΟΡΙΚΗΣ ΙΔΙΟΤΗΤΑΣ - ΑΣΚΗΣΗ - ΕΞΕΤΑΣΕΙΣ".to_string(),
                "ΤΜΗΜΑ Β: ΠΡΟΫΠΟΘΕΣΕΙΣ ΑΣΚΗΣΗΣ ΤΩΝ ΚΑΤΟΧΩΝ ΤΙΤΛΩΝ ΠΑΝΕΠΙΣΤΗΜΙΩΝ ΤΗΣ ΑΛΛΟΔΑΠΗΣ \
                 ΚΑΙ ΑΣΚΟΥΜΕΝΩΝ ΔΙΚΗΓΟΡΩΝ ΤΗΣ ΑΛΛΟΔΑΠΗΣ"
                    .to_string(),
            ],
            "2014-09-10".to_string()
        )
    );
    // Three levels, the section's ordinal two words long.
    assert_eq!(
        shown("KDD::132").0,
        [
            "ΠΡΩΤΟ ΜΕΡΟΣ: ΓΕΝΙΚΗ ΔΙΑΔΙΚΑΣΙΑ",
            "ΔΕΚΑΤΟ ΤΡΙΤΟ ΤΜΗΜΑ: ΚΥΡΙΑ ΔΙΑΔΙΚΑΣΙΑ",
            "ΚΕΦΑΛΑΙΟ Α': Η ΣΥΖΗΤΗΣΗ ΣΤΟ ΑΚΡΟΑΤΗΡΙΟ"
        ]
    );
    // A name quoted whole by the amending act; a heading whose name is on
    // its own line, before the article's own label (which stays text).
    assert_eq!(
        shown("KOD::32Α").0.last().unwrap(),
        "Κεφάλαιο Ι': Γενική Επιτροπεία της Επικρατείας του Ελεγκτικού Συνεδρίου"
    );
    assert_eq!(
        shown("KPolD::738Α").0.last().unwrap(),
        "ΚΕΦΑΛΑΙΟ Θ' ΕΥΡΩΠΑΪΚΗ ΔΙΑΤΑΓΗ ΔΕΣΜΕΥΣΗΣ ΛΟΓΑΡΙΑΣΜΟΥ"
    );
    assert!(article(pool, "KPolD::738Α")
        .text
        .starts_with("Αρθρο 738Α\n1. Αρμόδιος"));
    // Quoted by the amending act, the quotes go.
    assert_eq!(
        shown("AthlN::129").0,
        ["ΤΜΗΜΑ E': ΛΟΙΠΕΣ ΚΑΙ ΜΕΤΑΒΑΤΙΚΕΣ ΔΙΑΤΑΞΕΙΣ"]
    );
    // Every article has its version's date.
    assert!(pool
        .articles
        .iter()
        .all(|a| a.version_date.as_ref().is_some_and(|d| d.len() == 10)));
}
