//! A pool's benchmark as evaluation reads it: its queries in blob order
//! (each analysed once, so parameter sweeps only score), judgments as
//! [`Qrels`] keyed by document id, and the group each query counts in for
//! a per-area breakdown. One reading for `nomos eval` and the browser.

use std::collections::{BTreeSet, HashMap};
use std::fmt;

use crate::analysis::Analyzer;
use crate::blob::{Blob, QueryInput};
use crate::eval::{context_rank, ContextRank, Duplicate, Qrels};
use crate::hits::Hit;

/// The grade from which a judgment is relevant (trec_eval's default).
const RELEVANT: i32 = 1;

/// Shown for a query or article without an area or source.
const NONE: &str = "(none)";

/// Benchmark queries with their judgments, ready to rank and evaluate.
#[derive(Debug, Clone, Default)]
pub struct Benchmark {
    /// In the pool's order.
    pub queries: Vec<BenchQuery>,
    /// Every judgment, including documents the pool lacks.
    pub qrels: Qrels,
    /// Document ids by document index, as a run names them.
    pub doc_ids: Vec<String>,
    /// Every judged query has exactly one gold article.
    pub one_gold: bool,
    /// What the per-area breakdown groups queries by.
    pub grouping: Grouping,
    by_id: HashMap<String, usize>,
}

/// One benchmark query.
#[derive(Debug, Clone, PartialEq)]
pub struct BenchQuery {
    /// The query's id in runs and qrels.
    pub id: String,
    /// The text as asked.
    pub text: String,
    /// The legal area recorded with the query, if any.
    pub area: Option<String>,
    /// The pool analyzer's tokens of `text`.
    pub tokens: Vec<String>,
    /// Judged documents of the pool and their grades, in document order.
    pub judged: Vec<(u32, i32)>,
    /// The breakdown groups this query counts in (see [`Grouping`]).
    pub groups: Vec<String>,
}

/// What the per-area breakdown groups queries by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Grouping {
    /// The legal area recorded with each query (GBR's five areas).
    QueryArea,
    /// The source (law, code) of the query's gold articles; a query with
    /// gold in several sources counts in each.
    #[default]
    GoldSource,
}

impl Grouping {
    /// A sentence saying how queries are grouped.
    pub fn describe(self) -> &'static str {
        match self {
            Grouping::QueryArea => "by the legal area recorded with each query",
            Grouping::GoldSource => {
                "by the law of the gold articles (the queries have no area); \
                 a query with gold in several laws counts in each"
            }
        }
    }

    /// The breakdown table's group column heading.
    pub fn heading(self) -> &'static str {
        match self {
            Grouping::QueryArea => "Area",
            Grouping::GoldSource => "Law of the gold articles",
        }
    }
}

impl BenchQuery {
    /// The relevant judged documents.
    pub fn gold(&self) -> impl Iterator<Item = u32> + '_ {
        self.judged
            .iter()
            .filter(|(_, grade)| *grade >= RELEVANT)
            .map(|(doc, _)| *doc)
    }

    /// How many judged documents are relevant.
    pub fn n_gold(&self) -> usize {
        self.gold().count()
    }

    /// CRAwLeR-DK's context diagnostic of `ranking` (best first) for this
    /// query: where its gold ranks and how many documents its gold
    /// documents cite (`explicit`, the pool's explicit references) outrank
    /// it.
    pub fn context_rank(&self, ranking: &[Hit], explicit: impl Fn(u32) -> Vec<u32>) -> ContextRank {
        let gold: Vec<u32> = self.gold().collect();
        let context: Vec<u32> = gold.iter().flat_map(|&d| explicit(d)).collect();
        let ranked: Vec<u32> = ranking.iter().map(|h| h.doc).collect();
        context_rank(&ranked, &gold, &context)
    }

    /// The grade of `doc`, if judged.
    pub fn grade(&self, doc: u32) -> Option<i32> {
        self.judged
            .binary_search_by_key(&doc, |(d, _)| *d)
            .ok()
            .map(|i| self.judged[i].1)
    }
}

impl Benchmark {
    /// CRAwLeR-DK's context diagnostic of `rankings` (one per query in
    /// order; fewer when only the first queries were ranked): each query
    /// whose gold cites other documents (`explicit`), by index, with its
    /// [`ContextRank`]. One reading for `nomos eval --context` and the
    /// browser.
    pub fn context_ranks(
        &self,
        rankings: &[Vec<Hit>],
        explicit: impl Fn(u32) -> Vec<u32>,
    ) -> Vec<(usize, ContextRank)> {
        self.queries
            .iter()
            .zip(rankings)
            .enumerate()
            .map(|(i, (q, hits))| (i, q.context_rank(hits, &explicit)))
            .filter(|(_, r)| r.n_context > 0)
            .collect()
    }

