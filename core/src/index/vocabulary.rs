//! The index's terms, held once: packed back to back in one string, with
//! the term ids in the order of their text for lookups by binary search.
//! A `Vec<String>` beside a `HashMap<String, u32>` kept every term twice,
//! each in an allocation of its own; this costs the text and 16 bytes a
//! term. The search runs over each term's first 8 bytes as one integer,
//! in an array of their own, and compares whole strings only with the
//! terms that share them: comparing strings all the way took a tenth of a short
//! query's time on the Danish acts. Unlike a hash table, no choice of
//! terms (a blob's are untrusted) can make lookups slow.

use super::error::IndexError;

/// Terms by id, and the ids in term order.
#[derive(Debug, Clone, Default)]
pub(super) struct Vocabulary {
    /// Every term, in id order, back to back.
    text: String,
    /// Where each term ends in `text`.
    ends: Vec<u32>,
    /// Term ids sorted by their text.
    by_text: Vec<u32>,
    /// [`prefix`] of each term of `by_text`, at the same position: sorted
    /// too, since the prefix order agrees with the text order.
    prefixes: Vec<u64>,
}

impl Vocabulary {
    /// Packs `terms` (ids in iteration order); fails if one occurs twice or
    /// the text outgrows `u32` offsets.
    pub fn new<T: AsRef<str>>(terms: impl IntoIterator<Item = T>) -> Result<Self, IndexError> {
        let terms = terms.into_iter();
        let mut text = String::new();
        let mut ends = Vec::with_capacity(terms.size_hint().0);
        for term in terms {
            text.push_str(term.as_ref());
            let end =
                u32::try_from(text.len()).map_err(|_| IndexError::TooLarge { what: "terms" })?;
            ends.push(end);
        }
        u32::try_from(ends.len()).map_err(|_| IndexError::TooLarge { what: "terms" })?;
        text.shrink_to_fit();
        let mut vocabulary = Vocabulary {
            text,
            ends,
            by_text: Vec::new(),
            prefixes: Vec::new(),
        };
        // Stable: equal terms stay in id order, so the reported duplicate is
        // the first id whose term an earlier id has.
        let by_text = crate::order::stable_order(vocabulary.len(), &|a, b| {
            vocabulary.term(a).cmp(vocabulary.term(b))
        });
        let duplicate = by_text
            .windows(2)
            .filter(|p| vocabulary.term(p[0]) == vocabulary.term(p[1]))
            .map(|p| p[1])
            .min();
        if let Some(term) = duplicate {
            return Err(IndexError::DuplicateTerm { term });
        }
        vocabulary.prefixes = by_text
            .iter()
            .map(|&id| prefix(vocabulary.term(id)))
            .collect();
        vocabulary.by_text = by_text;
        Ok(vocabulary)
    }

    /// Number of terms.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// The term with id `id`; empty out of range.
    pub fn term(&self, id: u32) -> &str {
        self.get(id).unwrap_or_default()
    }

    /// The term with id `id`.
    pub fn get(&self, id: u32) -> Option<&str> {
        let i = id as usize;
        let end = *self.ends.get(i)? as usize;
        let start = match i {
            0 => 0,
            _ => self.ends[i - 1] as usize,
        };
        self.text.get(start..end)
    }

    /// The id of `term`.
    #[inline]
    pub fn id(&self, term: &str) -> Option<u32> {
        let key = prefix(term);
        let start = self.prefixes.partition_point(|&p| p < key);
        // Few terms share their first 8 bytes: walk them.
        self.prefixes[start..]
            .iter()
            .zip(&self.by_text[start..])
            .take_while(|&(&p, _)| p == key)
            .map(|(_, &id)| id)
            .find(|&id| self.term(id) == term)
    }

    /// Every term, in id order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &str> + '_ {
        (0..self.len() as u32).map(|id| self.term(id))
    }
}

/// A term's first 8 bytes, zero-padded, as a big-endian integer: ordered
/// as the texts are, except that texts sharing them tie.
#[inline]
fn prefix(term: &str) -> u64 {
    let bytes = term.as_bytes();
    let mut first = [0u8; 8];
    let n = bytes.len().min(8);
    first[..n].copy_from_slice(&bytes[..n]);
    u64::from_be_bytes(first)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terms_are_found_by_id_and_by_text() {
        let v = Vocabulary::new(["μισθώσ", "a", "", "ab", "b"]).unwrap();
        assert_eq!(v.len(), 5);
        assert_eq!(v.iter().collect::<Vec<_>>(), ["μισθώσ", "a", "", "ab", "b"]);
        for (id, term) in ["μισθώσ", "a", "", "ab", "b"].iter().enumerate() {
            assert_eq!(v.id(term), Some(id as u32));
            assert_eq!(v.get(id as u32), Some(*term));
        }
        assert_eq!(v.id("c"), None);
        assert_eq!(v.id("μ"), None);
        assert_eq!(v.get(5), None);
    }

    #[test]
    fn terms_sharing_their_first_eight_bytes_are_told_apart() {
        // Greek letters are 2 bytes: these share 4 letters, as stems do.
        let terms = [
            "abcdefghX",
            "abcdefgh",
            "abcdefghA",
            "abcdefgh\0",
            "abc",
            "μισθωτ",
            "μισθωσ",
            "μισθ",
        ];
        let v = Vocabulary::new(terms).unwrap();
        for (id, term) in terms.iter().enumerate() {
            assert_eq!(v.id(term), Some(id as u32), "{term:?}");
        }
        for absent in [
            "abcdefghB",
            "abcdefg",
            "abcdefgh\0\0",
            "μισθω",
            "μισθωτα",
            "ab",
        ] {
            assert_eq!(v.id(absent), None, "{absent:?}");
        }
    }

    #[test]
    fn terms_are_found_across_many_runs() {
        // Many terms, some sharing their first 8 bytes.
        let terms: Vec<String> = (0..1000)
            .map(|i| match i % 3 {
                0 => format!("t{i}"),
                1 => format!("longprefix{i}"),
                _ => format!("μισθ{i}"),
            })
            .collect();
        let v = Vocabulary::new(&terms).unwrap();
        for (id, term) in terms.iter().enumerate() {
            assert_eq!(v.id(term), Some(id as u32), "{term:?}");
        }
        for absent in ["", "t", "t1000", "longprefix", "μισθ", "zzz", "\u{10ffff}"] {
            assert_eq!(v.id(absent), None, "{absent:?}");
        }
    }

    #[test]
    fn the_first_repeated_term_is_reported() {
        assert_eq!(
            Vocabulary::new(["x", "b", "a", "b", "x"]).unwrap_err(),
            IndexError::DuplicateTerm { term: 3 }
        );
    }
}
