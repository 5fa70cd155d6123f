//! A light blob's text in part files: the `TEXT` section cut at block
//! boundaries into runs of whole blocks ([`cut`]), each its own sibling
//! file, listed in the blob's `TXTP` section with the documents it holds
//! (checked by `sibling::check_parts`). A reader asks which parts some documents need
//! ([`super::Blob::text_parts_for`]), fetches those and attaches them: a
//! first visit's rows need a few parts, not all the text.
//!
//! Only the block tables are rebased; the deflated blocks and the records
//! in them are copied byte for byte.

use std::ops::Range;
use std::sync::OnceLock;

use rkyv::util::AlignedVec;

use super::archived::{access, aligned};
use super::format::{ArchivedTextSection, SectionKind, TextSection};
use super::BlobError;

/// What [`super::split`] aims at for one part's deflated text: a first
/// visit to el-codes' first BM25 result (its rows across the codes) then
/// fetches a few hundred kB of text, not 2.7 MB.
pub const DEFAULT_PART_BYTES: usize = 64 * 1024;

/// One part as [`cut`] makes it.
pub(super) struct Cut {
    /// The part's own text section, its documents numbered from 0.
    pub section: TextSection,
    /// The blob's documents it holds.
    pub docs: Range<usize>,
    /// Its text inflated.
    pub raw_bytes: u64,
}

/// Cuts `text` (a blob's `TEXT` section, validated) into parts of whole
/// blocks, each closed once its deflated blocks reach `part_bytes`, unless
/// less than half a part would be left: that rest joins it (a sliver would
/// cost a request for little text).
pub(super) fn cut(text: &[u8], part_bytes: usize) -> Result<Vec<Cut>, BlobError> {
    if part_bytes == 0 {
        return Err(BlobError::Input(
            "a text part must hold at least one byte".into(),
        ));
    }
    let bytes = aligned(text);
    let text: &ArchivedTextSection = access(&bytes, SectionKind::Text.name())?;
    let docs = |b: usize| text.block_docs[b].to_native() as usize;
    let ends = |b: usize| text.block_ends[b].to_native() as usize;
    let mut parts = Vec::new();
    let mut first = 0;
    let n = text.n_blocks();
    for block in 0..n {
        let last = block + 1 == n;
        let short = ends(block + 1) - ends(first) < part_bytes;
        let sliver_left = ends(n) - ends(block + 1) < part_bytes / 2;
        if !last && (short || sliver_left) {
            continue;
        }
        let blocks = first..block + 1;
        let raw_lens: Vec<u32> = blocks
            .clone()
            .map(|b| text.raw_lens[b].to_native())
            .collect();
        parts.push(Cut {
            section: TextSection {
                block_docs: (first..=block + 1)
                    .map(|b| (docs(b) - docs(first)) as u32)
                    .collect(),
                block_ends: (first..=block + 1)
                    .map(|b| (ends(b) - ends(first)) as u32)
                    .collect(),
                raw_lens: raw_lens.clone(),
                data: text.data[ends(first)..ends(block + 1)].to_vec(),
            },
            docs: docs(first)..docs(block + 1),
            raw_bytes: raw_lens.iter().map(|&l| u64::from(l)).sum(),
        });
        first = block + 1;
    }
    Ok(parts)
}

/// A text part's place in a loaded blob.
#[derive(Default)]
pub(super) struct PartSlot {
    /// Its text's size inflated, when the blob lists it (`TXTP`; a text
    /// file listed in `SIBL` says nothing of it).
    pub raw_bytes: Option<u64>,
    /// Its text section, once attached ([`super::Blob::attach_text`]):
    /// set once, so a shared blob can take it.
    pub section: OnceLock<AlignedVec<16>>,
}
