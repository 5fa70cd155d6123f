//! Relisting: making a meta file list other bytes as one of its fragments.
//!
//! A fragment is checked against the hash and length its meta lists before
//! anything in it is read, so a test or a fuzzer that alters a fragment
//! must relist it (and reseal its frame: [`crate::blob::reseal`]), or it
//! only ever tests that comparison and never the checks behind it. Readers
//! never relist.

use super::format::{
    fragment_hash, ArchivedDocsPageSection, ArchivedFragmentEntry, ArchivedMetaSection,
    DOCS_PAGE_TAG, FRAGMENT_MAGIC, FRAGMENT_VERSION, META_MAGIC, META_TAG,
};
use super::FragmentError;
use crate::blob::{access, aligned, frame};

/// Rewrites `meta` (a meta file's bytes, which must pass its frame and
/// archive checks) so that it lists `fragment` as fragment `number`, and
/// reseals its checksum.
pub fn relist(meta: &mut [u8], number: usize, fragment: &[u8]) -> Result<(), FragmentError> {
    let bad = FragmentError::Meta;
    let table = frame::parse_as(META_MAGIC, meta, FRAGMENT_VERSION).map_err(bad)?;
    let entry = table
        .iter()
        .find(|e| e.tag == META_TAG)
        .ok_or_else(|| FragmentError::Input("no FMET section".into()))?;
    let section = aligned(&meta[entry.offset..entry.offset + entry.len]);
    let archived: &ArchivedMetaSection = access(&section, "meta").map_err(bad)?;
    let listed = archived.fragments.get(number).ok_or_else(|| {
        FragmentError::Input(format!("the meta lists no fragment number {number}"))
    })?;
    let (hash_at, len_at) = places(listed, entry.offset, section.as_ptr() as usize);
    rewrite(meta, hash_at, len_at, fragment);
    Ok(())
}

/// Rewrites `page` (a directory page's bytes, which must pass its frame
/// and archive checks) so that its `at`-th entry lists `fragment`, and
/// reseals its checksum; then relist the page in the meta.
pub fn relist_in_page(page: &mut [u8], at: usize, fragment: &[u8]) -> Result<(), FragmentError> {
    let bad = |e| FragmentError::Input(format!("not a directory page: {e}"));
    let table = frame::parse_as(FRAGMENT_MAGIC, page, FRAGMENT_VERSION).map_err(bad)?;
    let entry = table
        .iter()
        .find(|e| e.tag == DOCS_PAGE_TAG)
        .ok_or_else(|| FragmentError::Input("no FDIR section".into()))?;
    let section = aligned(&page[entry.offset..entry.offset + entry.len]);
    let archived: &ArchivedDocsPageSection = access(&section, "page").map_err(bad)?;
    let listed = archived
        .fragments
        .get(at)
        .ok_or_else(|| FragmentError::Input(format!("the page has no entry {at}")))?;
    let (hash_at, len_at) = places(listed, entry.offset, section.as_ptr() as usize);
    rewrite(page, hash_at, len_at, fragment);
    Ok(())
}

/// Where `listed`'s hash and length are in the file whose section starts
/// at `offset`, `section` being that section's copy in memory.
fn places(listed: &ArchivedFragmentEntry, offset: usize, section: usize) -> (usize, usize) {
    let at = |field: usize| offset + field - section;
    (
        at(std::ptr::addr_of!(listed.hash) as usize),
        at(std::ptr::addr_of!(listed.len) as usize),
    )
}

fn rewrite(file: &mut [u8], hash_at: usize, len_at: usize, fragment: &[u8]) {
    file[hash_at..hash_at + 8].copy_from_slice(&fragment_hash(fragment).to_le_bytes());
    file[len_at..len_at + 8].copy_from_slice(&(fragment.len() as u64).to_le_bytes());
    frame::seal(file);
}