    /// Reads the blob's queries and judgments, analysing each query with
    /// `analyzer` (the blob's own, for rankings to mean anything).
    pub fn from_blob(blob: &Blob, analyzer: &Analyzer) -> Result<Benchmark, BenchmarkError> {
        let doc_ids: Vec<String> = (0..blob.n_docs())
            .map(|d| blob.doc_id(d).unwrap_or_default().to_owned())
            .collect();
        let mut qrels = Qrels::new();
        let mut queries = Vec::with_capacity(blob.n_queries());
        let mut judged = Vec::with_capacity(blob.n_queries());
        for (q, query) in blob.queries_iter().enumerate() {
            let mut docs: Vec<(u32, i32)> = Vec::new();
            for j in blob.judgments(q) {
                let doc_id = doc_ids.get(j.doc as usize).ok_or_else(|| {
                    BenchmarkError::DocumentOutOfRange {
                        query: query.id.to_owned(),
                        doc: j.doc,
                    }
                })?;
                qrels
                    .insert(query.id, doc_id, j.relevance)
                    .map_err(BenchmarkError::Duplicate)?;
                docs.push((j.doc, j.relevance));
            }
            queries.push(QueryInput {
                id: query.id.to_owned(),
                text: query.text.to_owned(),
                area: query.area.map(str::to_owned),
            });
            judged.push(docs);
        }
        Ok(Benchmark::build(
            doc_ids,
            queries,
            judged,
            qrels,
            analyzer,
            &|doc| blob.source(doc as usize),
        ))
    }

    /// A benchmark from separate parts (a BEIR directory, or queries and
    /// qrels given on the command line): judgments of documents missing
    /// from `doc_ids` stay in the qrels but are not `judged`. `source`
    /// names a document's law, for [`Grouping::GoldSource`].
    pub fn from_parts<'s>(
        doc_ids: Vec<String>,
        queries: Vec<QueryInput>,
        qrels: Qrels,
        analyzer: &Analyzer,
        source: &dyn Fn(u32) -> Option<&'s str>,
    ) -> Benchmark {
        let index: HashMap<&str, u32> = doc_ids.iter().map(String::as_str).zip(0u32..).collect();
        let judged = queries
            .iter()
            .map(|q| {
                qrels
                    .get(&q.id)
                    .into_iter()
                    .flatten()
                    .filter_map(|(doc, &grade)| index.get(doc.as_str()).map(|&d| (d, grade)))
                    .collect()
            })
            .collect();
        Benchmark::build(doc_ids, queries, judged, qrels, analyzer, source)
    }

    fn build<'s>(
        doc_ids: Vec<String>,
        queries: Vec<QueryInput>,
        judged: Vec<Vec<(u32, i32)>>,
        qrels: Qrels,
        analyzer: &Analyzer,
        source: &dyn Fn(u32) -> Option<&'s str>,
    ) -> Benchmark {
        let grouping = match queries.iter().any(|q| q.area.is_some()) {
            true => Grouping::QueryArea,
            false => Grouping::GoldSource,
        };
        let queries: Vec<BenchQuery> = queries
            .into_iter()
            .zip(judged)
            .map(|(query, mut judged)| {
                judged.sort_unstable();
                let groups = match grouping {
                    Grouping::QueryArea => vec![query.area.as_deref().unwrap_or(NONE).to_owned()],
                    Grouping::GoldSource => judged
                        .iter()
                        .filter(|(_, grade)| *grade >= RELEVANT)
                        .map(|(doc, _)| match source(*doc) {
                            Some(s) if !s.is_empty() => s,
                            _ => NONE,
                        })
                        .collect::<BTreeSet<_>>()
                        .into_iter()
                        .map(str::to_owned)
                        .collect(),
                };
                BenchQuery {
                    tokens: analyzer.tokens(&query.text),
                    id: query.id,
                    text: query.text,
                    area: query.area,
                    judged,
                    groups,
                }
            })
            .collect();
        let by_id = positions(&queries);
        let one_gold = queries
            .iter()
            .filter(|q| qrels.get(&q.id).is_some())
            .all(|q| q.n_gold() == 1);
        Benchmark {
            queries,
            qrels,
            doc_ids,
            one_gold,
            grouping,
            by_id,
        }
    }

    /// The benchmark of the queries at `keep` (indices, in order) alone,
    /// judgments and grouping unchanged: what a run cut short evaluates.
    pub fn only(&self, keep: &[usize]) -> Benchmark {
        let queries: Vec<BenchQuery> = keep
            .iter()
            .filter_map(|&i| self.queries.get(i).cloned())
            .collect();
        let by_id = positions(&queries);
        Benchmark {
            queries,
            by_id,
            ..self.clone()
        }
    }

    /// The index of the query with this id.
    pub fn position(&self, id: &str) -> Option<usize> {
        self.by_id.get(id).copied()
    }
}

/// Why a blob's benchmark cannot be read.
#[derive(Debug, Clone, PartialEq)]
pub enum BenchmarkError {
    /// A judgment names a document index beyond the pool.
    DocumentOutOfRange {
        /// The judged query.
        query: String,
        /// The document index it names.
        doc: u32,
    },
    /// A (query, document) pair is judged twice.
    Duplicate(Duplicate),
}

impl fmt::Display for BenchmarkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BenchmarkError::DocumentOutOfRange { query, doc } => {
                write!(f, "query {query} judges document {doc}, out of range")
            }
            BenchmarkError::Duplicate(e) => write!(f, "query {}: {e}", e.query_id),
        }
    }
}

impl std::error::Error for BenchmarkError {}

/// Each query's position, by id, for [`Benchmark::position`].
fn positions(queries: &[BenchQuery]) -> HashMap<String, usize> {
    queries
        .iter()
        .enumerate()
        .map(|(i, q)| (q.id.clone(), i))
        .collect()
}
