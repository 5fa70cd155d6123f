//! Text to tokens. One [`Analyzer`] per name; the index builder and the
//! browser select the same one by the name stored in the index, so documents
//! and queries are always analysed alike.
//!
//! | name | for | what |
//! |---|---|---|
//! | `gbr-greek` | Greek (GreekBarRetrieval) | exact port of the GBR quickstart tokenizer with greek-stemmer-plus 0.2.0 ([`greek`]) |
//! | `da` | Danish (CRAwLeR-DK) | Snowball Danish approximation of the spaCy lemma tokenizer ([`danish`]) |
//! | `zh` | Chinese (STARD) | ideograph unigrams + bigrams ([`cjk`]) |
//!
//! All three split text into words exactly like Python 3.11
//! `re.findall(r"\w+", text)` ([`pyword`]).

pub mod cjk;
pub mod danish;
mod danish_stopwords;
pub mod greek;
pub mod greek_stemmer;
#[rustfmt::skip]
mod greek_stemmer_rules;
pub mod nfd;
mod py_unicode_tables;
pub mod pycase;
pub mod pyword;

use std::fmt;
use std::ops::Range;

/// Every analyzer name accepted by [`Analyzer::by_name`].
pub const ANALYZER_NAMES: &[&str] = &["gbr-greek", "da", "zh"];

/// A text analyzer chosen by name. Stateless and `Copy`, so cheap to clone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Analyzer {
    kind: Kind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    GbrGreek,
    Danish,
    Chinese,
}

impl Analyzer {
    /// The analyzer called `name` (one of [`ANALYZER_NAMES`]).
    pub fn by_name(name: &str) -> Result<Analyzer, UnknownAnalyzer> {
        let kind = match name {
            "gbr-greek" => Kind::GbrGreek,
            "da" => Kind::Danish,
            "zh" => Kind::Chinese,
            _ => {
                return Err(UnknownAnalyzer {
                    name: name.to_owned(),
                })
            }
        };
        Ok(Analyzer { kind })
    }

    /// The name blobs record and `by_name` accepts.
    pub fn name(&self) -> &'static str {
        match self.kind {
            Kind::GbrGreek => "gbr-greek",
            Kind::Danish => "da",
            Kind::Chinese => "zh",
        }
    }

    /// One line for users choosing an analyzer.
    pub fn description(&self) -> &'static str {
        match self.kind {
            Kind::GbrGreek => {
                "Greek: GreekBarRetrieval BM25 tokenizer (strip accents, uppercase, 43 stopwords, greek-stemmer-plus 0.2.0), exact"
            }
            Kind::Danish => {
                "Danish: lowercase, spaCy stop words, Snowball Danish stems; an approximation of CRAwLeR-DK's spaCy da_core_news_sm lemmas"
            }
            Kind::Chinese => "Chinese: CJK character unigrams and bigrams, other words lowercased",
        }
    }

    /// The tokens of `text`, in text order.
    pub fn tokens(&self, text: &str) -> Vec<String> {
        self.tokens_with_spans(text)
            .into_iter()
            .map(|(token, _)| token)
            .collect()
    }

    /// The tokens of `text`, each with the byte range in `text` of the
    /// characters it came from (for highlighting matches).
    pub fn tokens_with_spans(&self, text: &str) -> Vec<(String, Range<usize>)> {
        match self.kind {
            Kind::GbrGreek => greek::tokens_with_spans(text),
            Kind::Danish => danish::tokens_with_spans(text),
            Kind::Chinese => cjk::tokens_with_spans(text),
        }
    }
}

/// [`Analyzer::by_name`] was given a name that is not in [`ANALYZER_NAMES`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownAnalyzer {
    name: String,
}

impl fmt::Display for UnknownAnalyzer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown analyzer {:?}; valid names: {}",
            self.name,
            ANALYZER_NAMES.join(", ")
        )
    }
}

impl std::error::Error for UnknownAnalyzer {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_round_trips() {
        for &name in ANALYZER_NAMES {
            let analyzer = Analyzer::by_name(name).unwrap();
            assert_eq!(analyzer.name(), name);
            assert!(!analyzer.description().is_empty());
            assert!(analyzer.tokens("").is_empty());
        }
        assert!(Analyzer::by_name("da")
            .unwrap()
            .description()
            .contains("approximation of"));
    }

    #[test]
    fn unknown_name_lists_the_valid_ones() {
        let err = Analyzer::by_name("greek").unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown analyzer \"greek\"; valid names: gbr-greek, da, zh"
        );
    }

    #[test]
    fn tokens_are_the_tokens_of_tokens_with_spans() {
        let text = "Άρθρο 5: Ο νόμος ορίζει. Loven gælder. 民法典";
        for &name in ANALYZER_NAMES {
            let analyzer = Analyzer::by_name(name).unwrap();
            let with_spans = analyzer.tokens_with_spans(text);
            assert_eq!(
                analyzer.tokens(text),
                with_spans
                    .iter()
                    .map(|(t, _)| t.clone())
                    .collect::<Vec<_>>()
            );
            assert!(with_spans
                .iter()
                .all(|(_, s)| text.get(s.clone()).is_some()));
        }
    }
}
