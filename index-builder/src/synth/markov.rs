//! An order-2 word Markov chain: trained on real sentences, it writes new
//! ones with the same local word statistics (vocabulary, frequencies, word
//! pairs), which is what BM25 and the index's sizes depend on.

use std::collections::HashMap;

use super::draw::Draw;

/// Word id of the padding before a sentence's first word.
const START: u32 = 0;
/// Word id that ends a sentence.
const END: u32 = 1;
/// A runaway sentence is cut here (the real ones are far shorter).
const MAX_WORDS: usize = 400;

/// Successors of every two-word context, in training order, one entry per
/// occurrence (so a uniform pick is a pick by frequency).
pub struct Chain {
    words: Vec<String>,
    next: HashMap<(u32, u32), Vec<u32>>,
}

impl Chain {
    /// Trains on `sentences`, each a list of words; empty ones are skipped.
    pub fn train<'a>(sentences: impl IntoIterator<Item = Vec<&'a str>>) -> Chain {
        let mut words = vec![String::new(), String::new()];
        let mut ids: HashMap<&'a str, u32> = HashMap::new();
        let mut next: HashMap<(u32, u32), Vec<u32>> = HashMap::new();
        for sentence in sentences {
            if sentence.is_empty() {
                continue;
            }
            let (mut a, mut b) = (START, START);
            for word in sentence {
                let id = *ids.entry(word).or_insert_with(|| {
                    words.push(word.to_owned());
                    (words.len() - 1) as u32
                });
                next.entry((a, b)).or_default().push(id);
                (a, b) = (b, id);
            }
            next.entry((a, b)).or_default().push(END);
        }
        Chain { words, next }
    }

    /// Whether training saw no sentence at all.
    pub fn is_empty(&self) -> bool {
        self.next.is_empty()
    }

    /// Appends one sentence to `out` (words joined by spaces) and returns
    /// its number of words.
    pub fn sentence(&self, draw: &mut Draw, out: &mut String) -> usize {
        let (mut a, mut b) = (START, START);
        let mut n = 0;
        while n < MAX_WORDS {
            let Some(options) = self.next.get(&(a, b)) else {
                break;
            };
            let id = options[draw.below(options.len())];
            if id == END {
                break;
            }
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(&self.words[id as usize]);
            (a, b) = (b, id);
            n += 1;
        }
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_only_the_transitions_it_was_trained_on() {
        let chain = Chain::train([
            vec!["loven", "gælder", "her."],
            vec!["loven", "gælder", "ikke", "her."],
        ]);
        let mut draw = Draw::new(7);
        let mut seen = std::collections::BTreeSet::new();
        for _ in 0..50 {
            let mut s = String::new();
            let n = chain.sentence(&mut draw, &mut s);
            assert_eq!(n, s.split(' ').count());
            seen.insert(s);
        }
        let expected: std::collections::BTreeSet<String> =
            ["loven gælder her.", "loven gælder ikke her."]
                .map(String::from)
                .into();
        assert_eq!(seen, expected);
    }
}
