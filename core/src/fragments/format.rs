//! The fragment files' layout: the blob's frame (`blob/frame.rs`)
//! with magics of their own, each holding one rkyv section.
//!
//! ```text
//! meta      NOMOSMET  FMET  MetaSection     what every query needs
//! fragment  NOMOSFRG  FPST  PostingsSection a range of one field's terms
//! fragment  NOMOSFRG  FDOC  DocsSection     a range of documents
//! fragment  NOMOSFRG  FDIR  DocsPageSection a run of documents fragments' hashes
//! fragment  NOMOSFRG  FVEC  ListsSection    a range of inverted lists
//! fragment  NOMOSFRG  FCEN  CentroidsSection the inverted lists' centroids
//! ```
//!
//! Version 2 moved the idf rows from the meta into each postings fragment
//! (the meta no longer grows with the vocabulary), named the meta's hash
//! for the fragments it lists, and added the dense directory
//! (`MetaSection::dense`), the lists fragments and the centroids fragment.
//! Version 3 moved the documents fragments' hashes, lengths and first
//! documents out of the meta into directory pages (`FDIR`), which the
//! meta lists: at 10⁶ chunks their 8,328 hashes were most of the meta's
//! 242 KB, and a query needs the entries of its shown documents only.
//! Version 4 names fragments by xxh3-64 instead of xxh3-128: the hashes
//! are the meta's one incompressible part (at 10⁶ chunks 3,429 of them,
//! 55 of its 84 kB brotli), and 64 bits tell a damaged or stale file
//! from the listed one as surely (xxh3 guards against accidents, not
//! forgery, at either width).
//! Version 5 drops the meta's stored content hash: the pool's identity is
//! the xxh3-128 of the meta file's bytes, computed on load
//! ([`super::Meta::content_hash`]), since a stored one vouched only for
//! itself and an altered meta kept it.
//! Version 6 moved each document's source from its documents fragment
//! into the meta, as runs of consecutive documents, and added their legal
//! areas likewise: filters, facets and "Go to" need every hit's source
//! before any documents fragment is fetched.
//! Version 7 stores each distinct vector of a list once, with the
//! documents that have it: on all of Danish law, where the consolidations
//! of an act repeat its stykker, 5.6 documents shared a vector on average,
//! and a query fetched each copy.
//!
//! A fragment's file name is the lower-case hex [`fragment_hash`] of all
//! its bytes plus `.frag`, and the meta lists each fragment's hash and
//! length, so a fragment is found, cached and checked by what it holds.

use rkyv::{Archive, Deserialize, Serialize};
use xxhash_rust::xxh3::xxh3_64;

use crate::blob::format::{Bm25Defaults, Csr, IdfSection, StrTable, TextSection};
use crate::blob::Field;

/// Version of the fragment format (meta and fragments together).
pub const FRAGMENT_VERSION: u32 = 7;
/// The first eight bytes of a meta file.
pub const META_MAGIC: [u8; 8] = *b"NOMOSMET";
/// The first eight bytes of a fragment file.
pub const FRAGMENT_MAGIC: [u8; 8] = *b"NOMOSFRG";
/// The meta file's one section.
pub const META_TAG: [u8; 4] = *b"FMET";
/// A postings fragment's one section.
pub const POSTINGS_TAG: [u8; 4] = *b"FPST";
/// A documents fragment's one section.
pub const DOCS_TAG: [u8; 4] = *b"FDOC";
/// A directory page's one section.
pub const DOCS_PAGE_TAG: [u8; 4] = *b"FDIR";
/// A lists fragment's one section.
pub const LISTS_TAG: [u8; 4] = *b"FVEC";
/// The centroids fragment's one section.
pub const CENTROIDS_TAG: [u8; 4] = *b"FCEN";

/// The hash a fragment is named, listed and checked by.
pub fn fragment_hash(bytes: &[u8]) -> u64 {
    xxh3_64(bytes)
}

/// The file name of the fragment whose bytes hash to `hash`.
pub fn fragment_file(hash: u64) -> String {
    format!("{hash:016x}.frag")
}

/// A lexical field, as stored.
#[derive(Archive, Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldTag {
    /// [`Field::Text`].
    Text,
    /// [`Field::Augmented`].
    Augmented,
}

