//! A pool cut into files a query fetches only some of: a small meta file,
//! postings fragments by term range and documents fragments by document
//! range, so that what a BM25 query downloads grows with the query, not
//! with the pool.
//!
//! [`fragment`] cuts a whole blob, and [`fragment_input`] what the builder would
//! encode into one (so past the blob's limits), by the same code: each
//! lexical field's terms, in byte
//! order, into runs of about a size limit, and the documents into runs of
//! whole text blocks, one file each, named by the xxh3-64 of its bytes
//! (see [`mod@format`]). A postings fragment carries, besides the blob's
//! posting lists, each posting's document length, so exact BM25 needs
//! nothing of the documents it does not score, and the idf logarithms of
//! its terms' document frequencies. The meta file holds what every query
//! needs: the analyzer, the BM25 defaults, the document count, per field
//! the total length, the vocabulary's size
//! and okapi's sum of log ratios (for the epsilon floor), the first term
//! of each postings fragment, the first document of each page of the
//! documents directory, and the hash and length of every fragment but the
//! documents fragments, which those pages list (so the meta stays small
//! however many documents the pool holds).
//!
//! Reading is I/O-free, like the rest of the crate: [`Meta::load`] checks
//! the meta file's bytes, [`Meta::needed`] says which fragments a query's
//! tokens need (a caller fetches them, in parallel), [`Meta::open`] checks
//! each fragment against the meta, [`Meta::rank`] ranks over them,
//! equal to the bit to ranking the blob with
//! [`crate::search::Bm25Scorer`], and [`Meta::explain`] takes a
//! document's score apart as that scorer does; [`Meta::needed_pages`]
//! and [`Meta::open_page`] give the directory pages of a result list's
//! documents, then [`Meta::needed_docs`] and [`Meta::open_docs`] their
//! ids, titles, text and references. A damaged, missing or foreign
//! fragment fails with a [`FragmentError`] naming the file; it never
//! yields a ranking.
//!
//! Dense retrieval over fragments ([`fragment_with_lists`]): the meta
//! holds the model and each inverted list's size
//! ([`crate::dense::Ivf`]); the lists' centroids are a fragment of their
//! own ([`Meta::needed_centroids`], [`Meta::open_centroids`]), fetched by
//! the first dense query; the lists, their members' documents and int8
//! vectors, go into lists fragments. [`Meta::needed_lists`] says which
//! fragments the `probes` nearest lists need, [`Meta::open_lists`] checks
//! one, and [`Meta::rank_dense`] ranks over them, equal to the bit to
//! [`crate::dense::DenseIndex::search_ivf`]. [`Meta::rank_method`] ranks
//! with `dense`, `rrf` and `weighted` too, fused as over a blob.

mod doc_runs;
mod error;
mod explain;
#[cfg(test)]
mod explain_tests;
pub mod format;
mod lists;
#[cfg(test)]
mod lists_tests;
mod meta;
#[cfg(test)]
mod meta_tests;
mod pages;
#[cfg(test)]
mod pages_tests;
mod parts;
mod rank_method;
mod read_docs;
mod reader;
#[cfg(test)]
mod reader_tests;
mod relist;
mod source_files;
mod write;
mod write_docs;
mod write_lists;

pub use error::FragmentError;
pub use lists::{Centroids, ListsFragment};
pub use meta::Meta;
pub use pages::DocsPage;
pub use rank_method::Fetched;
pub use read_docs::DocFragment;
pub use reader::TermFragment;
pub use relist::{relist, relist_in_page};
pub use source_files::SourceFiles;
pub use write::{fragment, fragment_input, fragment_with_lists, Fragmented, MIN_FRAGMENT_BYTES};
pub use write_lists::DenseLists;

/// What a fragment holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FragmentKind {
    /// A range of one field's terms ([`Meta::open`]).
    Postings,
    /// A range of documents ([`Meta::open_docs`]).
    Docs,
    /// A directory page: a run of documents fragments' hashes, lengths
    /// and first documents ([`Meta::open_page`]).
    DocsPage,
    /// A range of inverted lists of the vectors ([`Meta::open_lists`]).
    Lists,
    /// The lists' centroids ([`Meta::open_centroids`]).
    Centroids,
}

/// A fragment as the meta file lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FragmentRef {
    /// What it holds.
    pub kind: FragmentKind,
    /// Its file name: [`format::fragment_file`] of its hash.
    pub file: String,
    /// [`format::fragment_hash`] of its bytes.
    pub hash: u64,
    /// Its length in bytes.
    pub len: u64,
}
