//! The index's terms, held once: packed back to back in one string, with
//! the term ids in the order of their text for lookups by binary search.
//! A `Vec<String>` beside a `HashMap<String, u32>` kept every term twice,
//! each in an allocation of its own; this costs the text and 8 bytes a
//! term. A lookup compares about log₂(terms) strings, which only a query's
//! few tokens do.

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
        };
        let mut by_text: Vec<u32> = (0..vocabulary.len() as u32).collect();
        // Stable: equal terms stay in id order, so the reported duplicate is
        // the first id whose term an earlier id has.
        by_text.sort_by(|&a, &b| vocabulary.term(a).cmp(vocabulary.term(b)));
        let duplicate = by_text
            .windows(2)
            .filter(|p| vocabulary.term(p[0]) == vocabulary.term(p[1]))
            .map(|p| p[1])
            .min();
        if let Some(term) = duplicate {
            return Err(IndexError::DuplicateTerm { term });
        }
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
    pub fn id(&self, term: &str) -> Option<u32> {
        let at = self
            .by_text
            .binary_search_by(|&id| self.term(id).cmp(term))
            .ok()?;
        Some(self.by_text[at])
    }

    /// Every term, in id order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &str> + '_ {
        (0..self.len() as u32).map(|id| self.term(id))
    }
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
    fn the_first_repeated_term_is_reported() {
        assert_eq!(
            Vocabulary::new(["x", "b", "a", "b", "x"]).unwrap_err(),
            IndexError::DuplicateTerm { term: 3 }
        );
    }
}
