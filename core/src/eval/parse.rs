//! Error types and field splitting shared by the qrels and run parsers.

use std::fmt;
use std::num::IntErrorKind;

/// A malformed line in a qrels or run text. The caller adds the file name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong with the line.
    pub reason: String,
}

impl ParseError {
    pub(super) fn new(line: usize, reason: impl Into<String>) -> Self {
        Self {
            line,
            reason: reason.into(),
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.reason)
    }
}

impl std::error::Error for ParseError {}

/// A (query, doc) pair given twice, which trec_eval refuses to evaluate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Duplicate {
    /// The query judged or ranked twice.
    pub query_id: String,
    /// The repeated document.
    pub doc_id: String,
}

impl fmt::Display for Duplicate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "duplicate document '{}' for query '{}'",
            self.doc_id, self.query_id
        )
    }
}

impl std::error::Error for Duplicate {}

/// C `isspace` in the "C" locale, which trec_eval splits fields on. Unlike
/// `char::is_whitespace` it leaves non-ASCII spaces inside ids.
pub(super) fn is_c_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\x0b' | '\x0c' | '\r')
}

/// The whitespace-separated fields of a TREC line.
pub(super) fn trec_fields(line: &str) -> Vec<&str> {
    line.split(is_c_space).filter(|f| !f.is_empty()).collect()
}

/// Parses an integer relevance judgment. Grades are 32-bit, as the
/// measures' gains are; a larger integer (`2147483648`) is refused by name
/// rather than wrapped or called "not an integer".
pub(super) fn parse_relevance(field: &str, line: usize) -> Result<i32, ParseError> {
    field.parse().map_err(|e: std::num::ParseIntError| {
        let reason = match e.kind() {
            IntErrorKind::PosOverflow | IntErrorKind::NegOverflow => format!(
                "relevance '{field}' is out of range ({} to {})",
                i32::MIN,
                i32::MAX
            ),
            _ => format!("relevance '{field}' is not an integer"),
        };
        ParseError::new(line, reason)
    })
}
