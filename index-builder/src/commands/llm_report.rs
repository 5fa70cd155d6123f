//! What `eval` reports about an LLM run besides the usual metrics, as
//! tables on stdout and under `llm` in the metrics JSON:
//!
//! - the cost per query (GreekBarRetrieval's Table 17): calls, prompt and
//!   completion tokens, LLM wall time, retries (replies re-asked, HTTP
//!   attempts repeated, response-format fallbacks), failures, and the query's
//!   wall time and loop overhead apart from the LLM, with totals and means;
//! - for react-bm25, the metrics had the loop stopped after rounds 0
//!   (BM25 of the original query), 1, 2, 3, 5 and 10 (Table 11), and what
//!   the observer kept of what it was shown (Table 12);
//! - every step whose reply was unusable after its retry.

use std::io::{self, Write};

use anyhow::Result;
use nomos_core::eval::Evaluation;
use nomos_core::hits::Hit;
use nomos_core::llm::react::{ReactRun, CUT};
use nomos_core::llm::{Cost, Failure};
use nomos_core::methods::Method;
use nomos_core::pool::Benchmark;
use serde_json::{json, Map, Value};

use nomos_core::llm::rank::Trace;

use super::llm_queries::{stage_name, Answered};
use super::llm_run::{Depth, LlmRun};
use super::metrics_json::{evaluate_rankings, mean};
use super::ranking::Ranking;
use crate::llm::Origin;

/// The rounds Table 11 reports, besides the last.
const ROUNDS: [usize; 6] = [0, 1, 2, 3, 5, 10];

/// The measures the rounds table shows (all are in the JSON).
const ROUND_COLUMNS: [&str; 4] = ["ndcg@10", "recall@10", "recall@100", "mrr@10"];

/// Metrics after each reported round.
pub struct RoundMetrics(Vec<(usize, Evaluation)>);

/// Table 12: the observer's choices against what it was shown, macro-
/// averaged over the evaluated queries (those with judgments).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Observer {
    /// Recall@100 of the final ranking (the kept articles).
    pub kept_recall: f64,
    /// |gold ∩ every candidate of every round| / |gold|.
    pub pool_recall: f64,
    /// Gold articles shown to the observer and never kept (pairs).
    pub discarded_gold: usize,
    /// Ids the observer named that were not candidates.
    pub unknown_ids: usize,
    /// Queries averaged over.
    pub queries: usize,
}

/// A model step whose reply was unusable after its retry.
pub struct FailureNote {
    pub query: String,
    /// `keywords`, `statement`, `round 3 plan`, `round 3 observe`.
    pub step: String,
    /// The start of the last reply.
    pub reply: String,
}

/// Every failed step, in query order.
pub fn failures(bench: &Benchmark, run: &LlmRun) -> Vec<FailureNote> {
    let mut notes = Vec::new();
    for (q, answered) in bench.queries.iter().zip(&run.answers) {
        let mut note = |step: String, reply: &str| {
            notes.push(FailureNote {
                query: q.id.clone(),
                step,
                reply: reply.to_owned(),
            })
        };
        match &answered.trace {
            Trace::Reform {
                keywords,
                statement,
            } => {
                for (step, r) in [("keywords", keywords), ("statement", statement)] {
                    if let Some(f) = r.as_ref().and_then(|r| r.failure.as_ref()) {
                        note(step.into(), &f.reply);
                    }
                }
            }
            Trace::React(react) => {
                for (r, round) in react.rounds.iter().enumerate() {
                    if let Some((stage, f)) = &round.failure {
                        note(format!("round {} {}", r + 1, stage_name(*stage)), &f.reply);
                    }
                }
            }
        }
    }
    notes
}

/// The react-bm25 runs, in query order (`None` for the reformulations).
pub fn react_runs(run: &LlmRun) -> Option<Vec<&ReactRun>> {
    run.answers
        .iter()
        .map(|a| match &a.trace {
            Trace::React(r) => Some(r),
            Trace::Reform { .. } => None,
        })
        .collect()
}

