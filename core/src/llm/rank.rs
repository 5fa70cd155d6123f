//! Ranking one query by an LLM method, for the browser and the CLI alike:
//! the reformulations (keywords ranked by BM25, a statement embedded and
//! ranked densely, or both fused) and ReAct over BM25, with whatever
//! [`Chat`] the caller brings (an endpoint, an in-page model, a transcript
//! being replayed). What the model did comes back as a [`Trace`], so a
//! page or a report can show it.
//!
//! It is done in two parts, the model's ([`ask_llm`]: every request, in
//! the order a transcript records them) and the ranking's
//! ([`Trace::rank`]), because the CLI asks for many queries on worker
//! threads and ranks on the thread that owns its query embedder.
//! [`rank_with_llm`] does both for one query, embedding the statement with
//! the caller's function.

use std::fmt;
use std::future::Future;

use super::react::{react_bm25, Progress, ReactParams, ReactRun, Stage};
use super::reform::{reformulate, Reform, Reformulation};
use super::{Chat, Corpus, Cost, LlmError, PoolCorpus, Prompts, Settings};
use crate::blob::Blob;
use crate::hits::Hit;
use crate::methods::{Method, RankError};
use crate::pool::Pool;
use crate::search::{cap_runs, Bm25Params};

/// What an LLM method asks the model for each query.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Work {
    /// Reformulations: keywords, a statement or both.
    Reform {
        /// Keywords, for BM25.
        keywords: bool,
        /// A statement of the legal issue, to embed.
        statement: bool,
    },
    /// The planner/observer loop.
    React(ReactParams),
}

impl Work {
    /// The work of an LLM method (`None` for the others).
    pub fn of(method: &Method) -> Option<Work> {
        Some(match *method {
            Method::ReformSparse => Work::Reform {
                keywords: true,
                statement: false,
            },
            Method::ReformDense => Work::Reform {
                keywords: false,
                statement: true,
            },
            Method::ReformHybrid { .. } => Work::Reform {
                keywords: true,
                statement: true,
            },
            Method::ReactBm25 {
                rounds,
                candidates,
                chars,
            } => Work::React(ReactParams {
                rounds,
                candidates,
                chars,
            }),
            _ => return None,
        })
    }
}

/// What a query's LLM work is doing, for a progress line.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Step {
    /// Asking for keywords (`Sparse`) or a statement (`Dense`).
    Reformulating(Reform),
    /// Embedding the statement.
    Embedding,
    /// A ReAct round's step.
    React(Progress),
}

impl Step {
    /// `round 2 of 10: reading the candidates`, `reformulating the query
    /// as keywords`.
    pub fn describe(&self) -> String {
        match self {
            Step::Reformulating(Reform::Sparse) => "reformulating the query as keywords".into(),
            Step::Reformulating(Reform::Dense) => {
                "reformulating the query as a statement of the legal issue".into()
            }
            Step::Embedding => "embedding the statement".into(),
            Step::React(p) => format!(
                "round {} of {}: {}",
                p.round,
                p.rounds,
                match p.stage {
                    Stage::Plan => "planning a search",
                    Stage::Search => "searching with BM25",
                    Stage::Observe => "reading the candidates",
                }
            ),
        }
    }
}

/// What the model did for a query.
#[derive(Debug, Clone, PartialEq)]
pub enum Trace {
    /// The reformulations asked for (keywords, statement, or both).
    Reform {
        /// The keywords, when the method asks for them.
        keywords: Option<Reformulation>,
        /// The statement, when the method asks for one.
        statement: Option<Reformulation>,
    },
    /// Every ReAct round.
    React(ReactRun),
}

impl Trace {
    /// What the calls cost.
    pub fn cost(&self) -> Cost {
        match self {
            Trace::Reform {
                keywords,
                statement,
            } => {
                let mut cost = Cost::default();
                for r in keywords.iter().chain(statement) {
                    cost.add(&r.cost);
                }
                cost
            }
            Trace::React(run) => run.cost,
        }
    }

    /// The statement to embed, when the method ranks one densely.
    pub fn statement(&self) -> Option<&str> {
        match self {
            Trace::Reform {
                statement: Some(s), ..
            } => Some(&s.text),
            _ => None,
        }
    }

    /// The text whose words BM25 ranks and the results mark: the
    /// keywords where there are keywords, else `query`.
    pub fn marked<'a>(&'a self, query: &'a str) -> &'a str {
        match self {
            Trace::Reform {
                keywords: Some(k), ..
            } => &k.text,
            _ => query,
        }
    }

    /// The best `k` documents of `pool` for this trace of `query` ranked
    /// by `method`: ReAct's own ranking, or the reformulation ranked by
    /// [`Method::ranks_reformulation`] (BM25 with `params` over the
    /// keywords, dense over the statement's `embedding`). See
    /// `Pool::rank` for `positive_only`.
    #[allow(clippy::too_many_arguments)]
    pub fn rank(
        &self,
        pool: &Pool,
        method: &Method,
        params: &Bm25Params,
        query: &str,
        embedding: Option<&[f32]>,
        k: usize,
        positive_only: bool,
    ) -> Result<Vec<Hit>, LlmRankError> {
        if let Trace::React(run) = self {
            let mut hits = run.ranking();
            hits.truncate(k);
            return Ok(hits);
        }
        let plain = method
            .ranks_reformulation()
            .ok_or(LlmRankError::NotLlm(*method))?;
        let mut tokens = pool.analyzer().tokens(self.marked(query));
        // Keywords are a model's reply, bounded like a link's query.
        cap_runs(&mut tokens);
        pool.rank(&plain, params, &tokens, embedding, k, positive_only)
            .map_err(LlmRankError::Rank)
    }
}

