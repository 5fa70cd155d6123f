//! Ranking one query with an LLM method, for Search and Evaluate alike:
//! the reformulations (keywords ranked by BM25, a statement embedded and
//! ranked densely, or both fused) and ReAct over BM25, all through
//! `nomos_core::llm` with whatever [`Chat`] the caller brings (an
//! endpoint, a transcript being replayed, each recorded). What the model
//! did comes back with the ranking ([`Trace`]), so a page can show it.
//!
//! No browser here: embedding is the caller's (a closure), so this is
//! tested natively against a scripted model.

use std::fmt;

use futures::future::LocalBoxFuture;
use nomos_core::blob::Blob;
use nomos_core::hits::Hit;
use nomos_core::llm::react::{react_bm25, Progress, ReactParams, ReactRun, Stage};
use nomos_core::llm::reform::{reformulate, Reform, Reformulation};
use nomos_core::llm::{Chat, Cost, LlmError, PoolCorpus, Prompts, Settings};
use nomos_core::methods::{Method, RankError};
use nomos_core::pool::Pool;
use nomos_core::search::{cap_runs, Bm25Params};

/// Embeds a text as a query with the pool's model.
pub type Embed<'a> = &'a dyn Fn(String) -> LocalBoxFuture<'static, Result<Vec<f32>, String>>;

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
    /// `round 2 of 10: observing`, `reformulating the query as keywords`.
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
        keywords: Option<Reformulation>,
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
}

/// A query ranked by an LLM method.
#[derive(Debug, Clone, PartialEq)]
pub struct LlmRanking {
    pub hits: Vec<Hit>,
    pub trace: Trace,
    /// The text whose words the results mark: the keywords where BM25
    /// ranked them, else the query.
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
}

impl fmt::Display for LlmRankError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LlmRankError::Llm(e) => e.fmt(f),
            LlmRankError::Embed(e) => write!(f, "the statement could not be embedded: {e}"),
            LlmRankError::Rank(e) => e.fmt(f),
        }
    }
}

/// Everything a query's LLM ranking needs besides the query.
pub struct LlmQuery<'a> {
    pub pool: &'a Pool,
    pub blob: &'a Blob,
    /// An LLM method (see [`Method::needs_llm`]).
    pub method: Method,
    /// BM25's settings, for every BM25 ranking the method does.
    pub params: Bm25Params,
    pub settings: &'a Settings,
    pub prompts: Prompts,
    /// How many documents the final ranking may have (ReAct's is at
    /// most its cut of 100 whatever this is).
    pub k: usize,
    /// See `Pool::rank`: Search lists only matching documents, an
    /// evaluation fills with zero scores as `nomos eval` does.
    pub positive_only: bool,
}

