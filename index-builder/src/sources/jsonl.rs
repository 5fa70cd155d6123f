//! JSON Lines records with typed field access and file:line errors.

use anyhow::Result;
use serde_json::{Map, Value};

use super::text_file::TextFile;

/// One parsed JSONL object and where it came from.
pub struct Record<'a> {
    file: &'a TextFile,
    pub line: usize,
    obj: Map<String, Value>,
}

impl<'a> Record<'a> {
    /// A required string field. Integer ids are accepted and printed as text,
    /// since some BEIR exports write numeric `_id`s.
    pub fn string(&self, field: &str) -> Result<String> {
        match self.obj.get(field) {
            Some(Value::String(s)) => Ok(s.clone()),
            Some(Value::Number(n)) if n.is_i64() || n.is_u64() => Ok(n.to_string()),
            Some(other) => Err(self.error(format!(
                "field `{field}` must be a string, found {}",
                kind(other)
            ))),
            None => Err(self.error(format!("missing field `{field}`"))),
        }
    }

    /// An optional string field; `null` counts as absent.
    pub fn opt_string(&self, field: &str) -> Result<Option<String>> {
        match self.obj.get(field) {
            None | Some(Value::Null) => Ok(None),
            Some(_) => self.string(field).map(Some),
        }
    }

    pub fn error(&self, msg: impl std::fmt::Display) -> anyhow::Error {
        self.file.error_at(self.line, msg)
    }
}

/// Parses every non-blank line of `file` as a JSON object.
pub fn records(file: &TextFile) -> Result<Vec<Record<'_>>> {
    let mut out = Vec::new();
    for (line, text) in file.lines()? {
        let value: Value = serde_json::from_str(text)
            .map_err(|e| file.error_at(line, format!("malformed JSON: {e}")))?;
        match value {
            Value::Object(obj) => out.push(Record { file, line, obj }),
            other => {
                return Err(file.error_at(
                    line,
                    format!("expected a JSON object, found {}", kind(&other)),
                ))
            }
        }
    }
    Ok(out)
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}
