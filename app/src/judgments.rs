//! A user's own relevance judgments on one pool: for each query text, the
//! documents marked relevant (grade 1) or not relevant (grade 0). They
//! export as TREC qrels plus a BEIR `queries.jsonl`, which `nomos eval
//! --queries --qrels` reads, import back from those two files exactly, and
//! become a [`Benchmark`] that Evaluate runs like a pool's own.
//!
//! A query's id is `my-N`: a new query gets N one past the largest in
//! use, so ids follow the order queries were first judged and an id keeps
//! naming the same question across edits, exports and imports (an
//! imported file keeps its own ids). Only the newest query's id, once that
//! query is removed, is given again.

use std::collections::{BTreeMap, HashSet};
use std::fmt;

use nomos_core::analysis::Analyzer;
use nomos_core::blob::QueryInput;
use nomos_core::eval::{format_trec_qrels, parse_trec_qrels, Qrels};
use nomos_core::pool::Benchmark;
use serde::{Deserialize, Serialize};

/// Prefix of the ids given to new queries.
const ID_PREFIX: &str = "my-";

/// What a user said about one document for one query.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Mark {
    Relevant,
    NotRelevant,
}

impl Mark {
    /// The grade in qrels.
    pub fn grade(self) -> i32 {
        match self {
            Mark::Relevant => 1,
            Mark::NotRelevant => 0,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Mark::Relevant => "relevant",
            Mark::NotRelevant => "not relevant",
        }
    }
}

/// One judged query.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct JudgedQuery {
    pub id: String,
    /// The query as typed (trimmed).
    pub text: String,
    /// Never empty: a query whose last mark is cleared is dropped.
    pub docs: BTreeMap<String, Mark>,
}

/// All of one pool's judgments, queries in the order first judged.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Judgments {
    queries: Vec<JudgedQuery>,
}

/// Why a judgment was refused, or the kept judgments cannot be read.
#[derive(Debug, Clone, PartialEq)]
pub enum JudgmentError {
    /// A mark with no query typed.
    BlankQuery,
    /// A document id that qrels cannot hold (empty, or with whitespace).
    BadDocId { doc: String },
    /// The kept JSON does not parse, with serde's message.
    Unreadable(String),
    /// The kept judgments break what [`Judgments::set`] keeps true.
    Inconsistent,
}

impl fmt::Display for JudgmentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JudgmentError::BlankQuery => f.write_str("Type a query before judging results."),
            JudgmentError::BadDocId { doc } => {
                write!(f, "Document id {doc:?} cannot be written to qrels.")
            }
            JudgmentError::Unreadable(message) => f.write_str(message),
            JudgmentError::Inconsistent => f.write_str("stored judgments are inconsistent"),
        }
    }
}

impl std::error::Error for JudgmentError {}

/// Why an import was refused: the file (`queries.jsonl` or the qrels
/// file's name) and line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportError {
    pub file: String,
    pub line: usize,
    pub reason: String,
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.file, self.line, self.reason)
    }
}

impl std::error::Error for ImportError {}

/// A query line of `queries.jsonl`, as BEIR writes it.
#[derive(Serialize, Deserialize)]
struct QueryLine {
    #[serde(rename = "_id")]
    id: String,
    text: String,
}

impl Judgments {
    pub fn queries(&self) -> &[JudgedQuery] {
        &self.queries
    }

    pub fn is_empty(&self) -> bool {
        self.queries.is_empty()
    }

    /// Judged documents over all queries.
    pub fn n_marks(&self) -> usize {
        self.queries.iter().map(|q| q.docs.len()).sum()
    }

    /// The mark of `doc` for the query `text`, if any.
    pub fn mark(&self, text: &str, doc: &str) -> Option<Mark> {
        let q = self.queries.iter().find(|q| q.text == text.trim())?;
        q.docs.get(doc).copied()
    }

