//! The pools' texts as the dense index will embed them: every document's
//! indexed text and every query, read from the pools' blobs. The Python step
//! keeps the vocabulary pieces these texts use; `scripts/model/measure.py`
//! reads the same export (with the judgments) to score the model.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde_json::json;

use crate::error::bad_input;

/// Counts of what was exported.
#[derive(Debug, Default)]
pub struct Exported {
    pub pools: usize,
    pub docs: usize,
    pub queries: usize,
}

/// The blob files named by `paths`: files as given, directories expanded to
/// their `*.blob` files in name order.
pub fn blob_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut found: Vec<PathBuf> = std::fs::read_dir(path)
                .with_context(|| format!("listing {}", path.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "blob"))
                .collect();
            if found.is_empty() {
                return Err(bad_input(format!(
                    "{} holds no *.blob (run scripts/build-demo.sh first)",
                    path.display()
                )));
            }
            found.sort();
            files.extend(found);
        } else if path.is_file() {
            files.push(path.clone());
        } else {
            return Err(bad_input(format!("pool {} does not exist", path.display())));
        }
    }
    Ok(files)
}

/// Writes one JSON object per line: `{pool, kind: "doc", id, title, text}`
/// (the title for the known-item heading sets), `{pool, kind: "query", id,
/// text}` and `{pool, kind: "qrel", query, doc, relevance}` (ids, not
/// indexes).
pub fn export(blobs: &[PathBuf], out: &Path) -> Result<Exported> {
    let file = File::create(out).with_context(|| format!("creating {}", out.display()))?;
    let mut w = BufWriter::new(file);
    let mut counts = Exported::default();
    for path in blobs {
        let blob = crate::blob_file::open(path)?;
        let pool = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut ids = Vec::with_capacity(blob.n_docs());
        for doc in 0..blob.n_docs() {
            let id = blob.doc_id(doc).unwrap_or_default();
            let text = blob
                .article(doc)
                .map_err(|e| bad_input(format!("{}: {e}", path.display())))?
                .text;
            writeln!(
                w,
                "{}",
                json!({"pool": pool, "kind": "doc", "id": id, "title": blob.title(doc).unwrap_or_default(), "text": text})
            )?;
            ids.push(id);
        }
        for q in 0..blob.n_queries() {
            let Some(query) = blob.query(q) else { continue };
            writeln!(
                w,
                "{}",
                json!({"pool": pool, "kind": "query", "id": query.id, "text": query.text})
            )?;
            for j in blob.judgments(q) {
                let doc = ids.get(j.doc as usize).copied().unwrap_or_default();
                writeln!(
                    w,
                    "{}",
                    json!({"pool": pool, "kind": "qrel", "query": query.id, "doc": doc, "relevance": j.relevance})
                )?;
            }
            counts.queries += 1;
        }
        counts.docs += blob.n_docs();
        counts.pools += 1;
    }
    w.flush()?;
    Ok(counts)
}
