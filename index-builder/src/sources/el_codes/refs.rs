//! The citations in the codes' text, resolved into the pool's articles by
//! the parser "Go to" runs (`nomos_core::cite`), over the names the pool's
//! sources section gives the codes (`ΑΚ`, `του Κώδικα Πολιτικής
//! Δικονομίας`, `ν. 2717/1999`). A citation naming no code (`του άρθρου 5`,
//! `του παρόντος`) is the citing code's own, unless another act's genitive
//! follows it (`του άρθρου 5 του ν. 1234/2000`, `του Συντάγματος`): an act
//! outside the pool, dropped.

use std::collections::HashMap;

use nomos_core::cite::{article_key, fold, parse, ActRef, Citation, Lexicon};

use super::super::dataset::SourceInput;

/// Words after a citation that keep it in the citing code: `του παρόντος
/// (Κώδικα)`, `του ίδιου`, `της παρούσας`.
const OWN: &[&str] = &["παροντοσ", "παρουσασ", "ιδιου", "ιδιασ", "αυτου", "αυτησ"];

/// Resolves citations against the pool's articles.
pub struct Resolver {
    lexicon: Lexicon,
    /// `(source index, article key)` → article index.
    by_key: HashMap<(usize, String), usize>,
    /// Each source's articles, in order (for ranges).
    in_source: Vec<Vec<usize>>,
}

/// What one article's citations came to.
#[derive(Debug, Default, Clone, Copy, PartialEq)]
pub struct Tally {
    /// Citations of an article of the pool's codes (own or named).
    pub found: usize,
    /// Of those, the ones whose article the pool has.
    pub resolved: usize,
}

impl Resolver {
    /// `articles` as (source index, number as printed).
    pub fn new(sources: &[SourceInput], articles: &[(usize, &str)]) -> Resolver {
        let lexicon = Lexicon::new(sources.iter().map(|s| (s.source.as_str(), Some(&s.info))));
        let mut by_key = HashMap::new();
        let mut in_source = vec![Vec::new(); sources.len()];
        for (i, &(source, number)) in articles.iter().enumerate() {
            by_key.insert((source, key(number)), i);
            in_source[source].push(i);
        }
        Resolver {
            lexicon,
            by_key,
            in_source,
        }
    }

    /// The articles `text` (of an article of source `own`) cites, in
    /// order of first mention, with the tally.
    pub fn cited(&self, text: &str, own: usize) -> (Vec<usize>, Tally) {
        let mut out = Vec::new();
        let mut tally = Tally::default();
        for c in parse(text, &self.lexicon) {
            let Some(article) = &c.article else { continue };
            let sources = match &c.act {
                ActRef::Acts(acts) => acts.clone(),
                ActRef::Any if foreign_after(text, &c) => continue,
                ActRef::Any => vec![own],
            };
            tally.found += 1;
            let mut hit = false;
            for s in sources {
                let targets = self.targets(s, article, c.through.as_deref());
                hit |= !targets.is_empty();
                out.extend(targets);
            }
            tally.resolved += usize::from(hit);
        }
        let mut seen = std::collections::HashSet::new();
        out.retain(|i| seen.insert(*i));
        (out, tally)
    }

    /// The articles of source `s` from `article` through `through`.
    fn targets(&self, s: usize, article: &str, through: Option<&str>) -> Vec<usize> {
        let Some(&from) = self.by_key.get(&(s, article.to_string())) else {
            return Vec::new();
        };
        let Some(to) = through else {
            return vec![from];
        };
        let Some(&to) = self.by_key.get(&(s, to.to_string())) else {
            return vec![from];
        };
        let list = &self.in_source[s];
        match (list.binary_search(&from), list.binary_search(&to)) {
            (Ok(a), Ok(b)) if a <= b => list[a..=b].to_vec(),
            _ => vec![from],
        }
    }
}

/// An article number as printed (`1017Α`) as the parser's key.
fn key(number: &str) -> String {
    let digits = number.len()
        - number
            .trim_start_matches(|c: char| c.is_ascii_digit())
            .len();
    article_key(&number[..digits], &number[digits..])
}

/// Is the citation followed by another act: its genitive (`του ν. …`,
/// `του Συντάγματος`, `της Σύμβασης`), its kind and number (`ΠΔ 14/2001`,
/// `ν. 1234/2000`) or an abbreviation in capitals (`ΠΚ`) that the pool
/// does not hold (the parser would have read one it holds)?
fn foreign_after(text: &str, c: &Citation) -> bool {
    let mut words = text[c.span.end..]
        .split(|ch: char| !ch.is_alphanumeric())
        .filter(|w| !w.is_empty());
    let Some(first) = words.next() else {
        return false;
    };
    let capitals = first.chars().filter(|c| c.is_alphabetic()).count() >= 2
        && !first.chars().any(char::is_lowercase);
    match fold(first).as_str() {
        "του" | "τησ" | "των" => !words
            .next()
            .is_some_and(|w| OWN.contains(&fold(w).as_str())),
        w => ACT_KINDS.contains(&w) || capitals,
    }
}

/// The first word of a numbered act's kind, folded: `ν.`, `Ν.`, `ΠΔ`,
/// `π.δ.`, `ν.δ.`, `ΝΔ`, `α.ν.`, `ΑΝ`, `Κ.Ν.`, `β.δ.`.
const ACT_KINDS: &[&str] = &["ν", "πδ", "π", "νδ", "α", "αν", "κ", "κν", "β", "βδ"];
