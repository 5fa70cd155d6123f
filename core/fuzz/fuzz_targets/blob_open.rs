//! Fuzzes `Blob::load`: any bytes must load or fail with an error, and a
//! loaded blob must answer every accessor without panicking.
//!
//! Run (nightly, `cargo install cargo-fuzz`), seeded with a real blob:
//! ```text
//! mkdir -p core/fuzz/corpus/blob_open
//! nomos build --format el-syntagma ../shared/data/el-syntagma/syntagma.json \
//!     -o core/fuzz/corpus/blob_open/syntagma.blob
//! cd core/fuzz && cargo +nightly fuzz run blob_open
//! ```

#![no_main]

use libfuzzer_sys::fuzz_target;
use nomos_core::blob::{Blob, Field};

fuzz_target!(|data: &[u8]| {
    // As given: mostly exercises the frame and checksum checks.
    if let Ok(blob) = Blob::load(data) {
        exercise(blob);
    }
    // With the checksum rewritten, mutations reach rkyv's validation and the
    // semantic checks behind it.
    if data.len() >= 24 {
        let mut sealed = data.to_vec();
        let mut h = xxhash_rust::xxh3::Xxh3::new();
        h.update(&sealed[..16]);
        h.update(&sealed[24..]);
        sealed[16..24].copy_from_slice(&h.digest().to_le_bytes());
        if let Ok(blob) = Blob::load(&sealed) {
            exercise(blob);
        }
    }
});

fn exercise(mut blob: Blob) {
    for doc in 0..blob.n_docs() {
        let _ = (
            blob.doc_id(doc),
            blob.title(doc),
            blob.source(doc),
            blob.area(doc),
        );
        let _ = blob.article(doc);
        let _ = (blob.explicit_refs(doc), blob.implicit_refs(doc));
    }
    for q in 0..blob.n_queries() {
        let _ = blob.query(q);
        let _ = blob.judgments(q).count();
    }
    for field in [Field::Text, Field::Augmented] {
        if let Some(index) = blob.take_index(field) {
            for term in 0..index.n_terms() as u32 {
                let _ = index.postings(term).count();
            }
        }
    }
}
