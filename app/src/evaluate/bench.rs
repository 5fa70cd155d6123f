//! A pool's benchmark as `nomos eval` reads it from a blob: its queries
//! in blob order (each analysed once, so sweeps only score), judgments as
//! core [`Qrels`] keyed by document id, and the group each query counts in
//! for the per-area breakdown.

use std::collections::{BTreeSet, HashMap};

use nomos_core::blob::Blob;
use nomos_core::eval::Qrels;
use nomos_core::search::Searcher;

/// The grade from which a judgment is relevant (trec_eval's default).
const RELEVANT: i32 = 1;

pub struct Benchmark {
    pub queries: Vec<BenchQuery>,
    pub qrels: Qrels,
    /// Document ids by document index, as the run names them.
    pub doc_ids: Vec<String>,
    /// Every judged query has exactly one gold article.
    pub one_gold: bool,
    pub grouping: Grouping,
    by_id: HashMap<String, usize>,
}

pub struct BenchQuery {
    pub id: String,
    pub text: String,
    pub tokens: Vec<String>,
    /// Judged documents and their grades, in document order.
    pub judged: Vec<(u32, i32)>,
    /// The breakdown groups this query counts in (see [`Grouping`]).
    pub groups: Vec<String>,
}

/// What the per-area breakdown groups queries by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Grouping {
    /// The legal area recorded with each query (GBR's five areas).
    QueryArea,
    /// The source (law, code) of the query's gold articles; a query with
    /// gold in several sources counts in each.
    GoldSource,
}

impl Grouping {
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

/// Shown for a query or article without an area or source.
const NONE: &str = "(none)";

impl BenchQuery {
    /// The relevant judged documents.
    pub fn gold(&self) -> impl Iterator<Item = u32> + '_ {
        self.judged
            .iter()
            .filter(|(_, grade)| *grade >= RELEVANT)
            .map(|(doc, _)| *doc)
    }

    pub fn n_gold(&self) -> usize {
        self.gold().count()
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
    /// Reads the blob's queries and judgments, analysing each query with
    /// the searcher's analyzer, exactly as `nomos eval --index` does.
    pub fn new(blob: &Blob, searcher: &Searcher) -> Result<Benchmark, String> {
        let analyzer = searcher.analyzer();
        let doc_ids: Vec<String> = (0..blob.n_docs())
            .map(|d| blob.doc_id(d).unwrap_or_default().to_owned())
            .collect();
        let has_areas = blob.queries_iter().any(|q| q.area.is_some());
        let grouping = if has_areas {
            Grouping::QueryArea
        } else {
            Grouping::GoldSource
        };
        let mut qrels = Qrels::new();
        let mut queries = Vec::with_capacity(blob.n_queries());
        for (q, query) in blob.queries_iter().enumerate() {
            let mut judged: Vec<(u32, i32)> = Vec::new();
            for j in blob.judgments(q) {
                let doc_id = doc_ids
                    .get(j.doc as usize)
                    .ok_or_else(|| format!("query {} judges a document out of range", query.id))?;
                qrels
                    .insert(query.id, doc_id, j.relevance)
                    .map_err(|e| format!("query {}: {e}", query.id))?;
                judged.push((j.doc, j.relevance));
            }
            judged.sort_unstable();
            let groups = match grouping {
                Grouping::QueryArea => vec![query.area.unwrap_or(NONE).to_owned()],
                Grouping::GoldSource => judged
                    .iter()
                    .filter(|(_, grade)| *grade >= RELEVANT)
                    .map(|(doc, _)| match blob.source(*doc as usize) {
                        Some(s) if !s.is_empty() => s,
                        _ => NONE,
                    })
                    .collect::<BTreeSet<_>>()
                    .into_iter()
                    .map(str::to_owned)
                    .collect(),
            };
            queries.push(BenchQuery {
                id: query.id.to_owned(),
                text: query.text.to_owned(),
                tokens: analyzer.tokens(query.text),
                judged,
                groups,
            });
        }
        let by_id = queries
            .iter()
            .enumerate()
            .map(|(i, q)| (q.id.clone(), i))
            .collect();
        let one_gold = queries
            .iter()
            .filter(|q| qrels.get(&q.id).is_some())
            .all(|q| q.n_gold() == 1);
        Ok(Benchmark {
            queries,
            qrels,
            doc_ids,
            one_gold,
            grouping,
            by_id,
        })
    }

    /// The index of the query with this id.
    pub fn position(&self, id: &str) -> Option<usize> {
        self.by_id.get(id).copied()
    }
}
