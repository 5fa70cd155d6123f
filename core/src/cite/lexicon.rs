//! The names by which a pool's acts can be cited.

use super::fold;
use super::forms::{CONSTITUTION_ALIASES, GBR_CODES};
use crate::blob::SourceInfo;

/// One act (a source of the pool) as citations name it.
#[derive(Debug, Clone, Default)]
pub struct Act {
    /// The source id the documents carry.
    pub id: String,
    /// What it is called (the id when the blob does not say).
    pub name: String,
    /// The official number and date, for the official form.
    pub number: String,
    pub date: String,
    /// Folded names, each as its words.
    names: Vec<Vec<String>>,
    /// `(number, year)` by which the act may be cited.
    numbers: Vec<(u32, Option<u32>)>,
}

/// Every act of a pool, in source order.
#[derive(Debug, Clone, Default)]
pub struct Lexicon {
    pub(super) acts: Vec<Act>,
    /// The most words any name has.
    pub(super) longest: usize,
    /// Every name's first word, to pass over other words at once.
    firsts: std::collections::HashSet<String>,
}

impl Lexicon {
    /// From each source's id and, where the blob says, what it is called.
    pub fn new<'a>(sources: impl IntoIterator<Item = (&'a str, Option<&'a SourceInfo>)>) -> Self {
        let mut lex = Lexicon::default();
        for (id, info) in sources {
            let mut names: Vec<String> = vec![id.to_string()];
            let mut numbers = Vec::new();
            if let Some(info) = info {
                names.push(info.name.clone());
                names.extend(info.aliases.iter().cloned());
                let year = info.date.get(..4).and_then(|y| y.parse().ok());
                numbers.extend(number_of(&info.number, year));
            }
            if let Some(&(_, abbr, name)) = GBR_CODES.iter().find(|c| c.0 == id) {
                names.push(abbr.into());
                names.push(name.into());
            }
            if id == "Syntagma" {
                names.extend(CONSTITUTION_ALIASES.iter().map(|s| s.to_string()));
            }
            numbers.extend(number_of(&id.replace('_', " ").replace(' ', "/"), None));
            numbers.extend(number_of(id, None));
            let mut folded: Vec<Vec<String>> = names
                .iter()
                .map(|n| words(n))
                .filter(|w| !w.is_empty())
                .collect();
            crate::order::sort(&mut folded);
            folded.dedup();
            lex.longest = lex
                .longest
                .max(folded.iter().map(Vec::len).max().unwrap_or(0));
            lex.firsts
                .extend(folded.iter().filter_map(|w| w.first().cloned()));
            crate::order::sort(&mut numbers);
            numbers.dedup();
            lex.acts.push(Act {
                id: id.to_string(),
                name: info.map_or_else(|| id.to_string(), |i| i.name.clone()),
                number: info.map(|i| i.number.clone()).unwrap_or_default(),
                date: info.map(|i| i.date.clone()).unwrap_or_default(),
                names: folded,
                numbers,
            });
        }
        lex
    }

    /// The acts, in source order.
    pub fn acts(&self) -> &[Act] {
        &self.acts
    }

    /// Whether some name starts with this folded word.
    pub(super) fn starts_a_name(&self, word: &str) -> bool {
        self.firsts.contains(word)
    }

    /// The acts named by exactly these folded words.
    pub(super) fn named(&self, words: &[String]) -> Vec<usize> {
        (0..self.acts.len())
            .filter(|&i| self.acts[i].names.iter().any(|n| n == words))
            .collect()
    }

    /// The acts with this number (and year, when given).
    pub(super) fn numbered(&self, number: u32, year: Option<u32>) -> Vec<usize> {
        (0..self.acts.len())
            .filter(|&i| {
                self.acts[i]
                    .numbers
                    .iter()
                    .any(|&(n, y)| n == number && (year.is_none() || y.is_none() || y == year))
            })
            .collect()
    }
}

/// A name as folded words (letters and digits; everything else separates).
pub(super) fn words(name: &str) -> Vec<String> {
    // A dot after a digit separates numbers (`17.7/13.8.1923`); elsewhere
    // it marks an abbreviation and goes (`Α.Κ.`).
    let mut spaced = String::with_capacity(name.len());
    let mut after_digit = false;
    for c in name.chars() {
        spaced.push(if c == '.' && after_digit { ' ' } else { c });
        after_digit = c.is_ascii_digit();
    }
    fold(&spaced)
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

/// `N/YYYY` anywhere in `s` (`Ν. 5209/2025`), else `nr. N` with `year`
/// (`LBK nr. 1294`).
fn number_of(s: &str, year: Option<u32>) -> Option<(u32, Option<u32>)> {
    // Runs of ASCII digits with their byte ranges.
    let mut runs: Vec<std::ops::Range<usize>> = Vec::new();
    for (i, c) in s.char_indices() {
        match (c.is_ascii_digit(), runs.last_mut()) {
            (true, Some(r)) if r.end == i => r.end = i + 1,
            (true, _) => runs.push(i..i + 1),
            (false, _) => {}
        }
    }
    for w in runs.windows(2) {
        let (a, b) = (&w[0], &w[1]);
        if b.start == a.end + 1 && s[a.end..].starts_with('/') && b.len() == 4 {
            return Some((s[a.clone()].parse().ok()?, s[b.clone()].parse().ok()));
        }
    }
    let at = s.to_lowercase().find("nr")?;
    let n = runs.iter().find(|r| r.start > at)?;
    Some((s[n.clone()].parse().ok()?, year))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_from_official_forms_and_ids() {
        assert_eq!(number_of("Ν. 5209/2025", None), Some((5209, Some(2025))));
        assert_eq!(
            number_of("LBK nr. 1294", Some(2025)),
            Some((1294, Some(2025)))
        );
        assert_eq!(number_of("N/702/1977", None), Some((702, Some(1977))));
        assert_eq!(number_of("straffeloven", None), None);
    }
}
