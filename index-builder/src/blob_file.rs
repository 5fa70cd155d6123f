//! A blob file on disk with its siblings: a light blob
//! (`nomos split`) lists the files its text and vectors were moved to, and
//! the CLI reads them from beside it and attaches each (checked against the
//! content hash the blob lists), so every command sees the whole pool.

use std::path::{Path, PathBuf};

use anyhow::Result;
use nomos_core::blob::{Blob, SiblingRef};

use crate::error::bad_input;

/// A blob with its bytes and each sibling's.
pub struct Opened {
    pub blob: Blob,
    pub bytes: Vec<u8>,
    pub siblings: Vec<(SiblingRef, Vec<u8>)>,
}

/// Loads the blob at `path` and attaches every sibling it lists; a missing,
/// damaged or mismatched sibling is bad input naming the file.
pub fn read(path: &Path) -> Result<Opened> {
    let bytes = std::fs::read(path)
        .map_err(|e| bad_input(format!("{}: cannot read: {e}", path.display())))?;
    let mut blob = Blob::load(&bytes).map_err(|e| bad_input(format!("{}: {e}", path.display())))?;
    let mut siblings = Vec::new();
    for sibling in blob.siblings().to_vec() {
        let at = beside(path, &sibling.file);
        let data = std::fs::read(&at).map_err(|e| {
            bad_input(format!(
                "{}: the pool's {} file {} cannot be read: {e}",
                path.display(),
                sibling.kind.name(),
                at.display()
            ))
        })?;
        blob.attach(sibling.kind, &data)
            .map_err(|e| bad_input(format!("{}: {e}", path.display())))?;
        siblings.push((sibling, data));
    }
    Ok(Opened {
        blob,
        bytes,
        siblings,
    })
}

/// [`read`], keeping only the blob.
pub fn open(path: &Path) -> Result<Blob> {
    Ok(read(path)?.blob)
}

/// `file` in the directory of `blob`.
pub fn beside(blob: &Path, file: &str) -> PathBuf {
    blob.parent().unwrap_or(Path::new("")).join(file)
}
