//! Relisting a sibling: making a light blob list other bytes as its text
//! or vectors file.
//!
//! A sibling is compared with its own header's content hash and with the
//! one its blob lists before its section is read, so a test or a fuzzer
//! that alters a sibling must relist it, or it only ever tests those two
//! comparisons and never the section checks behind them. Readers never
//! relist.

use super::archived::{access, aligned};
use super::encode::content_hash_of;
use super::format::{
    ArchivedSiblingHeader, ArchivedSiblingsSection, ArchivedTextPartsSection, SectionKind,
    FORMAT_VERSION,
};
use super::frame::{self, SIBLING_MAGIC};
use super::{reseal, BlobError, SiblingKind};

/// Rewrites `sibling`'s header so that its content hash is its sections'
/// and reseals its frame; then rewrites the entry of `kind` in `blob`'s
/// sibling list (a text in parts: its first part's entry) to that hash and
/// `sibling`'s length, and reseals the blob.
/// Both files' frames and the archives rewritten must pass their checks.
pub fn relist_sibling(
    blob: &mut [u8],
    kind: SiblingKind,
    sibling: &mut [u8],
) -> Result<(), BlobError> {
    let table = frame::parse_as(SIBLING_MAGIC, sibling, FORMAT_VERSION)?;
    let header = table
        .first()
        .ok_or_else(|| BlobError::Input("the sibling has no sections".into()))?;
    let section = aligned(&sibling[header.offset..header.offset + header.len]);
    let archived: &ArchivedSiblingHeader = access(&section, "sibling header")?;
    let hash_at = header.offset + field_at(&archived.content_hash, section.as_ptr());
    let hash = content_hash_of(sibling, &table);
    sibling[hash_at..hash_at + 16].copy_from_slice(&hash.to_le_bytes());
    frame::seal(sibling);

    let table = frame::parse(blob, FORMAT_VERSION)?;
    let text_parts = table
        .iter()
        .find(|e| e.tag == SectionKind::TextParts.tag())
        .filter(|_| kind == SiblingKind::Text);
    // Where the entry's hash and length are in the blob.
    let (hash_at, len_at) = if let Some(list) = text_parts {
        let section = aligned(&blob[list.offset..list.offset + list.len]);
        let archived: &ArchivedTextPartsSection = access(&section, "text parts")?;
        let entry = archived
            .parts
            .first()
            .ok_or_else(|| BlobError::Input("the blob lists no text part".into()))?;
        (
            list.offset + field_at(&entry.content_hash, section.as_ptr()),
            list.offset + field_at(&entry.len, section.as_ptr()),
        )
    } else {
        let list = table
            .iter()
            .find(|e| e.tag == SectionKind::Siblings.tag())
            .ok_or_else(|| BlobError::Input("the blob lists no siblings".into()))?;
        let section = aligned(&blob[list.offset..list.offset + list.len]);
        let archived: &ArchivedSiblingsSection = access(&section, "siblings")?;
        let entry = archived
            .files
            .iter()
            .find(|f| {
                rkyv::deserialize::<SiblingKind, rkyv::rancor::Error>(&f.kind).ok() == Some(kind)
            })
            .ok_or_else(|| BlobError::Input(format!("the blob lists no {} file", kind.name())))?;
        (
            list.offset + field_at(&entry.content_hash, section.as_ptr()),
            list.offset + field_at(&entry.len, section.as_ptr()),
        )
    };
    blob[hash_at..hash_at + 16].copy_from_slice(&hash.to_le_bytes());
    blob[len_at..len_at + 8].copy_from_slice(&(sibling.len() as u64).to_le_bytes());
    reseal(blob);
    Ok(())
}

/// Where `field` is in the section copied to `section`.
fn field_at<T>(field: &T, section: *const u8) -> usize {
    field as *const T as usize - section as usize
}
