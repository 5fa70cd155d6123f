//! ReAct-BM25, as GreekBarRetrieval §3.8 describes it: a planner writes a
//! keyword query, BM25 returns its top candidates, an observer keeps the
//! ids worth keeping; later rounds' planners see the original query, the
//! earlier queries and what was kept, and explore another angle. The final
//! ranking orders kept articles by the number of rounds that kept them
//! (descending), then the earliest round that kept them, then their best
//! BM25 rank in any round, then corpus order; cut at 100.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::ask::{list_schema, string_schema, Asker, Cost, Failure, Settings};
use super::backend::{Chat, LlmError};
use super::corpus::Corpus;
use super::fit;
use super::prompts::{render, Prompts};
use super::reply::{as_query, list_field, string_field};
use crate::hits::Hit;

/// The loop's parameters (see [`Method::ReactBm25`](crate::methods::Method::ReactBm25)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReactParams {
    /// Planner/observer rounds.
    pub rounds: usize,
    /// BM25 hits the observer reads each round.
    pub candidates: usize,
    /// Characters of each candidate's text shown (0: all).
    pub chars: usize,
}

/// How long the final ranking is.
pub const CUT: usize = 100;

/// What one round did.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Round {
    /// The planner's query (`None` when the planner failed).
    pub query: Option<String>,
    /// BM25's candidates for it, best first.
    pub candidates: Vec<u32>,
    /// The candidates the observer kept, in the order it named them.
    pub kept: Vec<u32>,
    /// Ids the observer named that were not candidates (dropped).
    pub unknown_ids: Vec<String>,
    /// The planner's or the observer's failure, if any.
    pub failure: Option<(Stage, Failure)>,
    /// Bytes each candidate's text was cut to so that the observer's
    /// prompt fit the endpoint's context ([`super::fit`]), when any was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cut: Option<usize>,
}

/// A step of a round, for progress and failures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Stage {
    /// The planner writes a query.
    Plan,
    /// BM25 searches it.
    Search,
    /// The observer reads the candidates.
    Observe,
}

/// A query's whole loop.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ReactRun {
    /// Every round, in order.
    pub rounds: Vec<Round>,
    /// What the LLM calls cost.
    pub cost: Cost,
}

impl ReactRun {
    /// The ranking had the loop stopped after `rounds` rounds (all of
    /// them when larger): kept documents in the module docs' order, at
    /// most [`CUT`], scored `CUT − rank` so that a score sort (trec_eval)
    /// keeps the order.
    pub fn ranking_after(&self, rounds: usize) -> Vec<Hit> {
        // doc → (rounds kept, earliest round kept, best BM25 rank)
        let mut keys: BTreeMap<u32, (usize, usize, usize)> = BTreeMap::new();
        let done = &self.rounds[..rounds.min(self.rounds.len())];
        for (r, round) in done.iter().enumerate() {
            for &doc in round.kept.iter().collect::<BTreeSet<_>>() {
                let key = keys.entry(doc).or_insert((0, r, usize::MAX));
                key.0 += 1;
            }
        }
        for round in done {
            for (rank, doc) in round.candidates.iter().enumerate() {
                if let Some(key) = keys.get_mut(doc) {
                    key.2 = key.2.min(rank);
                }
            }
        }
        let mut docs: Vec<(u32, (usize, usize, usize))> = keys.into_iter().collect();
        crate::order::sort_by_key(&mut docs, |&(doc, (n, first, best))| {
            (std::cmp::Reverse(n), first, best, doc)
        });
        docs.truncate(CUT);
        docs.iter()
            .enumerate()
            .map(|(i, &(doc, _))| Hit {
                doc,
                score: (CUT - i) as f64,
            })
            .collect()
    }

    /// The final ranking.
    pub fn ranking(&self) -> Vec<Hit> {
        self.ranking_after(self.rounds.len())
    }

    /// Every document any round showed the observer.
    pub fn candidate_pool(&self) -> BTreeSet<u32> {
        self.rounds
            .iter()
            .flat_map(|r| r.candidates.iter().copied())
            .collect()
    }

    /// Every document any round kept.
    pub fn kept(&self) -> BTreeSet<u32> {
        self.rounds
            .iter()
            .flat_map(|r| r.kept.iter().copied())
            .collect()
    }
}

/// Where a query's loop is, for a progress display.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// The round (1-based).
    pub round: usize,
    /// Rounds in all.
    pub rounds: usize,
    /// The step starting.
    pub stage: Stage,
}