impl From<Field> for FieldTag {
    fn from(f: Field) -> Self {
        match f {
            Field::Text => FieldTag::Text,
            Field::Augmented => FieldTag::Augmented,
        }
    }
}

impl From<&ArchivedFieldTag> for Field {
    fn from(f: &ArchivedFieldTag) -> Self {
        match f {
            ArchivedFieldTag::Text => Field::Text,
            ArchivedFieldTag::Augmented => Field::Augmented,
        }
    }
}

/// Everything a query needs besides its terms' postings.
#[derive(Archive, Serialize, Debug)]
pub struct MetaSection {
    /// The analyzer queries must use.
    pub analyzer: String,
    /// The pool's BM25 defaults.
    pub bm25: Bm25Defaults,
    /// What the pool is, as a blob's header says (so `nomos manifest` can
    /// list the pool without a blob).
    pub info: PoolInfo,
    /// Documents in the pool.
    pub n_docs: u32,
    /// One directory per lexical field, the text first.
    pub fields: Vec<FieldMeta>,
    /// Distinct source names (the blob's order); documents index them.
    pub sources: StrTable,
    /// Each document's index into `sources`, in runs.
    pub source_runs: Vec<DocRun>,
    /// Distinct legal area names, in first-seen order.
    pub areas: StrTable,
    /// Each document's index into `areas`, or `NONE`, in runs.
    pub area_runs: Vec<DocRun>,
    /// Where the documents fragments are listed.
    pub docs: DocsMeta,
    /// Every fragment but the documents fragments (their pages list
    /// them), by number.
    pub fragments: Vec<FragmentEntry>,
    /// The document vectors' inverted lists, when the pool has vectors
    /// and was cut with them.
    pub dense: Option<DenseMeta>,
}

/// Consecutive documents that share a value (a source, an area).
#[derive(Archive, Serialize, Debug, Clone, Copy, PartialEq, Eq)]
pub struct DocRun {
    /// How many documents.
    pub docs: u32,
    /// Their value: an index into the meta's table of names.
    pub value: u32,
}

/// The documents fragments' directory, in pages: the documents fragments
/// are numbered after the fragments the meta lists, in document order, and
/// page `p` lists `per_page` of them from the `p × per_page`-th (the last
/// page fewer). A query fetches the pages of the documents it shows, then
/// their fragments; the meta keeps a page's first document and its entry.
#[derive(Archive, Serialize, Debug)]
pub struct DocsMeta {
    /// Documents fragments in the pool.
    pub n_fragments: u32,
    /// Documents fragments per page.
    pub per_page: u32,
    /// The documents fragments' bytes together (what making the pool
    /// available offline fetches besides the fragments the meta lists).
    pub bytes: u64,
    /// The first document of each page, ascending from 0.
    pub page_starts: Vec<u32>,
    /// The fragment number of each page.
    pub pages: Vec<u32>,
}

/// A run of consecutive documents fragments as a directory page lists
/// them.
#[derive(Archive, Serialize, Debug)]
pub struct DocsPageSection {
    /// The position of the run's first documents fragment among them.
    pub first_fragment: u32,
    /// The first document of each, ascending.
    pub first_docs: Vec<u32>,
    /// Each one's hash and length.
    pub fragments: Vec<FragmentEntry>,
}

/// What a dense query needs before it fetches lists: the model, where the
/// centroids are, and where each list is. The centroids are a fragment of
/// their own (at 10⁶ vectors about 400 KB) so that lexical queries, which
/// fetch the meta, do not pay for them.
#[derive(Archive, Serialize, Debug)]
pub struct DenseMeta {
    /// The model the vectors come from; a query must be embedded with it.
    pub model: String,
    /// Its manifest's hash.
    pub manifest_hash: String,
    /// Values per vector.
    pub dim: u32,
    /// The centroids fragment's number.
    pub centroids: u32,
    /// Vectors per list (what probing it fetches).
    pub list_sizes: Vec<u32>,
    /// The first list of each lists fragment, ascending from 0.
    pub list_starts: Vec<u32>,
    /// The fragment number of each range of lists.
    pub list_fragments: Vec<u32>,
}

