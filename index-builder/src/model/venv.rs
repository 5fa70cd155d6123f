//! The Python environment for the model build: a venv with the pinned
//! `scripts/model/requirements.txt`, reinstalled only when that file
//! changes (a stamp holds its digest). pip runs with `--require-hashes`, so
//! every package file must match a SHA-256 that file lists.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};

use super::sha256_file;

const STAMP: &str = ".nomos-requirements.sha256";

/// The venv's interpreter, creating or updating the venv when needed.
/// `NOMOS_PYTHON` names the interpreter that creates it (default `python3`).
pub fn ensure(venv: &Path, requirements: &Path) -> Result<PathBuf> {
    let (digest, _) = sha256_file(requirements)?;
    let python = venv.join("bin").join("python");
    let stamp = venv.join(STAMP);
    if python.exists() && std::fs::read_to_string(&stamp).ok().as_deref() == Some(digest.as_str()) {
        eprintln!("python environment {} is up to date", venv.display());
        return Ok(python);
    }
    if !python.exists() {
        let base = std::env::var("NOMOS_PYTHON").unwrap_or_else(|_| "python3".into());
        eprintln!("creating python environment {} with {base}", venv.display());
        run(
            Command::new(&base).arg("-m").arg("venv").arg(venv),
            &format!("{base} -m venv"),
        )
        .with_context(|| {
            format!("is {base} (3.10 or newer, with venv) installed? NOMOS_PYTHON picks another")
        })?;
    }
    eprintln!(
        "installing {} into {}",
        requirements.display(),
        venv.display()
    );
    run(
        Command::new(&python)
            .args([
                "-m",
                "pip",
                "install",
                "--disable-pip-version-check",
                "--no-input",
                "--require-hashes",
                "-r",
            ])
            .arg(requirements),
        "pip install",
    )
    .context("installing the pinned build packages failed; PyPI must be reachable")?;
    std::fs::write(&stamp, &digest).with_context(|| format!("writing {}", stamp.display()))?;
    Ok(python)
}

/// Runs a command with inherited output, failing on a non-zero exit.
pub fn run(command: &mut Command, what: &str) -> Result<()> {
    let status = command
        .status()
        .with_context(|| format!("could not start {what}"))?;
    if !status.success() {
        bail!("{what} failed ({status})");
    }
    Ok(())
}
