//! Reading one term's posting list out of the shared byte buffer.

use super::varint::{self, VarintError};

/// One entry of a posting list: the term occurs `tf` times in document `doc`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Posting {
    /// The document's index.
    pub doc: u32,
    /// How often the term occurs in it.
    pub tf: u32,
}

/// Iterator over a term's postings in increasing document order.
///
/// The bytes are `(doc gap, tf)` varint pairs; the first gap is the first
/// document id itself. [`super::InvertedIndex`] validates every list when it
/// is built or rebuilt from parts, so decoding here cannot fail; should it
/// ever, the iterator just ends rather than panicking.
#[derive(Debug, Clone)]
pub struct Postings<'a> {
    bytes: &'a [u8],
    doc: u32,
}

impl<'a> Postings<'a> {
    /// The postings encoded in `bytes` (checked first: see
    /// [`super::check_lists`]).
    pub fn new(bytes: &'a [u8]) -> Self {
        Postings { bytes, doc: 0 }
    }

    /// Decodes the next `(gap, tf)` pair without any consistency check.
    #[inline]
    pub(super) fn next_raw(&mut self) -> Result<Option<(u32, u32)>, VarintError> {
        if self.bytes.is_empty() {
            return Ok(None);
        }
        let (gap, used) = varint::decode(self.bytes)?;
        self.bytes = &self.bytes[used..];
        let (tf, used) = varint::decode(self.bytes)?;
        self.bytes = &self.bytes[used..];
        Ok(Some((gap, tf)))
    }
}

impl Iterator for Postings<'_> {
    type Item = Posting;

    #[inline]
    fn next(&mut self) -> Option<Posting> {
        // Fast path: one-byte gap and tf, by far the most common case.
        if let [gap @ 0..=0x7f, tf @ 0..=0x7f, rest @ ..] = self.bytes {
            self.bytes = rest;
            self.doc = self.doc.wrapping_add(u32::from(*gap));
            return Some(Posting {
                doc: self.doc,
                tf: u32::from(*tf),
            });
        }
        match self.next_raw() {
            Ok(Some((gap, tf))) => {
                self.doc = self.doc.wrapping_add(gap);
                Some(Posting { doc: self.doc, tf })
            }
            _ => {
                self.bytes = &[];
                None
            }
        }
    }

    /// Internal iteration keeps the cursor in registers: `for_each` over a
    /// long list (the scorer's hot loop) runs noticeably faster this way.
    #[inline]
    fn fold<B, F>(self, init: B, mut f: F) -> B
    where
        F: FnMut(B, Posting) -> B,
    {
        let mut acc = init;
        let mut bytes = self.bytes;
        let mut doc = self.doc;
        loop {
            let (gap, tf) = if let [gap @ 0..=0x7f, tf @ 0..=0x7f, rest @ ..] = bytes {
                bytes = rest;
                (u32::from(*gap), u32::from(*tf))
            } else {
                let mut cursor = Postings { bytes, doc };
                match cursor.next_raw() {
                    Ok(Some(pair)) => {
                        bytes = cursor.bytes;
                        pair
                    }
                    _ => return acc,
                }
            };
            doc = doc.wrapping_add(gap);
            acc = f(acc, Posting { doc, tf });
        }
    }
}
