//! Which code each file of the ΙΣΟΚΡΑΤΗΣ export holds: its id prefix (GBR's
//! where GreekBarRetrieval has one, a short Latin one otherwise; the table
//! is `docs/el-codes.md`), what it is called and cited as, and whether it
//! belongs in the lawyer's pool, the historical one, or neither.

/// Where a file's articles go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Law in force (as of its version dates): the lawyer's pool.
    Current,
    /// Repealed: only in the pool labelled historical.
    Historical,
    /// Not read, for the reason given (named in the pool's notes).
    Refused(&'static str),
}

/// One file of the export.
#[derive(Debug)]
pub struct Code {
    /// The file's name in the export.
    pub file: &'static str,
    /// The id prefix: `AK` in `AK::914`.
    pub prefix: &'static str,
    /// Its proper name (`Αστικός Κώδικας`).
    pub name: &'static str,
    /// Other names a citation uses: abbreviations and the genitive
    /// (`ΑΚ`, `Αστικού Κώδικα`).
    pub aliases: &'static [&'static str],
    /// The enacting act as cited (`ν. 2717/1999`); empty when the export
    /// does not make it certain.
    pub number: &'static str,
    pub status: Status,
}

const fn code(
    file: &'static str,
    prefix: &'static str,
    name: &'static str,
    aliases: &'static [&'static str],
    number: &'static str,
    status: Status,
) -> Code {
    Code {
        file,
        prefix,
        name,
        aliases,
        number,
        status,
    }
}

use Status::{Current, Historical, Refused};