impl RoundMetrics {
    /// Evaluates the rankings had the loops (`reacts`, in query order)
    /// stopped after each of [`ROUNDS`] (and the last round, when not
    /// among them); round 0 is BM25 of the original query at the same
    /// depth.
    pub fn compute(
        ranking: &Ranking,
        bench: &Benchmark,
        reacts: &[&ReactRun],
        rounds: usize,
        depth: Depth,
    ) -> Result<RoundMetrics> {
        let mut reported: Vec<usize> = ROUNDS.iter().copied().filter(|&r| r <= rounds).collect();
        if !reported.contains(&rounds) {
            reported.push(rounds);
        }
        let mut out = Vec::with_capacity(reported.len());
        for r in reported {
            let rankings: Vec<Vec<Hit>> = match r {
                0 => bench
                    .queries
                    .iter()
                    .map(|q| {
                        ranking.pool.rank(
                            &Method::Bm25,
                            &ranking.params,
                            &q.tokens,
                            None,
                            depth.k,
                            depth.positive_only,
                        )
                    })
                    .collect::<Result<_, _>>()?,
                _ => reacts
                    .iter()
                    .map(|react| {
                        let mut hits = react.ranking_after(r);
                        hits.truncate(depth.k);
                        hits
                    })
                    .collect(),
            };
            out.push((r, evaluate_rankings(bench, &rankings)?));
        }
        Ok(RoundMetrics(out))
    }

    /// The table.
    pub fn print(&self, out: &mut impl Write) -> io::Result<()> {
        writeln!(
            out,
            "\nafter each round (round 0: BM25 of the original query)"
        )?;
        write!(out, "{:>5}", "round")?;
        for m in ROUND_COLUMNS {
            write!(out, "  {m:>10}")?;
        }
        writeln!(out)?;
        for (r, eval) in &self.0 {
            write!(out, "{r:>5}")?;
            for m in ROUND_COLUMNS {
                write!(out, "  {:>10.4}", mean(eval, m))?;
            }
            writeln!(out)?;
        }
        Ok(())
    }

    fn json(&self) -> Value {
        let rounds = self
            .0
            .iter()
            .map(|(r, eval)| {
                let mut row = Map::new();
                row.insert("round".into(), json!(r));
                for (m, v) in eval.measures.iter().zip(&eval.means) {
                    row.insert(m.to_string(), json!(v));
                }
                Value::Object(row)
            })
            .collect();
        Value::Array(rounds)
    }
}

impl Observer {
    /// The observer's choices in the loops `reacts`, in query order.
    pub fn compute(bench: &Benchmark, reacts: &[&ReactRun]) -> Observer {
        let mut sums = Observer {
            kept_recall: 0.0,
            pool_recall: 0.0,
            discarded_gold: 0,
            unknown_ids: 0,
            queries: 0,
        };
        for (q, react) in bench.queries.iter().zip(reacts) {
            sums.unknown_ids += react
                .rounds
                .iter()
                .map(|r| r.unknown_ids.len())
                .sum::<usize>();
            let Some(judged) = bench.qrels.get(&q.id) else {
                continue;
            };
            sums.queries += 1;
            let gold: Vec<&str> = judged
                .iter()
                .filter(|(_, &grade)| grade >= 1)
                .map(|(doc, _)| doc.as_str())
                .collect();
            if gold.is_empty() {
                continue;
            }
            let id = |doc: u32| bench.doc_ids[doc as usize].as_str();
            let ranked: Vec<&str> = react
                .ranking()
                .iter()
                .take(CUT)
                .map(|h| id(h.doc))
                .collect();
            let shown: Vec<&str> = react.candidate_pool().into_iter().map(id).collect();
            let kept: Vec<&str> = react.kept().into_iter().map(id).collect();
            let count = |set: &[&str]| gold.iter().filter(|g| set.contains(g)).count();
            sums.kept_recall += count(&ranked) as f64 / gold.len() as f64;
            sums.pool_recall += count(&shown) as f64 / gold.len() as f64;
            sums.discarded_gold += gold
                .iter()
                .filter(|g| shown.contains(g) && !kept.contains(g))
                .count();
        }
        let n = sums.queries.max(1) as f64;
        sums.kept_recall /= n;
        sums.pool_recall /= n;
        sums
    }

    /// The table.
    pub fn print(&self, out: &mut impl Write) -> io::Result<()> {
        writeln!(out, "\nobserver ({} queries with judgments)", self.queries)?;
        writeln!(
            out,
            "{:>14}  {:>21}  {:>14}  {:>11}",
            "kept R@100", "candidate-pool recall", "discarded gold", "unknown ids"
        )?;
        writeln!(
            out,
            "{:>14.4}  {:>21.4}  {:>14}  {:>11}",
            self.kept_recall, self.pool_recall, self.discarded_gold, self.unknown_ids
        )
    }