/// A blob manifest's title, dataset and notes, without its list of
/// source files: every query fetches the meta, and at 10⁶ synthetic
/// chunks that list (1,543 files and their SHA-256) would add 150 KB.
#[derive(Archive, Serialize, Deserialize, Debug, Clone, Default, PartialEq, Eq)]
pub struct PoolInfo {
    /// Dataset name (`gbr`, `da-statutes`, ...).
    pub dataset: String,
    /// Human-readable pool name for pickers.
    pub title: String,
    /// Caveats to show next to any score computed on this pool.
    pub notes: Vec<String>,
}

/// One lexical field's statistics and term directory.
#[derive(Archive, Serialize, Debug)]
pub struct FieldMeta {
    /// Which field.
    pub field: FieldTag,
    /// Tokens in the field over all documents (the average length's
    /// numerator).
    pub total_len: u64,
    /// Distinct terms: with `okapi_sum`, okapi's epsilon floor.
    pub n_terms: u32,
    /// Okapi's log ratios summed in the blob's vocabulary order, as
    /// rank_bm25 sums them for the floor's mean.
    pub okapi_sum: f64,
    /// The first term of each of the field's fragments, ascending (byte
    /// order): fragment `i` holds the terms from `first_terms[i]` up to
    /// the next one.
    pub first_terms: StrTable,
    /// The fragment number of each range.
    pub fragments: Vec<u32>,
}

/// A fragment as the meta lists it.
#[derive(Archive, Serialize, Debug)]
pub struct FragmentEntry {
    /// [`fragment_hash`] of the file's bytes (its name, see
    /// [`fragment_file`]).
    pub hash: u64,
    /// The file's length in bytes.
    pub len: u64,
}

/// A range of one field's terms with their postings, which are the
/// blob's lists byte for byte, and beside them each posting's document
/// length, for BM25's norm, and the idf logarithms of their document
/// frequencies (in a fragment, not the meta: the table grows with the
/// vocabulary, and a query needs only its terms' rows).
#[derive(Archive, Serialize, Debug)]
pub struct PostingsSection {
    /// Which field.
    pub field: FieldTag,
    /// The blob's `IDFL` rows of the document frequencies of this
    /// fragment's terms.
    pub idf: IdfSection,
    /// The terms, ascending.
    pub terms: StrTable,
    /// Documents per term.
    pub doc_freqs: Vec<u32>,
    /// Where each term's postings start (`terms + 1` entries).
    pub offsets: Vec<u32>,
    /// `(doc gap, tf)` varints over the pool's documents, term after term
    /// (see [`crate::index::Postings`]).
    pub postings: Vec<u8>,
    /// Each posting's document length in the field, varints in posting
    /// order.
    pub lens: Vec<u8>,
}

/// A range of consecutive documents: what a result list shows of them
/// (id, title; the meta knows their sources), their display text, and
/// their cross-references.
/// The text is the blob's deflated blocks verbatim, with document and byte
/// offsets counted from the range's start.
#[derive(Archive, Serialize, Debug)]
pub struct DocsSection {
    /// The pool's index of the range's first document.
    pub first_doc: u32,
    /// Document ids.
    pub ids: StrTable,
    /// Document titles.
    pub titles: StrTable,
    /// The range's text blocks.
    pub text: TextSection,
    /// Citations: a row per document of the range, targets in the pool.
    pub explicit: Csr,
    /// Siblings, likewise.
    pub implicit: Csr,
}

/// A range of consecutive inverted lists: each distinct vector of a list
/// once (int8 codes and scale), with the documents that have it, list
/// after list, vectors in the order of their first member.
#[derive(Archive, Serialize, Debug)]
pub struct ListsSection {
    /// The range's first list.
    pub first_list: u32,
    /// Where each list's vectors start (`lists + 1` entries, from 0).
    pub offsets: Vec<u32>,
    /// Where each vector's documents start in `docs` (`vectors + 1`
    /// entries, from 0; at least one document each).
    pub doc_starts: Vec<u32>,
    /// The documents of each vector (a document may have several vectors;
    /// documents of the same text share one).
    pub docs: Vec<u32>,
    /// `vectors × dim` int8 codes.
    pub codes: Vec<i8>,
    /// One scale per vector.
    pub scales: Vec<f32>,
}

/// The centroids of the inverted lists (see [`crate::dense::Ivf`]).
#[derive(Archive, Serialize, Debug)]
pub struct CentroidsSection {
    /// `lists × dim` int8 codes.
    pub codes: Vec<i8>,
    /// One scale per centroid.
    pub scales: Vec<f32>,
}
