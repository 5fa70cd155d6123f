//! A TREC run made elsewhere (a GPU model, an API, an LLM pipeline),
//! checked against the pool's benchmark and evaluated like our own runs.
//!
//! Checking is strict: the text must parse as a run (core's parser: six
//! fields, a number for the score, no (query, doc) pair twice; errors
//! name the line), and what does not belong to the benchmark is counted
//! and shown, never dropped in silence. Queries the benchmark lacks are
//! not evaluated (they have no judgments). Documents the pool lacks keep
//! their place in the ranking and count as not relevant unless the
//! judgments name them, as trec_eval reads the file.
//!
//! Benchmark queries the file does not rank are evaluated with empty
//! rankings and score 0 (trec_eval's `-c`): every slot then covers the
//! same queries, so A and B compare query by query. `nomos trec-eval`,
//! pytrec_eval and plain trec_eval skip those queries, so their means
//! equal ours only for a file that ranks every query; the view says so.

use std::collections::{BTreeSet, HashMap};
use std::fmt;

use nomos_core::digest::sha256_hex;
use nomos_core::eval::{parse_trec_run, trec_eval_order, Measure, Run};
use nomos_core::hits::Hit;
use nomos_core::pool::Benchmark;

use super::job::{score, Outcome, Stop};
use crate::eval_config::{RankedBy, RunFile};

/// Ids shown as examples of what the benchmark lacks.
const EXAMPLES: usize = 5;

/// Longest file name kept (names come from the user's disk).
const NAME_MAX: usize = 120;

/// Ids the benchmark lacks: how many (distinct), and the first few in
/// file order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Unknown {
    pub count: usize,
    pub examples: Vec<String>,
}

impl Unknown {
    fn note(&mut self, seen: &mut BTreeSet<String>, id: &str) {
        if seen.insert(id.to_owned()) {
            self.count += 1;
            if self.examples.len() < EXAMPLES {
                self.examples.push(id.to_owned());
            }
        }
    }
}

/// What a run file holds, measured against the benchmark.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    pub file: RunFile,
    /// Ranked documents (non-blank lines).
    pub lines: usize,
    /// Benchmark queries the file ranks.
    pub ranked: usize,
    /// Benchmark queries it does not rank (evaluated as empty rankings).
    pub unranked: usize,
    /// Query ids the benchmark lacks (not evaluated).
    pub unknown_queries: Unknown,
    /// Document ids the pool lacks (ranked, judged as the qrels say).
    pub unknown_docs: Unknown,
}

/// A run file that passed the checks.
#[derive(Debug, Clone)]
pub struct Checked {
    pub summary: Summary,
    run: Run,
}

/// Why a run file was refused.
#[derive(Debug, Clone, PartialEq)]
pub struct RunFileError {
    pub name: String,
    /// The 1-based line at fault, if one is.
    pub line: Option<usize>,
    pub reason: String,
}

impl fmt::Display for RunFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{line}: {}", self.name, self.reason),
            None => write!(f, "{}: {}", self.name, self.reason),
        }
    }
}

impl std::error::Error for RunFileError {}

/// Why a run file opened as A or B is not shown.
#[derive(Debug, Clone, PartialEq)]
pub enum RunImportError {
    /// An evaluation is running, which the import would race.
    Busy,
    /// The browser could not read the file.
    Unreadable { name: String, error: String },
    /// The pool's queries and judgments could not be read.
    Benchmark(String),
    /// The file is no run of this benchmark.
    Refused(RunFileError),
    /// It is not the file the link names (SHA-256 prefixes).
    NotLinked {
        name: String,
        found: String,
        linked: String,
    },
    /// Evaluating it failed, or was cancelled.
    Evaluation(Stop),
}

impl fmt::Display for RunImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Busy => f.write_str(
                "An evaluation is running: open the run file once it is done (or cancelled).",
            ),
            Self::Unreadable { name, error } => write!(f, "{name} could not be read: {error}"),
            Self::Benchmark(why) => f.write_str(why),
            Self::Refused(e) => write!(f, "{e}"),
            Self::NotLinked {
                name,
                found,
                linked,
            } => write!(
                f,
                "{name} is not the run file the link names: its SHA-256 is {found}…, the \
                 link's {linked}…."
            ),
            Self::Evaluation(Stop::Failed(why)) => f.write_str(why),
            Self::Evaluation(Stop::Cancelled) => f.write_str("cancelled"),
        }
    }
}