    fn json(&self) -> Value {
        json!({
            "kept_recall@100": self.kept_recall,
            "candidate_pool_recall": self.pool_recall,
            "discarded_gold": self.discarded_gold,
            "unknown_ids": self.unknown_ids,
            "queries": self.queries,
        })
    }
}

/// The cost table, one row per query, then totals and means.
pub fn print_costs(out: &mut impl Write, bench: &Benchmark, run: &LlmRun) -> io::Result<()> {
    let width = bench
        .queries
        .iter()
        .map(|q| q.id.chars().count())
        .max()
        .unwrap_or(0)
        .max(5);
    writeln!(out, "LLM cost per query ({})", describe_source(run))?;
    writeln!(
        out,
        "{:<width$}  {:>6}  {:>10}  {:>10}  {:>9}  {:>7}  {:>7}  {:>9}  {:>8}  {:>9}  {:>10}",
        "query",
        "calls",
        "prompt tok",
        "compl. tok",
        "LLM s",
        "retries",
        "HTTP rt",
        "fallbacks",
        "failures",
        "wall s",
        "overhead s"
    )?;
    let mut total = Cost::default();
    let mut wall = 0.0;
    for (q, answered) in bench.queries.iter().zip(&run.answers) {
        let seconds = answered.wall.as_secs_f64();
        row(
            out,
            &q.id,
            width,
            &answered.cost,
            seconds,
            run.waited_ms(&answered.cost),
            1.0,
        )?;
        total.add(&answered.cost);
        wall += seconds;
    }
    let waited = run.waited_ms(&total);
    row(out, "total", width, &total, wall, waited, 1.0)?;
    let n = run.answers.len().max(1) as f64;
    row(out, "mean", width, &total, wall, waited, n)?;
    if let Origin::Replay { .. } = run.origin {
        writeln!(
            out,
            "(LLM times as recorded; wall time and overhead are this replay's, which waited for \
             no LLM)"
        )?;
    }
    writeln!(
        out,
        "run wall time {:.2} s ({} queries on {} worker{}); loop overhead apart from the LLM \
         {:.2} s per query",
        run.wall.as_secs_f64(),
        run.answers.len(),
        run.workers,
        if run.workers == 1 { "" } else { "s" },
        (wall - waited / 1000.0) / n
    )
}

/// One row: the cost divided by `per` (1 for a query and the total, the
/// number of queries for the mean); `wall` in seconds, `waited` (the LLM
/// time this run waited for, see [`LlmRun::waited_ms`]) in milliseconds.
fn row(
    out: &mut impl Write,
    label: &str,
    width: usize,
    cost: &Cost,
    wall: f64,
    waited: f64,
    per: f64,
) -> io::Result<()> {
    let llm = cost.millis / 1000.0;
    let digits = if per == 1.0 { 0 } else { 1 };
    writeln!(
        out,
        "{label:<width$}  {:>6.digits$}  {:>10.digits$}  {:>10.digits$}  {:>9.2}  {:>7.digits$}  \
         {:>7.digits$}  {:>9.digits$}  {:>8.digits$}  {:>9.2}  {:>10.2}",
        f64::from(cost.calls) / per,
        cost.prompt_tokens as f64 / per,
        cost.completion_tokens as f64 / per,
        llm / per,
        f64::from(cost.retries) / per,
        f64::from(cost.http_retries) / per,
        f64::from(cost.fallbacks) / per,
        f64::from(cost.failures) / per,
        wall / per,
        (wall - waited / 1000.0) / per,
    )
}

