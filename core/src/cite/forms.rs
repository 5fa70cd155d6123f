//! The table of citation forms: the words that name an article, a
//! paragraph or an item, the kinds of numbered act, and GreekBarRetrieval's
//! codes with their Greek abbreviations. Everything here is folded
//! ([`super::fold`]): lowercase, no accents, no dots.

/// Words that introduce an article number: Greek `άρθρο`, `άρθρου`,
/// `άρθρα`, `άρθρων`, `αρθ.`, `αρ.`, `άρθρ.`; Danish uses `§`.
pub const ARTICLE_WORDS: &[&str] = &["αρθρο", "αρθρου", "αρθρα", "αρθρων", "αρθ", "αρ", "αρθρ"];

/// Plural article words, which may list several: `άρθρα 1 έως 3`,
/// `των άρθρων 9, 9Α και 19`; Danish writes `§§`.
pub const PLURAL_ARTICLE_WORDS: &[&str] = &["αρθρα", "αρθρων"];

/// Words joining a list of articles: `§§ 19 og 20`, `9Α και 19`.
pub const LIST_WORDS: &[&str] = &["og", "eller", "samt", "και", "η"];

/// Words marking a range of articles (besides `-`): `άρθρα 1 έως 3`.
pub const RANGE_WORDS: &[&str] = &["til", "εως"];

/// Words that introduce a paragraph: Danish `stk.`, Greek `παρ.`,
/// `παράγραφος`, `παραγράφου`, `παραγ.`.
pub const PARAGRAPH_WORDS: &[&str] = &["stk", "παρ", "παραγραφος", "παραγραφου", "παραγ"];

/// Words that introduce an item: Danish `nr.`, Greek `περ.`, `περίπτωση`.
pub const ITEM_WORDS: &[&str] = &["nr", "περ", "περιπτωση"];

/// Words before "nr." that name a numbered Danish act: `lov nr. 1294`,
/// `LBK nr 1294 af 2025`, `lovbekendtgørelse nr. 1294`.
pub const DANISH_ACT_KINDS: &[&str] = &["lov", "lbk", "lovbekendtgørelse", "bekendtgørelse", "bek"];

/// Greek kinds of numbered act, written before `N/YYYY`: `ν.` (law),
/// `ν.δ.` (legislative decree), `π.δ.` (presidential decree), `α.ν.`
/// (emergency law), and the Latin `n`.
pub const GREEK_ACT_KINDS: &[&str] = &["ν", "νδ", "πδ", "αν", "n", "νομος", "νομου"];

/// GreekBarRetrieval's article-id prefixes (the paper's Table 7,
/// `../shared/reference/gbr/prefixes.tsv`) with the Greek abbreviation and
/// name a lawyer writes. The laws cited by number (`N_702_1977`) need no
/// abbreviation: `ν. 702/1977` finds them by number. `KDD` is the Code of
/// Administrative Procedure in the courts (Δικονομίας, ν. 2717/1999),
/// `KDD/sias` the one before the administration (Διαδικασίας, ν.
/// 2690/1999), as the Greek codes' PROVENANCE.md names them;
/// `KDDL` is GreekBarBench's own prefix with no official counterpart given.
pub const GBR_CODES: &[(&str, &str, &str)] = &[
    ("AK", "ΑΚ", "Αστικός Κώδικας"),
    ("EisNAK", "ΕισΝΑΚ", "Εισαγωγικός Νόμος του Αστικού Κώδικα"),
    ("KD", "ΚΔ", "Κώδικας Δικηγόρων"),
    ("KDD", "ΚΔΔ", "Κώδικας Διοικητικής Δικονομίας"),
    ("KDD/sias", "ΚΔΔ/σιας", "Κώδικας Διοικητικής Διαδικασίας"),
    ("KDDL", "ΚΔΔΛ", "KDDL (GreekBarBench)"),
    ("KPD", "ΚΠΔ", "Κώδικας Ποινικής Δικονομίας"),
    ("KPolD", "ΚΠολΔ", "Κώδικας Πολιτικής Δικονομίας"),
    ("PK", "ΠΚ", "Ποινικός Κώδικας"),
    ("Syntagma", "Σ", "Σύνταγμα"),
    ("N_702_1977", "ν. 702/1977", "ν. 702/1977"),
    ("N_1406_1983", "ν. 1406/1983", "ν. 1406/1983"),
    ("N_3155_1955", "ν. 3155/1955", "ν. 3155/1955"),
    ("PD_18_1989", "π.δ. 18/1989", "π.δ. 18/1989"),
    ("PD_258_2005", "π.δ. 258/2005", "π.δ. 258/2005"),
    ("N_146_1914", "ν. 146/1914", "ν. 146/1914"),
    ("N_3190_1955", "ν. 3190/1955", "ν. 3190/1955"),
    ("N_4072_2012", "ν. 4072/2012", "ν. 4072/2012"),
    ("N_4541_2018", "ν. 4541/2018", "ν. 4541/2018"),
    ("N_4738_2020", "ν. 4738/2020", "ν. 4738/2020"),
    ("N_5325_1932", "ν. 5325/1932", "ν. 5325/1932"),
    ("N_5960_1933", "ν. 5960/1933", "ν. 5960/1933"),
    (
        "ND_17_07_N_13_08_1923",
        "ν.δ. 17.7/13.8.1923",
        "ν.δ. της 17.7/13.8.1923",
    ),
];

/// The Constitution's names besides GBR's `Σ`: its genitive as cited
/// ("άρθρο 14 Συντάγματος") and common abbreviations.
pub const CONSTITUTION_ALIASES: &[&str] = &[
    "Σ",
    "Συντ.",
    "Σύνταγμα",
    "Συντάγματος",
    "Σύνταγμα της Ελλάδος",
];

/// Words skipped between a citation's parts: articles, prepositions and
/// "and following" ("άρθρο 14 του Συντάγματος", "§ 244 i straffeloven",
/// "άρθρα 281 επ. ΑΚ").
pub const FILLER: &[&str] = &["του", "της", "των", "i", "af", "επ", "επομ", "επομενα"];

/// "And following" after `και` ("άρθρου 78 και επόμενα του Αστικού
/// Κώδικα").
pub const FOLLOWING: &[&str] = &["επ", "επομ", "επομενα", "επομενων"];
