//! `nomos fetch hf`: download a Hugging Face dataset repository where a
//! network exists. Nothing else in nomos needs the network.

use std::path::Path;

use anyhow::Result;

use crate::fetch::{endpoint_from_env, fetch_hf, token_from_env};

pub fn hf(repo: &str, revision: &str, out: &Path) -> Result<()> {
    let endpoint = endpoint_from_env();
    let report = fetch_hf(
        repo,
        revision,
        out,
        &endpoint,
        token_from_env().as_deref(),
        true,
    )?;
    let fetched = report.files.iter().filter(|f| f.downloaded).count();
    eprintln!(
        "{repo} at {revision} (commit {}): {} files, {fetched} downloaded, {} already present, in {}",
        report.commit,
        report.files.len(),
        report.files.len() - fetched,
        out.display()
    );
    Ok(())
}
