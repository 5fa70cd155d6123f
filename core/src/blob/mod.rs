//! The index blob: one file holding everything the browser needs to search
//! a pool — analyzer and BM25 defaults, a source manifest, documents and
//! their display text, one inverted index per lexical field, benchmark
//! queries and judgments, and the cross-reference graph.
//!
//! # Layout
//!
//! A fixed little-endian frame ([`frame`]: magic, version, checksum, length,
//! section table) around sections that are each an rkyv archive
//! ([`format`]), in this order: `HEAD` ([`Header`]), `DOCS`, `TEXT`,
//! `LEXT` (plain-text field), `LEXA` (augmented field, optional), `QURY` and
//! `QREL` (present together when the pool has queries), `GRPH`.
//! Separate archives keep per-section sizes exact (`nomos info`), and let
//! the frame be checked before any archive is trusted.
//!
//! # Loading
//!
//! [`Blob::load`] checks, in order: magic, version, length, the xxh3-64
//! checksum over every byte, the section table, rkyv bytecheck of every
//! section, the content hash, and semantic consistency (string tables,
//! index ranges, unique ids, every text block inflating and parsing, every
//! posting via [`InvertedIndex::from_parts`]). A damaged, truncated or
//! old-version blob is an error naming the problem.
//!
//! # Extending
//!
//! Changing a known section's layout or meaning bumps [`FORMAT_VERSION`].
//! New data that old readers may ignore goes in a new section with the
//! `FLAG_OPTIONAL` table flag: readers skip optional sections they do not
//! know. Dense vectors are planned that way, as a `DENS` section holding the
//! model name and dimension, per-document int8 vectors with a scale each,
//! 1-bit sign codes for a first pass, and the corpus mean vector.

mod encode;
mod error;
pub mod format;
mod frame;
mod graph;
mod load;
mod strtable;
mod text;
mod view;

use std::collections::HashMap;

use rkyv::util::AlignedVec;

use crate::index::InvertedIndex;

pub use encode::{encode, BlobInput, DocumentInput, EncodeReport, JudgmentInput, QueryInput};
pub use error::BlobError;
pub use format::{Bm25Defaults, Header, Manifest, ManifestFile, FORMAT_VERSION};
pub use frame::MAGIC;
pub use text::ArticleText;
pub use view::{JudgmentRef, QueryRef};

/// A lexical field: which text of each document an index covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Field {
    /// The document text.
    Text,
    /// The LLM-augmented text (CRAwLeR-DK), when the blob has it.
    Augmented,
}

impl Field {
    pub fn name(self) -> &'static str {
        match self {
            Field::Text => "text",
            Field::Augmented => "augmented",
        }
    }
}

/// Where one section lies in the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SectionInfo {
    /// Readable name (`docs`, `lexical:text`, ...).
    pub name: String,
    pub tag: [u8; 4],
    pub offset: usize,
    pub len: usize,
}

/// A validated, loaded blob. See the module docs for what loading checks.
pub struct Blob {
    bytes: AlignedVec<16>,
    sections: Vec<SectionInfo>,
    header: Header,
    ranges: load::Ranges,
    fields: Vec<(Field, InvertedIndex)>,
    doc_ids: HashMap<Box<str>, u32>,
}
