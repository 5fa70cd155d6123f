//! Where the tests find what they need, each checked with a message that
//! says how to make it.

use std::path::{Path, PathBuf};

use anyhow::{ensure, Result};
use nomos_core::blob::Blob;

/// The repository root (this crate lives in `tests/`).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the e2e crate sits in the repository")
        .to_path_buf()
}

/// The built app: `dist/` with `index.html` and the demo blobs.
pub fn dist_dir() -> Result<PathBuf> {
    let dist = repo_root().join("dist");
    ensure!(
        dist.join("index.html").is_file() && dist.join("indexes/manifest.json").is_file(),
        "{} has no built app (index.html and indexes/manifest.json): run \
         scripts/build-demo.sh, then `trunk build --release --offline` with \
         node_modules/.bin on PATH (scripts/test.sh does all of this)",
        dist.display()
    );
    Ok(dist)
}

/// A demo blob exactly as the server sends it.
pub fn served_blob(file: &str) -> Result<PathBuf> {
    let path = dist_dir()?.join("indexes").join(file);
    ensure!(
        path.is_file(),
        "{} is missing from the built app",
        path.display()
    );
    Ok(path)
}

/// A demo blob as the server sends it, with its sibling files (text,
/// vectors) attached, as the app has it once it has fetched them.
pub fn served_pool(file: &str) -> Result<Blob> {
    let path = served_blob(file)?;
    let mut blob = Blob::load(&std::fs::read(&path)?)?;
    for sibling in blob.siblings().to_vec() {
        let bytes = std::fs::read(path.with_file_name(&sibling.file))?;
        blob.attach(sibling.kind, &bytes)?;
    }
    Ok(blob)
}

/// The `nomos` CLI: `$NOMOS_CLI`, else the release build in the target
/// directory (`scripts/build-demo.sh` builds it), else the dev build
/// (`cargo test` builds it; scripts/test.sh uses it).
pub fn nomos_cli() -> Result<PathBuf> {
    let cli = match std::env::var_os("NOMOS_CLI") {
        Some(path) => PathBuf::from(path),
        None => ["release/nomos", "debug/nomos"]
            .iter()
            .map(|p| target_dir().join(p))
            .find(|p| p.is_file())
            .unwrap_or_else(|| target_dir().join("release/nomos")),
    };
    ensure!(
        cli.is_file(),
        "the nomos CLI is not at {}: run `cargo build --release -p nomos-index-builder` \
         (scripts/build-demo.sh does) or set NOMOS_CLI",
        cli.display()
    );
    Ok(cli)
}

/// The embedding model as `nomos model prepare` wrote it, for native
/// query embeddings (`scripts/build-demo.sh --embed` makes it).
pub fn model_dir() -> Result<PathBuf> {
    let dir = repo_root().join("models/e5-small");
    ensure!(
        dir.join("manifest.json").is_file(),
        "{} has no model: run scripts/build-demo.sh --embed el-syntagma,stard",
        dir.display()
    );
    Ok(dir)
}

/// The query embeddings of `pool`'s benchmark as `nomos eval
/// --embed-cache` keeps them, in the repository's `.embed-cache/`: every
/// test that evaluates a pool densely with the CLI embeds its queries once
/// (index-builder's `embed_model` test fills STARD's first in a CI run).
pub fn query_cache(pool: &str) -> Result<PathBuf> {
    let dir = repo_root().join(".embed-cache");
    std::fs::create_dir_all(&dir)?;
    Ok(dir.join(format!("{pool}-queries.emb")))
}

fn target_dir() -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) => repo_root().join(dir),
        None => repo_root().join("target"),
    }
}

/// Where the tests' screenshots go, created when missing: `screenshots/`
/// in the target directory, so that a test run leaves the tree as it was;
/// with `NOMOS_UPDATE_SCREENSHOTS=1`, `docs/screenshots/`, which the
/// README shows.
pub fn screenshots_dir() -> Result<PathBuf> {
    let dir = match std::env::var_os("NOMOS_UPDATE_SCREENSHOTS").is_some_and(|v| v == "1") {
        true => repo_root().join("docs/screenshots"),
        false => target_dir().join("screenshots"),
    };
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}
