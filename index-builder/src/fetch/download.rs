//! Writing one remote file: checked path, temp file, verification, rename.

use std::collections::BTreeSet;
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

/// The local path of every listed file, refusing a listing that names a
/// file twice, or names `a` as a file and also `a/b` (one of the two would
/// fail half-way through the download, or land inside the other).
pub fn local_paths(files: &[RemoteFile]) -> Result<Vec<PathBuf>> {
    let paths = files
        .iter()
        .map(|f| safe_relative(&f.path))
        .collect::<Result<Vec<_>>>()?;
    let mut seen = BTreeSet::new();
    for (file, path) in files.iter().zip(&paths) {
        if !seen.insert(path.as_path()) {
            return Err(bad_input(format!("the hub lists `{}` twice", file.path)));
        }
    }
    for (file, path) in files.iter().zip(&paths) {
        if let Some(dir) = path.ancestors().skip(1).find(|a| seen.contains(a)) {
            return Err(bad_input(format!(
                "the hub lists `{}` both as a file and as a folder (of `{}`)",
                dir.display(),
                file.path
            )));
        }
    }
    Ok(paths)
}

/// True when `dest` already holds the listed file: the listed size and, for
/// LFS files, the listed SHA-256 (a file of the right length can still be
/// damaged or a different version). Unreadable files are fetched again.
pub fn is_present(file: &RemoteFile, dest: &Path) -> bool {
    let Ok(meta) = std::fs::metadata(dest) else {
        return false;
    };
    if !meta.is_file() || meta.len() != file.size {
        return false;
    }
    let Some(expected) = &file.lfs_sha256 else {
        return true;
    };
    sha256_of(dest).is_ok_and(|got| expected.eq_ignore_ascii_case(&got))
}

fn sha256_of(path: &Path) -> std::io::Result<String> {
    let mut file = File::open(path)?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        match file.read(&mut buf)? {
            0 => return Ok(hex(hasher.finalize().as_slice())),
            n => hasher.update(&buf[..n]),
        }
    }
}

fn hex(digest: &[u8]) -> String {
    digest.iter().map(|b| format!("{b:02x}")).collect()
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
    // One byte past the listed size is enough to know the body is too long.
    let mut body = resp
        .body_mut()
        .as_reader()
        .take(file.size.saturating_add(1));
    let mut out = File::create(temp).with_context(|| format!("creating {}", temp.display()))?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 64 * 1024];
    let mut written = 0u64;
    loop {
        let n = body.read(&mut buf).map_err(|e| {
            if timed_out(&e) {
                anyhow::anyhow!(
                    "downloading {url}: the server sent nothing for {} s",
                    hub.stall.as_secs_f64()
                )
            } else {
                anyhow::Error::new(e).context(format!("downloading {url}"))
            }
        })?;
        if n == 0 {
            break;
        }
        out.write_all(&buf[..n])
            .with_context(|| format!("writing {}", temp.display()))?;
        if file.lfs_sha256.is_some() {
            hasher.update(&buf[..n]);
        }
        written += n as u64;
        if written > file.size {
            anyhow::bail!(
                "{}: the server sent more than the {} bytes the hub listed",
                file.path,
                file.size
            );
        }
        bar.inc(n as u64);
    }
    out.sync_all()
        .with_context(|| format!("writing {}", temp.display()))?;
    if written != file.size {
        anyhow::bail!(
            "{}: received {written} bytes, the hub listed {}",
            file.path,
            file.size
        );
    }
    if let Some(expected) = &file.lfs_sha256 {
        let got = hex(hasher.finalize().as_slice());
        if !expected.eq_ignore_ascii_case(&got) {
            anyhow::bail!(
                "{}: SHA-256 {got} does not match the hub's {expected}",
                file.path
            );
        }
    }
    Ok(written)
}

/// ureq reports a body read timeout as its own error inside an I/O error.
fn timed_out(e: &std::io::Error) -> bool {
    e.kind() == std::io::ErrorKind::TimedOut
        || e.get_ref()
            .and_then(|inner| inner.downcast_ref::<ureq::Error>())
            .is_some_and(|u| matches!(u, ureq::Error::Timeout(_)))
}
