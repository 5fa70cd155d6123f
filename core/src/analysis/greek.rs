//! `gbr-greek`: the GreekBarRetrieval quickstart BM25 tokenizer, reproduced
//! exactly so scores can match the published baseline.
//!
//! Reference (`quickstart_greekbarretrieval.ipynb`, nlpaueb/greek-bar-bench):
//! ```python
//! for word in re.findall(r"\w+", text, flags=re.UNICODE):
//!     word = strip_diacritics(word).upper().strip()   # NFD, drop category Mn
//!     if not word or word in MIN_STOPWORDS: continue
//!     tokens.append(STEMMER.stem(word))               # greek-stemmer-plus 0.2.0
//! ```

use std::ops::Range;

use super::py_unicode_tables::MN;
use super::pyword::{in_ranges, words};
use super::{greek_stemmer, nfd::nfd, pycase};

/// `MIN_STOPWORDS` of the quickstart, sorted for binary search. The notebook
/// lists 43 words (the reference BENCHMARKS.md §1.3 says 45, but its list has these 43).
#[rustfmt::skip]
const STOPWORDS: &[&str] = &[
    "ΑΝ", "ΑΠΟ", "ΓΙΑ", "ΔΕΝ", "ΕΙΜΑΙ", "ΕΙΝΑΙ", "ΕΝ", "ΕΠΙ", "ΕΧΕΙ", "ΕΧΟΥΝ", "ΕΧΩ", "ΕΩΣ",
    "Η", "ΗΤΑΝ", "ΚΑΙ", "ΚΑΤΑ", "ΚΑΤΩ", "ΜΕ", "ΜΕΤΑ", "ΜΗ", "ΜΗΝ", "ΝΑ", "Ο", "ΟΤΑΝ",
    "ΟΤΙ", "ΠΑΝΩ", "ΠΟΥ", "ΠΡΙΝ", "ΠΡΟΣ", "ΠΩΣ", "ΣΕ", "ΣΤΑ", "ΣΤΗ", "ΣΤΗΝ", "ΣΤΟ", "ΤΑ",
    "ΤΗΣ", "ΤΙ", "ΤΟ", "ΤΟΥ", "ΤΩΝ", "ΥΠΟ", "ΩΣ",
];

/// Tokens of `text`, each with the byte range of the word it came from.
pub(super) fn tokens_with_spans(text: &str) -> Vec<(String, Range<usize>)> {
    words(text)
        .filter_map(|(word, span)| {
            let word = normalize_word(word);
            if word.is_empty() || is_stopword(&word) {
                return None;
            }
            Some((greek_stemmer::stem(&word), span))
        })
        .collect()
}

/// `strip_diacritics(word).upper().strip()`: NFD, drop nonspacing marks
/// (category Mn as of Unicode 14.0.0), Python `upper()`.
///
/// The reference's `.strip()` is omitted: no `\w` character normalises to
/// anything with whitespace. That is checked for every `\w` code point by
/// the parity tests, and covers whole words too, because no `\w` character
/// decomposes into a non-Mn mark that NFD could reorder across characters.
pub fn normalize_word(word: &str) -> String {
    let stripped: String = nfd(word)
        .into_iter()
        .filter(|&c| !in_ranges(MN, c))
        .collect();
    pycase::upper(&stripped)
}

/// Whether a normalised word is one of the quickstart's stopwords.
pub fn is_stopword(normalized: &str) -> bool {
    STOPWORDS.binary_search(&normalized).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stopword_table_is_sorted_and_complete() {
        assert!(STOPWORDS.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(STOPWORDS.len(), 43);
    }

    /// Only Mn marks reachable from `\w` words matter (checked end to end in
    /// analysis_parity.rs); this pins the whole table to Python's.
    #[test]
    fn mark_table_is_python_category_mn() {
        let python: Vec<(u32, u32)> =
            include_str!("../../tests/fixtures/analysis/py_mn_ranges.tsv")
                .lines()
                .filter(|l| !l.starts_with('#'))
                .map(|l| {
                    let (a, b) = l.split_once('\t').unwrap();
                    let hex = |h| u32::from_str_radix(h, 16).unwrap();
                    (hex(a), hex(b))
                })
                .collect();
        assert_eq!(MN, python.as_slice());
    }

    #[test]
    fn normalizes_accents_and_case() {
        assert_eq!(normalize_word("Άρθρο"), "ΑΡΘΡΟ");
        assert_eq!(normalize_word("ΐ"), "Ι");
        // Final sigma and µ (micro sign) both uppercase to plain Greek letters.
        assert_eq!(normalize_word("νόμος"), "ΝΟΜΟΣ");
        assert_eq!(normalize_word("µ"), "Μ");
        assert_eq!(normalize_word("straße"), "STRASSE");
    }

    #[test]
    fn spans_point_at_the_source_words() {
        let text = "Η ΄Αρθρο 5 του νόμου_3 (µέρος)";
        let tokens = tokens_with_spans(text);
        let sources: Vec<&str> = tokens.iter().map(|(_, s)| &text[s.clone()]).collect();
        assert_eq!(sources, ["Αρθρο", "5", "νόμου_3", "µέρος"]);
    }
}
