//! Evaluating an LLM method on the benchmark's first N queries (a small
//! local model takes minutes per query): each query ranked by
//! [`nomos_core::llm::rank`], several at once when asked (an endpoint with
//! several slots serves them in parallel), the run scored as every
//! evaluation is. For ReAct, the same measures had the loop stopped after
//! 0 rounds (plain BM25 on the query), 1, 2, 3, 5 and 10, as
//! GreekBarRetrieval reports them; and what the calls cost.
//!
//! A query whose replies could not be had (the endpoint failed after its
//! retry, or a replayed transcript lacks it) is evaluated with an empty
//! ranking and counted, with its reason: never silently.

use std::cell::Cell;

use futures::future::LocalBoxFuture;
use futures::stream::{self, StreamExt, TryStreamExt};
use nomos_core::eval::Measure;
use nomos_core::hits::Hit;
use nomos_core::llm::rank::{rank_with_llm, LlmQuery, LlmRankError, Step, Trace};
use nomos_core::llm::{Chat, Cost, LlmError};
use nomos_core::methods::Method;
use nomos_core::pool::Benchmark;

use super::job::{run_of, score, Outcome, Stop, DEPTH};
use super::llm_outcome::{LlmOutcome, QueryFailure, RoundRow, ROUNDS_SHOWN};
use crate::eval_config::{Config, RankedBy};
use crate::web::{next_task, now};

/// Embeds a text as a query with the pool's model.
pub type Embed<'a> = &'a dyn Fn(String) -> LocalBoxFuture<'static, Result<Vec<f32>, String>>;

/// An LLM method, ready to rank benchmark queries.
pub struct LlmRanker<'a, C> {
    pub llm: &'a C,
    /// The method and what it ranks with; `k` and `positive_only` as
    /// `nomos eval` ranks (depth 100, zero-score fill).
    pub query: LlmQuery<'a>,
    pub embed: Embed<'a>,
    /// Queries asked at once.
    pub concurrency: usize,
}

/// Where an LLM evaluation stands: queries done, and a step of a query
/// in progress (its id).
pub type Report<'a> = &'a dyn Fn(usize, Option<(&str, Step)>);

/// Ranks the first `n` queries of `bench` with `ranker` and evaluates
/// `measures`. `keep_going` is asked before each query; Cancel also
/// reaches requests in flight through the run's canceller, which ends
/// the job at once.
pub async fn run<C: Chat>(
    bench: &Benchmark,
    n: usize,
    config: Config,
    ranker: &LlmRanker<'_, C>,
    measures: &[Measure],
    keep_going: &dyn Fn() -> bool,
    progress: Report<'_>,
) -> Result<Outcome, Stop> {
    let started = now();
    let n = n.min(bench.queries.len());
    let done = Cell::new(0);
    progress(0, None);
    let one = |i: usize| {
        let done = &done;
        async move {
            if !keep_going() {
                return Err(Stop::Cancelled);
            }
            // Replies replayed from a transcript are ready at once: let
            // the page paint between queries.
            next_task().await;
            let q = &bench.queries[i];
            let step = |s: Step| progress(done.get(), Some((&q.id, s)));
            let ranked =
                rank_with_llm(ranker.llm, &ranker.query, &q.text, ranker.embed, &step).await;
            done.set(done.get() + 1);
            progress(done.get(), None);
            match ranked {
                Ok(r) => Ok(Ok((r.hits, r.trace))),
                Err(LlmRankError::Llm(LlmError::Cancelled)) => Err(Stop::Cancelled),
                Err(error) => Ok(Err(QueryFailure {
                    query: q.id.clone(),
                    error,
                })),
            }
        }
    };
    let ranked: Vec<Result<(Vec<Hit>, Trace), QueryFailure>> = stream::iter(0..n)
        .map(one)
        .buffered(ranker.concurrency.max(1))
        .try_collect()
        .await?;
    if !keep_going() {
        return Err(Stop::Cancelled);
    }
    let scored = now();
    let mut hits = Vec::with_capacity(n);
    let mut traces = Vec::with_capacity(n);
    let mut cost = Cost::default();
    for r in ranked {
        match r {
            Ok((h, trace)) => {
                cost.add(&trace.cost());
                hits.push(h);
                traces.push(Ok(trace));
            }
            Err(why) => {
                hits.push(Vec::new());
                traces.push(Err(why));
            }
        }
    }
    let (eval, rows) = score(bench, &run_of(bench, &hits)?, measures)?;
    let rounds = match config.method {
        Method::ReactBm25 { rounds, .. } => round_rows(bench, ranker, &traces, rounds, measures)?,
        _ => Vec::new(),
    };
    Ok(Outcome {
        config: RankedBy::Method(config),
        eval,
        rows,
        hits,
        queries: n,
        llm: Some(LlmOutcome {
            traces,
            cost,
            rounds,
            model: ranker.query.settings.model.clone(),
            tag_suffix: ranker
                .query
                .settings
                .tag_suffix(ranker.query.prompts.version),
        }),
        rank_millis: scored - started,
        eval_millis: now() - scored,
    })
}

