//! `nomos search`: rank a pool for one query; prints `rank<TAB>id<TAB>score`.

use std::io::Write;

use anyhow::Result;

use super::method::MethodRanker;
use super::ranking::Ranking;
use crate::cli::SearchArgs;

pub fn run(args: &SearchArgs) -> Result<()> {
    let mut ranking = Ranking::load(&args.pool, &args.ranking)?;
    let mut ranker = MethodRanker::new(&args.ranking, ranking.dense.take())?;
    let hits = ranker.rank(&ranking.searcher, &args.query, args.k, true)?;
    let mut out = std::io::stdout().lock();
    if hits.is_empty() {
        eprintln!("no document matches the query's terms");
    }
    for (rank, hit) in hits.iter().enumerate() {
        writeln!(
            out,
            "{}\t{}\t{}",
            rank + 1,
            ranking.doc_ids[hit.doc as usize],
            hit.score
        )?;
    }
    Ok(())
}
