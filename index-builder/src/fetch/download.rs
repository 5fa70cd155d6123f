//! Writing one remote file: checked path, temp file, verification, rename.

use std::fs::File;
use std::io::{Read, Write};
use std::path::{Component, Path, PathBuf};

use anyhow::{Context, Result};
use indicatif::ProgressBar;
use sha2::{Digest, Sha256};

use super::hub::{Hub, RemoteFile};
use crate::error::bad_input;

/// A repo path as a relative local path. The listing comes from the network,
/// so anything that could escape the output directory (`..`, absolute
/// paths, drive prefixes, empty segments) is refused.
pub fn safe_relative(repo_path: &str) -> Result<PathBuf> {
    let refuse = || {
        bad_input(format!(
            "refusing unsafe file path `{repo_path}` from the hub"
        ))
    };
    let mut out = PathBuf::new();
    for segment in repo_path.split('/') {
        if segment.is_empty() || segment.contains('\\') || segment.contains(':') {
            return Err(refuse());
        }
        let mut parts = Path::new(segment).components();
        match (parts.next(), parts.next()) {
            (Some(Component::Normal(part)), None) => out.push(part),
            _ => return Err(refuse()),
        }
    }
    if out.as_os_str().is_empty() {
        return Err(refuse());
    }
    Ok(out)
}

/// Downloads `url` to `dest` via a hidden `.NAME.part` file in the same
/// directory, checks the size (and LFS SHA-256) the listing promised, then
/// renames it into place. Returns the byte count. `repo` and `commit` are
/// for error messages.
pub fn to_file(
    hub: &Hub,
    (repo, commit): (&str, &str),
    url: &str,
    file: &RemoteFile,
    dest: &Path,
    bar: &ProgressBar,
) -> Result<u64> {
    let dir = dest.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let name = dest
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temp = dir.join(format!(".{name}.part"));
    let result = write_verified(hub, (repo, commit), url, file, &temp, bar).and_then(|n| {
        std::fs::rename(&temp, dest)
            .with_context(|| format!("moving {} into place", dest.display()))?;
        Ok(n)
    });
    if result.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    result
}

fn write_verified(
    hub: &Hub,
    (repo, commit): (&str, &str),
    url: &str,
    file: &RemoteFile,
    temp: &Path,
    bar: &ProgressBar,
) -> Result<u64> {
    let mut resp = hub.get(url, repo, commit)?;
    let mut body = resp.body_mut().as_reader();
    let mut out = File::create(temp).with_context(|| format!("creating {}", temp.display()))?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 64 * 1024];
    let mut written = 0u64;
    loop {
        let n = body
            .read(&mut buf)
            .with_context(|| format!("downloading {url}"))?;
        if n == 0 {
            break;
        }
        out.write_all(&buf[..n])
            .with_context(|| format!("writing {}", temp.display()))?;
        if file.lfs_sha256.is_some() {
            hasher.update(&buf[..n]);
        }
        written += n as u64;
        bar.inc(n as u64);
    }
    out.sync_all()
        .with_context(|| format!("writing {}", temp.display()))?;
    if let Some(expected) = file.size.filter(|&s| s != written) {
        anyhow::bail!(
            "{}: received {written} bytes, the hub listed {expected}",
            file.path
        );
    }
    if let Some(expected) = &file.lfs_sha256 {
        let got: String = hasher
            .finalize()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        if !expected.eq_ignore_ascii_case(&got) {
            anyhow::bail!(
                "{}: SHA-256 {got} does not match the hub's {expected}",
                file.path
            );
        }
    }
    Ok(written)
}
