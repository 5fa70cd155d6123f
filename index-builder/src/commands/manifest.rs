//! `nomos manifest DIR`: the list of blobs the app offers. Every `*.blob` in
//! DIR is loaded (so a damaged one fails here, not in a user's browser) and
//! described in DIR/manifest.json, sorted by file name.
//!
//! A light blob's siblings (`nomos split`) are read and checked too, and
//! listed under `siblings` with their sizes and content hashes.
//!
//! Every `DIR/NAME/meta` is a fragmented pool (`nomos build --fragments`,
//! `nomos fragment`): its meta and every fragment it lists are read
//! through the reader's checks, and it is listed after the blobs as
//! `NAME/meta` with `"format": "fragmented"` and the meta's content hash.
//!
//! A blob with document vectors is pointed at the served model directory
//! whose `manifest.json` has the SHA-256 its vectors record, so the browser
//! downloads exactly the model that embeds queries like the documents.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use nomos_core::blob::{Blob, FORMAT_VERSION};
use nomos_core::embed::ModelManifest;
use nomos_core::fragments::Meta;
use serde_json::{json, Value};

use super::fragment::check_fragments;
use super::plan::META_FILE;
use crate::error::bad_input;
use nomos_core::digest::sha256_hex;

/// Where the site serves models, relative to the index directory.
const MODELS: &str = "../models";

/// A model directory the site serves.
struct ServedModel {
    /// The URL path from the index directory, ending in `/`.
    path: String,
    manifest_sha256: String,
    /// What the browser downloads: the manifest and every file it lists.
    bytes: u64,
}

pub fn run(dir: &Path) -> Result<()> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| bad_input(format!("{}: cannot read: {e}", dir.display())))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "blob"))
        .collect();
    files.sort();
    let models_dir = dir.join(MODELS);
    let served = served_models(&models_dir)?;
    let mut indexes = Vec::new();
    for path in &files {
        let blob = crate::blob_file::open(path)?;
        indexes.push(describe(path, &blob, &served, &models_dir));
    }
    let fragmented = fragmented_pools(dir)?;
    for (name, meta) in &fragmented {
        indexes.push(describe_fragmented(name, meta, &dir.join(name))?);
    }
    let manifest = json!({ "format_version": FORMAT_VERSION, "indexes": indexes });
    let out = dir.join("manifest.json");
    std::fs::write(&out, serde_json::to_string_pretty(&manifest)? + "\n")
        .with_context(|| format!("cannot write {}", out.display()))?;
    eprintln!(
        "{}: {} blob(s) and {} fragmented pool(s) listed",
        out.display(),
        files.len(),
        fragmented.len()
    );
    Ok(())
}

/// Every subdirectory of `dir` with a `meta` file, by name, its meta
/// loaded and every fragment it lists checked.
fn fragmented_pools(dir: &Path) -> Result<Vec<(String, Meta)>> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map_err(|e| bad_input(format!("{}: cannot read: {e}", dir.display())))?
        .filter_map(|e| e.ok())
        .filter(|e| e.path().join(META_FILE).is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let mut pools = Vec::new();
    for name in names {
        let pool = dir.join(&name);
        let path = pool.join(META_FILE);
        let bytes =
            std::fs::read(&path).with_context(|| format!("cannot read {}", path.display()))?;
        let meta = Meta::load(&bytes).map_err(|e| bad_input(format!("{}: {e}", path.display())))?;
        check_fragments(&pool, &meta)?;
        pools.push((name, meta));
    }
    Ok(pools)
}

/// A fragmented pool's entry: what a blob's says, from its meta. Its
/// `bytes` are the meta's (what opening it fetches); `fragment_bytes`
/// all its fragments' (what "Make available offline" fetches).
fn describe_fragmented(name: &str, meta: &Meta, pool: &Path) -> Result<Value> {
    let meta_bytes = std::fs::metadata(pool.join(META_FILE))
        .with_context(|| format!("cannot read {}", pool.display()))?
        .len();
    let params = meta.bm25_params();
    let info = meta.info();
    Ok(json!({
        "file": format!("{name}/{META_FILE}"),
        "format": "fragmented",
        "title": info.title,
        "dataset": info.dataset,
        "analyzer": meta.analyzer().name(),
        "bm25": { "variant": params.variant.name(), "k1": params.k1, "b": params.b },
        "docs": meta.n_docs(),
        "queries": 0,
        "judgments": 0,
        "bytes": meta_bytes,
        "fragments": meta.n_fragments(),
        "fragment_bytes": meta.fragment_bytes(),
        "content_hash": format!("{:032x}", meta.content_hash()),
        "dense": null,
        "siblings": [],
        "notes": info.notes,
    }))
}

fn describe(path: &Path, blob: &Blob, served: &[ServedModel], models_dir: &Path) -> Value {
    let h = blob.header();
    let params = blob.bm25_params();
    let dense = blob.dense_model().map(|m| {
        let found = served.iter().find(|s| s.manifest_sha256 == m.manifest_hash);
        if found.is_none() {
            eprintln!(
                "{}: no model in {} has manifest SHA-256 {}; the app will offer BM25 only \
                 for it (copy the `nomos model prepare` directory its vectors were made with there)",
                path.display(),
                models_dir.display(),
                m.manifest_hash
            );
        }
        json!({
            "model": m.id,
            "manifest_sha256": m.manifest_hash,
            "dim": m.dim,
            "path": found.map(|s| &s.path),
            "bytes": found.map(|s| s.bytes),
        })
    });
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
        "dense": dense,
        "siblings": blob.siblings().iter().map(|s| json!({
            "kind": s.kind.name(),
            "file": s.file,
            "bytes": s.len,
            "content_hash": format!("{:032x}", s.content_hash),
        })).collect::<Vec<_>>(),
        "notes": h.manifest.notes,
    })
}

/// Every `*/manifest.json` under `dir` that reads as a model manifest
/// (none when `dir` does not exist: a lexical-only site).
fn served_models(dir: &Path) -> Result<Vec<ServedModel>> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(Vec::new());
    };
    let mut dirs: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("manifest.json").is_file())
        .collect();
    dirs.sort();
    let mut served = Vec::new();
    for model in dirs {
        let path = model.join("manifest.json");
        let bytes =
            std::fs::read(&path).with_context(|| format!("cannot read {}", path.display()))?;
        let manifest = ModelManifest::from_json(&bytes)
            .map_err(|e| bad_input(format!("{}: {e}", path.display())))?;
        let mut total = bytes.len() as u64;
        for file in &manifest.files {
            let on_disk = model.join(&file.name);
            let len = std::fs::metadata(&on_disk).map(|m| m.len()).ok();
            if len != Some(file.bytes) {
                return Err(bad_input(format!(
                    "{}: missing or not the {} bytes {} lists",
                    on_disk.display(),
                    file.bytes,
                    path.display()
                )));
            }
            total += file.bytes;
        }
        let name = model.file_name().map(|n| n.to_string_lossy().into_owned());
        served.push(ServedModel {
            path: format!("{MODELS}/{}/", name.unwrap_or_default()),
            manifest_sha256: sha256_hex(&bytes),
            bytes: total,
        });
    }
    Ok(served)
}
