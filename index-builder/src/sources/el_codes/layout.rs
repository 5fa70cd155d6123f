//! An article's text lines as paragraphs: the book, part and chapter
//! headings at the start of a division's first article taken apart (they
//! head the division, not the article; [`super::divisions`] makes them
//! its path), the export's hard wrap at about 100
//! characters undone, and the database's own notes in the text dropped
//! with the rest of its editorial layer: paragraphs that point to its
//! comments ("ΠΡΟΣΟΧΗ!!! (βλ. σχόλια)") and paragraphs opening with `*`
//! that are notes ("*** Σύμφωνα με …", "* Στο κείμενο του νόμου …").
//! Elsewhere a `*` only flags the enacted text it opens (AK 16 `***"Το
//! διαζύγιο …"`, KPolD 675A `*** Το άρθρο 669 εφαρμόζεται …`): the flag
//! goes, the text stays, and so do the marks inside a paragraph
//! ([`super::marks`]).

use nomos_core::cite::fold;

use super::marks::without_marks;

/// How the database's notes after a `*` open (folded).
const NOTE_OPENINGS: &[&str] = &[
    "συμφωνα με",
    "στο κειμενο",
    "βλ",
    "παραλειπεται",
    "το παρον",
    "η θανατικη",
    "γραφεται",
    "ορθοτερον",
    "προσοχη",
];

/// The words that open a division heading (`ΒΙΒΛΙΟ ΠΡΩΤΟ`, `ΚΕΦΑΛΑΙΟ Α'`,
/// `ΠΡΩΤΟ ΚΕΦΑΛΑΙΟ`), folded (lowercase, no accents), with their kind:
/// katharevousa forms (`ΚΕΦΑΛΑΙΟΝ ΠΡΩΤΟΝ`) and the export's misspellings
/// (AK 211 `ΚΑΦΑΛΑΙΟ`, AK 619 `ΚΕΦΛΑΙΟ`) are the demotic word.
const DIVISIONS: &[(&str, &str)] = &[
    ("τομοσ", "τομοσ"),
    ("βιβλιο", "βιβλιο"),
    ("βιβλιον", "βιβλιο"),
    ("μεροσ", "μεροσ"),
    ("τιτλοσ", "τιτλοσ"),
    ("τμημα", "τμημα"),
    ("κεφαλαιο", "κεφαλαιο"),
    ("κεφαλαιον", "κεφαλαιο"),
    ("καφαλαιο", "κεφαλαιο"),
    ("κεφλαιο", "κεφαλαιο"),
    ("υποκεφαλαιο", "υποκεφαλαιο"),
    ("ενοτητα", "ενοτητα"),
];

/// How the ordinals that may precede a division word begin (folded):
/// `πρωτο`, `δευτερο` … `εικοστο`, `τριακοστο`.
const ORDINALS: &[&str] = &[
    "πρωτ",
    "δευτερ",
    "τριτ",
    "τεταρτ",
    "πεμπτ",
    "εκτ",
    "εβδομ",
    "ογδο",
    "ενατ",
    "δεκατ",
    "ενδεκατ",
    "δωδεκατ",
    "εικοστ",
    "τριακοστ",
    "τεσσαρακοστ",
];

/// The kinds of division, outermost first: the order a code follows
/// unless its own headings say otherwise ([`super::divisions`]).
pub const KINDS: &[&str] = &[
    "τομοσ",
    "βιβλιο",
    "μεροσ",
    "τιτλοσ",
    "τμημα",
    "κεφαλαιο",
    "υποκεφαλαιο",
    "ενοτητα",
];

/// A wrapped line is at least this long: a shorter line ended where its
/// paragraph did.
const WRAPPED: usize = 70;

/// An article's text as laid out: the division headings that open it,
/// in order, and its paragraphs.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Laid {
    pub headings: Vec<Heading>,
    pub paragraphs: Vec<String>,
}

/// A division heading that opens an article's text.
#[derive(Debug, Clone, PartialEq)]
pub struct Heading {
    /// Its division word, folded and in the demotic form (`κεφαλαιο` for
    /// `ΚΕΦΑΛΑΙΟΝ`): one of [`KINDS`].
    pub kind: &'static str,
    /// As printed, its name after a colon (`ΒΙΒΛΙΟ ΠΡΩΤΟ: ΓΕΝΙΚΕΣ ΑΡΧΕΣ`).
    pub text: String,
}

