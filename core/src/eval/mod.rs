//! IR metrics with the semantics of `trec_eval` 9.0.x as bundled in
//! `pytrec_eval-terrier` 0.5.11, which is what the benchmarks we compare
//! against report.
//!
//! The behaviour that differs from a naive implementation, all taken from
//! trec_eval's `form_res_rels.c` and the `m_*.c` measures:
//!
//! - **Ranking.** A query's run is re-sorted by score descending, then by doc
//!   id descending (byte-wise `strcmp`). Scores are compared as C `float`
//!   (f32): two f64 scores that round to the same f32 tie and fall back to the
//!   doc id. `-0.0` ties with `0.0`. The rank column of a run file is ignored.
//! - **Relevance.** A judgment ≥ 1 is relevant; 0, negative and unjudged docs
//!   are not. nDCG gains are the raw judgment values; the ideal ranking is all
//!   judgments ≥ 1 sorted descending.
//! - **Denominators.** MAP@k and Recall@k divide by the number of relevant
//!   judgments of the query (not by `min(k, …)`); P@k divides by `k` even when
//!   the run is shorter. Queries without relevant judgments score 0 on every
//!   measure.
//! - **Which queries count.** As pytrec_eval: only queries present in both the
//!   run and the qrels, in run order. A run query with an empty ranking counts
//!   (all zeros); run queries without qrels and qrels queries without a run are
//!   skipped. Means are plain sums in that order divided by the count (0 if no
//!   query is evaluated, as trec_eval prints).
//! - **Duplicates.** trec_eval aborts on a repeated (query, doc) pair in a run or
//!   in qrels; our parsers reject it with the line number.
//!
//! [`context_rank`] is CRAwLeR-DK's "context" diagnostic, not a metric.
//!
//! MRR@k is not a trec_eval measure: it is `recip_rank` on the run truncated to
//! its first k documents in the order above.

mod context;
mod evaluate;
mod measure;
mod parse;
mod qrels;
mod run;
pub mod significance;

pub use context::{context_rank, ContextRank, ContextSummary};
pub use evaluate::{evaluate, Evaluation, QueryEvaluation};
pub use measure::{reported, Measure, MeasureParseError, Metric, REPORTED};
pub use parse::{Duplicate, ParseError};
pub use qrels::{format_trec_qrels, parse_beir_qrels, parse_trec_qrels, Qrels};
pub use run::{format_run, format_run_line, parse_trec_run, trec_eval_order, Run, RunLineError};
