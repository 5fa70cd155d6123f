//! CSV and TSV with a header row (`datasets`' `to_csv`, pandas). Quoted
//! fields may span lines, so errors name the line where the record starts.

use std::sync::Arc;

use anyhow::Result;
use serde_json::{Map, Value};

use super::{Position, Row};
use crate::error::bad_input;

pub(super) fn rows(file: &Arc<str>, bytes: &[u8], delimiter: u8) -> Result<Vec<Row>> {
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(delimiter)
        .has_headers(true)
        .from_reader(bytes);
    let headers = reader
        .headers()
        .map_err(|e| located(file, &e, "bad header"))?
        .iter()
        .map(str::to_string)
        .collect::<Vec<_>>();
    let mut out = Vec::new();
    for record in reader.records() {
        let record = record.map_err(|e| located(file, &e, "bad record"))?;
        let line = record.position().map_or(0, |p| p.line() as usize);
        let fields: Map<String, Value> = headers
            .iter()
            .cloned()
            .zip(record.iter().map(|cell| Value::String(cell.to_string())))
            .collect();
        out.push(Row::new(file, Position::Line(line), fields));
    }
    Ok(out)
}

/// The csv crate's error with our `file:line:` prefix (its own message
/// already says which record and field when it knows).
fn located(file: &Arc<str>, err: &csv::Error, what: &str) -> anyhow::Error {
    match err.position() {
        Some(p) => bad_input(format!("{file}:{}: {what}: {err}", p.line())),
        None => bad_input(format!("{file}: {what}: {err}")),
    }
}
