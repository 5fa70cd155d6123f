//! Readers: each turns one source format into a [`dataset::Dataset`].

pub mod augmented;
pub mod beir;
#[cfg(test)]
mod cite_agreement;
pub mod crawler;
pub mod da_acts;
pub mod dataset;
pub mod el_codes;
pub mod gbr;
pub mod jsonl;
pub mod nomothesia;
pub mod qrels;
pub mod stard;
pub mod syntagma;
pub mod tabular;
pub mod text_file;

/// A whole file of JSON (`label` names it in errors), or a bad-input error
/// with its line and column.
pub fn parse_json(label: &str, bytes: &[u8]) -> anyhow::Result<serde_json::Value> {
    serde_json::from_slice(bytes).map_err(|e| {
        crate::error::bad_input(format!(
            "{label}:{}:{}: malformed JSON: {e}",
            e.line(),
            e.column()
        ))
    })
}
