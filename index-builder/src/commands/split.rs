//! `nomos split BLOB`: the blob's text (in parts of `--part-bytes`) and
//! vectors moved into sibling files beside it (`nomos_core::blob::split`),
//! so that a site's first visit downloads only what BM25 needs, then the
//! text parts of the results it shows. Every file is written, then read back
//! through the same checks as any reader's, before the command succeeds.

use std::path::Path;

use anyhow::{Context, Result};
use nomos_core::blob::{split, SiblingKind};

use crate::blob_file::{self, beside};
use crate::cli::{SiblingArg, SplitArgs};
use crate::error::bad_input;

pub fn run(args: &SplitArgs) -> Result<()> {
    let path = &args.blob;
    let bytes = std::fs::read(path)
        .map_err(|e| bad_input(format!("{}: cannot read: {e}", path.display())))?;
    let out = args.out.as_deref().unwrap_or(path);
    let stem = out
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let kinds: &[SiblingKind] = match args.only {
        None => &SiblingKind::ALL,
        Some(SiblingArg::Text) => &[SiblingKind::Text],
        Some(SiblingArg::Vectors) => &[SiblingKind::Vectors],
    };
    let split = split(&bytes, &stem, kinds, args.part_bytes)
        .map_err(|e| bad_input(format!("{}: {e}", path.display())))?;
    for (sibling, data) in &split.siblings {
        write(&beside(out, &sibling.file), data)?;
    }
    write(out, &split.blob)?;
    blob_file::read(out)?;
    eprintln!(
        "{}: {} bytes (was {}), {}",
        out.display(),
        split.blob.len(),
        bytes.len(),
        split
            .siblings
            .iter()
            .map(|(s, data)| format!("{} {} bytes", s.file, data.len()))
            .collect::<Vec<_>>()
            .join(", ")
    );
    Ok(())
}

fn write(path: &Path, data: &[u8]) -> Result<()> {
    std::fs::write(path, data).with_context(|| format!("cannot write {}", path.display()))
}
