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
//! `LEXT` (plain-text field), `LEXA` (augmented field, optional), `LEXE`
//! (editorial headings, optional: [`crate::search::editorial`]), `QURY` and
//! `QREL` (present together when the pool has queries), `GRPH`, and `DNSP`
//! (document embeddings, optional, see below).
//! Separate archives keep per-section sizes exact (`nomos info`), and let
//! the frame be checked before any archive is trusted.
//!
//! # Loading
//!
//! [`Blob::load`] checks, in order: magic, version, length, the xxh3-64
//! checksum over every byte, the section table, rkyv bytecheck of every
//! section, the content hash, and semantic consistency (string tables,
//! index ranges, unique ids, every text block inflating and parsing — after
//! its claimed size is checked (16 MiB a block, 256 MiB in all), so a
//! crafted blob cannot make a reader inflate gigabytes —, every
//! posting via [`InvertedIndex::from_parts`]). A damaged, truncated or
//! old-version blob is an error naming the problem; [`Blob::declared_len`]
//! says so for the kind and version from a file's first bytes, before the
//! rest is read. A loaded blob keeps the bytes of the sections it reads in
//! place (documents, text, queries, judgments, graph) and holds the others
//! only as the structures rebuilt from them: nothing of the file twice.
//! Tests and fuzzers that damage a blob on purpose [`reseal`] it, so the
//! damage reaches the checks behind the checksum and the content hash.
//!
//! # Extending
//!
//! Changing a known section's layout or meaning bumps [`FORMAT_VERSION`].
//! New data that old readers may ignore goes in a new section with the
//! `FLAG_OPTIONAL` table flag: readers skip optional sections they do not
//! know. Dense vectors were added that way, without a version bump: the
//! `DNSP` section ([`format::DenseSection`]) holds the model id and its
//! manifest hash, the dimension, the pooling ([`crate::embed::Pooling`]:
//! how each document became one vector or one per window), and per
//! embedded field (the text, and for CRAwLeR-DK optionally the augmented
//! text) the int8 codes with one f32 scale per vector, the 1-bit codes, the
//! corpus mean vector (see [`crate::dense`]) and, with several vectors per
//! document, each document's run of vectors and where each window begins in
//! its text. It is written with `FLAG_OPTIONAL`, so an older reader loads
//! such a blob and ignores the vectors (the content hash still covers
//! them). Vectors from before the pooling was recorded (tag `DENS`, one
//! averaged vector per document) are refused with a message to rebuild,
//! not read under a pooling they were not made with. Loading checks the
//! section like the rest: model id present, a pooling this build knows,
//! one text set first, at most one set per field, several vectors per
//! document only under a multi-vector pooling, and every set through
//! [`DenseIndex::from_parts`] (lengths, dimension, finite non-negative
//! scales, symmetric codes, no stray bits, passage runs and starts) over
//! exactly the blob's documents.
//! The optional `IDFL` section ([`format::IdfSection`]) came the same way:
//! the builder's logarithms for BM25's idf, so that readers whose `ln`
//! rounds differently (wasm) still rank to the bit like the references.
//! So did the optional `SRCN` section ([`format::SourcesSection`]): each
//! source's proper name, aliases, number and date, checked for count and
//! sizes on load; a blob without it names its sources by their ids.
//!
//! # Light blobs
//!
//! [`split`] moves the text (`TEXT`) and the vectors (`DNSP`) into sibling
//! files bound to the blob by content hash (see `sibling`), listed in
//! required sections (`SIBL` for the vectors, `TXTP` for the text, cut into
//! parts of whole blocks: `text_parts`), so a reader that predates them
//! refuses the blob rather than miss its text. Such a blob loads and ranks
//! with BM25 alone; [`Blob::text_parts_for`] says which text parts some
//! documents need, and [`Blob::attach`] adds a sibling once it is fetched
//! and checked. Until then [`Blob::article`] says which file is missing, and the vectors'
//! model is known from the list ([`Blob::dense_model`]) while
//! [`Blob::dense`] has none.

mod archived;
mod dense_section;
mod encode;
mod error;
pub mod format;
pub(crate) mod frame;
mod graph;
mod load;
mod relist;
mod reseal;
mod sibling;
#[cfg(test)]
mod sibling_tests;
mod sources;
mod strtable;
#[cfg(test)]
pub(crate) mod test_blob;
#[cfg(test)]
mod tests;
mod text;
mod text_cache;
mod text_parts;
#[cfg(test)]
mod text_parts_tests;
mod view;

use rkyv::util::AlignedVec;

use crate::dense::DenseIndex;
use crate::index::InvertedIndex;
use crate::search::IdfTable;

pub(crate) use archived::{access, aligned};
pub(crate) use encode::{archive, document_parts, idf_table, unique_ids, DocumentParts};
pub use encode::{
    encode, BlobInput, DenseInput, DocumentInput, EncodeReport, JudgmentInput, QueryInput,
};
pub use error::BlobError;
pub use format::{
    Bm25Defaults, Header, Manifest, ManifestFile, SiblingKind, SourceInfo, FORMAT_VERSION,
};
pub use frame::MAGIC;
pub use relist::relist_sibling;
pub use reseal::reseal;
pub use sibling::{split, SiblingRef, Split};
pub use sources::SourceInput;
pub use text::ArticleText;
pub(crate) use text::{encode as encode_text, Layout};
pub use text_parts::DEFAULT_PART_BYTES;
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
    /// The name `nomos info` shows.
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
    /// The section's tag.
    pub tag: [u8; 4],
    /// Its first byte in the file.
    pub offset: usize,
    /// Its length in bytes.
    pub len: usize,
}

/// A validated, loaded blob. See the module docs for what loading checks.
pub struct Blob {
    /// The sections read in place (see `load`), each at a multiple of 16.
    bytes: AlignedVec<16>,
    /// The file's length.
    file_len: usize,
    sections: Vec<SectionInfo>,
    header: Header,
    ranges: load::Ranges,
    fields: Vec<(Field, InvertedIndex)>,
    /// The index over editorial headings (`LEXE`), if the blob has one.
    editorial: Option<InvertedIndex>,
    dense_model: Option<DenseModel>,
    dense: Vec<(Field, DenseIndex)>,
    /// The pool's own hybrid method spec (`HYBR`), unparsed: the
    /// methods live above the blob.
    hybrid: Option<String>,
    /// BM25's idf logarithms as the builder computed them (`IDFL`).
    idf_table: Option<IdfTable>,
    /// Document indexes in the order of their ids.
    doc_order: Vec<u32>,
    /// What each source is called (`SRCN`), in source order; empty when
    /// the blob does not say.
    source_info: Vec<format::SourceInfo>,
    /// Display-text blocks recently inflated.
    text_cache: text_cache::TextCache,
    /// The sibling files the text or vectors were moved to ([`split`]).
    siblings: Vec<SiblingRef>,
    /// One per text file in `siblings`, in their order.
    text_parts: Vec<text_parts::PartSlot>,
}

/// The model a blob's document vectors were made with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DenseModel {
    /// The model's name.
    pub id: String,
    /// Hash of the model's manifest; a query encoder must match it.
    pub manifest_hash: String,
    /// Vector dimension.
    pub dim: usize,
    /// How documents became vectors.
    pub pooling: crate::embed::Pooling,
}
