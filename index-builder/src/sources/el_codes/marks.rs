//! The database's marks in an article's text, which point to its editorial
//! notes (`Σχόλια`): `2*** (βλ. σχόλια). Σε καμία περίπτωση …` (KDD 94),
//! `κλωνοποίησης*** απαγορεύεται***` (AK 1455), `[*&* βλ. σχόλια]` (KOK
//! 94); and its own notes between tildes, on rulings about an article
//! (`~Για την αντισυνταγματικότητα … βλέπε απόφαση Σ.Τ.Ε. 3407/1988.~`,
//! KEDE 73). The notes are never read, so a mark would point at nothing and
//! its words (`σχόλια`) would be searched: both are taken out. An
//! amending act's own words are kept, and so are the database's bracketed
//! remarks that say what it left out (`[Παραλείπονται δύο τελευταία εδάφια
//! ως μη ισχύοντα]`): they tell the reader the text is incomplete.

use std::sync::LazyLock;

use regex::Regex;

/// A run of the database's note glyphs (`***`, `*&*`, `^^^`, `&&&`,
/// `###`, `@@@`, `$$$`), or one asterisk against a word (`δανειστή.* Αν`, `[*διεγράφη`):
/// statute text has neither. A spaced asterisk is a formula's product
/// (KBPN 198 `Εισ.ω * ΣΕ.ω`) and stays.
const GLYPHS: &str = r"(?:[*&#^@$]{2,}|\*)";

/// Where a mark was taken out, until the text around it is joined.
const GAP: char = '\u{1}';

/// "See the notes", with the database's warnings before it.
const SEE: &str =
    r"(?i:(?:προσοχη\s*!*\s*:?\s*)?[βb]λ(?:\.|[εέ]πε)?\s*(?:οπωσδηποτε\s+)?σχ[οό]λι[αο])";

/// "The notes" alone, which only a pointer puts in brackets (KPolD 671
/// `(σχόλια)`).
const NOTES: &str = r"(?i:[(\[]\s*σχ[οό]λι[αο]\s*[)\]])";

/// A pointer to the notes, in brackets or bare, with the glyphs around it.
static POINTER: LazyLock<Regex> = LazyLock::new(|| {
    let pointer = format!(
        r"(?i:προσοχη\s*!*\s*)?{GLYPHS}?\s*(?:[(\[]\s*{GLYPHS}?\s*!*\s*{SEE}[^)\]]*[)\]]|{NOTES}|[(\[]?\s*{SEE})\s*{GLYPHS}?"
    );
    Regex::new(&pointer).expect("a valid pattern")
});

/// The database's note between tildes (the text has no other tilde).
static TILDE_NOTE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"~[^~]*~").expect("a valid pattern"));

/// A glyph run with the spaces beside it, to tell a product's spaced
/// asterisk from a mark.
static GLYPH_RUN: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(&format!(r"(\s)?({GLYPHS})(\s)?")).expect("a valid pattern"));

/// `paragraph` without the marks; unchanged when it has none.
pub fn without_marks(paragraph: &str) -> String {
    if !paragraph.contains(['*', '&', '#', '^', '@', '$', '~'])
        && !paragraph.to_lowercase().contains("σχ")
    {
        return paragraph.to_owned();
    }
    let gap = GAP.to_string();
    let unnoted = TILDE_NOTE.replace_all(paragraph, gap.as_str());
    // The spaces a pointer took in are put back beside its gap.
    let unpointed = POINTER.replace_all(&unnoted, |c: &regex::Captures<'_>| {
        let spaced = |edge: Option<char>| {
            if edge.is_some_and(char::is_whitespace) {
                " "
            } else {
                ""
            }
        };
        format!(
            "{}{GAP}{}",
            spaced(c[0].chars().next()),
            spaced(c[0].chars().last())
        )
    });
    // A lone asterisk is matched with the character it touches, which
    // stays.
    let bare = GLYPH_RUN.replace_all(&unpointed, |c: &regex::Captures<'_>| {
        let side = |i: usize| c.get(i).map_or("", |m| m.as_str());
        match &c[2] == "*" && !side(1).is_empty() && !side(3).is_empty() {
            true => c[0].to_owned(),
            false => format!("{}{GAP}{}", side(1), side(3)),
        }
    });
    if !bare.contains(GAP) {
        return paragraph.to_owned();
    }
    joined(&bare)
}

/// The text around each gap joined as the statute reads: a space where
/// one stood beside the mark, none before punctuation or after an opening
/// bracket, and no second full stop (`δ.** (βλ. σχόλια). Οι` → `δ. Οι`).
fn joined(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c != GAP {
            out.push(c);
            continue;
        }
        let spaced_before = out.ends_with(' ');
        out.truncate(out.trim_end_matches(' ').len());
        let mut spaced_after = false;
        while let Some(&next) = chars.peek() {
            match next {
                ' ' => spaced_after = true,
                GAP => {}
                _ => break,
            }
            chars.next();
        }
        let next = chars.peek().copied();
        if out.ends_with(':') && matches!(next, Some(')' | ']')) {
            out.pop();
        }
        if out.ends_with('.') && next == Some('.') {
            chars.next();
        }
        let closing = next.is_none_or(|n| ".,;:·»)]".contains(n));
        let opening = out.chars().last().is_none_or(|p| "([«“\n".contains(p));
        if (spaced_before || spaced_after) && !closing && !opening {
            out.push(' ');
        }
    }
    out.trim().to_owned()
}

