//! Nomos core: everything that must rank identically in the native index
//! builder and in the browser. It performs no I/O; callers hand it text and
//! bytes.
//!
//! - [`analysis`]: text to tokens, one analyzer per name.
//! - [`index`]: the inverted index (postings, document lengths).
//! - [`hits`]: top-k selection in the references' order.
//! - [`search`]: BM25 scoring.
//! - [`methods`]: dense, feedback and fusion methods behind one entry point.
//! - [`dense`]: quantised document embeddings (int8 and 1-bit codes).
//! - [`embed`]: tokenizer and pooling for the embedding model.
//! - [`eval`]: IR metrics with trec_eval semantics.
//! - [`blob`]: the versioned index file the browser loads.

pub mod analysis;
pub mod blob;
pub mod dense;
pub mod embed;
pub mod eval;
pub mod hits;
pub mod index;
pub mod methods;
pub mod search;