    /// Marks `doc` for the query `text` (`None` clears the mark). A blank
    /// query or a document id with whitespace (which qrels cannot hold)
    /// is refused.
    pub fn set(&mut self, text: &str, doc: &str, mark: Option<Mark>) -> Result<(), JudgmentError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(JudgmentError::BlankQuery);
        }
        if doc.is_empty() || doc.chars().any(char::is_whitespace) {
            return Err(JudgmentError::BadDocId {
                doc: doc.to_owned(),
            });
        }
        let at = self.queries.iter().position(|q| q.text == text);
        match (at, mark) {
            (Some(i), Some(m)) => drop(self.queries[i].docs.insert(doc.to_owned(), m)),
            (Some(i), None) => {
                self.queries[i].docs.remove(doc);
                if self.queries[i].docs.is_empty() {
                    self.queries.remove(i);
                }
            }
            (None, Some(m)) => {
                let id = self.next_id();
                self.queries.push(JudgedQuery {
                    id,
                    text: text.to_owned(),
                    docs: BTreeMap::from([(doc.to_owned(), m)]),
                });
            }
            (None, None) => {}
        }
        Ok(())
    }

    /// Forgets a query and all its marks.
    pub fn remove_query(&mut self, id: &str) {
        self.queries.retain(|q| q.id != id);
    }

    /// `my-N` with N one past the largest used.
    fn next_id(&self) -> String {
        let n = self
            .queries
            .iter()
            .filter_map(|q| q.id.strip_prefix(ID_PREFIX)?.parse::<u64>().ok())
            .max()
            .unwrap_or(0);
        format!("{ID_PREFIX}{}", n + 1)
    }

    pub fn qrels(&self) -> Qrels {
        let mut qrels = Qrels::new();
        for q in &self.queries {
            for (doc, mark) in &q.docs {
                // Ids are unique and documents a map's keys: no duplicates.
                let _ = qrels.insert(&q.id, doc, mark.grade());
            }
        }
        qrels
    }

    /// The TREC qrels file (`qid 0 docid rel`).
    pub fn to_trec_qrels(&self) -> String {
        format_trec_qrels(&self.qrels())
    }

    /// The BEIR `queries.jsonl` file (`{"_id":…,"text":…}` per line), in
    /// the order the queries were first judged.
    pub fn to_queries_jsonl(&self) -> String {
        self.queries
            .iter()
            .map(|q| {
                let line = QueryLine {
                    id: q.id.clone(),
                    text: q.text.clone(),
                };
                serde_json::to_string(&line).unwrap_or_default() + "\n"
            })
            .collect()
    }

    /// Reads an export back: `queries` (a `queries.jsonl`, named
    /// `queries_name` in errors) and `qrels` (TREC, named `qrels_name`).
    /// Strict: every query needs a judgment and every judgment a query,
    /// grades are 0 or 1, ids and texts are unique.
    pub fn import(
        queries_name: &str,
        queries: &str,
        qrels_name: &str,
        qrels: &str,
    ) -> Result<Judgments, ImportError> {
        let q_err = |line: usize, reason: String| ImportError {
            file: queries_name.to_owned(),
            line,
            reason,
        };
        let r_err = |line: usize, reason: String| ImportError {
            file: qrels_name.to_owned(),
            line,
            reason,
        };
        let mut lines: Vec<(usize, QueryLine)> = Vec::new();
        let (mut ids, mut texts) = (HashSet::new(), HashSet::new());
        for (i, line) in queries.lines().enumerate() {
            let n = i + 1;
            if line.trim().is_empty() {
                continue;
            }
            let q: QueryLine = serde_json::from_str(line)
                .map_err(|e| q_err(n, format!("expected {{\"_id\": …, \"text\": …}}: {e}")))?;
            if q.id.is_empty() || q.id.chars().any(char::is_whitespace) {
                return Err(q_err(
                    n,
                    format!("query id {:?} is empty or has spaces", q.id),
                ));
            }
            if q.text.trim().is_empty() || q.text.trim() != q.text {
                return Err(q_err(
                    n,
                    format!("query {}: text is blank or not trimmed", q.id),
                ));
            }
            if !ids.insert(q.id.clone()) {
                return Err(q_err(n, format!("query id {} appears twice", q.id)));
            }
            if !texts.insert(q.text.clone()) {
                return Err(q_err(n, format!("query text {:?} appears twice", q.text)));
            }
            lines.push((n, q));
        }
        let parsed = parse_trec_qrels(qrels).map_err(|e| r_err(e.line, e.reason))?;
        // The parser checked the layout; grades and query ids, by line.
        for (i, line) in qrels.lines().enumerate() {
            if let [q, _, _, rel] = line.split_whitespace().collect::<Vec<_>>()[..] {
                if !ids.contains(q) {
                    return Err(r_err(i + 1, format!("query {q} is not in {queries_name}")));
                }
                if rel != "0" && rel != "1" {
                    return Err(r_err(
                        i + 1,
                        format!("grade {rel}: expected 1 (relevant) or 0 (not relevant)"),
                    ));
                }
            }
        }
        let queries = lines
            .into_iter()
            .map(|(n, q)| {
                let docs = parsed
                    .get(&q.id)
                    .ok_or_else(|| {
                        q_err(
                            n,
                            format!("query {} has no judgments in {qrels_name}", q.id),
                        )
                    })?
                    .iter()
                    .map(|(doc, &grade)| {
                        let mark = if grade == 1 {
                            Mark::Relevant
                        } else {
                            Mark::NotRelevant
                        };
                        (doc.clone(), mark)
                    })
                    .collect();
                Ok(JudgedQuery {
                    id: q.id,
                    text: q.text,
                    docs,
                })
            })
            .collect::<Result<_, ImportError>>()?;
        Ok(Judgments { queries })
    }

    /// A benchmark of these judgments over a pool's documents, as `nomos
    /// eval --queries --qrels` builds it from the export: queries in
    /// order, judgments of documents the pool lacks kept in the qrels only.
    /// `source` names a document's law for the breakdown.
    pub fn benchmark<'s>(
        &self,
        doc_ids: Vec<String>,
        analyzer: &Analyzer,
        source: &dyn Fn(u32) -> Option<&'s str>,
    ) -> Benchmark {
        let queries = self
            .queries
            .iter()
            .map(|q| QueryInput {
                id: q.id.clone(),
                text: q.text.clone(),
                area: None,
            })
            .collect();
        Benchmark::from_parts(doc_ids, queries, self.qrels(), analyzer, source)
    }

    /// The stored form (IndexedDB).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads the stored form, checking what [`Judgments::set`] keeps true.
    pub fn from_json(text: &str) -> Result<Judgments, JudgmentError> {
        let j: Judgments =
            serde_json::from_str(text).map_err(|e| JudgmentError::Unreadable(e.to_string()))?;
        let unique = |f: fn(&JudgedQuery) -> &str| {
            let mut seen = HashSet::new();
            j.queries.iter().all(|q| seen.insert(f(q)))
        };
        if !unique(|q| &q.id) || !unique(|q| &q.text) || j.queries.iter().any(|q| q.docs.is_empty())
        {
            return Err(JudgmentError::Inconsistent);
        }
        Ok(j)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Judgments {
        let mut j = Judgments::default();
        j.set("  ελευθερία του τύπου ", "Άρθρο_14", Some(Mark::Relevant))
            .unwrap();
        j.set("ελευθερία του τύπου", "Άρθρο_5", Some(Mark::NotRelevant))
            .unwrap();
        j.set("say \"quoted\"\\", "d2", Some(Mark::Relevant))
            .unwrap();
        j.set("third", "d1", Some(Mark::NotRelevant)).unwrap();
        j
    }

    #[test]
    fn marks_set_change_and_clear() {
        let mut j = sample();
        assert_eq!(
            j.mark("ελευθερία του τύπου", "Άρθρο_14"),
            Some(Mark::Relevant)
        );
        j.set("ελευθερία του τύπου", "Άρθρο_14", Some(Mark::NotRelevant))
            .unwrap();
        assert_eq!(
            j.mark("ελευθερία του τύπου", "Άρθρο_14"),
            Some(Mark::NotRelevant)
        );
        let ids: Vec<_> = j.queries().iter().map(|q| q.id.as_str()).collect();
        assert_eq!(ids, ["my-1", "my-2", "my-3"]);
        assert_eq!(j.n_marks(), 4);
        // Clearing a query's last mark drops it; ids of the others stay.
        j.set("ελευθερία του τύπου", "Άρθρο_5", None).unwrap();
        j.set("ελευθερία του τύπου", "Άρθρο_14", None).unwrap();
        j.set("fourth", "d1", Some(Mark::Relevant)).unwrap();
        let ids: Vec<_> = j.queries().iter().map(|q| q.id.as_str()).collect();
        assert_eq!(ids, ["my-2", "my-3", "my-4"]);
        j.remove_query("my-2");
        assert_eq!(j.queries().len(), 2);
        assert_eq!(j.mark("fourth", "d1"), Some(Mark::Relevant));
        assert_eq!(
            j.set(" ", "d1", Some(Mark::Relevant))
                .unwrap_err()
                .to_string(),
            "Type a query before judging results."
        );
        assert_eq!(
            j.set("q", "a b", Some(Mark::Relevant))
                .unwrap_err()
                .to_string(),
            "Document id \"a b\" cannot be written to qrels."
        );
    }

    #[test]
    fn export_formats() {
        let j = sample();
        assert_eq!(
            j.to_trec_qrels(),
            "my-1 0 Άρθρο_14 1\nmy-1 0 Άρθρο_5 0\nmy-2 0 d2 1\nmy-3 0 d1 0\n"
        );
        assert_eq!(
            j.to_queries_jsonl(),
            "{\"_id\":\"my-1\",\"text\":\"ελευθερία του τύπου\"}\n\
             {\"_id\":\"my-2\",\"text\":\"say \\\"quoted\\\"\\\\\"}\n\
             {\"_id\":\"my-3\",\"text\":\"third\"}\n"
        );
    }

    #[test]
    fn import_of_the_export_gives_the_same_judgments() {
        let mut j = sample();
        // Ten and more queries: qrels sort my-10 before my-2, the queries'
        // order still comes back.
        for i in 0..10 {
            j.set(&format!("q{i}"), "d1", Some(Mark::Relevant)).unwrap();
        }
        let back = Judgments::import(
            "q.jsonl",
            &j.to_queries_jsonl(),
            "q.txt",
            &j.to_trec_qrels(),
        )
        .unwrap();
        assert_eq!(back, j);
        let stored = Judgments::from_json(&j.to_json()).unwrap();
        assert_eq!(stored, j);
        // New queries after an import continue the numbering.
        let mut back = back;
        back.set("new", "d1", Some(Mark::Relevant)).unwrap();
        assert_eq!(back.queries().last().unwrap().id, "my-14");
    }

    /// The CLI's test feeds this export to `nomos eval --queries --qrels`
    /// (`index-builder/tests/fixtures/my-judgments/`): the files must be
    /// what the app writes.
    #[test]
    fn export_is_the_cli_fixture() {
        let mut j = Judgments::default();
        let marks = [
            ("ελευθερία του τύπου", "Syntagma::14", Mark::Relevant),
            ("ελευθερία του τύπου", "Syntagma::13", Mark::NotRelevant),
            (
                "ελευθερία θρησκευτικής συνείδησης",
                "Syntagma::13",
                Mark::Relevant,
            ),
            (
                "ελευθερία θρησκευτικής συνείδησης",
                "Syntagma::3",
                Mark::Relevant,
            ),
            ("μορφή του πολιτεύματος", "Syntagma::1", Mark::Relevant),
            ("μορφή του πολιτεύματος", "Syntagma::2", Mark::NotRelevant),
            ("μορφή του πολιτεύματος", "Syntagma::110", Mark::NotRelevant),
        ];
        for (text, doc, mark) in marks {
            j.set(text, doc, Some(mark)).unwrap();
        }
        let dir = "../index-builder/tests/fixtures/my-judgments";
        let read = |f: &str| std::fs::read_to_string(format!("{dir}/{f}")).unwrap();
        assert_eq!(j.to_trec_qrels(), read("qrels.txt"));
        assert_eq!(j.to_queries_jsonl(), read("queries.jsonl"));
    }

    fn import_error(queries: &str, qrels: &str) -> String {
        Judgments::import("queries.jsonl", queries, "qrels.txt", qrels)
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn import_errors_name_file_and_line() {
        let q = "{\"_id\":\"my-1\",\"text\":\"a\"}\n\n{\"_id\":\"my-2\",\"text\":\"b\"}\n";
        let r = "my-1 0 d1 1\nmy-2 0 d2 0\n";
        assert!(Judgments::import("queries.jsonl", q, "qrels.txt", r).is_ok());
        let bad_json = "{\"_id\":\"my-1\",\"text\":\"a\"}\n{\"_id\":1}\n";
        assert!(import_error(bad_json, r).starts_with("queries.jsonl:2: expected"));
        let twice = "{\"_id\":\"my-1\",\"text\":\"a\"}\n{\"_id\":\"my-1\",\"text\":\"b\"}\n";
        assert_eq!(
            import_error(twice, r),
            "queries.jsonl:2: query id my-1 appears twice"
        );
        let same_text = "{\"_id\":\"my-1\",\"text\":\"a\"}\n{\"_id\":\"my-2\",\"text\":\"a\"}\n";
        assert!(import_error(same_text, r).starts_with("queries.jsonl:2: query text"));
        assert!(import_error(q, "my-1 0 d1 1\nmy-2 d2 0\n").starts_with("qrels.txt:2: expected 4"));
        assert_eq!(
            import_error(q, "my-1 0 d1 1\nmy-2 0 d2 2\n"),
            "qrels.txt:2: grade 2: expected 1 (relevant) or 0 (not relevant)"
        );
        assert_eq!(
            import_error(q, "my-1 0 d1 1\nmy-9 0 d2 1\n"),
            "qrels.txt:2: query my-9 is not in queries.jsonl"
        );
        assert!(import_error(q, "my-1 0 d1 1\nmy-1 0 d1 0\n").starts_with("qrels.txt:2:"));
        assert_eq!(
            import_error(q, "my-1 0 d1 1\n"),
            "queries.jsonl:3: query my-2 has no judgments in qrels.txt"
        );
        assert!(
            Judgments::from_json("{\"queries\":[{\"id\":\"a\",\"text\":\"t\",\"docs\":{}}]}")
                .is_err()
        );
    }

    #[test]
    fn benchmark_of_the_judgments() {
        let j = sample();
        let analyzer = Analyzer::by_name("gbr-greek").unwrap();
        let doc_ids = ["d1", "Άρθρο_5", "Άρθρο_14"].map(str::to_owned).to_vec();
        let bench = j.benchmark(doc_ids, &analyzer, &|_| None);
        let ids: Vec<_> = bench.queries.iter().map(|q| q.id.as_str()).collect();
        assert_eq!(ids, ["my-1", "my-2", "my-3"]);
        assert_eq!(bench.queries[0].text, "ελευθερία του τύπου");
        assert_eq!(
            bench.queries[0].tokens,
            analyzer.tokens("ελευθερία του τύπου")
        );
        assert_eq!(bench.queries[0].judged, [(1, 0), (2, 1)]);
        // d2 is not in the pool: judged in the qrels, not in the pool's list.
        assert_eq!(bench.queries[1].judged, []);
        assert_eq!(bench.qrels, j.qrels());
        assert!(!bench.one_gold);
    }
}
