//! Downloads a Hugging Face *dataset* repository at a revision into a plain
//! directory, so the benchmark readers (e.g. `read_gbr`) can read it offline.
//!
//! One API call (`GET {endpoint}/api/datasets/{repo}/revision/{rev}?blobs=true`)
//! resolves the revision to a commit and lists every file with its size (and
//! SHA-256 for LFS files); each file is then fetched from
//! `{endpoint}/datasets/{repo}/resolve/{commit}/{path}`, so a tag that moves
//! mid-download cannot mix two versions. Files already present with the
//! listed size (and, for LFS files, the listed SHA-256) are skipped; others
//! are written to a hidden temp file beside the target, no more than the
//! listed size, and renamed into place only once complete and verified.

mod download;
mod hub;

use std::path::Path;

use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use hub::Hub;

/// Where the hub lives unless `HF_ENDPOINT` says otherwise.
pub const DEFAULT_ENDPOINT: &str = "https://huggingface.co";

/// What a fetch did, for the caller to print or record.
#[derive(Debug, Clone, PartialEq)]
pub struct FetchReport {
    /// The commit the revision resolved to (for provenance).
    pub commit: String,
    /// Every file of the repo at that commit, in the hub's listing order.
    pub files: Vec<FetchedFile>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct FetchedFile {
    /// Path inside the repo (and under `out`), `/`-separated.
    pub path: String,
    pub size: u64,
    /// False when an existing file of the right size (and hash) was kept.
    pub downloaded: bool,
}

/// The hub endpoint: `HF_ENDPOINT` if set and non-empty, else the public hub.
pub fn endpoint_from_env() -> String {
    std::env::var("HF_ENDPOINT")
        .ok()
        .filter(|e| !e.trim().is_empty())
        .unwrap_or_else(|| DEFAULT_ENDPOINT.to_string())
}

/// The access token from `HF_TOKEN`, if set and non-empty.
pub fn token_from_env() -> Option<String> {
    std::env::var("HF_TOKEN")
        .ok()
        .filter(|t| !t.trim().is_empty())
}

/// Fetches every file of dataset `repo` (`owner/name`) at `revision` (branch,
/// tag or commit) into `out`, creating it. `token` is sent as a bearer token;
/// `progress` draws a byte progress bar on stderr.
pub fn fetch_hf(
    repo: &str,
    revision: &str,
    out: &Path,
    endpoint: &str,
    token: Option<&str>,
    progress: bool,
) -> Result<FetchReport> {
    let hub = Hub::new(endpoint, token, hub::STALL_TIMEOUT)?;
    fetch_from(&hub, repo, revision, out, progress)
}

fn fetch_from(
    hub: &Hub,
    repo: &str,
    revision: &str,
    out: &Path,
    progress: bool,
) -> Result<FetchReport> {
    let listing = hub.list(repo, revision)?;
    let paths = download::local_paths(&listing.files)?;
    std::fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;

    let mut plan = Vec::new();
    for (file, path) in listing.files.iter().zip(paths) {
        let dest = out.join(path);
        let present = download::is_present(file, &dest);
        plan.push((file, dest, !present));
    }
    let total: u64 = plan
        .iter()
        .filter(|(_, _, fetch)| *fetch)
        .map(|(f, _, _)| f.size)
        .sum();
    let bar = progress_bar(total, progress);

    let mut report = FetchReport {
        commit: listing.commit.clone(),
        files: Vec::new(),
    };
    for (file, dest, fetch) in plan {
        let size = if fetch {
            bar.set_message(file.path.clone());
            let url = hub.resolve_url(repo, &listing.commit, &file.path);
            download::to_file(hub, (repo, &listing.commit), &url, file, &dest, &bar)?
        } else {
            file.size
        };
        report.files.push(FetchedFile {
            path: file.path.clone(),
            size,
            downloaded: fetch,
        });
    }
    bar.finish_and_clear();
    Ok(report)
}

fn progress_bar(total: u64, visible: bool) -> ProgressBar {
    let target = if visible {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    };
    let bar = ProgressBar::with_draw_target(Some(total), target);
    if let Ok(style) = ProgressStyle::with_template(
        "{wide_msg} {bytes:>10}/{total_bytes:<10} {bytes_per_sec:>12} [{bar:24}] {eta:>4}",
    ) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}

#[cfg(test)]
mod tests;
