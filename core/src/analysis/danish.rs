//! `da`: Danish statutes. An *approximation* of CRAwLeR-DK's BM25 tokenizer,
//! which keeps `token.lemma_.lower()` of spaCy `da_core_news_sm` tokens that
//! are neither stop words nor punctuation. That lemmatizer is a trained
//! model and cannot be reproduced in Rust, so this analyzer keeps the parts
//! that can be (the spaCy stop list, lowercasing) and replaces lemmas by
//! Snowball Danish stems:
//!
//! 1. words = Python `re.findall(r"\w+", text)` (see [`super::pyword`]);
//! 2. Python `word.lower()`;
//! 3. drop spaCy's Danish stop words;
//! 4. Snowball Danish stem (`rust-stemmers`).
//!
//! Steps 1–3 match Python exactly. For step 4 the reference in the parity
//! fixtures is `snowballstemmer` 3.1.1 (Snowball 3); `rust-stemmers` 1.2.0
//! compiles an older Snowball Danish, and core/tests/analysis_parity.rs
//! pins the exact list of words on which the two disagree.

use std::ops::Range;

use rust_stemmers::{Algorithm, Stemmer};

use super::danish_stopwords::STOPWORDS;
use super::pycase;
use super::pyword::words;

/// Tokens of `text`, each with the byte range of the word it came from.
pub(super) fn tokens_with_spans(text: &str) -> Vec<(String, Range<usize>)> {
    let stemmer = Stemmer::create(Algorithm::Danish);
    words(text)
        .filter_map(|(word, span)| {
            let lower = pycase::lower(word);
            if STOPWORDS.binary_search(&lower.as_str()).is_ok() {
                return None;
            }
            Some((stemmer.stem(&lower).into_owned(), span))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stopword_table_is_sorted() {
        assert!(STOPWORDS.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(STOPWORDS.len(), 219);
    }

    #[test]
    fn drops_stop_words_case_insensitively_and_keeps_spans() {
        let text = "§ 3. Loven gælder IKKE for Færøerne.";
        let tokens = tokens_with_spans(text);
        let sources: Vec<&str> = tokens.iter().map(|(_, s)| &text[s.clone()]).collect();
        assert_eq!(sources, ["3", "Loven", "gælder", "Færøerne"]);
    }
}