/// The paragraphs of `lines` (the text as exported), and apart from them
/// the division headings that open it.
pub fn lay_out(lines: &[&str]) -> Laid {
    let lines: Vec<&str> = lines.iter().map(|l| l.trim()).collect();
    let next_text = |from: usize| (from..lines.len()).find(|&k| !lines[k].is_empty());
    let mut headings: Vec<Heading> = Vec::new();
    // Whether the last heading has its name yet.
    let mut named = false;
    let mut start = next_text(0);
    // Division headings, then any heading in capitals (`ΚΩΔΙΚΑΣ
    // ΑΕΡΟΠΟΡΙΚΟΥ ΔΙΚΑΙΟΥ`, `ΓΕΝΙΚΕΣ ΔΙΑΤΑΞΕΙΣ`), while text follows.
    while let Some(k) = start {
        let next = next_text(k + 1);
        if is_note(lines[k]) {
            start = next;
        } else if let Some(kind) = division(lines[k]) {
            start = next;
            let mut text = heading_text(lines[k]);
            named = text
                .split_once(':')
                .is_some_and(|(_, name)| !name.trim().is_empty());
            if let Some(n) = next {
                let after = next_text(n + 1);
                let name = !text.contains(':') && division(lines[n]).is_none() && is_name(lines[n]);
                if name && after.is_some() {
                    start = after;
                    let name = heading_text(lines[n]);
                    text = format!("{}: {name}", text.trim_end_matches(['.', ' ']));
                    named = true;
                }
            }
            headings.push(Heading { kind, text });
        } else if next.is_some() && (in_capitals(lines[k]) || opens_quoted_code(&lines, k)) {
            start = next;
            // The name of the division above, or its name's next line
            // (`ΚΕΦΑΛΑΙΟ ΤΕΤΑΡΤΟ` / `ΑΠΑΛΛΟΤΡΙΩΣΕΙΣ-ΠΕΡΙΟΡΙΣΜΟΙ` /
            // `ΚΥΡΙΟΤΗΤΑΣ`); any other such heading (a code's title, a
            // lettered subdivision) is left out.
            if let Some(last) = headings.last_mut().filter(|_| !is_lettered(lines[k])) {
                let text = &mut last.text;
                text.push_str(if named { " " } else { ": " });
                text.push_str(&heading_text(lines[k]));
                named = true;
            }
        } else {
            break;
        }
    }
    // Lines joined back where the export wrapped them; a blank line or a
    // short line ends a paragraph.
    let mut paragraphs: Vec<String> = Vec::new();
    let mut open = false;
    for &line in start.map_or(&[][..], |k| &lines[k..]) {
        if line.is_empty() {
            open = false;
            continue;
        }
        match paragraphs.last_mut() {
            Some(last) if open && !starts_item(line) => {
                last.push(' ');
                last.push_str(line);
            }
            _ => paragraphs.push(line.to_string()),
        }
        open = line.chars().count() >= WRAPPED;
    }
    let paragraphs = paragraphs
        .into_iter()
        .filter(|p| !is_note(p))
        .filter_map(|p| match p.strip_prefix('*') {
            None => Some(p),
            Some(rest) => {
                let rest = rest.trim_start_matches(['*', '&']).trim_start();
                let opening = fold(rest.trim_start_matches(['(', '[', ' ', '!']));
                let note = rest.is_empty() || NOTE_OPENINGS.iter().any(|o| opening.starts_with(o));
                (!note).then(|| rest.to_string())
            }
        })
        .map(|p| without_marks(&p))
        .filter(|p| !p.is_empty())
        .collect();
    Laid {
        headings,
        paragraphs,
    }
}

/// A division heading's first line, short: a division word first, or
/// after ordinals (`ΠΡΩΤΟ ΚΕΦΑΛΑΙΟ`, `ΔΕΚΑΤΟ ΤΡΙΤΟ ΤΜΗΜΑ`; `Γενικό Μέρος`
/// is a name); its kind.
fn division(line: &str) -> Option<&'static str> {
    let line = heading_text(line);
    if line.chars().count() > 60 {
        return None;
    }
    let words = line
        .split(|c: char| c.is_whitespace() || matches!(c, ':' | '.' | '\'' | '-'))
        .filter(|w| !w.is_empty())
        .map(|w| fold(&w.chars().map(greek).collect::<String>()));
    for (i, word) in words.take(3).enumerate() {
        if let Some(&(_, kind)) = DIVISIONS.iter().find(|(form, _)| *form == word) {
            return Some(kind);
        }
        if i == 2 || !ORDINALS.iter().any(|o| word.starts_with(o)) {
            return None;
        }
    }
    None
}