#[cfg(test)]
mod tests {
    use super::without_marks;

    /// Real paragraphs of the export, each with the text a reader should
    /// get.
    #[test]
    fn the_marks_go_and_the_statute_stays() {
        for (exported, text) in [
            (
                "2*** (βλ. σχόλια). Σε καμία περίπτωση δεν μπορεί να ασκηθεί έφεση",
                "2. Σε καμία περίπτωση δεν μπορεί να ασκηθεί έφεση",
            ),
            (
                "απαγορεύεται η κλωνοποίησης*** απαγορεύεται***. Επιλογή του φύλου",
                "απαγορεύεται η κλωνοποίησης απαγορεύεται. Επιλογή του φύλου",
            ),
            ("ΠΙΝΑΚΑΣ Γ'[βλ. σχόλια]*^*", "ΠΙΝΑΚΑΣ Γ'"),
            ("[*&* βλ. σχόλια] «β) Οι όροι", "«β) Οι όροι"),
            (
                "της υπηρεσίας και ιδίως: (*&* ΒΛ. ΣΧΟΛΙΑ) «1. Η",
                "της υπηρεσίας και ιδίως: «1. Η",
            ),
            ("στην Ελλάδα. ΠΡΟΣΟΧΗ !!!(βλ. σχόλια)", "στην Ελλάδα."),
            (
                "κατά το ήμισυ^^^ (βλ. ΟΠΩΣΔΗΠΟΤΕ σχόλια) μέσα σε δέκα",
                "κατά το ήμισυ μέσα σε δέκα",
            ),
            ("μη ισχύουσα ** βλ. σχόλια", "μη ισχύουσα"),
            ("«1.&&& (βλ. σχόλια) Το φορολογητέο", "«1. Το φορολογητέο"),
            (
                "^^^ Βλ. σχόλια [Παραλείπονται δύο τελευταία εδάφια ως μη ισχύοντα]",
                "[Παραλείπονται δύο τελευταία εδάφια ως μη ισχύοντα]",
            ),
            ("το δανειστή.* Αν υπάρχουν", "το δανειστή. Αν υπάρχουν"),
            (
                "πικαιρότητα. δ.** (βλ. σχόλια). Οι κατοικίες",
                "πικαιρότητα. δ. Οι κατοικίες",
            ),
            ("σίου ή τρίτων [*διεγράφη τ", "σίου ή τρίτων [διεγράφη τ"),
            (
                "την \"συζήτηση\"* στο ακροατήριο",
                "την \"συζήτηση\" στο ακροατήριο",
            ),
            ("της ανακοπής.**", "της ανακοπής."),
            ("[ως μη ισχύουσα] $$$ (βλ. σχόλια),", "[ως μη ισχύουσα],"),
            (
                "(!! ΠΡΟΣΟΧΗ: βλ. σχόλια για την ΙΣΧΥ των τροποποιήσεων) Ο φόρος",
                "Ο φόρος",
            ),
            (
                "ΩΣ ΜΗ ΙΣΧΥΟΝ: ΒΛ. ΣΧΟΛΙΑ). «Κατ' εξαίρεση",
                "ΩΣ ΜΗ ΙΣΧΥΟΝ). «Κατ' εξαίρεση",
            ),
            ("χρηματικών ποινών.» (Bλ. σχόλια)", "χρηματικών ποινών.»"),
            (
                "«που έχουν συσταθεί» - [βλέπε σχόλια] σύμφωνα με",
                "«που έχουν συσταθεί» - σύμφωνα με",
            ),
            (
                "Συμβουλίου Μεταρρύθμισης,[ΒΛΕΠΕ ΣΧΟΛΙΑ",
                "Συμβουλίου Μεταρρύθμισης,",
            ),
            ("(σχόλια)", ""),
            (
                "~Για την αντισυνταγματικότητα του άρθρου 73 παρ. 3 του Κ.Ε.Δ.Ε. βλέπε απόφαση \
                 Σ.Τ.Ε. 3407/1988.~",
                "",
            ),
        ] {
            assert_eq!(without_marks(exported), text, "{exported}");
        }
    }

    /// Text without marks comes back as it was, an ampersand between
    /// decisions and the notes' words in a sentence of the law included.
    #[test]
    fn text_without_marks_is_kept() {
        for text in [
            "Σ.Τ.Ε. 193/2009 & 276/2008 & Σ.Τ.Ε. 1579/2008",
            "τα σχόλια του εκδότη δεν αποτελούν μέρος της απόφασης  (δύο κενά)",
            "1. Η προθεσμία για την άσκηση έφεσης είναι εξήντα (60) ημερών.",
            "Ε'ω = Εισ.ω * ΣΕ.ω + Εορ.ω και Σ'ω = ΣΔω + Κω * (ΣΕω-1), όπου",
            "χείρας τρίτων : α) τα εν",
        ] {
            assert_eq!(without_marks(text), text);
        }
    }
}