/// Asks `llm` what `work` needs for `query`, with the run's `settings`
/// and `prompts`; ReAct searches and reads `corpus`. `progress` hears of
/// each step as it starts.
pub async fn ask_llm<C: Chat>(
    llm: &C,
    settings: &Settings,
    prompts: Prompts,
    corpus: &impl Corpus,
    work: Work,
    query: &str,
    progress: &dyn Fn(Step),
) -> Result<Trace, LlmError> {
    match work {
        Work::Reform {
            keywords,
            statement,
        } => {
            let ask = |kind: Reform, wanted: bool| async move {
                if !wanted {
                    return Ok(None);
                }
                progress(Step::Reformulating(kind));
                reformulate(llm, settings, prompts, kind, query)
                    .await
                    .map(Some)
            };
            let keywords = ask(Reform::Sparse, keywords).await?;
            let statement = ask(Reform::Dense, statement).await?;
            Ok(Trace::Reform {
                keywords,
                statement,
            })
        }
        Work::React(params) => {
            let on_step = |p: Progress| progress(Step::React(p));
            let run = react_bm25(llm, settings, prompts, corpus, params, query, &on_step).await?;
            Ok(Trace::React(run))
        }
    }
}

/// A query ranked by an LLM method.
#[derive(Debug, Clone, PartialEq)]
pub struct LlmRanking {
    /// The ranking, best first.
    pub hits: Vec<Hit>,
    /// What the model did.
    pub trace: Trace,
    /// See [`Trace::marked`].
    pub marked: String,
}

/// Why a query could not be ranked. A reply that is not the JSON asked
/// for is not one of these: it is a recorded failure in the [`Trace`],
/// and the method goes on (with the query itself, or without that round).
#[derive(Debug, Clone, PartialEq)]
pub enum LlmRankError {
    /// No reply (transport, missing from a replayed transcript, cancel).
    Llm(LlmError),
    /// The statement could not be embedded.
    Embed(String),
    /// The ranking itself failed (a dense method on a pool without
    /// vectors, parameters out of range).
    Rank(RankError),
    /// The method asks no LLM.
    NotLlm(Method),
}

impl fmt::Display for LlmRankError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LlmRankError::Llm(e) => e.fmt(f),
            LlmRankError::Embed(e) => write!(f, "the statement could not be embedded: {e}"),
            LlmRankError::Rank(e) => e.fmt(f),
            LlmRankError::NotLlm(m) => write!(f, "{} is not an LLM method", m.name()),
        }
    }
}

impl std::error::Error for LlmRankError {}

/// Everything a query's LLM ranking needs besides the query.
pub struct LlmQuery<'a> {
    /// What is ranked.
    pub pool: &'a Pool,
    /// The pool's blob, for the ids and text ReAct's observer reads.
    pub blob: &'a Blob,
    /// An LLM method (see [`Method::needs_llm`]).
    pub method: Method,
    /// BM25's settings, for every BM25 ranking the method does.
    pub params: Bm25Params,
    /// What every request carries (model, sampling).
    pub settings: &'a Settings,
    /// The prompt set, by the pool's language.
    pub prompts: Prompts,
    /// How many documents the final ranking may have.
    pub k: usize,
    /// See `Pool::rank`: Search lists only matching documents, an
    /// evaluation fills with zero scores as `nomos eval` does.
    pub positive_only: bool,
}

/// Ranks `query` with `q.method`, asking `llm` and embedding a statement
/// with `embed`. `progress` hears of each step as it starts.
pub async fn rank_with_llm<C, E, F>(
    llm: &C,
    q: &LlmQuery<'_>,
    query: &str,
    embed: E,
    progress: &dyn Fn(Step),
) -> Result<LlmRanking, LlmRankError>
where
    C: Chat,
    E: Fn(String) -> F,
    F: Future<Output = Result<Vec<f32>, String>>,
{
    let work = Work::of(&q.method).ok_or(LlmRankError::NotLlm(q.method))?;
    let corpus = PoolCorpus {
        pool: q.pool,
        blob: q.blob,
        params: q.params,
    };
    let trace = ask_llm(llm, q.settings, q.prompts, &corpus, work, query, progress)
        .await
        .map_err(LlmRankError::Llm)?;
    let embedding = match trace.statement() {
        Some(statement) => {
            progress(Step::Embedding);
            Some(
                embed(statement.to_owned())
                    .await
                    .map_err(LlmRankError::Embed)?,
            )
        }
        None => None,
    };
    let hits = trace.rank(
        q.pool,
        &q.method,
        &q.params,
        query,
        embedding.as_deref(),
        q.k,
        q.positive_only,
    )?;
    Ok(LlmRanking {
        marked: trace.marked(query).to_owned(),
        hits,
        trace,
    })
}
