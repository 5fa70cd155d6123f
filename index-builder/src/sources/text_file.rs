//! Reading text files line by line with errors that name the file and line.

use std::path::Path;

use anyhow::{Context, Result};

use crate::error::bad_input;

/// A whole file's bytes, read once, iterated as numbered UTF-8 lines.
pub struct TextFile {
    pub path: String,
    bytes: Vec<u8>,
}

impl TextFile {
    pub fn read(path: &Path) -> Result<TextFile> {
        let bytes = std::fs::read(path)
            .map_err(|e| bad_input(format!("{}: cannot read: {e}", path.display())))?;
        Ok(TextFile {
            path: path.display().to_string(),
            bytes,
        })
    }

    /// The file's bytes as read.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The whole file as UTF-8, or an error naming the first bad line.
    pub fn text(&self) -> Result<&str> {
        std::str::from_utf8(&self.bytes).map_err(|e| {
            let line = 1 + self.bytes[..e.valid_up_to()]
                .iter()
                .filter(|&&b| b == b'\n')
                .count();
            bad_input(format!("{}:{line}: not valid UTF-8", self.path))
        })
    }

    /// Non-blank lines with their 1-based numbers; a trailing `\r` is dropped.
    pub fn lines(&self) -> Result<impl Iterator<Item = (usize, &str)>> {
        let text = self.text()?;
        Ok(text
            .split('\n')
            .enumerate()
            .map(|(i, l)| (i + 1, l.strip_suffix('\r').unwrap_or(l)))
            .filter(|(_, l)| !l.trim().is_empty()))
    }

    /// An error located at `line` of this file.
    pub fn error_at(&self, line: usize, msg: impl std::fmt::Display) -> anyhow::Error {
        bad_input(format!("{}:{line}: {msg}", self.path))
    }
}

/// Reads a file that must exist, as numbered lines, with context on failure.
pub fn read_required(path: &Path, what: &str) -> Result<TextFile> {
    TextFile::read(path).with_context(|| format!("reading the {what}"))
}
