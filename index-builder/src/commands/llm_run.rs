//! An LLM method over a list of queries, as `search` and `eval` run it:
//! open the endpoint or the replayed transcript, do every query's model
//! work ([`super::llm_queries`]), rank each in query order, and write the
//! transcript being recorded whether the run succeeded or not, so that no
//! paid-for exchange is lost.

use std::time::{Duration, Instant};

use anyhow::Result;
use nomos_core::hits::Hit;
use nomos_core::llm::rank::Work;
use nomos_core::llm::{Cost, Prompts, Settings};
use nomos_core::methods::Method;

use super::llm_corpus::RankingCorpus;
use super::llm_queries::{Answered, Job};
use super::method::MethodRanker;
use super::ranking::Ranking;
use crate::error::bad_input;
use crate::llm::{Backend, LlmArgs, Origin, Saved};

/// A finished LLM run.
pub struct LlmRun {
    pub settings: Settings,
    pub prompts: Prompts,
    /// The indices of the queries done, in order: all of them unless
    /// Ctrl-C cut the run short.
    pub done: Vec<usize>,
    /// Each query's model work, in the order of `done`.
    pub answers: Vec<Answered>,
    /// Each query's ranking, in the order of `done`.
    pub hits: Vec<Vec<Hit>>,
    /// Wall time of the whole run, ranking included.
    pub wall: Duration,
    /// Worker threads used.
    pub workers: usize,
    pub origin: Origin,
    /// The transcript recorded, if `--transcript` was given.
    pub transcript: Option<Saved>,
}

/// How deep to rank.
#[derive(Debug, Clone, Copy)]
pub struct Depth {
    pub k: usize,
    pub positive_only: bool,
}

impl LlmRun {
    /// The model work `method` needs, if it is an LLM method; the LLM
    /// flags given with any other method are refused rather than ignored.
    pub fn work(method: &Method, args: &LlmArgs) -> Result<Option<Work>> {
        let work = Work::of(method);
        if work.is_none() && args.any_given() {
            return Err(bad_input(format!(
                "--llm-url, --transcript and --replay are for the LLM methods ({}); --method {} \
                 asks no LLM",
                Method::LLM_NAMES.join(", "),
                method.name()
            )));
        }
        Ok(work)
    }

    /// Runs `work` for every query `(id, text)`.
    pub fn execute(
        args: &LlmArgs,
        work: Work,
        ranker: &mut MethodRanker,
        ranking: &Ranking,
        queries: &[(&str, &str)],
        depth: Depth,
    ) -> Result<LlmRun> {
        let method = ranker.method();
        let (backend, settings) = Backend::open(args, method.name())?;
        let prompts =
            Prompts::for_run(ranking.pool.analyzer().name(), &settings).map_err(bad_input)?;
        let workers = (args.llm_concurrency as usize).clamp(1, queries.len().max(1));
        let start = Instant::now();
        let outcome = (|| {
            let corpus = RankingCorpus::new(ranking);
            let job = Job {
                work,
                backend: &backend,
                settings: &settings,
                prompts,
                corpus: &corpus,
            };
            let (done, mut answers): (Vec<usize>, Vec<Answered>) = job
                .answer_all(queries, workers)?
                .into_iter()
                .enumerate()
                .filter_map(|(i, a)| Some((i, a?)))
                .unzip();
            let hits = answers
                .iter_mut()
                .zip(&done)
                .map(|(a, &i)| {
                    let text = queries[i].1;
                    a.hits(ranker, ranking, text, depth.k, depth.positive_only)
                })
                .collect::<Result<Vec<_>>>()?;
            Ok((done, answers, hits))
        })();
        let wall = start.elapsed();
        // Written before any error is returned: nothing recorded is lost.
        let transcript = backend.finish();
        let (done, answers, hits) = match outcome {
            Ok(done) => done,
            Err(error) => {
                if let Err(also) = &transcript {
                    eprintln!("error: {also:#}");
                }
                return Err(error);
            }
        };
        let transcript = transcript?;
        Ok(LlmRun {
            settings,
            prompts,
            done,
            answers,
            hits,
            wall,
            workers,
            origin: backend.origin(),
            transcript,
        })
    }

    /// The LLM time, in milliseconds, this run waited for to pay `cost`:
    /// the transport's timing live, none when replayed (a transcript's
    /// times are the recording's).
    pub fn waited_ms(&self, cost: &Cost) -> f64 {
        match self.origin {
            Origin::Endpoint { .. } => cost.millis,
            Origin::Replay { .. } => 0.0,
        }
    }

    /// What a run tag adds to the method for an LLM run.
    pub fn tag_suffix(&self) -> String {
        self.settings.tag_suffix(self.prompts.version)
    }
}