/// What the model did for one query (`search` prints it on stderr
/// before the ranking): the reformulations, or each round's query,
/// candidates and kept ids; then the cost.
pub fn print_trace(
    out: &mut impl Write,
    doc_ids: &[String],
    run: &LlmRun,
    answered: &Answered,
) -> io::Result<()> {
    let unusable = |f: &Failure| format!("no usable reply after a retry (last: {:?})", f.reply);
    match &answered.trace {
        Trace::Reform {
            keywords,
            statement,
        } => {
            for (what, r) in [("keywords", keywords), ("statement", statement)] {
                let Some(r) = r else { continue };
                match &r.failure {
                    None => writeln!(out, "{what}: {}", r.text)?,
                    Some(f) => {
                        writeln!(out, "{what}: {}; the original query is ranked", unusable(f))?
                    }
                }
            }
        }
        Trace::React(react) => {
            for (r, round) in react.rounds.iter().enumerate() {
                write!(out, "round {}: ", r + 1)?;
                if let Some(query) = &round.query {
                    let kept: Vec<&str> = round
                        .kept
                        .iter()
                        .map(|&d| doc_ids[d as usize].as_str())
                        .collect();
                    write!(
                        out,
                        "{query:?} → {} candidates, kept {}",
                        round.candidates.len(),
                        match kept.is_empty() {
                            true => "none".to_owned(),
                            false => kept.join(" "),
                        }
                    )?;
                    if !round.unknown_ids.is_empty() {
                        write!(out, "; unknown ids named: {}", round.unknown_ids.join(" "))?;
                    }
                    if let Some(cut) = round.cut {
                        write!(out, "; candidates cut to {cut} bytes to fit the context")?;
                    }
                }
                if let Some((stage, f)) = &round.failure {
                    let sep = if round.query.is_some() { "; " } else { "" };
                    write!(out, "{sep}{} step: {}", stage_name(*stage), unusable(f))?;
                }
                writeln!(out)?;
            }
        }
    }
    let cost = &answered.cost;
    writeln!(
        out,
        "LLM: {} call{}, {} prompt + {} completion tokens, {:.2} s ({})",
        cost.calls,
        if cost.calls == 1 { "" } else { "s" },
        cost.prompt_tokens,
        cost.completion_tokens,
        cost.millis / 1000.0,
        describe_source(run)
    )
}

/// `model M at URL, prompts el/v1` or `… replayed from FILE`.
pub fn describe_source(run: &LlmRun) -> String {
    let from = match &run.origin {
        Origin::Endpoint { url, format, .. } => match *format {
            "json_schema" => format!("at {url}"),
            other => format!("at {url}, replies asked as {other} (the endpoint refused schemas)"),
        },
        Origin::Replay { path } => format!("replayed from {}", path.display()),
    };
    format!(
        "model {} {from}, prompts {}",
        run.settings.model, run.prompts.version
    )
}

/// The `llm` object of the metrics JSON.
pub fn json(
    bench: &Benchmark,
    run: &LlmRun,
    method: &Method,
    rounds: Option<&RoundMetrics>,
    observer: Option<&Observer>,
    failures: &[FailureNote],
) -> Value {
    let (endpoint, replay, format, transport_retries) = match &run.origin {
        Origin::Endpoint {
            url,
            format,
            transport_retries,
        } => (
            json!(url),
            Value::Null,
            json!(format),
            json!(transport_retries),
        ),
        Origin::Replay { path } => (
            Value::Null,
            json!(path.display().to_string()),
            Value::Null,
            Value::Null,
        ),
    };
    let mut total = Cost::default();
    let mut per_query = Map::new();
    let mut traces = Map::new();
    let mut wall_sum = 0.0;
    for (q, answered) in bench.queries.iter().zip(&run.answers) {
        total.add(&answered.cost);
        let wall = answered.wall.as_secs_f64() * 1000.0;
        wall_sum += wall;
        let waited = run.waited_ms(&answered.cost);
        per_query.insert(q.id.clone(), cost_json(&answered.cost, wall, waited));
        traces.insert(q.id.clone(), trace_json(bench, &answered.trace));
    }
    let n = run.answers.len().max(1) as f64;
    let mean = json!({
        "calls": f64::from(total.calls) / n,
        "prompt_tokens": total.prompt_tokens as f64 / n,
        "completion_tokens": total.completion_tokens as f64 / n,
        "llm_ms": total.millis / n,
        "retries": f64::from(total.retries) / n,
        "http_retries": f64::from(total.http_retries) / n,
        "fallbacks": f64::from(total.fallbacks) / n,
        "failures": f64::from(total.failures) / n,
        "wall_ms": wall_sum / n,
        "overhead_ms": (wall_sum - run.waited_ms(&total)) / n,
    });
    json!({
        "method": format!("{method:#}"),
        "prompts": run.prompts.version,
        "model": run.settings.model,
        "temperature": run.settings.temperature,
        "seed": run.settings.seed,
        "max_tokens": run.settings.max_tokens,
        "endpoint": endpoint,
        "response_format": format,
        "transport_retries": transport_retries,
        "replay": replay,
        "transcript": run.transcript.as_ref().map(|t| json!({
            "path": t.path.display().to_string(),
            "exchanges": t.exchanges,
            "sha256": t.sha256,
        })),
        "workers": run.workers,
        "wall_ms": run.wall.as_secs_f64() * 1000.0,
        "cost": {
            "total": cost_json(&total, wall_sum, run.waited_ms(&total)),
            "mean": mean,
            "per_query": per_query,
        },
        "failures": failures.iter().map(|f| json!({
            "query": f.query,
            "step": f.step,
            "reply": f.reply,
        })).collect::<Vec<_>>(),
        "rounds": rounds.map(RoundMetrics::json),
        "observer": observer.map(Observer::json),
        "per_query": traces,
    })
}

