//! The demo's fragmented pool (`synth-da-1e5`, cut by `nomos fragment`
//! in `scripts/build-demo.sh`), which the tests shared by every storage
//! run on: its name and directory, a query, the whole blob it was cut
//! from (for the CLI's ranking and the reference graph) and an article
//! to open.

use std::path::PathBuf;

use anyhow::{bail, ensure, Result};
use nomos_e2e::cli;
use nomos_e2e::paths::repo_root;

/// The manifest's name for the pool: its meta file.
pub const POOL: &str = "synth-da-1e5/meta";
/// Where the served app holds the pool's files.
pub const DIR: &str = "indexes/synth-da-1e5/";
/// Three words of the synthetic text (damages to property).
pub const QUERY: &str = "erstatning for skade på ejendom";
/// How deep in the CLI's ranking [`top_article`] looks.
const TOP: usize = 10;

/// The blob the fragments were cut from (`scripts/build-demo.sh`).
pub fn whole_blob() -> Result<PathBuf> {
    let path = repo_root().join(".synth/blob/synth-da-1e5.blob");
    ensure!(
        path.is_file(),
        "{} is missing: run scripts/build-demo.sh",
        path.display()
    );
    Ok(path)
}

/// The first of `QUERY`'s top 10 by the CLI over the whole blob for
/// which `fits` holds: an article to open.
pub fn top_article(fits: impl Fn(&str) -> Result<bool>) -> Result<String> {
    for hit in cli::search(&whole_blob()?, QUERY, TOP)? {
        if fits(&hit.id)? {
            return Ok(hit.id);
        }
    }
    bail!("no article of {QUERY:?}'s top {TOP} fits")
}
