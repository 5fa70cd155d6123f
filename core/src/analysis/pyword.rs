//! Python 3.11 `re` word semantics: which characters `\w` matches and how
//! `re.findall(r"\w+", text)` splits a text.
//!
//! Python's `\w` is `str.isalnum() or c == "_"` (letters, all numeric
//! characters such as `²` or `Ⅻ`, and `_`), but *not* combining marks, so
//! `"α\u{301}β"` splits into `α` and `β`. Rust's `char::is_alphanumeric`
//! differs (other Unicode version, no `_`), hence the table generated from
//! Python itself.

use std::ops::Range;

use super::py_unicode_tables::WORD;

/// Whether Python 3.11 `re` matches `c` with `\w` (Unicode 14.0.0).
pub fn is_word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || (!c.is_ascii() && in_ranges(WORD, c))
}

/// The `\w+` runs of `text` with their byte ranges, in text order: what
/// `re.findall(r"\w+", text)` returns, plus where each match lies.
pub fn words(text: &str) -> impl Iterator<Item = (&str, Range<usize>)> {
    let mut rest = text.char_indices().peekable();
    std::iter::from_fn(move || {
        let (start, _) = rest.by_ref().find(|&(_, c)| is_word_char(c))?;
        let mut end = text.len();
        while let Some(&(i, c)) = rest.peek() {
            if !is_word_char(c) {
                end = i;
                break;
            }
            rest.next();
        }
        Some((&text[start..end], start..end))
    })
}

/// Membership in a sorted table of inclusive code point ranges.
pub(super) fn in_ranges(table: &[(u32, u32)], c: char) -> bool {
    let c = u32::from(c);
    table
        .binary_search_by(|&(lo, hi)| {
            if hi < c {
                std::cmp::Ordering::Less
            } else if lo > c {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(text: &str) -> Vec<&str> {
        words(text).map(|(w, _)| w).collect()
    }

    #[test]
    fn splits_like_python_findall() {
        assert_eq!(split(""), Vec::<&str>::new());
        assert_eq!(split("  ,; "), Vec::<&str>::new());
        assert_eq!(
            split("snake_case x²+y 12,5"),
            ["snake_case", "x²", "y", "12", "5"]
        );
        // Combining marks are not \w: a decomposed accent splits the word.
        assert_eq!(split("α\u{301}β"), ["α", "β"]);
        // GREEK TONOS U+0384 is a modifier symbol, not a mark.
        assert_eq!(split("\u{384}Αρθρο"), ["Αρθρο"]);
        assert_eq!(split("Άρθρο 5Α·δίκαιο"), ["Άρθρο", "5Α", "δίκαιο"]);
    }

    #[test]
    fn spans_are_byte_ranges_of_the_words() {
        let text = "§ 12. Ο νόμος_2 ορίζει";
        for (word, span) in words(text) {
            assert_eq!(&text[span], word);
        }
        let spans: Vec<_> = words(text).map(|(_, s)| s).collect();
        assert_eq!(spans[0], 3..5);
        assert_eq!(spans.last().unwrap().end, text.len());
    }
}