fn cost_json(cost: &Cost, wall_ms: f64, waited_ms: f64) -> Value {
    json!({
        "calls": cost.calls,
        "prompt_tokens": cost.prompt_tokens,
        "completion_tokens": cost.completion_tokens,
        "llm_ms": cost.millis,
        "retries": cost.retries,
        "http_retries": cost.http_retries,
        "fallbacks": cost.fallbacks,
        "failures": cost.failures,
        "wall_ms": wall_ms,
        "overhead_ms": wall_ms - waited_ms,
    })
}

/// What the model said for a query: the reformulations, or each round's
/// query, how many candidates it found and the ids kept.
fn trace_json(bench: &Benchmark, trace: &Trace) -> Value {
    match trace {
        Trace::Reform {
            keywords,
            statement,
        } => json!({
            "keywords": keywords.as_ref().map(|r| &r.text),
            "statement": statement.as_ref().map(|r| &r.text),
        }),
        Trace::React(react) => {
            let id = |doc: &u32| bench.doc_ids[*doc as usize].clone();
            let rounds: Vec<Value> = react
                .rounds
                .iter()
                .map(|round| {
                    json!({
                        "query": round.query,
                        "candidates": round.candidates.len(),
                        "kept": round.kept.iter().map(id).collect::<Vec<_>>(),
                        "unknown_ids": round.unknown_ids,
                        "failure": round.failure.as_ref().map(|(stage, _)| stage_name(*stage)),
                        "cut_to_bytes": round.cut,
                    })
                })
                .collect();
            json!({ "rounds": rounds })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nomos_core::analysis::Analyzer;
    use nomos_core::blob::QueryInput;
    use nomos_core::eval::Qrels;
    use nomos_core::llm::react::Round;

    fn round(candidates: &[u32], kept: &[u32], unknown: &[&str]) -> Round {
        Round {
            query: Some("q".into()),
            candidates: candidates.to_vec(),
            kept: kept.to_vec(),
            unknown_ids: unknown.iter().map(|s| s.to_string()).collect(),
            failure: None,
            cut: None,
        }
    }

    /// Two judged queries and one without judgments: recall is averaged
    /// over the judged ones, discarded gold and unknown ids are counted.
    #[test]
    fn the_observer_table_counts_what_was_shown_kept_and_discarded() {
        let doc_ids: Vec<String> = (0..6).map(|d| format!("D::{d}")).collect();
        let queries: Vec<QueryInput> = ["a", "b", "c"]
            .iter()
            .map(|id| QueryInput {
                id: id.to_string(),
                text: "x".into(),
                area: None,
            })
            .collect();
        let mut qrels = Qrels::new();
        // a: gold D::0 (shown, kept), D::1 (shown, discarded), D::5 (never shown).
        for (q, d, rel) in [
            ("a", "D::0", 1),
            ("a", "D::1", 2),
            ("a", "D::5", 1),
            ("a", "D::2", 0),
            ("b", "D::3", 1),
        ] {
            qrels.insert(q, d, rel).unwrap();
        }
        let analyzer = Analyzer::by_name("da").unwrap();
        let bench = Benchmark::from_parts(doc_ids, queries, qrels, &analyzer, &|_| None);
        let a = ReactRun {
            rounds: vec![
                round(&[0, 1, 2], &[0, 2], &["X::9"]),
                round(&[1, 3], &[3], &[]),
            ],
            ..ReactRun::default()
        };
        // b: gold D::3 never shown.
        let b = ReactRun {
            rounds: vec![round(&[4], &[4], &["Y::1", "Y::2"])],
            ..ReactRun::default()
        };
        let c = ReactRun::default();
        let observer = Observer::compute(&bench, &[&a, &b, &c]);
        assert_eq!(observer.queries, 2);
        assert!((observer.kept_recall - (1.0 / 3.0) / 2.0).abs() < 1e-12);
        assert!((observer.pool_recall - (2.0 / 3.0) / 2.0).abs() < 1e-12);
        assert_eq!(observer.discarded_gold, 1);
        assert_eq!(observer.unknown_ids, 3);
    }
}
