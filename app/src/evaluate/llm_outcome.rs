//! What an LLM method's evaluation adds to its outcome: each query's
//! trace or why it has none, the calls' cost, and for ReAct the measures
//! had the loop stopped after fewer rounds.

use std::fmt;

use nomos_core::llm::rank::{LlmRankError, Trace};
use nomos_core::llm::Cost;

/// The rounds a ReAct evaluation reports (those up to its rounds).
pub const ROUNDS_SHOWN: [usize; 6] = [0, 1, 2, 3, 5, 10];

/// What the LLM did in an evaluation.
#[derive(Debug, Clone, PartialEq)]
pub struct LlmOutcome {
    /// For each ranked query, by benchmark index: what the model did, or
    /// why the query has no ranking.
    pub traces: Vec<Result<Trace, QueryFailure>>,
    /// All calls together.
    pub cost: Cost,
    /// ReAct: the measures after each of [`ROUNDS_SHOWN`].
    pub rounds: Vec<RoundRow>,
    /// The model the requests named.
    pub model: String,
    /// What the run tag adds for the LLM (prompt set, model, seed), as
    /// `nomos eval` writes it.
    pub tag_suffix: String,
}

impl LlmOutcome {
    /// Why each query without a ranking has none.
    pub fn failures(&self) -> impl Iterator<Item = &QueryFailure> {
        self.traces.iter().filter_map(|t| t.as_ref().err())
    }
}

/// Why one query of an LLM evaluation has no ranking.
#[derive(Debug, Clone, PartialEq)]
pub struct QueryFailure {
    /// The query's id.
    pub query: String,
    pub error: LlmRankError,
}

impl fmt::Display for QueryFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "query {}: {}", self.query, self.error)
    }
}

/// The measures had ReAct stopped after `round` rounds.
#[derive(Debug, Clone, PartialEq)]
pub struct RoundRow {
    /// 0: BM25 on the query, no LLM.
    pub round: usize,
    /// In the evaluation's measure order.
    pub means: Vec<f64>,
    /// Mean number of articles kept by then (none for round 0).
    pub kept: Option<f64>,
}
