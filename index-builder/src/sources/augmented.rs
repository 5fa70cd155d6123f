//! LLM-augmented texts (CRAwLeR-DK's `augmented_chunks.jsonl`, or what
//! `nomos augment` writes in the same shape): rows of `chunk_id` and
//! `chunk` (context + original text), attached to the pool's articles.

use std::collections::{HashMap, HashSet};

use anyhow::Result;

use super::dataset::Dataset;
use super::tabular::Table;

/// How many ids a note lists before eliding the rest.
const NOTE_IDS: usize = 5;

/// Attaches each row's `chunk` to the article with its `chunk_id`. A
/// duplicate id is an error (with its line); articles without a row keep
/// their plain text, and rows naming no article are ignored: both are
/// reported in `Dataset::notes`.
pub fn attach(pool: &mut Dataset, table: Table) -> Result<()> {
    let index: HashMap<&str, usize> = pool
        .articles
        .iter()
        .enumerate()
        .map(|(i, a)| (a.id.as_str(), i))
        .collect();
    let mut seen = HashSet::new();
    let mut strays = Vec::new();
    let mut texts = Vec::new();
    for row in &table.rows {
        let id = row.string("chunk_id")?;
        if !seen.insert(id.clone()) {
            return Err(row.error(format!("duplicate chunk_id `{id}`")));
        }
        match index.get(id.as_str()) {
            Some(&i) => texts.push((i, row.string("chunk")?)),
            None => strays.push(id),
        }
    }
    let n = pool.articles.len();
    let missing = n - texts.len();
    for (i, text) in texts {
        pool.articles[i].augmented = Some(text);
    }
    let name = &table.file.name;
    if missing > 0 {
        pool.notes.push(format!(
            "{missing} of {n} chunks have no augmented text (indexed with their plain text only)"
        ));
    }
    if !strays.is_empty() {
        pool.notes.push(format!(
            "{name} has {} chunk ids not in the pool (ignored): {}",
            strays.len(),
            elide(&strays)
        ));
    }
    pool.files.push(table.file);
    Ok(())
}

/// The first ids, then `…`.
pub fn elide(ids: &[String]) -> String {
    let shown = ids[..ids.len().min(NOTE_IDS)].join(", ");
    if ids.len() > NOTE_IDS {
        format!("{shown}, …")
    } else {
        shown
    }
}
