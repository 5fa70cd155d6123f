//! Where a defined Danish term is used in a text: the term as the
//! definition spells it, or its last word inflected, ignoring case, on word
//! boundaries. Retsinformation's definitions give one form ("skyldneren",
//! "handlekommune") and the law uses others ("skyldner", "handlekommunens"),
//! so the last word may carry one of [`ENDINGS`], after the form as given or
//! after that form with one definite ending ([`DEFINITE`]) taken off (the
//! rest at least [`MIN_STEM`] letters). Whitespace in a term matches any run
//! of whitespace. A rule, not a lemmatiser: irregular plurals ("barn",
//! "børn") are not matched.

use std::ops::Range;

/// Endings the last word may carry: number, definiteness, genitive.
const ENDINGS: [&str; 22] = [
    "ernes", "erne", "enes", "rnes", "rne", "ene", "ens", "ets", "nes", "en", "et", "ne", "er",
    "es", "ns", "rs", "ts", "e", "n", "r", "s", "t",
];

/// Definite endings a term may be given with (`skyldneren`, `børnene`).
const DEFINITE: [&str; 5] = ["erne", "ene", "en", "et", "ne"];

/// Letters a stem keeps once a definite ending is taken off.
const MIN_STEM: usize = 4;

/// A term's forms, ready to find in texts.
#[derive(Debug, Clone)]
pub struct Term {
    /// The term's lower-case words but the last, then each stem of the last
    /// (the word as given first, then without a definite ending).
    words: Vec<Vec<char>>,
    stems: Vec<Vec<char>>,
}

impl Term {
    /// `None` for a term without letters.
    pub fn new(term: &str) -> Option<Term> {
        let mut words: Vec<Vec<char>> = term
            .split_whitespace()
            .map(|w| w.chars().flat_map(char::to_lowercase).collect())
            .collect();
        let last = words.pop()?;
        if !last.iter().any(|c| c.is_alphabetic()) {
            return None;
        }
        let mut stems = vec![last.clone()];
        let spelled: String = last.iter().collect();
        for ending in DEFINITE {
            if let Some(stem) = spelled.strip_suffix(ending) {
                if stem.chars().count() >= MIN_STEM {
                    stems.push(stem.chars().collect());
                    break;
                }
            }
        }
        Some(Term { words, stems })
    }

    /// The byte ranges of the term's uses in `text`, in order, not
    /// overlapping (the longest form at each place).
    pub fn find(&self, text: &str) -> Vec<Range<usize>> {
        let chars: Vec<(usize, char)> = text.char_indices().collect();
        let lower: Vec<char> = chars
            .iter()
            .map(|&(_, c)| c.to_lowercase().next().unwrap_or(c))
            .collect();
        let byte = |i: usize| chars.get(i).map_or(text.len(), |&(b, _)| b);
        let mut found = Vec::new();
        let mut i = 0;
        while i < lower.len() {
            let boundary = i == 0 || !lower[i - 1].is_alphanumeric();
            match self.match_at(&lower, i).filter(|_| boundary) {
                Some(end) => {
                    found.push(byte(i)..byte(end));
                    i = end;
                }
                None => i += 1,
            }
        }
        found
    }

    /// `text` with every use of the term replaced by `with`.
    pub fn replace(&self, text: &str, with: &str) -> String {
        let mut out = String::with_capacity(text.len());
        let mut last = 0;
        for range in self.find(text) {
            out.push_str(&text[last..range.start]);
            out.push_str(with);
            last = range.end;
        }
        out.push_str(&text[last..]);
        out
    }

    /// Where a use starting at `i` ends (exclusive), if one does.
    fn match_at(&self, text: &[char], mut i: usize) -> Option<usize> {
        for word in &self.words {
            i = prefix(text, i, word)?;
            let spaces = text[i..].iter().take_while(|c| c.is_whitespace()).count();
            if spaces == 0 {
                return None;
            }
            i += spaces;
        }
        let ends_word = |end: usize| text.get(end).is_none_or(|c| !c.is_alphanumeric());
        let mut best = None;
        for stem in &self.stems {
            let Some(after) = prefix(text, i, stem) else {
                continue;
            };
            let endings = std::iter::once("").chain(ENDINGS);
            for ending in endings {
                let ending: Vec<char> = ending.chars().collect();
                if let Some(end) = prefix(text, after, &ending).filter(|&e| ends_word(e)) {
                    best = best.max(Some(end));
                }
            }
        }
        best
    }
}

/// Where `word` ends if `text` has it at `i`.
fn prefix(text: &[char], i: usize, word: &[char]) -> Option<usize> {
    let end = i + word.len();
    (end <= text.len() && text[i..end] == *word).then_some(end)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uses(term: &str, text: &str) -> Vec<String> {
        let term = Term::new(term).unwrap();
        term.find(text)
            .into_iter()
            .map(|r| text[r].to_owned())
            .collect()
    }

    #[test]
    fn finds_the_term_and_its_inflected_forms_ignoring_case() {
        assert_eq!(
            uses(
                "skyldneren",
                "Skyldneren betaler. En skyldner, skyldnerens gæld; skyldnere og skyldnerne."
            ),
            [
                "Skyldneren",
                "skyldner",
                "skyldnerens",
                "skyldnere",
                "skyldnerne"
            ]
        );
        assert_eq!(
            uses("handlekommune", "handlekommunen og handlekommunens pligt"),
            ["handlekommunen", "handlekommunens"]
        );
    }

    #[test]
    fn needs_word_boundaries_and_inflects_the_last_word_only() {
        assert_eq!(
            uses("kommune", "bopælskommune, kommunalbestyrelsen"),
            [] as [&str; 0]
        );
        assert_eq!(
            uses(
                "nære pårørende",
                "nære\npårørendes ønsker, nærmere pårørende"
            ),
            ["nære\npårørendes"]
        );
        assert_eq!(uses("fuld tid", "fulde tid"), [] as [&str; 0]);
    }

    #[test]
    fn replaces_each_use() {
        let term = Term::new("gavekort").unwrap();
        assert_eq!(
            term.replace("Gavekortet og gavekort.", "et tilgodebevis"),
            "et tilgodebevis og et tilgodebevis."
        );
        assert!(Term::new(" 12 ").is_none());
    }
}