impl std::error::Error for RunImportError {}

/// The file name as kept and shown: its last path segment, cut short.
pub fn file_name(name: &str) -> String {
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name).trim();
    match base {
        "" => "run".to_owned(),
        b => b.chars().take(NAME_MAX).collect(),
    }
}

/// Reads `bytes` (a file called `name`) as a TREC run and measures it
/// against `bench`. The run is named by the SHA-256 of its bytes.
pub fn check(bytes: &[u8], name: &str, bench: &Benchmark) -> Result<Checked, RunFileError> {
    let name = file_name(name);
    let fail = |line, reason: String| RunFileError {
        name: name.clone(),
        line,
        reason,
    };
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let line = bytes[..e.valid_up_to()]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            + 1;
        fail(Some(line), "not UTF-8 text".to_owned())
    })?;
    let run = parse_trec_run(text).map_err(|e| fail(Some(e.line), e.reason))?;
    if run.is_empty() {
        return Err(fail(None, "no ranked documents".to_owned()));
    }
    let pool_docs: BTreeSet<&str> = bench.doc_ids.iter().map(String::as_str).collect();
    let (mut seen_queries, mut seen_docs) = (BTreeSet::new(), BTreeSet::new());
    let mut summary = Summary {
        file: RunFile {
            name: name.clone(),
            sha256: sha256_hex(bytes),
        },
        lines: 0,
        ranked: 0,
        unranked: 0,
        unknown_queries: Unknown::default(),
        unknown_docs: Unknown::default(),
    };
    for (query, docs) in run.queries() {
        summary.lines += docs.len();
        match bench.position(query) {
            Some(_) => summary.ranked += 1,
            None => summary.unknown_queries.note(&mut seen_queries, query),
        }
        for (doc, _) in docs {
            if !pool_docs.contains(doc.as_str()) {
                summary.unknown_docs.note(&mut seen_docs, doc);
            }
        }
    }
    summary.unranked = bench.queries.len() - summary.ranked;
    Ok(Checked { summary, run })
}