/// A heading line as it should read: without the quotes of an amending
/// act (`"ΚΕΦΑΛΑΙΟ Α'`), letters spaced out joined (`Β Ι Β Λ Ι Ο Π Ε Μ
/// Π Τ Ο` → `ΒΙΒΛΙΟ ΠΕΜΠΤΟ`).
fn heading_text(line: &str) -> String {
    let line = line.trim_matches(['"', '«', '»', '“', '”', ' ']);
    let letters: Vec<&str> = line.split_whitespace().collect();
    if letters.len() < 4 || letters.iter().any(|l| l.chars().count() > 1) {
        return line.to_string();
    }
    let joined = letters.concat();
    let folded = fold(&joined);
    let word = DIVISIONS
        .iter()
        .filter(|(form, _)| folded.starts_with(form))
        .map(|(form, _)| form.chars().count())
        .max();
    match word {
        Some(n) if n < letters.len() => {
            format!("{} {}", letters[..n].concat(), letters[n..].concat())
        }
        _ => joined,
    }
}

/// A Latin capital that looks like a Greek one as the Greek (`MΕΡΟΣ` is
/// typed with a Latin M).
fn greek(c: char) -> char {
    const LOOKALIKES: [(char, char); 14] = [
        ('A', 'Α'),
        ('B', 'Β'),
        ('E', 'Ε'),
        ('H', 'Η'),
        ('I', 'Ι'),
        ('K', 'Κ'),
        ('M', 'Μ'),
        ('N', 'Ν'),
        ('O', 'Ο'),
        ('P', 'Ρ'),
        ('T', 'Τ'),
        ('X', 'Χ'),
        ('Y', 'Υ'),
        ('Z', 'Ζ'),
    ];
    LOOKALIKES
        .iter()
        .find(|(latin, _)| *latin == c)
        .map_or(c, |&(_, g)| g)
}

/// A subdivision lettered, not named by a division word (`Β' ΚΑΤΑΣΧΕΣΙΣ
/// ΚΙΝΗΤΩΝ`, in the Code of Public Revenue Collection).
fn is_lettered(line: &str) -> bool {
    line.split_whitespace().next().is_some_and(|w| {
        w.chars().count() <= 3
            && w.ends_with(['\'', '΄', '’'])
            && w.chars().next().is_some_and(char::is_uppercase)
    })
}

/// A line of the database's that points to its editorial notes: `***
/// (βλ. σχόλια)`, `ΠΡΟΣΟΧΗ!!! Βλ. σχόλια`.
fn is_note(line: &str) -> bool {
    let folded = fold(line);
    line.chars().count() < 60 && (folded.contains("βλ σχολια") || folded.contains("βλεπε σχολια"))
}

/// A heading line in capitals: letters, none lowercase, not a numbered
/// paragraph or a quotation.
fn in_capitals(line: &str) -> bool {
    line.chars().any(char::is_alphabetic)
        && !line.chars().any(char::is_lowercase)
        && !line.starts_with(|c: char| c.is_ascii_digit() || c == '(' || c == '«' || c == '*')
}

/// A code's title quoted by the act that enacts it, before the code's
/// first division heading (KPD 1: `«ΚΩΔΙΚΑΣ ΠΟΙΝΙΚΗΣ ΔΙΚΟΝΟΜΙΑΣ` then
/// `ΠΡΩΤΟ ΒΙΒΛΙΟ`). Other quoted capitals are an amending act's text.
fn opens_quoted_code(lines: &[&str], k: usize) -> bool {
    lines[k]
        .strip_prefix('«')
        .is_some_and(|title| in_capitals(title) && fold(title).starts_with("κωδικασ"))
        && lines
            .get(k + 1)
            .is_some_and(|next| division(next).is_some())
}

/// The line after a division word is its name when it is in capitals,
/// short and unpunctuated (`Γενικό Μέρος`), or quoted whole by an amending
/// act (KOD 32Α `«Γενική Επιτροπεία της Επικρατείας του Ελεγκτικού
/// Συνεδρίου»`); not a numbered paragraph, nor an article's own label
/// (KPolD 738Α `Αρθρο 738Α`).
fn is_name(line: &str) -> bool {
    if line.starts_with(|c: char| c.is_ascii_digit() || c == '(') || fold(line).starts_with("αρθρο")
    {
        return false;
    }
    !line.chars().any(char::is_lowercase)
        || (line.chars().count() < 60 && !line.ends_with(['.', ':', ',', ';', '·']))
        || (line.starts_with('«') && line.ends_with('»') && line.chars().count() < 120)
}

/// Does a line start a paragraph or list item of its own (`2. …`,
/// `α) …`, `- …`)?
fn starts_item(line: &str) -> bool {
    let digits = line.len() - line.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits > 0 {
        let after = &line[digits..];
        return after.starts_with(". ") || after.starts_with(") ") || after.starts_with('.');
    }
    if line.starts_with(['-', '•', '*']) {
        return true;
    }
    let mut chars = line.chars();
    let letters: String = chars.by_ref().take_while(|c| c.is_alphabetic()).collect();
    let n = letters.chars().count();
    (1..=3).contains(&n)
        && letters.chars().all(char::is_lowercase)
        && line[letters.len()..].starts_with([')', '\'', '΄', '’'])
}