/// The measures after each round of [`ROUNDS_SHOWN`] up to `rounds`:
/// round 0 is BM25 on the query as `nomos eval` ranks it.
fn round_rows<C>(
    bench: &Benchmark,
    ranker: &LlmRanker<'_, C>,
    traces: &[Result<Trace, QueryFailure>],
    rounds: usize,
    measures: &[Measure],
) -> Result<Vec<RoundRow>, Stop> {
    let q = &ranker.query;
    let mut rows = Vec::new();
    for &round in ROUNDS_SHOWN.iter().filter(|&&r| r <= rounds) {
        let mut hits = Vec::with_capacity(traces.len());
        for (query, trace) in bench.queries.iter().zip(traces) {
            hits.push(match (round, trace) {
                (0, _) => q
                    .pool
                    .rank(&Method::Bm25, &q.params, &query.tokens, None, DEPTH, false)
                    .map_err(|e| Stop::Failed(format!("query {}: {e}", query.id)))?,
                (_, Ok(Trace::React(run))) => run.ranking_after(round),
                _ => Vec::new(),
            });
        }
        let (eval, _) = score(bench, &run_of(bench, &hits)?, measures)?;
        let kept = (round > 0 && !hits.is_empty())
            .then(|| hits.iter().map(Vec::len).sum::<usize>() as f64 / hits.len() as f64);
        rows.push(RoundRow {
            round,
            means: eval.means,
            kept,
        });
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use futures::future::{FutureExt, LocalBoxFuture};
    use nomos_core::blob::QueryInput;
    use nomos_core::eval::parse_trec_qrels;
    use nomos_core::llm::react::{ReactRun, Round};
    use nomos_core::llm::{Prompts, Settings};

    use super::*;
    use crate::evaluate::measures;
    use crate::pool::engine::tests::engine;

    fn no_embedding(_: String) -> LocalBoxFuture<'static, Result<Vec<f32>, String>> {
        async { Err("unused".to_owned()) }.boxed_local()
    }

    /// ReAct's measures after each round, round 0 being BM25: the test
    /// pool's A1, A2, B1; q1 asks "skat" (gold B1), q2 "lov" (gold A2).
    #[test]
    fn rounds_replay_the_loop_stopped_early() {
        let e = engine();
        let analyzer = e.pool().analyzer();
        let input = |id: &str, text: &str| QueryInput {
            id: id.into(),
            text: text.into(),
            area: None,
        };
        let bench = Benchmark::from_parts(
            vec!["A1".into(), "A2".into(), "B1".into()],
            vec![input("q1", "skat"), input("q2", "lov")],
            parse_trec_qrels("q1 0 B1 1\nq2 0 A2 1\n").unwrap(),
            &analyzer,
            &|_| None,
        );
        let settings = Settings::default();
        let ranker = LlmRanker {
            llm: &(),
            query: LlmQuery {
                pool: e.pool(),
                blob: e.blob(),
                method: "react-bm25:rounds=3".parse().unwrap(),
                params: e.default_params(),
                settings: &settings,
                prompts: Prompts::for_analyzer("da"),
                k: DEPTH,
                positive_only: false,
            },
            embed: &no_embedding,
            concurrency: 1,
        };
        let kept = |docs: &[u32]| Round {
            kept: docs.to_vec(),
            ..Round::default()
        };
        // q1: round 1 keeps A1 (wrong), round 2 B1 (gold), round 3 nothing.
        let q1 = ReactRun {
            rounds: vec![kept(&[0]), kept(&[2]), kept(&[])],
            cost: Cost::default(),
        };
        let no_reply = LlmRankError::Llm(LlmError::Transport("no reply".into()));
        let failed = QueryFailure {
            query: "q2".into(),
            error: no_reply,
        };
        assert_eq!(failed.to_string(), "query q2: no reply");
        let traces = vec![Ok(Trace::React(q1)), Err(failed)];
        let reported = measures::reported();
        let rows = round_rows(&bench, &ranker, &traces, 3, &reported).unwrap();
        assert_eq!(
            rows.iter().map(|r| r.round).collect::<Vec<_>>(),
            [0, 1, 2, 3]
        );
        let recall_10 = reported
            .iter()
            .position(|m| m.to_string() == "recall@10")
            .unwrap();
        // BM25 finds both golds in its top 10; ReAct has B1 only from
        // round 2, and q2 failed (an empty ranking).
        let recall: Vec<f64> = rows.iter().map(|r| r.means[recall_10]).collect();
        assert_eq!(recall, [1.0, 0.0, 0.5, 0.5]);
        assert_eq!(rows[0].kept, None);
        assert_eq!(rows[1].kept, Some(0.5));
        assert_eq!(rows[3].kept, Some(1.0));
        // Rounds beyond the run's are not reported.
        assert_eq!(
            round_rows(&bench, &ranker, &traces, 1, &reported)
                .unwrap()
                .len(),
            2
        );
    }
}
