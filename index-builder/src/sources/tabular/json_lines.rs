//! JSON Lines: one object per non-blank line (`datasets`' `to_json` output).

use std::sync::Arc;

use anyhow::Result;
use serde_json::Value;

use super::{kind, Position, Row};
use crate::error::bad_input;

pub(super) fn rows(file: &Arc<str>, bytes: &[u8]) -> Result<Vec<Row>> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let line = 1 + bytes[..e.valid_up_to()]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        bad_input(format!("{file}:{line}: not valid UTF-8"))
    })?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut out = Vec::new();
    for (i, line) in text.split('\n').enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let line_no = i + 1;
        match serde_json::from_str::<Value>(line) {
            Ok(Value::Object(fields)) => out.push(Row::new(file, Position::Line(line_no), fields)),
            Ok(other) => {
                return Err(bad_input(format!(
                    "{file}:{line_no}: expected a JSON object, found {}",
                    kind(&other)
                )))
            }
            Err(e) => return Err(bad_input(format!("{file}:{line_no}: malformed JSON: {e}"))),
        }
    }
    Ok(out)
}
