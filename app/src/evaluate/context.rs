//! CRAwLeR-DK's context diagnostic over an evaluation's rankings: for each
//! query whose gold article cites others, the gold's rank and how many of
//! the cited articles outrank it, with the summary "context outranks the
//! gold in X of Y queries". Core computes it
//! ([`nomos_core::pool::Benchmark::context_ranks`]), as for
//! `nomos eval --context`.

use nomos_core::eval::{ContextRank, ContextSummary};
use nomos_core::hits::Hit;
use nomos_core::pool::Benchmark;

/// One query's diagnostic.
#[derive(Debug, Clone, PartialEq)]
pub struct ContextRow {
    pub query: String,
    pub rank: ContextRank,
}

/// The diagnostic of one evaluation.
#[derive(Debug, Clone, PartialEq)]
pub struct ContextReport {
    /// The queries with context, in benchmark order.
    pub rows: Vec<ContextRow>,
    pub summary: ContextSummary,
}

/// The diagnostic of `hits` (each query's ranking by benchmark index; the
/// first queries only, for LLM methods); `None` when no ranked query's gold
/// cites another article (`explicit`: the pool's explicit references), as
/// in pools without cross-references.
pub fn context_report(
    bench: &Benchmark,
    hits: &[Vec<Hit>],
    explicit: impl Fn(u32) -> Vec<u32>,
) -> Option<ContextReport> {
    let rows: Vec<ContextRow> = bench
        .context_ranks(hits, explicit)
        .into_iter()
        .map(|(i, rank)| ContextRow {
            query: bench.queries[i].id.clone(),
            rank,
        })
        .collect();
    if rows.is_empty() {
        return None;
    }
    let summary = ContextSummary::of(rows.iter().map(|r| &r.rank));
    Some(ContextReport { rows, summary })
}

#[cfg(test)]
mod tests {
    use super::*;
    use nomos_core::analysis::Analyzer;
    use nomos_core::blob::QueryInput;
    use nomos_core::eval::Qrels;

    /// Documents 0..4; query q1's gold (1) cites 0 and 2, q2's gold (3)
    /// cites nothing.
    fn bench() -> Benchmark {
        let mut qrels = Qrels::new();
        qrels.insert("q1", "d1", 1).unwrap();
        qrels.insert("q2", "d3", 1).unwrap();
        let query = |id: &str| QueryInput {
            id: id.into(),
            text: "skat".into(),
            area: None,
        };
        Benchmark::from_parts(
            (0..4).map(|d| format!("d{d}")).collect(),
            vec![query("q1"), query("q2")],
            qrels,
            &Analyzer::by_name("da").unwrap(),
            &|_| None,
        )
    }

    fn explicit(doc: u32) -> Vec<u32> {
        match doc {
            1 => vec![0, 2],
            _ => Vec::new(),
        }
    }

    fn ranking(docs: &[u32]) -> Vec<Hit> {
        docs.iter().map(|&doc| Hit { doc, score: 1.0 }).collect()
    }

    #[test]
    fn rows_are_the_queries_with_context() {
        let hits = [ranking(&[2, 1, 0]), ranking(&[0, 3])];
        let report = context_report(&bench(), &hits, explicit).unwrap();
        assert_eq!(report.rows.len(), 1);
        assert_eq!(report.rows[0].query, "q1");
        let r = report.rows[0].rank;
        assert_eq!((r.gold_rank, r.n_context, r.outranking), (Some(2), 2, 1));
        assert_eq!(
            report.summary.describe(),
            "context outranks the gold in 1 of 1 queries"
        );
    }

    #[test]
    fn no_cross_references_no_report() {
        let hits = [ranking(&[2, 1, 0]), ranking(&[0, 3])];
        assert_eq!(context_report(&bench(), &hits, |_| Vec::new()), None);
        // Rankings not kept: nothing to diagnose.
        assert_eq!(context_report(&bench(), &[], explicit), None);
    }
}
