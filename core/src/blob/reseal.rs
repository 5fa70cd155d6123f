//! Resealing: making a blob's two integrity fields match its bytes again.
//!
//! A blob carries an xxh3-64 checksum over the whole file (the frame's) and
//! an xxh3-128 content hash over the sections after the header (in the
//! header). Damage anywhere trips one of them, so a test or a fuzzer that
//! alters a section must reseal both, or it only ever tests those two
//! comparisons and never the section checks behind them. Readers never
//! reseal: the fields exist to catch damage, not to paper over it.

use rkyv::rancor;
use rkyv::util::AlignedVec;

use super::encode::content_hash_of;
use super::format::{ArchivedHeader, SectionKind};
use super::frame;

/// Rewrites `bytes`' content hash, then its checksum, to match the bytes
/// as they now are. The content hash is rewritten only when the loader
/// would get as far as comparing it (a valid section table with the header
/// first, whose archive validates); the checksum always is, when the file
/// is long enough to hold one. The length field is left alone.
pub fn reseal(bytes: &mut [u8]) {
    if let Some((at, hash)) = content_hash_field(bytes) {
        bytes[at..at + 16].copy_from_slice(&hash.to_le_bytes());
    }
    frame::seal(bytes);
}

/// Where the header stores the content hash, and the hash of the bytes.
fn content_hash_field(bytes: &[u8]) -> Option<(usize, u128)> {
    let table = frame::parse_table(bytes).ok()?;
    let header = table
        .first()
        .filter(|e| e.tag == SectionKind::Header.tag())?;
    // rkyv needs the archive aligned; the caller's buffer may not be.
    let mut aligned = AlignedVec::<16>::with_capacity(header.len);
    aligned.extend_from_slice(&bytes[header.offset..header.offset + header.len]);
    let archived = rkyv::access::<ArchivedHeader, rancor::Error>(&aligned).ok()?;
    let field = std::ptr::addr_of!(archived.content_hash) as usize - aligned.as_ptr() as usize;
    Some((header.offset + field, content_hash_of(bytes, &table)))
}
