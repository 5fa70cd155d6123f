//! CRAwLeR-DK (Danish statutes, the reference BENCHMARKS.md §2.2): `chunks.jsonl`
//! (`chunk`, `chunk_id`, `chunk_idx`, `implicit_context_chunks`,
//! `explicit_context_chunks`, and our optional `definition_context_chunks`:
//! the stykker defining the terms it uses, which `nomos chunks` and
//! `make-queries` write for Danish law), optional `augmented_chunks.jsonl` (`chunk_id`,
//! `chunk` = LLM context + original chunk) and optional
//! `contextual_queries.jsonl` (`chunk_id` = the one gold chunk, `query`).
//! Articles keep `chunks.jsonl` order, which is the evaluation's document
//! order.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use anyhow::Result;

use super::augmented::{self, elide};
use super::dataset::{Article, Dataset, Judgment, Query};
use super::tabular::{read_table, Row, Table};

/// The `chunks.jsonl` column of definition edges (not in CRAwLeR-DK's own
/// files; absent, a chunk has none).
pub const DEFINITION_CONTEXT: &str = "definition_context_chunks";

/// Reads a CRAwLeR-DK directory. Query ids are the row's `query_id` or `id`
/// if it has one (the published rows have neither), else `q{N}` with N the
/// 0-based row index. Augmented texts attach to their chunks;
/// chunks the augmentation lacks (failed contextualisations are dropped
/// upstream) keep `augmented: None`. Ids the augmentation has but the
/// chunks lack, and gold chunks missing from the pool, are reported in
/// `Dataset::notes`.
pub fn read_crawler_dk(dir: &Path) -> Result<Dataset> {
    let chunks = read_table(dir, "chunks.jsonl")?;
    let mut pool = Dataset {
        dataset: "crawler-dk".into(),
        ..Dataset::default()
    };
    let mut index: HashMap<String, usize> = HashMap::new();
    for row in &chunks.rows {
        let id = row.string("chunk_id")?;
        if index.insert(id.clone(), pool.articles.len()).is_some() {
            return Err(row.error(format!("duplicate chunk_id `{id}`")));
        }
        pool.articles.push(Article {
            source: law_of(&id).to_string(),
            text: row.string("chunk")?,
            implicit_refs: row.strings("implicit_context_chunks")?,
            explicit_refs: row.strings("explicit_context_chunks")?,
            definition_refs: row.opt_strings(DEFINITION_CONTEXT)?,
            id,
            ..Article::default()
        });
    }
    pool.files.push(chunks.file);

    if let Some(augmented) = optional(dir, "augmented_chunks.jsonl")? {
        augmented::attach(&mut pool, augmented)?;
    }

    if let Some(queries) = optional(dir, "contextual_queries.jsonl")? {
        let mut ids = HashSet::new();
        let mut unknown_gold = Vec::new();
        for (i, row) in queries.rows.iter().enumerate() {
            let id = query_id(row, i)?;
            if !ids.insert(id.clone()) {
                return Err(row.error(format!("duplicate query id `{id}`")));
            }
            let gold = row.string("chunk_id")?;
            if !index.contains_key(&gold) {
                unknown_gold.push(gold.clone());
            }
            pool.queries.push(Query {
                id: id.clone(),
                text: row.string("query")?,
                area: None,
            });
            pool.judgments.push(Judgment {
                query_id: id,
                doc_id: gold,
                relevance: 1,
            });
        }
        if !unknown_gold.is_empty() {
            pool.notes.push(format!(
                "{} queries have a gold chunk not in chunks.jsonl (unretrievable): {}",
                unknown_gold.len(),
                elide(&unknown_gold)
            ));
        }
        pool.files.push(queries.file);
    }
    Ok(pool)
}

/// The id of the `i`th (0-based) row of `contextual_queries.jsonl`: its
/// `query_id`, else its `id`, else `q{i}`.
pub fn query_id(row: &Row, i: usize) -> Result<String> {
    Ok(match row.opt_string("query_id")? {
        Some(id) => id,
        None => row.opt_string("id")?.unwrap_or_else(|| format!("q{i}")),
    })
}

/// The law a chunk belongs to: `chunk_id` up to its first `_`, as the
/// reference code's `doc_id` (`almenboligloven_§91_stk1` → `almenboligloven`).
fn law_of(chunk_id: &str) -> &str {
    chunk_id.split('_').next().unwrap_or(chunk_id)
}

fn optional(dir: &Path, name: &str) -> Result<Option<Table>> {
    if dir.join(name).exists() {
        read_table(dir, name).map(Some)
    } else {
        Ok(None)
    }
}

#[cfg(test)]
mod tests;
