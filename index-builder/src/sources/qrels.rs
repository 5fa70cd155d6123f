//! Relevance judgments from TREC qrels (`qid 0 docid rel`) or BEIR TSV
//! (`query-id corpus-id score` with a header), detected by the first line.

use std::path::Path;

use anyhow::Result;
use nomos_core::eval::{parse_beir_qrels, parse_trec_qrels, Qrels};

use super::dataset::Judgment;
use super::text_file::read_required;
use crate::error::bad_input;

/// Parses a qrels file in either format into core's [`Qrels`].
pub fn read_core_qrels(path: &Path) -> Result<Qrels> {
    let file = read_required(path, "qrels")?;
    let text = file.text()?;
    let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    let parsed = if first.trim_start().starts_with("query-id") {
        parse_beir_qrels(text)
    } else {
        parse_trec_qrels(text)
    };
    parsed.map_err(|e| bad_input(format!("{}:{}: {}", file.path, e.line, e.reason)))
}

/// Parses a qrels file into judgments, in file order per query.
pub fn read_qrels(path: &Path) -> Result<Vec<Judgment>> {
    Ok(judgments(&read_core_qrels(path)?))
}

/// Flattens core qrels into the pool's judgment list.
pub fn judgments(qrels: &Qrels) -> Vec<Judgment> {
    let mut out = Vec::new();
    for q in qrels.query_ids() {
        if let Some(docs) = qrels.get(q) {
            for (d, &rel) in docs {
                out.push(Judgment {
                    query_id: q.to_string(),
                    doc_id: d.clone(),
                    relevance: rel,
                });
            }
        }
    }
    out
}
