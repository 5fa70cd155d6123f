//! CSV and TSV with a header row (`datasets`' `to_csv`, pandas). Quoted
//! fields may span lines, so errors name the line where the record starts.

use std::sync::Arc;

use anyhow::Result;
use serde_json::{Map, Value};

use super::{Position, Row};
use crate::error::bad_input;

pub(super) fn rows(file: &Arc<str>, bytes: &[u8], delimiter: u8) -> Result<Vec<Row>> {
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    if let Some(line) = unclosed_quote(bytes, delimiter) {
        return Err(bad_input(format!(
            "{file}:{line}: a quoted field opens here and is never closed \
             (the rest of the file would be read as one field)"
        )));
    }
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

/// The line where a quoted field opens that the file ends inside of, if
/// one does. The csv crate ends such a field at the end of the file without
/// a word, so every record after the stray quote would vanish into it (a
/// stray quote earlier in the file usually shows as a record with the wrong
/// number of fields instead). Quoting as the crate reads it: a quote opens a
/// field only at its start, `""` inside is a literal quote.
fn unclosed_quote(bytes: &[u8], delimiter: u8) -> Option<usize> {
    let (mut line, mut opened_at) = (1, None);
    let mut field_start = true;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if opened_at.is_some() {
            if b == b'"' {
                if bytes.get(i + 1) == Some(&b'"') {
                    i += 1;
                } else {
                    opened_at = None;
                }
            }
            field_start = false;
        } else if b == b'"' && field_start {
            opened_at = Some(line);
            field_start = false;
        } else {
            field_start = b == delimiter || b == b'\n' || b == b'\r';
        }
        if b == b'\n' {
            line += 1;
        }
        i += 1;
    }
    opened_at
}

/// The csv crate's error with our `file:line:` prefix (its own message
/// already says which record and field when it knows).
fn located(file: &Arc<str>, err: &csv::Error, what: &str) -> anyhow::Error {
    match err.position() {
        Some(p) => bad_input(format!("{file}:{}: {what}: {err}", p.line())),
        None => bad_input(format!("{file}: {what}: {err}")),
    }
}
