//! Row readers for the file formats Hugging Face dataset repos use: Parquet,
//! JSON Lines, CSV and TSV. Every format becomes the same [`Table`] of
//! [`Row`]s holding JSON values, so a benchmark reader is written once and
//! accepts whichever format the hub (or a user's export) happens to hold.

mod delimited;
mod json_lines;
mod parquet_file;

use std::fmt;
use std::path::Path;

use anyhow::Result;
use nomos_core::digest::sha256_hex;
use serde_json::{Map, Value};

use super::dataset::SourceFile;
use crate::error::bad_input;

/// The formats a table can be read from, chosen by file extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Parquet,
    Jsonl,
    Csv,
    Tsv,
}

impl Format {
    /// Every format, in the order readers prefer them when a directory holds
    /// several (Parquet is what `push_to_hub` writes, so it is the canonical
    /// copy; text exports come after).
    pub const ALL: [Format; 4] = [Format::Parquet, Format::Jsonl, Format::Csv, Format::Tsv];

    pub fn extension(self) -> &'static str {
        match self {
            Format::Parquet => "parquet",
            Format::Jsonl => "jsonl",
            Format::Csv => "csv",
            Format::Tsv => "tsv",
        }
    }

    /// The format a file name's extension names, if any.
    pub fn of(name: &str) -> Option<Format> {
        let ext = name.rsplit_once('.')?.1;
        Format::ALL
            .into_iter()
            .find(|f| f.extension().eq_ignore_ascii_case(ext))
    }
}

/// Where a row came from, for error messages.
#[derive(Debug, Clone, Copy)]
enum Position {
    /// 1-based line of a text file (JSONL, or where a CSV record starts).
    Line(usize),
    /// 1-based data row of a Parquet file (no lines to point at).
    Row(usize),
}

/// One record: column name to value. Parquet strings, CSV cells and JSON
/// values all arrive as [`Value`]s; CSV cells are always strings.
pub struct Row {
    file: std::sync::Arc<str>,
    pos: Position,
    fields: Map<String, Value>,
}

/// All rows of one file, in file order, and the file's digest.
pub struct Table {
    pub file: SourceFile,
    pub rows: Vec<Row>,
}

/// Reads `dir/name` (name relative to `dir`, `/`-separated) in the format its
/// extension names, hashing the bytes read for [`Dataset::files`](super::dataset::Dataset).
pub fn read_table(dir: &Path, name: &str) -> Result<Table> {
    let format = Format::of(name).ok_or_else(|| {
        bad_input(format!(
            "{name}: unknown table format (expected .parquet, .jsonl, .csv or .tsv)"
        ))
    })?;
    let path = dir.join(name);
    let bytes = std::fs::read(&path)
        .map_err(|e| bad_input(format!("{}: cannot read: {e}", path.display())))?;
    let file = SourceFile {
        name: name.to_string(),
        sha256: sha256_hex(&bytes),
    };
    let label: std::sync::Arc<str> = path.display().to_string().into();
    let rows = match format {
        Format::Parquet => parquet_file::rows(&label, bytes)?,
        Format::Jsonl => json_lines::rows(&label, &bytes)?,
        Format::Csv => delimited::rows(&label, &bytes, b',')?,
        Format::Tsv => delimited::rows(&label, &bytes, b'\t')?,
    };
    Ok(Table { file, rows })
}

impl Row {
    fn new(file: &std::sync::Arc<str>, pos: Position, fields: Map<String, Value>) -> Row {
        Row {
            file: file.clone(),
            pos,
            fields,
        }
    }

    /// A required text field. Integers are accepted and printed as text,
    /// since exports may write numeric ids.
    pub fn string(&self, field: &str) -> Result<String> {
        match self.fields.get(field) {
            Some(Value::String(s)) => Ok(s.clone()),
            Some(Value::Number(n)) if n.is_i64() || n.is_u64() => Ok(n.to_string()),
            Some(other) => Err(self.error(format!(
                "column `{field}` must be text, found {}",
                kind(other)
            ))),
            None => Err(self.missing(field)),
        }
    }

    /// An optional text field; `null` counts as absent.
    pub fn opt_string(&self, field: &str) -> Result<Option<String>> {
        match self.fields.get(field) {
            None | Some(Value::Null) => Ok(None),
            Some(_) => self.string(field).map(Some),
        }
    }

    /// A required integer. Accepts JSON/Parquet integers, floats with no
    /// fractional part (pandas turns int columns with gaps into floats) and
    /// CSV cells spelling either.
    pub fn int(&self, field: &str) -> Result<i64> {
        let parsed = match self.fields.get(field) {
            Some(Value::Number(n)) => n.as_i64().or_else(|| n.as_f64().and_then(integral)),
            Some(Value::String(s)) => {
                let s = s.trim();
                s.parse::<i64>()
                    .ok()
                    .or_else(|| s.parse::<f64>().ok().and_then(integral))
            }
            None => return Err(self.missing(field)),
            Some(_) => None,
        };
        parsed.ok_or_else(|| {
            self.error(format!(
                "column `{field}` must be an integer, found {}",
                self.fields.get(field).map_or("nothing", kind)
            ))
        })
    }

    /// A required list of strings (JSON arrays, Parquet lists).
    /// [`Self::strings`], empty where the column is absent or null.
    pub fn opt_strings(&self, field: &str) -> Result<Vec<String>> {
        match self.fields.get(field) {
            None | Some(Value::Null) => Ok(Vec::new()),
            Some(_) => self.strings(field),
        }
    }

    pub fn strings(&self, field: &str) -> Result<Vec<String>> {
        match self.fields.get(field) {
            Some(Value::Array(items)) => items
                .iter()
                .map(|v| match v {
                    Value::String(s) => Ok(s.clone()),
                    other => Err(self.error(format!(
                        "column `{field}` must hold strings, found {}",
                        kind(other)
                    ))),
                })
                .collect(),
            Some(other) => Err(self.error(format!(
                "column `{field}` must be a list, found {}",
                kind(other)
            ))),
            None => Err(self.missing(field)),
        }
    }

    /// An error located at this row.
    pub fn error(&self, msg: impl fmt::Display) -> anyhow::Error {
        match self.pos {
            Position::Line(n) => bad_input(format!("{}:{n}: {msg}", self.file)),
            Position::Row(n) => bad_input(format!("{}: row {n}: {msg}", self.file)),
        }
    }

    fn missing(&self, field: &str) -> anyhow::Error {
        self.error(format!("missing column `{field}`"))
    }
}

fn integral(f: f64) -> Option<i64> {
    (f.fract() == 0.0 && f.abs() < 9.0e15).then_some(f as i64)
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "text",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests;
