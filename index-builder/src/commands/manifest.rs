//! `nomos manifest DIR`: the list of blobs the app offers. Every `*.blob` in
//! DIR is loaded (so a damaged one fails here, not in a user's browser) and
//! described in DIR/manifest.json, sorted by file name.

use std::path::Path;

use anyhow::{Context, Result};
use nomos_core::blob::{Blob, FORMAT_VERSION};
use serde_json::{json, Value};

use crate::error::bad_input;

pub fn run(dir: &Path) -> Result<()> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| bad_input(format!("{}: cannot read: {e}", dir.display())))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "blob"))
        .collect();
    files.sort();
    let mut indexes = Vec::new();
    for path in &files {
        let bytes =
            std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
        let blob = Blob::load(&bytes).map_err(|e| bad_input(format!("{}: {e}", path.display())))?;
        indexes.push(describe(path, &blob));
    }
    let manifest = json!({ "format_version": FORMAT_VERSION, "indexes": indexes });
    let out = dir.join("manifest.json");
    std::fs::write(&out, serde_json::to_string_pretty(&manifest)? + "\n")
        .with_context(|| format!("cannot write {}", out.display()))?;
    eprintln!("{}: {} blob(s) listed", out.display(), files.len());
    Ok(())
}

fn describe(path: &Path, blob: &Blob) -> Value {
    let h = blob.header();
    let params = blob.bm25_params();
    json!({
        "file": path.file_name().map(|n| n.to_string_lossy()),
        "title": h.manifest.title,
        "dataset": h.manifest.dataset,
        "analyzer": h.analyzer,
        "bm25": { "variant": params.variant.name(), "k1": params.k1, "b": params.b },
        "docs": h.n_docs,
        "queries": h.n_queries,
        "judgments": h.n_judgments,
        "bytes": blob.len_bytes(),
        "content_hash": format!("{:032x}", h.content_hash),
        "notes": h.manifest.notes,
    })
}
