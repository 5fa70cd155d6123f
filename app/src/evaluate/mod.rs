//! Benchmark evaluation in the browser, done as `nomos eval` does it:
//! every query of the pool ranked to depth 100 with zero-score fill, and
//! the run scored by `nomos_core::eval` (trec_eval semantics), so the
//! means equal the CLI's to the bit. The work is cut into short slices
//! that yield to the browser, so the page stays responsive, shows
//! progress, and can cancel.
//!
//! The pool's benchmark is core's ([`nomos_core::pool::Benchmark`]); this
//! module holds the browser's side: plain values and async functions with
//! no signals, and the stores that hold a pool's results and jobs.
//! What an evaluation ranks with, which links carry, is
//! [`crate::eval_config`].
//!
//! - [`measures`]: the measures reported, as in the CLI's metrics JSON.
//! - [`context`]: CRAwLeR-DK's context diagnostic, as `nomos eval --context`.
//! - [`imported`]: a run file made elsewhere, checked and evaluated.
//! - [`scope`]: which queries a job ranks (the first N for LLM methods).
//! - [`job`]: ranking and evaluating one configuration.
//! - [`llm_job`]: the same for an LLM method, with ReAct's rounds and the
//!   calls' cost ([`llm_outcome`]).
//! - [`sweep`]: the k1 × b grid.
//! - [`export`]: TREC run, metrics JSON and CSV as files.
//! - [`significance`]: B against A, per measure, with significance tests.
//! - [`judgments`](crate::judgments) are the user's own; the
//!   [`judgment_store`] keeps them in IndexedDB.
//! - [`store`]: one pool's results and the job running on them, one
//!   module per kind of job; [`run_store`]: the run files kept per pool.

pub mod context;
pub mod export;
pub mod imported;
pub mod job;
pub mod judgment_store;
pub mod llm_job;
pub mod llm_outcome;
pub mod measures;
pub mod run_store;
pub mod scope;
pub mod significance;
pub mod store;
pub mod sweep;