/// Every file of the export, by name.
pub const CODES: &[Code] = &[
    code(
        "ΑΣΤΙΚΟΣ ΚΩΔΙΚΑΣ.txt",
        "AK",
        "Αστικός Κώδικας",
        &["ΑΚ", "Αστικού Κώδικα", "Αστικός Κώδιξ"],
        "",
        Current,
    ),
    code(
        "Κώδικας-Πολιτικής-Δικονομίας.txt",
        "KPolD",
        "Κώδικας Πολιτικής Δικονομίας",
        &["ΚΠολΔ", "ΚΠΟΛΔ", "Κώδικα Πολιτικής Δικονομίας"],
        "π.δ. 503/1985",
        Current,
    ),
    code(
        "Κώδικας-Ποινικής-Δικονομίας.txt",
        "KPD",
        "Κώδικας Ποινικής Δικονομίας",
        &["ΚΠΔ", "ΚΠοινΔ", "Κώδικα Ποινικής Δικονομίας"],
        "ν. 4620/2019",
        Current,
    ),
    code(
        "Κώδικας-Διοικητικής-Δικονομίας.txt",
        "KDD",
        "Κώδικας Διοικητικής Δικονομίας",
        &["ΚΔΔ", "ΚΔιοικΔ", "Κώδικα Διοικητικής Δικονομίας"],
        "ν. 2717/1999",
        Current,
    ),
    code(
        "Κώδικας-Διοικητικής-Διαδικασίας-_1_.txt",
        "KDD/sias",
        "Κώδικας Διοικητικής Διαδικασίας",
        &["ΚΔιοικΔιαδ", "Κώδικα Διοικητικής Διαδικασίας"],
        "ν. 2690/1999",
        Current,
    ),
    code(
        "kwdikas_dikigorwn.txt",
        "KD",
        "Κώδικας Δικηγόρων",
        &["ΚΔ", "Κώδικα Δικηγόρων"],
        "ν. 4194/2013",
        Current,
    ),
    code(
        "EMPORIKOS-NOMOS.txt",
        "EmpN",
        "Εμπορικός Νόμος",
        &[
            "ΕμπΝ",
            "Εμπορικού Νόμου",
            "Εμπορικός Κώδικας",
            "Εμπορικού Κώδικα",
        ],
        "",
        Current,
    ),
    code(
        "ATHLITIKOS NOMOS.txt",
        "AthlN",
        "Αθλητικός Νόμος",
        &["Αθλητικού Νόμου"],
        "ν. 2725/1999",
        Current,
    ),
    code(
        "141_1991-Αρμοδιότητες-οργάνων-και-υπηρεσιακές-ενέργειες-του.txt",
        "PD_141_1991",
        "π.δ. 141/1991",
        &[],
        "π.δ. 141/1991",
        Current,
    ),
    code(
        "Δασικός-Κώδικας.txt",
        "DasK",
        "Δασικός Κώδικας",
        &["ΔασΚ", "Δασικού Κώδικα"],
        "ν.δ. 86/1969",
        Current,
    ),
    code(
        "Κώδικας-Αεροπορικού-Δικαίου.txt",
        "KAD",
        "Κώδικας Αεροπορικού Δικαίου",
        &["ΚΑΔ", "Κώδικα Αεροπορικού Δικαίου"],
        "ν. 1815/1988",
        Current,
    ),
    code(
        "Κώδικας-Βασικής-Πολεοδομικής-Νομοθεσίας.txt",
        "KBPN",
        "Κώδικας Βασικής Πολεοδομικής Νομοθεσίας",
        &["ΚΒΠΝ", "Κώδικα Βασικής Πολεοδομικής Νομοθεσίας"],
        "",
        Current,
    ),
    code(
        "Κώδικας-Δημόσιου-Ναυτικού-Δικαίου.txt",
        "KDND",
        "Κώδικας Δημοσίου Ναυτικού Δικαίου",
        &["ΚΔΝΔ", "Κώδικα Δημοσίου Ναυτικού Δικαίου"],
        "ν.δ. 187/1973",
        Current,
    ),
    code(
        "Κώδικας-Δικαστικών-Υπαλλήλων.txt",
        "KDY",
        "Κώδικας Δικαστικών Υπαλλήλων",
        &["ΚΔΥ", "Κώδικα Δικαστικών Υπαλλήλων"],
        "ν. 2812/2000",
        Current,
    ),
    code(
        "Κώδικας-Δικών-Δημοσίου.txt",
        "KDikDim",
        "Κώδικας Δικών Δημοσίου",
        &["ΚΔικΔημ", "Κώδικα Δικών Δημοσίου"],
        "",
        Current,
    ),
    code(
        "Κώδικας-Εισπράξεως-Δημοσίων-Εσόδων.txt",
        "KEDE",
        "Κώδικας Εισπράξεως Δημοσίων Εσόδων",
        &["ΚΕΔΕ", "Κώδικα Εισπράξεως Δημοσίων Εσόδων"],
        "ν.δ. 356/1974",
        Current,
    ),
    code(
        "Κώδικας-Νόμων-για-τα-Ναρκωτικά.txt",
        "KNN",
        "Κώδικας Νόμων για τα Ναρκωτικά",
        &["ΚΝΝ", "Κώδικα Νόμων για τα Ναρκωτικά"],
        "ν. 3459/2006",
        Current,
    ),
    code(
        "Κώδικας-Οδικής-Κυκλοφορίας.txt",
        "KOK",
        "Κώδικας Οδικής Κυκλοφορίας",
        &["ΚΟΚ", "Κώδικα Οδικής Κυκλοφορίας"],
        "ν. 2696/1999",
        Current,
    ),
    code(
        "Κώδικας-Οργανισμού-Δικαστηρίων.txt",
        "KOD",
        "Κώδικας Οργανισμού Δικαστηρίων",
        &["ΚΟΔ", "Κώδικα Οργανισμού Δικαστηρίων"],
        "ν. 1756/1988",
        Current,
    ),
    code(
        "Κώδικας-Φορολογίας-Εισοδήματος.txt",
        "KFE",
        "Κώδικας Φορολογίας Εισοδήματος",
        &["ΚΦΕ", "Κώδικα Φορολογίας Εισοδήματος"],
        "ν. 4172/2013",
        Current,
    ),
    code(
        "Κώδικας-Φορολογικής-Δικονομίας.txt",
        "KFD",
        "Κώδικας Φορολογικής Δικονομίας",
        &["ΚΦΔ", "Κώδικα Φορολογικής Δικονομίας"],
        "π.δ. 331/1985",
        Current,
    ),
    code(
        "Υπαλληλικός-Κώδικας.txt",
        "YK",
        "Υπαλληλικός Κώδικας",
        &["ΥΚ", "Υπαλληλικού Κώδικα"],
        "ν. 3528/2007",
        Current,
    ),
    code(
        "ΠΟΙΝΙΚΟΣ ΚΩΔΙΚΑΣ.txt",
        "PK_1950",
        "Ποινικός Κώδικας του 1950 (καταργημένος)",
        &["Ποινικός Κώδικας 1950"],
        "",
        Historical,
    ),
    code(
        "Πτωχευτικός-Κώδικας.txt",
        "PtK_3588_2007",
        "Πτωχευτικός Κώδικας ν. 3588/2007 (καταργημένος)",
        &["ΠτΚ", "Πτωχευτικού Κώδικα"],
        "ν. 3588/2007",
        Historical,
    ),
    code(
        "ergatikos nomos.txt",
        "",
        "Κώδικας Ατομικού Εργατικού Δικαίου (π.δ. 80/2022)",
        &[],
        "",
        Refused(
            "text extracted from the Government Gazette's PDF (ΦΕΚ Α 222/2022), two columns \
             interleaved and no ΙΣΟΚΡΑΤΗΣ article records: its articles cannot be told apart \
             reliably",
        ),
    ),
    code(
        "syntagma1_1.txt",
        "",
        "Σύνταγμα",
        &[],
        "",
        Refused(
            "the Parliament's printed edition of the Constitution (2008) as PDF text, with no \
             article records; the Constitution is its own pool (`--format el-syntagma`)",
        ),
    ),
];

/// The entry for a file name, if the export has one by that name.
pub fn by_file(name: &str) -> Option<&'static Code> {
    CODES.iter().find(|c| c.file == name)
}
