//! `nomos search`: rank a pool for one query; prints `rank<TAB>id<TAB>score`,
//! and with `--explain` how BM25 scored each hit, term by term. An LLM
//! method first says on stderr what the model made of the query. The
//! app's filters (`--source`, `--area`, `--type`, `--year`) narrow the
//! whole ranking before the top k, and `--facets` counts it, by core's
//! `facets` as the app does. With `--fragments DIR`, a fragmented pool
//! (`search_fragments`).

use std::io::Write;

use anyhow::Result;

use super::explained::under_hit;
use super::llm_report::print_trace;
use super::llm_run::{Depth, LlmRun};
use super::method::MethodRanker;
use super::narrowed;
use super::ranking::Ranking;
use crate::cli::SearchArgs;
use crate::error::bad_input;
use nomos_core::facets;
use nomos_core::llm::rank::Trace;
use nomos_core::methods::result_depth;

pub fn run(args: &SearchArgs) -> Result<()> {
    if let Some(dir) = &args.fragments {
        return super::search_fragments::run(dir, args);
    }
    let ranking = Ranking::load(&args.pool, &args.ranking)?;
    let mut ranker = MethodRanker::new(&args.ranking, &ranking)?;
    let analyzer = ranking.pool.analyzer();
    let mut tokens = analyzer.tokens(&args.query);
    let hits = match LlmRun::work(&ranker.method(), &args.ranking.llm)? {
        Some(work) => {
            let depth = Depth {
                k: args.k,
                positive_only: true,
            };
            let queries = [("query", args.query.as_str())];
            let mut run = LlmRun::execute(
                &args.ranking.llm,
                work,
                &mut ranker,
                &ranking,
                &queries,
                depth,
            )?;
            let (Some(answered), Some(hits)) = (run.answers.first(), run.hits.pop()) else {
                return Err(anyhow::anyhow!("the query was left without an answer"));
            };
            print_trace(
                &mut std::io::stderr().lock(),
                &ranking.benchmark.doc_ids,
                &run,
                answered,
            )?;
            // --explain shows BM25 for the keywords BM25 ranked.
            if let Trace::Reform {
                keywords: Some(keywords),
                ..
            } = &answered.trace
            {
                tokens = analyzer.tokens(&keywords.text);
            }
            hits
        }
        None => {
            let depth = match narrowed::wanted(args) {
                true => result_depth(&ranker.method()),
                false => args.k,
            };
            ranker.rank(&ranking, &args.query, &tokens, depth, true)?
        }
    };
    let facets = args.facets.then(|| facets::counts(&ranking.texts, &hits));
    let mut hits = facets::narrow(&ranking.texts, &hits, &args.narrowing.narrowing());
    hits.truncate(args.k);
    let mut out = std::io::stdout().lock();
    if hits.is_empty() {
        match ranker.method().needs_llm() {
            true => eprintln!("the method ranked no document"),
            false => eprintln!("no document matches the query's terms"),
        }
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
            write!(out, "{}", under_hit(Some(&explanation)))?;
        }
    }
    if let Some(counts) = facets {
        narrowed::print_facets(&mut out, &counts)?;
    }
    Ok(())
}
