//! The index as plain arrays, for storing in a blob and rebuilding from one.

use super::error::{IndexError, PostingsProblem};
use super::postings::Postings;
use super::vocabulary::Vocabulary;
use super::InvertedIndex;

/// The raw arrays an [`InvertedIndex`] is made of. A blob stores these;
/// [`InvertedIndex::from_parts`] checks them before trusting them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexParts {
    /// Terms by id, in first-seen corpus order.
    pub terms: Vec<String>,
    /// Document frequency by term id.
    pub doc_freqs: Vec<u32>,
    /// `terms.len() + 1` byte offsets into `postings`.
    pub offsets: Vec<u32>,
    /// `(doc gap, tf)` varint pairs, term after term.
    pub postings: Vec<u8>,
    /// Token count by document id.
    pub doc_lens: Vec<u32>,
}

impl InvertedIndex {
    /// Takes the index apart into its raw arrays.
    pub fn into_parts(self) -> IndexParts {
        IndexParts {
            terms: self.terms.iter().map(str::to_owned).collect(),
            doc_freqs: self.doc_freqs,
            offsets: self.offsets,
            postings: self.postings,
            doc_lens: self.doc_lens,
        }
    }

    /// Rebuilds an index from raw arrays, typically read from a blob.
    ///
    /// Everything is checked, so that scoring can then trust the postings:
    /// array lengths, distinct terms, offsets, every varint, document ids
    /// (in range, strictly increasing), term frequencies (non-zero), document
    /// frequencies (non-zero, equal to the list lengths) and document lengths
    /// (equal to the sum of their term frequencies).
    pub fn from_parts(parts: IndexParts) -> Result<Self, IndexError> {
        let IndexParts {
            terms,
            doc_freqs,
            offsets,
            postings,
            doc_lens,
        } = parts;
        let n_terms = terms.len();
        let n_docs = u32::try_from(doc_lens.len())
            .map_err(|_| IndexError::TooLarge { what: "documents" })?;
        u32::try_from(postings.len()).map_err(|_| IndexError::TooLarge {
            what: "posting bytes",
        })?;
        expect_len("doc_freqs", n_terms, doc_freqs.len())?;
        expect_len("offsets", n_terms + 1, offsets.len())?;
        let terms = Vocabulary::new(terms)?;

        let mut summed_tf = vec![0u64; doc_lens.len()];
        check_all(&doc_freqs, &offsets, &postings, n_docs, &mut |doc, tf| {
            summed_tf[doc as usize] += u64::from(tf);
        })?;
        for (doc, (&stored, &summed)) in doc_lens.iter().zip(&summed_tf).enumerate() {
            if u64::from(stored) != summed {
                return Err(IndexError::DocLenMismatch {
                    doc: doc as u32,
                    stored,
                    summed,
                });
            }
        }

        let total_len = summed_tf.iter().sum();
        Ok(InvertedIndex {
            terms,
            doc_freqs,
            offsets,
            postings,
            doc_lens,
            total_len,
        })
    }
}

/// Checks posting lists as [`InvertedIndex::from_parts`] does, for lists
/// with no vocabulary or document lengths beside them (a fragment's slice
/// of an index): one frequency and offset per list plus a last offset,
/// every varint, documents ascending below `n_docs`, non-zero term and
/// document frequencies.
pub fn check_lists(
    doc_freqs: &[u32],
    offsets: &[u32],
    postings: &[u8],
    n_docs: u32,
) -> Result<(), IndexError> {
    expect_len("offsets", doc_freqs.len() + 1, offsets.len())?;
    check_all(doc_freqs, offsets, postings, n_docs, &mut |_, _| {})
}

/// Checks the offsets, then every list, telling `on_posting` each
/// document and term frequency.
fn check_all(
    doc_freqs: &[u32],
    offsets: &[u32],
    postings: &[u8],
    n_docs: u32,
    on_posting: &mut dyn FnMut(u64, u32),
) -> Result<(), IndexError> {
    check_offsets(offsets, postings.len())?;
    for (term, window) in offsets.windows(2).enumerate() {
        let term = term as u32;
        let bytes = &postings[window[0] as usize..window[1] as usize];
        check_list(bytes, doc_freqs[term as usize], n_docs, on_posting)
            .map_err(|problem| IndexError::Postings { term, problem })?;
    }
    Ok(())
}

fn expect_len(what: &'static str, expected: usize, found: usize) -> Result<(), IndexError> {
    if expected == found {
        Ok(())
    } else {
        Err(IndexError::LengthMismatch {
            what,
            expected,
            found,
        })
    }
}

/// Offsets must start at 0, never decrease and end at `n_bytes`.
fn check_offsets(offsets: &[u32], n_bytes: usize) -> Result<(), IndexError> {
    if offsets.first() != Some(&0) {
        return Err(IndexError::BadOffsets { term: 0 });
    }
    for (term, window) in offsets.windows(2).enumerate() {
        if window[1] < window[0] {
            return Err(IndexError::BadOffsets { term: term as u32 });
        }
    }
    if offsets.last().map(|&o| o as usize) != Some(n_bytes) {
        let last_term = offsets.len().saturating_sub(2) as u32;
        return Err(IndexError::BadOffsets { term: last_term });
    }
    Ok(())
}

/// Decodes one whole posting list, telling `on_posting` each posting.
fn check_list(
    bytes: &[u8],
    doc_freq: u32,
    n_docs: u32,
    on_posting: &mut dyn FnMut(u64, u32),
) -> Result<(), PostingsProblem> {
    let mut reader = Postings::new(bytes);
    let mut decoded: u32 = 0;
    let mut doc: u64 = 0;
    while let Some((gap, tf)) = reader.next_raw()? {
        if decoded > 0 && gap == 0 {
            return Err(PostingsProblem::NonIncreasing);
        }
        doc += u64::from(gap);
        if doc >= u64::from(n_docs) {
            return Err(PostingsProblem::DocOutOfRange { doc });
        }
        if tf == 0 {
            return Err(PostingsProblem::ZeroTf);
        }
        on_posting(doc, tf);
        // Cannot overflow: each posting is a distinct doc below `n_docs`.
        decoded += 1;
    }
    if decoded == 0 || decoded != doc_freq {
        return Err(PostingsProblem::DocFreqMismatch {
            stored: doc_freq,
            decoded,
        });
    }
    Ok(())
}
