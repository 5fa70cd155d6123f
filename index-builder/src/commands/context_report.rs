//! `eval --context`: CRAwLeR-DK's context diagnostic
//! ([`nomos_core::eval::context_rank`]) over every query whose gold cites
//! other documents, printed as a table with a summary, and as JSON for the
//! metrics file.

use anyhow::Result;
use nomos_core::eval::{ContextRank, ContextSummary};
use nomos_core::hits::Hit;
use nomos_core::pool::Benchmark;
use serde_json::{json, Map, Value};

use super::ranking::{Ranking, Texts};
use crate::error::bad_input;

/// Prints the diagnostic of `rankings` (one per query of `bench`) on
/// stdout and returns it as JSON: `queries` (with context), `outranked`,
/// and per query `gold_rank` (null: not in the run), `context`,
/// `outranking`.
pub fn report(ranking: &Ranking, bench: &Benchmark, rankings: &[Vec<Hit>]) -> Result<Value> {
    let Texts::Blob(blob) = &ranking.texts else {
        return Err(bad_input(
            "--context needs a blob (--index): a BEIR directory has no cross-references",
        ));
    };
    let rows: Vec<(&str, ContextRank)> = bench
        .context_ranks(rankings, |d| blob.explicit_refs(d as usize))
        .into_iter()
        .map(|(i, row)| (bench.queries[i].id.as_str(), row))
        .collect();
    if rows.is_empty() {
        return Err(bad_input(
            "--context: no query's gold cites another document (the blob has no explicit cross-references for them)",
        ));
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