/// Runs the loop for `query` (question and facts, as the benchmark gives
/// them). `progress` hears of each step as it starts.
pub async fn react_bm25<C: Chat>(
    llm: &C,
    settings: &Settings,
    prompts: Prompts,
    corpus: &impl Corpus,
    params: ReactParams,
    query: &str,
    progress: &dyn Fn(Progress),
) -> Result<ReactRun, LlmError> {
    let mut asker = Asker::new(llm, settings, prompts.retry, prompts.version);
    let query = query.trim();
    let mut run = ReactRun::default();
    let mut kept_so_far: Vec<u32> = Vec::new();
    for r in 1..=params.rounds {
        let step = |stage| {
            progress(Progress {
                round: r,
                rounds: params.rounds,
                stage,
            })
        };
        let mut round = Round::default();
        step(Stage::Plan);
        let user = match r {
            1 => render(prompts.planner_first, &[("query", query)]),
            _ => {
                let queries = numbered(run.rounds.iter().filter_map(|r| r.query.clone()));
                let kept = kept_list(corpus, &kept_so_far);
                render(
                    prompts.planner_next,
                    &[("query", query), ("queries", &queries), ("kept", &kept)],
                )
            }
        };
        let plan = asker
            .ask(
                prompts.planner_system,
                user,
                string_schema("query"),
                |text| string_field(text, "query").map(as_query),
            )
            .await?;
        let planned = match plan {
            Ok(planned) => planned,
            Err(failure) => {
                round.failure = Some((Stage::Plan, failure));
                run.rounds.push(round);
                continue;
            }
        };
        step(Stage::Search);
        round.candidates = corpus
            .search(&planned, params.candidates)
            .iter()
            .map(|h| h.doc)
            .collect();
        round.query = Some(planned);
        if !round.candidates.is_empty() {
            step(Stage::Observe);
            let ids: Vec<String> = round.candidates.iter().map(|&d| corpus.id(d)).collect();
            let texts = candidate_texts(corpus, &round.candidates, params.chars);
            let fixed = prompts.system.trim().len()
                + render(prompts.observer, &[("query", query), ("candidates", "")]).len()
                + framed(&ids, &vec![String::new(); ids.len()]).len();
            let lengths: Vec<usize> = texts.iter().map(String::len).collect();
            round.cut = settings
                .context
                .and_then(|context| {
                    fit::candidate_cap(context, settings.max_tokens, fixed, &lengths)
                })
                .filter(|&cap| lengths.iter().any(|&l| l > cap));
            let texts: Vec<String> = match round.cut {
                Some(cap) => texts.iter().map(|t| fit::cut_to_bytes(t, cap)).collect(),
                None => texts,
            };
            let shown = framed(&ids, &texts);
            let user = render(
                prompts.observer,
                &[("query", query), ("candidates", &shown)],
            );
            let schema = list_schema("keep", ids.len(), Some(&ids));
            match asker
                .ask(prompts.system, user, schema, |text| {
                    list_field(text, "keep")
                })
                .await?
            {
                Ok(named) => {
                    for id in named {
                        match ids.iter().position(|c| *c == id) {
                            Some(i) => {
                                let doc = round.candidates[i];
                                if !round.kept.contains(&doc) {
                                    round.kept.push(doc);
                                }
                            }
                            None => round.unknown_ids.push(id),
                        }
                    }
                }
                Err(failure) => round.failure = Some((Stage::Observe, failure)),
            }
        }
        for &doc in &round.kept {
            if !kept_so_far.contains(&doc) {
                kept_so_far.push(doc);
            }
        }
        run.rounds.push(round);
    }
    run.cost = asker.cost;
    Ok(run)
}

/// `1. …` lines.
fn numbered(items: impl Iterator<Item = String>) -> String {
    let lines: Vec<String> = items
        .enumerate()
        .map(|(i, q)| format!("{}. {q}", i + 1))
        .collect();
    match lines.is_empty() {
        true => "—".into(),
        false => lines.join("\n"),
    }
}

/// The kept articles for the planner: id and the first line of text.
fn kept_list(corpus: &impl Corpus, kept: &[u32]) -> String {
    if kept.is_empty() {
        return "—".into();
    }
    kept.iter()
        .map(|&doc| {
            let text = corpus.text(doc);
            let first = truncate(text.lines().next().unwrap_or_default(), 120);
            format!("- [{}] {first}", corpus.id(doc))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The candidates' texts for the observer: trimmed, and cut to `chars`
/// characters when that is not 0.
fn candidate_texts(corpus: &impl Corpus, docs: &[u32], chars: usize) -> Vec<String> {
    docs.iter()
        .map(|&doc| {
            let text = corpus.text(doc);
            match chars {
                0 => text.trim().to_owned(),
                n => truncate(text.trim(), n),
            }
        })
        .collect()
}

/// The candidates as the observer reads them: `[id]` and text,
/// blank-line separated.
fn framed(ids: &[String], texts: &[String]) -> String {
    ids.iter()
        .zip(texts)
        .map(|(id, text)| format!("[{id}]\n{text}"))
        .collect::<Vec<_>>()
        .join("\n\n")
}

/// The first `n` characters of `text`, with `…` when cut.
fn truncate(text: &str, n: usize) -> String {
    match text.char_indices().nth(n) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
}
