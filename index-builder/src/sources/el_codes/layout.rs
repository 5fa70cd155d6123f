//! An article's text lines as paragraphs: the book, part and chapter
//! headings at the start of a division's first article left out (they head
//! the division, not the article), the export's hard wrap at about 100
//! characters undone, and the database's own notes in the text dropped
//! with the rest of its editorial layer: pointers to its comments
//! ("ΠΡΟΣΟΧΗ!!! (βλ. σχόλια)") and paragraphs opening with `*` that are
//! notes ("*** Σύμφωνα με …", "* Στο κείμενο του νόμου …"). Elsewhere a `*`
//! only flags the enacted text it opens (AK 16 `***"Το διαζύγιο …"`, KPolD
//! 675A `*** Το άρθρο 669 εφαρμόζεται …`): the flag goes, the text stays.

use nomos_core::cite::fold;

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

/// The words that open a division heading (`ΒΙΒΛΙΟ ΠΡΩΤΟ`, `ΚΕΦΑΛΑΙΟ Α'`).
/// (folded: lowercase, no accents), in either the first or the second
/// word (`ΠΡΩΤΟ ΚΕΦΑΛΑΙΟ`, `Τμήμα πρώτο.`), katharevousa forms too
/// (`ΚΕΦΑΛΑΙΟΝ ΠΡΩΤΟΝ`).
const DIVISIONS: &[&str] = &[
    "τομοσ",
    "βιβλιο",
    "βιβλιον",
    "μεροσ",
    "τιτλοσ",
    "τμημα",
    "κεφαλαιο",
    "κεφαλαιον",
    "υποκεφαλαιο",
    "ενοτητα",
];

/// A wrapped line is at least this long: a shorter line ended where its
/// paragraph did.
const WRAPPED: usize = 70;

/// The paragraphs of `lines` (the text as exported), without the division
/// headings that open it.
pub fn lay_out(lines: &[&str]) -> Vec<String> {
    let lines: Vec<&str> = lines.iter().map(|l| l.trim()).collect();
    let next_text = |from: usize| (from..lines.len()).find(|&k| !lines[k].is_empty());
    let mut start = next_text(0);
    // Division headings, then any heading in capitals (`ΚΩΔΙΚΑΣ
    // ΑΕΡΟΠΟΡΙΚΟΥ ΔΙΚΑΙΟΥ`, `ΓΕΝΙΚΕΣ ΔΙΑΤΑΞΕΙΣ`), while text follows.
    while let Some(k) = start {
        let next = next_text(k + 1);
        if is_note(lines[k]) {
            start = next;
        } else if is_division(lines[k]) {
            start = next;
            if let Some(n) = next {
                let after = next_text(n + 1);
                let named = !lines[k].contains(':') && !is_division(lines[n]) && is_name(lines[n]);
                if named && after.is_some() {
                    start = after;
                }
            }
        } else if next.is_some() && in_capitals(lines[k]) {
            start = next;
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
    paragraphs
        .into_iter()
        .filter(|p| !is_note(p))
        .filter_map(|p| match p.strip_prefix('*') {
            None => Some(p),
            Some(rest) => {
                let rest = rest.trim_start_matches(['*', '&']).trim_start();
                let opening = fold(rest.trim_start_matches(['(', '[', ' ']));
                let note = rest.is_empty() || NOTE_OPENINGS.iter().any(|o| opening.starts_with(o));
                (!note).then(|| rest.to_string())
            }
        })
        .collect()
}

/// A division heading's first line: a division word first or second, in
/// a short line.
fn is_division(line: &str) -> bool {
    let words: Vec<String> = line
        .split(|c: char| c.is_whitespace() || matches!(c, ':' | '.' | '\''))
        .filter(|w| !w.is_empty())
        .take(2)
        .map(fold)
        .collect();
    words.iter().any(|w| DIVISIONS.contains(&w.as_str())) && line.chars().count() <= 60
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

/// The line after a division word is its name when it is in capitals, or
/// short and unpunctuated (`Γενικό Μέρος`), not a numbered paragraph.
fn is_name(line: &str) -> bool {
    if line.starts_with(|c: char| c.is_ascii_digit() || c == '(') {
        return false;
    }
    !line.chars().any(char::is_lowercase)
        || (line.chars().count() < 60 && !line.ends_with(['.', ':', ',', ';', '·']))
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
