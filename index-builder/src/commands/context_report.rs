//! `eval --context`: CRAwLeR-DK's context diagnostic
//! ([`nomos_core::eval::context_rank`]) over every query whose gold cites
//! other documents, or with `--context-from`, every query whose row lists
//! the chunks it was written from; printed as a table with a summary, and
//! as JSON for the metrics file.

use std::collections::HashMap;
use std::path::Path;

use anyhow::Result;
use nomos_core::eval::{context_rank, ContextRank, ContextSummary};
use nomos_core::hits::Hit;
use nomos_core::pool::Benchmark;
use serde_json::{json, Map, Value};

use super::ranking::{Ranking, Texts};
use crate::error::bad_input;
use crate::sources::crawler::query_id;
use crate::sources::tabular::read_table;

/// Prints the diagnostic of `rankings` (one per query of `bench`) on
/// stdout and returns it as JSON: `queries` (with context), `outranked`,
/// and per query `gold_rank` (null: not in the run), `context`,
/// `outranking`. The context is the gold's explicit references, or with
/// `context_from` the query's row's `utilized_context_chunk_ids`.
pub fn report(
    ranking: &Ranking,
    bench: &Benchmark,
    rankings: &[Vec<Hit>],
    context_from: Option<&Path>,
) -> Result<Value> {
    let Texts::Blob(blob) = &ranking.texts else {
        return Err(bad_input(
            "--context needs a blob (--index): a BEIR directory has no cross-references",
        ));
    };
    let rows: Vec<(&str, ContextRank)> = match context_from {
        None => bench
            .context_ranks(rankings, |d| blob.explicit_refs(d as usize))
            .into_iter()
            .map(|(i, row)| (bench.queries[i].id.as_str(), row))
            .collect(),
        Some(file) => {
            let contexts = utilized(file, |id| blob.doc_index(id))?;
            bench
                .queries
                .iter()
                .zip(rankings)
                .filter_map(|(q, hits)| {
                    let context = contexts.get(q.id.as_str())?;
                    let ranked: Vec<u32> = hits.iter().map(|h| h.doc).collect();
                    let gold: Vec<u32> = q.gold().collect();
                    Some((q.id.as_str(), context_rank(&ranked, &gold, context)))
                })
                .filter(|(_, r)| r.n_context > 0)
                .collect()
        }
    };
    if rows.is_empty() {
        return Err(bad_input(match context_from {
            None => "--context: no query's gold cites another document (the blob has no explicit cross-references for them)".to_owned(),
            Some(file) => format!("--context-from: no query of the blob has context chunks in {}", file.display()),
        }));
    }
    let summary = ContextSummary::of(rows.iter().map(|(_, r)| r));
    println!("query\tgold_rank\tcontext\toutranking");
    let mut per_query = Map::new();
    for (id, r) in &rows {
        let rank = r.gold_rank.map_or("-".to_owned(), |k| k.to_string());
        println!("{id}\t{rank}\t{}\t{}", r.n_context, r.outranking);
        per_query.insert(
            (*id).to_owned(),
            json!({"gold_rank": r.gold_rank, "context": r.n_context, "outranking": r.outranking}),
        );
    }
    println!("{}", summary.describe());
    Ok(json!({
        "queries": summary.queries,
        "outranked": summary.outranked,
        "per_query": per_query,
    }))
}

/// Each query's `utilized_context_chunk_ids` in `file`, as document indexes
/// (`doc`); an id no document has is an error naming its line.
fn utilized(file: &Path, doc: impl Fn(&str) -> Option<u32>) -> Result<HashMap<String, Vec<u32>>> {
    let dir = file.parent().unwrap_or(Path::new("."));
    let name = file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let table = read_table(dir, &name)?;
    let mut contexts = HashMap::new();
    for (i, row) in table.rows.iter().enumerate() {
        let ids = row.strings("utilized_context_chunk_ids")?;
        let docs = ids
            .iter()
            .map(|id| {
                doc(id).ok_or_else(|| row.error(format!("context chunk `{id}` is not in the pool")))
            })
            .collect::<Result<Vec<u32>>>()?;
        contexts.insert(query_id(row, i)?, docs);
    }
    Ok(contexts)
}
