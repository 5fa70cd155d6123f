//! Relisting: making a meta file list other bytes as one of its fragments.
//!
//! A fragment is checked against the hash and length its meta lists before
//! anything in it is read, so a test or a fuzzer that alters a fragment
//! must relist it (and reseal its frame: [`crate::blob::reseal`]), or it
//! only ever tests that comparison and never the checks behind it. Readers
//! never relist.

use super::format::{ArchivedMetaSection, FRAGMENT_VERSION, META_MAGIC, META_TAG};
use super::FragmentError;
use crate::blob::{access, aligned, frame};
use xxhash_rust::xxh3::xxh3_128;

/// Rewrites `meta` (a meta file's bytes, which must pass its frame and
/// archive checks) so that it lists `fragment` as fragment `number`, and
/// reseals its checksum.
pub fn relist(meta: &mut [u8], number: usize, fragment: &[u8]) -> Result<(), FragmentError> {
    let table = frame::parse_as(META_MAGIC, meta, FRAGMENT_VERSION).map_err(FragmentError::Meta)?;
    let entry = table
        .iter()
        .find(|e| e.tag == META_TAG)
        .ok_or_else(|| FragmentError::Input("no FMET section".into()))?;
    let section = aligned(&meta[entry.offset..entry.offset + entry.len]);
    let archived: &ArchivedMetaSection = access(&section, "meta").map_err(FragmentError::Meta)?;
    let listed = archived.fragments.get(number).ok_or_else(|| {
        FragmentError::Input(format!("the meta lists no fragment number {number}"))
    })?;
    let at = |field: usize| entry.offset + field - section.as_ptr() as usize;
    let hash_at = at(std::ptr::addr_of!(listed.hash) as usize);
    let len_at = at(std::ptr::addr_of!(listed.len) as usize);
    meta[hash_at..hash_at + 16].copy_from_slice(&xxh3_128(fragment).to_le_bytes());
    meta[len_at..len_at + 8].copy_from_slice(&(fragment.len() as u64).to_le_bytes());
    frame::seal(meta);
    Ok(())
}
