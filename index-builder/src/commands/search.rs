//! `nomos search`: rank a pool for one query; prints `rank<TAB>id<TAB>score`,
//! and with `--explain` how BM25 scored each hit, term by term.

use std::io::Write;

use anyhow::Result;

use super::method::MethodRanker;
use super::ranking::Ranking;
use crate::cli::SearchArgs;
use crate::error::bad_input;

pub fn run(args: &SearchArgs) -> Result<()> {
    let ranking = Ranking::load(&args.pool, &args.ranking)?;
    let mut ranker = MethodRanker::new(&args.ranking, &ranking)?;
    let tokens = ranking.pool.analyzer().tokens(&args.query);
    let hits = ranker.rank(&ranking, &args.query, &tokens, args.k, true)?;
    let mut out = std::io::stdout().lock();
    if hits.is_empty() {
        eprintln!("no document matches the query's terms");
    }
    let doc_ids = &ranking.benchmark.doc_ids;
    for (rank, hit) in hits.iter().enumerate() {
        writeln!(
            out,
            "{}\t{}\t{}",
            rank + 1,
            doc_ids[hit.doc as usize],
            hit.score
        )?;
        if args.explain {
            let explanation = ranking
                .pool
                .explain(&ranking.params, &tokens, hit.doc)
                .map_err(bad_input)?
                .expect("hits are documents of the pool");
            write!(out, "{}", indent(&format!("BM25 {explanation}")))?;
        }
    }
    Ok(())
}

/// Every line of `text` indented by a tab, to set it under its hit.
fn indent(text: &str) -> String {
    text.lines().map(|l| format!("\t{l}\n")).collect()
}