/// Ranks `query` with `q.method`, asking `llm`. `progress` hears of each
/// step as it starts.
pub async fn rank_with_llm<C: Chat>(
    llm: &C,
    q: &LlmQuery<'_>,
    query: &str,
    embed: Embed<'_>,
    progress: &dyn Fn(Step),
) -> Result<LlmRanking, LlmRankError> {
    let analyzer = q.pool.analyzer();
    if let Method::ReactBm25 {
        rounds,
        candidates,
        chars,
    } = q.method
    {
        let corpus = PoolCorpus {
            pool: q.pool,
            blob: q.blob,
            params: q.params,
        };
        let params = ReactParams {
            rounds,
            candidates,
            chars,
        };
        let on_step = |p: Progress| progress(Step::React(p));
        let run = react_bm25(llm, q.settings, q.prompts, &corpus, params, query, &on_step)
            .await
            .map_err(LlmRankError::Llm)?;
        return Ok(LlmRanking {
            hits: run.ranking(),
            trace: Trace::React(run),
            marked: query.to_owned(),
        });
    }
    let ranker = q
        .method
        .ranks_reformulation()
        .ok_or(LlmRankError::Llm(LlmError::Transport(format!(
            "{} is not an LLM method",
            q.method.name()
        ))))?;
    let ask = |kind: Reform| async move {
        progress(Step::Reformulating(kind));
        reformulate(llm, q.settings, q.prompts, kind, query)
            .await
            .map_err(LlmRankError::Llm)
    };
    let keywords = match ranker.needs_lexical() {
        true => Some(ask(Reform::Sparse).await?),
        false => None,
    };
    let statement = match ranker.needs_dense() {
        true => Some(ask(Reform::Dense).await?),
        false => None,
    };
    let embedding = match &statement {
        Some(s) => {
            progress(Step::Embedding);
            Some(embed(s.text.clone()).await.map_err(LlmRankError::Embed)?)
        }
        None => None,
    };
    let marked = keywords
        .as_ref()
        .map_or_else(|| query.to_owned(), |k| k.text.clone());
    let mut tokens = analyzer.tokens(&marked);
    // Keywords are a model's reply, bounded like a link's query.
    cap_runs(&mut tokens);
    let hits = q
        .pool
        .rank(
            &ranker,
            &q.params,
            &tokens,
            embedding.as_deref(),
            q.k,
            q.positive_only,
        )
        .map_err(LlmRankError::Rank)?;
    Ok(LlmRanking {
        hits,
        trace: Trace::Reform {
            keywords,
            statement,
        },
        marked,
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use std::cell::RefCell;
    use std::future::Future;
    use std::pin::pin;
    use std::task::{Context, Poll, Waker};

    use futures::FutureExt;
    use nomos_core::llm::{ChatReply, ChatRequest, Recorder, Usage};

    use super::*;
    use crate::engine::tests::engine;

    /// Runs a future whose every await is ready (a scripted model's are).
    pub fn block_on<F: Future>(future: F) -> F::Output {
        let mut future = pin!(future);
        match future
            .as_mut()
            .poll(&mut Context::from_waker(Waker::noop()))
        {
            Poll::Ready(out) => out,
            Poll::Pending => panic!("a scripted future never waits"),
        }
    }

    /// Answers each request with `script(schema name, last message)`,
    /// counting the requests.
    pub struct Scripted<F>(pub F, pub RefCell<usize>);

    impl<F: Fn(&str, &str) -> String> Chat for Scripted<F> {
        async fn chat(&self, request: &ChatRequest) -> Result<ChatReply, LlmError> {
            *self.1.borrow_mut() += 1;
            let asked = request.schema.as_ref().map_or("", |s| s.name.as_str());
            let user = &request.messages.last().expect("a message").content;
            Ok(ChatReply {
                content: (self.0)(asked, user),
                reasoning: None,
                model: "scripted".into(),
                usage: Usage {
                    prompt_tokens: 100,
                    completion_tokens: 10,
                },
                millis: 2.0,
            })
        }
    }

    /// A model that keeps to the script: "skat" and "afgifter" as
    /// keywords, "skat" as the planner's query; the observer keeps B1
    /// when it is shown.
    pub fn lawyer(asked: &str, user: &str) -> String {
        match asked {
            "keep" if user.contains("[B1]") => r#"{"keep": ["B1"]}"#.into(),
            "keep" => r#"{"keep": []}"#.into(),
            "keywords" => r#"{"keywords": ["skat", "afgifter"]}"#.into(),
            _ => r#"{"query": "skat"}"#.into(),
        }
    }

    fn no_embedding(_: String) -> LocalBoxFuture<'static, Result<Vec<f32>, String>> {
        async { Err("no model in this test".to_owned()) }.boxed_local()
    }

    fn query<'a>(
        e: &'a crate::engine::Engine,
        method: &str,
        settings: &'a Settings,
    ) -> LlmQuery<'a> {
        LlmQuery {
            pool: e.pool(),
            blob: e.blob(),
            method: method.parse().unwrap(),
            params: e.default_params(),
            settings,
            prompts: Prompts::for_analyzer("da"),
            k: 10,
            positive_only: true,
        }
    }

    fn settings() -> Settings {
        Settings {
            model: "m".into(),
            ..Settings::default()
        }
    }

    #[test]
    fn keywords_are_ranked_with_bm25_and_marked() {
        let e = engine();
        let s = settings();
        let llm = Scripted(lawyer, RefCell::new(0));
        let steps = RefCell::new(Vec::new());
        let out = block_on(rank_with_llm(
            &llm,
            &query(&e, "reform-sparse", &s),
            "hvem betaler?",
            &no_embedding,
            &|s| steps.borrow_mut().push(s),
        ))
        .unwrap();
        assert_eq!(out.marked, "skat; afgifter");
        let docs: Vec<u32> = out.hits.iter().map(|h| h.doc).collect();
        assert_eq!(docs, [2, 0], "B1 has both words, A1 one");
        assert_eq!(*steps.borrow(), [Step::Reformulating(Reform::Sparse)]);
        assert_eq!(out.trace.cost().calls, 1);
    }

    #[test]
    fn react_keeps_what_the_observer_kept_and_replays_identically() {
        let e = engine();
        let s = settings();
        let recorder = Recorder::new(Scripted(lawyer, RefCell::new(0)));
        let q = query(&e, "react-bm25:rounds=2,candidates=3,chars=50", &s);
        let steps = RefCell::new(Vec::new());
        let live = block_on(rank_with_llm(&recorder, &q, "skat?", &no_embedding, &|s| {
            steps.borrow_mut().push(s.describe())
        }))
        .unwrap();
        assert_eq!(live.hits.iter().map(|h| h.doc).collect::<Vec<_>>(), [2]);
        let Trace::React(run) = &live.trace else {
            panic!("{:?}", live.trace)
        };
        assert_eq!(run.rounds.len(), 2);
        assert_eq!(run.cost.calls, 4, "a planner and an observer per round");
        assert_eq!(steps.borrow()[0], "round 1 of 2: planning a search");
        assert_eq!(steps.borrow()[5], "round 2 of 2: reading the candidates");
        // The transcript replays to the same ranking, with no model.
        let transcript = recorder.transcript();
        let replayed = block_on(rank_with_llm(
            &transcript,
            &q,
            "skat?",
            &no_embedding,
            &|_| {},
        ))
        .unwrap();
        assert_eq!(replayed, live);
        // Another query is not in it: a clear error, not a ranking.
        let missing = block_on(rank_with_llm(
            &transcript,
            &q,
            "lov?",
            &no_embedding,
            &|_| {},
        ));
        assert!(matches!(
            missing,
            Err(LlmRankError::Llm(LlmError::NotInTranscript { .. }))
        ));
    }

    #[test]
    fn an_unusable_reply_falls_back_to_the_query_and_says_so() {
        let e = engine();
        let s = settings();
        let llm = Scripted(
            |_: &str, _: &str| "I cannot help with that.".to_owned(),
            RefCell::new(0),
        );
        let out = block_on(rank_with_llm(
            &llm,
            &query(&e, "reform-sparse", &s),
            "skat",
            &no_embedding,
            &|_| {},
        ))
        .unwrap();
        assert_eq!(*llm.1.borrow(), 2, "asked once more, then gave up");
        let Trace::Reform {
            keywords: Some(k), ..
        } = &out.trace
        else {
            panic!()
        };
        assert!(k.failure.is_some());
        assert_eq!((k.text.as_str(), out.trace.cost().failures), ("skat", 1));
        assert_eq!(out.hits.len(), 2, "BM25 ranked the query itself");
    }

    #[test]
    fn a_dense_reformulation_needs_an_embedding() {
        let e = engine();
        let s = settings();
        let llm = Scripted(
            |_: &str, _: &str| r#"{"statement": "tax"}"#.to_owned(),
            RefCell::new(0),
        );
        let out = block_on(rank_with_llm(
            &llm,
            &query(&e, "reform-dense", &s),
            "skat",
            &no_embedding,
            &|_| {},
        ));
        assert_eq!(
            out,
            Err(LlmRankError::Embed("no model in this test".into()))
        );
    }
}
