//! The inverted index: vocabulary, document frequencies, document lengths and
//! compact postings, built from already-analysed documents.
//!
//! # Layout
//!
//! All posting lists live in **one contiguous `Vec<u8>`**; term `t`'s list is
//! `postings[offsets[t]..offsets[t + 1]]`, a run of `(doc gap, tf)` pairs
//! encoded as LEB128 varints (the first gap is the first doc id itself).
//! This follows the same idea as tantivy's postings file plus term-info
//! offsets, minus its 128-doc bitpacked blocks and skip data: our corpora are
//! ~10k documents and queries are scored exhaustively term-at-a-time, so
//! there is nothing to skip and plain varints are simpler and about as small.
//! Why this shape on a wasm heap:
//! - one allocation instead of one `Vec` per term (a 24-byte header and
//!   allocator slack each, times tens of thousands of terms);
//! - ~2 bytes per posting instead of 8 for `(u32, u32)`: gaps and term
//!   frequencies are nearly always below 128;
//! - the parts are plain arrays, so a blob can store them verbatim and
//!   [`InvertedIndex::from_parts`] can rebuild (and validate) the index
//!   without re-encoding anything.
//!
//! Term ids are assigned in **first-seen order** over the corpus token
//! stream. rank_bm25 keeps its idf table in that (dict insertion) order and
//! sums it in that order for the epsilon floor, so the order is needed to
//! reproduce its floating-point average exactly.

mod error;
mod parts;
mod postings;
pub mod varint;
mod vocabulary;

use std::collections::HashMap;

pub use error::{IndexError, PostingsProblem};
pub use parts::{check_lists, IndexParts};
pub use postings::{Posting, Postings};
use vocabulary::Vocabulary;

/// An immutable inverted index over a corpus of token lists.
#[derive(Debug, Clone)]
pub struct InvertedIndex {
    terms: Vocabulary,
    doc_freqs: Vec<u32>,
    offsets: Vec<u32>,
    postings: Vec<u8>,
    doc_lens: Vec<u32>,
    total_len: u64,
}

/// A term's posting list while the index is being built.
#[derive(Default)]
struct ListBuilder {
    bytes: Vec<u8>,
    last_doc: u32,
    doc_freq: u32,
}

impl InvertedIndex {
    /// Indexes `docs` (each an already-analysed token list) in corpus order:
    /// document ids are positions in `docs`, and a document's length is its
    /// token count.
    ///
    /// Fails only if a count outgrows the `u32` layout.
    pub fn build<D, T>(docs: impl IntoIterator<Item = D>) -> Result<Self, IndexError>
    where
        D: IntoIterator<Item = T>,
        T: AsRef<str>,
    {
        let mut terms: Vec<String> = Vec::new();
        let mut term_ids: HashMap<String, u32> = HashMap::new();
        let mut lists: Vec<ListBuilder> = Vec::new();
        // Per-document scratch: tf by term id, and the ids seen in this doc.
        let mut tf: Vec<u32> = Vec::new();
        let mut seen: Vec<u32> = Vec::new();
        let mut doc_lens: Vec<u32> = Vec::new();

        for (position, doc) in docs.into_iter().enumerate() {
            let doc_id = u32::try_from(position).map_err(|_| too_large("documents"))?;
            let mut len: u32 = 0;
            for token in doc {
                let token = token.as_ref();
                let id = match term_ids.get(token) {
                    Some(&id) => id,
                    None => {
                        let id = u32::try_from(terms.len()).map_err(|_| too_large("terms"))?;
                        terms.push(token.to_owned());
                        term_ids.insert(token.to_owned(), id);
                        lists.push(ListBuilder::default());
                        tf.push(0);
                        id
                    }
                };
                len = len
                    .checked_add(1)
                    .ok_or_else(|| too_large("tokens in a document"))?;
                let count = &mut tf[id as usize];
                if *count == 0 {
                    seen.push(id);
                }
                // Cannot overflow: a term's count is at most `len`.
                *count += 1;
            }
            for &id in &seen {
                let list = &mut lists[id as usize];
                varint::encode(doc_id - list.last_doc, &mut list.bytes);
                varint::encode(tf[id as usize], &mut list.bytes);
                list.last_doc = doc_id;
                list.doc_freq += 1;
                tf[id as usize] = 0;
            }
            seen.clear();
            doc_lens.push(len);
        }

        let total_bytes: usize = lists.iter().map(|l| l.bytes.len()).sum();
        u32::try_from(total_bytes).map_err(|_| too_large("posting bytes"))?;
        let mut postings = Vec::with_capacity(total_bytes);
        let mut offsets = Vec::with_capacity(lists.len() + 1);
        offsets.push(0);
        let mut doc_freqs = Vec::with_capacity(lists.len());
        for list in lists {
            postings.extend_from_slice(&list.bytes);
            // Fits: checked against the total above.
            offsets.push(postings.len() as u32);
            doc_freqs.push(list.doc_freq);
        }
        let total_len = doc_lens.iter().map(|&l| u64::from(l)).sum();
        drop(term_ids);
        Ok(InvertedIndex {
            terms: Vocabulary::new(terms)?,
            doc_freqs,
            offsets,
            postings,
            doc_lens,
            total_len,
        })
    }

    /// Number of documents.
    pub fn n_docs(&self) -> usize {
        self.doc_lens.len()
    }

    /// Number of distinct terms.
    pub fn n_terms(&self) -> usize {
        self.terms.len()
    }

    /// The id of `term`, if it occurs in the corpus.
    #[inline]
    pub fn term_id(&self, term: &str) -> Option<u32> {
        self.terms.id(term)
    }

    /// The term with id `id`.
    pub fn term(&self, id: u32) -> Option<&str> {
        self.terms.get(id)
    }

    /// All terms, in term id order (first-seen order).
    pub fn terms(&self) -> impl ExactSizeIterator<Item = &str> + '_ {
        self.terms.iter()
    }

    /// Number of documents containing each term, indexed by term id.
    pub fn doc_freqs(&self) -> &[u32] {
        &self.doc_freqs
    }

    /// Token count of each document, indexed by document id.
    pub fn doc_lens(&self) -> &[u32] {
        &self.doc_lens
    }

    /// Total number of tokens in the corpus.
    pub fn total_len(&self) -> u64 {
        self.total_len
    }

    /// Byte offsets of each term's posting list (`n_terms + 1` entries).
    pub fn offsets(&self) -> &[u32] {
        &self.offsets
    }

    /// The encoded posting lists of all terms, back to back.
    pub fn postings_bytes(&self) -> &[u8] {
        &self.postings
    }

    /// The postings of term `id` in increasing document order (empty for an
    /// unknown id).
    #[inline]
    pub fn postings(&self, id: u32) -> Postings<'_> {
        let i = id as usize;
        match (self.offsets.get(i), self.offsets.get(i + 1)) {
            (Some(&start), Some(&end)) => Postings::new(
                self.postings
                    .get(start as usize..end as usize)
                    .unwrap_or_default(),
            ),
            _ => Postings::new(&[]),
        }
    }
}

fn too_large(what: &'static str) -> IndexError {
    IndexError::TooLarge { what }
}

#[cfg(test)]
mod tests;