impl Checked {
    /// The evaluation of every benchmark query (those the file does not
    /// rank with empty rankings), with each query's ranking in trec_eval's
    /// order as hits (documents the pool lacks cannot be shown as hits:
    /// they count in the measures, not in the per-query ranking).
    pub fn outcome(&self, bench: &Benchmark, measures: &[Measure]) -> Result<Outcome, Stop> {
        let doc_index: HashMap<&str, u32> = bench
            .doc_ids
            .iter()
            .map(String::as_str)
            .zip(0u32..)
            .collect();
        let mut run = Run::new();
        let mut hits = Vec::with_capacity(bench.queries.len());
        for q in &bench.queries {
            run.add_query(&q.id);
            let docs = self.run.get(&q.id).unwrap_or_default();
            for (doc, score) in docs {
                run.push(&q.id, doc, *score)
                    .map_err(|e| Stop::Failed(format!("query {}: {e}", q.id)))?;
            }
            let ranked = trec_eval_order(docs);
            hits.push(
                ranked
                    .into_iter()
                    .filter_map(|(doc, score)| {
                        let doc = *doc_index.get(doc.as_str())?;
                        Some(Hit { doc, score: *score })
                    })
                    .collect(),
            );
        }
        let (eval, rows) = score(bench, &run, measures)?;
        Ok(Outcome {
            config: RankedBy::RunFile(self.summary.file.clone()),
            eval,
            rows,
            hits,
            queries: bench.queries.len(),
            llm: None,
            rank_millis: 0.0,
            eval_millis: 0.0,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evaluate::measures::reported;
    use nomos_core::analysis::Analyzer;
    use nomos_core::blob::QueryInput;
    use nomos_core::eval::{evaluate, parse_trec_qrels};

    /// Three documents; q1's gold is B1, q2's A2 (and X9, which the pool
    /// lacks), q3's A1.
    fn bench() -> Benchmark {
        let input = |id: &str| QueryInput {
            id: id.into(),
            text: "lov".into(),
            area: None,
        };
        Benchmark::from_parts(
            vec!["A1".into(), "A2".into(), "B1".into()],
            vec![input("q1"), input("q2"), input("q3")],
            parse_trec_qrels("q1 0 B1 1\nq2 0 A2 1\nq2 0 X9 1\nq3 0 A1 1\n").unwrap(),
            &Analyzer::by_name("da").unwrap(),
            &|_| None,
        )
    }

    const RUN: &str = "q1 Q0 A1 1 2.0 x\nq1 Q0 B1 2 1.5 x\n\nq2 Q0 X9 1 3 x\nq2 Q0 A2 2 3 x\n\
                       q9 Q0 A1 1 1 x\nq2 Q0 Z1 3 0.5 x\n";

    #[test]
    fn a_run_is_measured_against_the_benchmark() {
        let checked = check(RUN.as_bytes(), "runs/gpu.trec", &bench()).unwrap();
        let s = &checked.summary;
        assert_eq!(s.file.name, "gpu.trec");
        assert_eq!(s.file.sha256, sha256_hex(RUN.as_bytes()));
        assert_eq!((s.lines, s.ranked, s.unranked), (6, 2, 1));
        assert_eq!(
            s.unknown_queries,
            Unknown {
                count: 1,
                examples: vec!["q9".into()]
            }
        );
        assert_eq!(s.unknown_docs.count, 2);
        assert_eq!(s.unknown_docs.examples, ["X9", "Z1"]);
    }

    #[test]
    fn unranked_queries_score_zero_and_unknown_documents_keep_their_rank() {
        let b = bench();
        let measures = reported();
        let o = check(RUN.as_bytes(), "gpu.trec", &b)
            .unwrap()
            .outcome(&b, &measures)
            .unwrap();
        // The same as trec_eval over the file with q3 given an empty
        // ranking and q9 (no judgments) left out.
        let mut expected = parse_trec_run(RUN).unwrap();
        expected.add_query("q3");
        let want = evaluate(&b.qrels, &expected, &measures);
        let by_id = |e: &nomos_core::eval::Evaluation, id: &str| {
            e.queries
                .iter()
                .find(|q| q.query_id == id)
                .map(|q| q.values.clone())
        };
        for id in ["q1", "q2", "q3"] {
            assert_eq!(by_id(&o.eval, id), by_id(&want, id), "{id}");
        }
        assert_eq!(o.eval.queries.len(), 3);
        assert_eq!(o.rows, [0, 1, 2]);
        let ndcg = o.column("ndcg@10").unwrap();
        assert_eq!(o.value(2, ndcg), 0.0);
        // q2: X9 and A2 tie at 3; trec_eval puts X9 first (doc id
        // descending), so both gold documents rank 1 and 2.
        assert_eq!(o.value(1, ndcg), 1.0);
        assert_eq!(
            o.config.describe(),
            format!(
                "run file gpu.trec (SHA-256 {}…)",
                &sha256_hex(RUN.as_bytes())[..12]
            )
        );
        // Hits in trec_eval order, without the documents the pool lacks.
        let docs = |q: usize| o.hits[q].iter().map(|h| h.doc).collect::<Vec<_>>();
        assert_eq!((docs(0), docs(1), docs(2)), (vec![0, 2], vec![1], vec![]));
    }

    #[test]
    fn errors_name_the_file_and_line() {
        let b = bench();
        let err = |bytes: &[u8]| check(bytes, "a/bad.trec", &b).unwrap_err().to_string();
        assert_eq!(
            err(b"q1 Q0 A1 1 2 x\n\nq1 Q0 A2 2 1\n"),
            "bad.trec:3: expected 6 fields 'qid Q0 docid rank score tag', found 5"
        );
        assert!(err(b"q1 Q0 A1 1 2 x\nq1 Q0 A1 2 1 x\n").starts_with("bad.trec:2: "));
        assert_eq!(
            err(b"q1 Q0 A1 1 high x\n"),
            "bad.trec:1: score 'high' is not a number"
        );
        assert_eq!(
            err(b"q1 Q0 A1 1 2 x\nq1 Q0 \xff 2 1 x\n"),
            "bad.trec:2: not UTF-8 text"
        );
        assert_eq!(err(b"\n  \n"), "bad.trec: no ranked documents");
    }

    #[test]
    fn file_names_are_their_last_segment_cut_short() {
        assert_eq!(file_name("C:\\runs\\x.trec"), "x.trec");
        assert_eq!(file_name(""), "run");
        assert_eq!(file_name(&"n".repeat(500)).len(), NAME_MAX);
    }
}
