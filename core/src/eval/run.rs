//! Runs (ranked, scored documents per query): the TREC run format, and the
//! order in which trec_eval reads a ranking.

use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use super::parse::{is_c_space, trec_fields, Duplicate, ParseError};

/// Scored documents per query. Queries keep first-seen order, which is the
/// order pytrec_eval reports them in; documents keep insertion order (the
/// ranking itself comes from the scores, see [`trec_eval_order`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Run {
    queries: Vec<QueryRun>,
    index: BTreeMap<String, usize>,
}

#[derive(Debug, Clone, PartialEq)]
struct QueryRun {
    id: String,
    docs: Vec<(String, f64)>,
    /// Guards against duplicates, which trec_eval rejects.
    doc_ids: BTreeSet<String>,
}

impl Run {
    /// An empty run.
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends a scored document; a document given twice for a query is an
    /// error, as in trec_eval.
    pub fn push(&mut self, query_id: &str, doc_id: &str, score: f64) -> Result<(), Duplicate> {
        let query = self.query_mut(query_id);
        if !query.doc_ids.insert(doc_id.to_owned()) {
            return Err(Duplicate {
                query_id: query_id.to_owned(),
                doc_id: doc_id.to_owned(),
            });
        }
        query.docs.push((doc_id.to_owned(), score));
        Ok(())
    }

    /// Registers a query, with an empty ranking if it has none yet. Such a
    /// query is evaluated (scoring 0) when it has qrels; a TREC run file
    /// cannot express it.
    pub fn add_query(&mut self, query_id: &str) {
        self.query_mut(query_id);
    }

    /// Queries in first-seen order with their documents in insertion order.
    pub fn queries(&self) -> impl Iterator<Item = (&str, &[(String, f64)])> {
        self.queries
            .iter()
            .map(|q| (q.id.as_str(), q.docs.as_slice()))
    }

    /// The documents of one query in insertion order.
    pub fn get(&self, query_id: &str) -> Option<&[(String, f64)]> {
        self.index
            .get(query_id)
            .map(|&i| self.queries[i].docs.as_slice())
    }

    /// Number of queries.
    pub fn len(&self) -> usize {
        self.queries.len()
    }

    /// Whether no query was ranked.
    pub fn is_empty(&self) -> bool {
        self.queries.is_empty()
    }

    fn query_mut(&mut self, query_id: &str) -> &mut QueryRun {
        let i = match self.index.get(query_id) {
            Some(&i) => i,
            None => {
                self.index.insert(query_id.to_owned(), self.queries.len());
                self.queries.push(QueryRun {
                    id: query_id.to_owned(),
                    docs: Vec::new(),
                    doc_ids: BTreeSet::new(),
                });
                self.queries.len() - 1
            }
        };
        &mut self.queries[i]
    }
}

/// A score as trec_eval 9.0.x compares it: stored in a C `float`, where
/// `-0.0 == 0.0`. NaN (which trec_eval cannot order) sorts by `total_cmp`.
fn c_float(score: f64) -> f32 {
    let s = score as f32;
    if s == 0.0 {
        0.0
    } else {
        s
    }
}

/// trec_eval's ranking order: score (as f32) descending, then doc id
/// descending by bytes.
fn trec_eval_cmp(a: &(String, f64), b: &(String, f64)) -> Ordering {
    c_float(b.1)
        .total_cmp(&c_float(a.1))
        .then_with(|| b.0.cmp(&a.0))
}

/// A query's documents in the order trec_eval ranks them.
pub fn trec_eval_order(docs: &[(String, f64)]) -> Vec<&(String, f64)> {
    let mut ranked: Vec<&(String, f64)> = docs.iter().collect();
    ranked.sort_unstable_by(|a, b| trec_eval_cmp(a, b));
    ranked
}

/// Parses a TREC run: `qid Q0 docid rank score tag` per line, whitespace
/// separated. Exactly six fields are required (as pytrec_eval's `parse_run`;
/// trec_eval would ignore extra ones). The `Q0`, rank and tag columns are
/// ignored: trec_eval ranks by score. Blank lines are skipped; a repeated
/// (qid, docid) pair is an error, and so is a score `parse_score` refuses.
pub fn parse_trec_run(text: &str) -> Result<Run, ParseError> {
    let mut run = Run::new();
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        let fields = trec_fields(line);
        match fields[..] {
            [] => {}
            [q, _q0, d, _rank, score, _tag] => {
                let score = parse_score(score).map_err(|reason| ParseError::new(n, reason))?;
                run.push(q, d, score)
                    .map_err(|e| ParseError::new(n, e.to_string()))?;
            }
            _ => {
                return Err(ParseError::new(
                    n,
                    format!(
                        "expected 6 fields 'qid Q0 docid rank score tag', found {}",
                        fields.len()
                    ),
                ))
            }
        }
    }
    Ok(run)
}

/// A run score. `inf` and `-inf` (any case, also `infinity`) mean what they
/// mean to trec_eval and pytrec_eval: above, or below, every finite score
/// (a log-probability scorer writes `-inf` for "impossible"). A number too
/// large for a 64-bit float (`1e400`), which no scorer can have printed, is
/// refused rather than silently read as infinite; so is NaN, which cannot be
/// ranked. (Finite scores beyond ±3.4e38 tie with the infinities when
/// ranked, as trec_eval compares 32-bit floats: see [`trec_eval_order`].)
fn parse_score(text: &str) -> Result<f64, String> {
    let score: f64 = text
        .parse()
        .ok()
        .filter(|s: &f64| !s.is_nan())
        .ok_or_else(|| format!("score '{text}' is not a number"))?;
    let spelled_infinite = text
        .trim_start_matches(['+', '-'])
        .to_ascii_lowercase()
        .starts_with("inf");
    if score.is_infinite() && !spelled_infinite {
        return Err(format!(
            "score '{text}' is out of range (beyond a 64-bit float); \
             write inf or -inf for an infinite score"
        ));
    }
    Ok(score)
}

/// Why a run line cannot be written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RunLineError {
    /// An id or tag that is empty or holds whitespace would break the line.
    BadField {
        /// Which field (query id, document id or tag).
        field: &'static str,
        /// Its value.
        value: String,
    },
    /// NaN has no place in a ranking.
    NanScore,
}

impl fmt::Display for RunLineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::BadField { field, value } => {
                write!(f, "{field} '{value}' is empty or contains whitespace")
            }
            Self::NanScore => f.write_str("score is NaN"),
        }
    }
}

impl std::error::Error for RunLineError {}

/// Formats one TREC run line `qid Q0 docid rank score tag` (no newline). The
/// score is written in Rust's shortest round-trip form, so parsing it back
/// gives the same f64.
pub fn format_run_line(
    query_id: &str,
    doc_id: &str,
    rank: usize,
    score: f64,
    tag: &str,
) -> Result<String, RunLineError> {
    for (field, value) in [("query id", query_id), ("doc id", doc_id), ("tag", tag)] {
        if value.is_empty() || value.contains(is_c_space) {
            return Err(RunLineError::BadField {
                field,
                value: value.to_owned(),
            });
        }
    }
    if score.is_nan() {
        return Err(RunLineError::NanScore);
    }
    Ok(format!("{query_id} Q0 {doc_id} {rank} {score} {tag}"))
}

/// Formats a whole run, queries in run order, each ranking in trec_eval order
/// with ranks from 1, so the rank column agrees with how it is evaluated.
pub fn format_run(run: &Run, tag: &str) -> Result<String, RunLineError> {
    let mut out = String::new();
    for (query_id, docs) in run.queries() {
        for (i, (doc_id, score)) in trec_eval_order(docs).into_iter().enumerate() {
            out.push_str(&format_run_line(query_id, doc_id, i + 1, *score, tag)?);
            out.push('\n');
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids<'a>(ranked: &[&'a (String, f64)]) -> Vec<&'a str> {
        ranked.iter().map(|(d, _)| d.as_str()).collect()
    }

    fn docs(pairs: &[(&str, f64)]) -> Vec<(String, f64)> {
        pairs.iter().map(|&(d, s)| (d.to_owned(), s)).collect()
    }

    #[test]
    fn run_keeps_first_seen_query_order() {
        let run = parse_trec_run("q2 Q0 a 1 1.5 t\nq1 Q0 b 1 2 t\n\nq2 Q0 c 9 -inf t\r\n").unwrap();
        let queries: Vec<_> = run.queries().map(|(q, d)| (q, d.len())).collect();
        assert_eq!(queries, [("q2", 2), ("q1", 1)]);
        assert_eq!(
            run.get("q2").unwrap()[1],
            ("c".to_owned(), f64::NEG_INFINITY)
        );
        assert_eq!(run.get("q3"), None);
    }

    #[test]
    fn run_errors_carry_line_numbers() {
        for (text, line, reason) in [
            ("q Q0 a 1 1 t\nq Q0 b 1 1\n", 2, "6 fields"),
            ("q Q0 a 1 1 t extra\n", 1, "6 fields"),
            ("q Q0 a 1 1 t\n\nq Q0 b 2 high t\n", 3, "'high'"),
            ("q Q0 a 1 NaN t\n", 1, "'NaN'"),
            (
                "q Q0 a 1 1 t\nq Q0 b 2 1e400 t\n",
                2,
                "'1e400' is out of range",
            ),
            ("q Q0 a 1 -1e309 t\n", 1, "'-1e309' is out of range"),
            (
                "q Q0 a 1 1 t\nr Q0 a 1 1 t\nq Q0 a 2 0.5 t\n",
                3,
                "duplicate",
            ),
        ] {
            let err = parse_trec_run(text).unwrap_err();
            assert_eq!(err.line, line, "{text:?}: {err}");
            assert!(err.reason.contains(reason), "{text:?}: {err}");
        }
    }

    #[test]
    fn spelled_infinities_rank_first_and_last() {
        let run =
            parse_trec_run("q Q0 a 1 -inf t\nq Q0 b 2 3.4e38 t\nq Q0 c 3 Infinity t\n").unwrap();
        let ranked = trec_eval_order(run.get("q").unwrap());
        assert_eq!(ids(&ranked), ["c", "b", "a"]);
        assert_eq!(ranked[0].1, f64::INFINITY);
        assert_eq!(ranked[2].1, f64::NEG_INFINITY);
        assert_eq!(parse_score("+INF"), Ok(f64::INFINITY));
    }

    #[test]
    fn empty_query_is_registered_once() {
        let mut run = Run::new();
        run.add_query("q");
        run.push("q", "a", 1.0).unwrap();
        run.add_query("q");
        assert_eq!(run.len(), 1);
        assert_eq!(run.get("q").unwrap().len(), 1);
        assert!(run.push("q", "a", 2.0).is_err());
    }

    #[test]
    fn order_is_score_then_doc_id_descending() {
        let d = docs(&[("a", 1.0), ("c", 3.0), ("b", 1.0), ("d", -2.0)]);
        assert_eq!(ids(&trec_eval_order(&d)), ["c", "b", "a", "d"]);
    }

    #[test]
    fn scores_tie_when_equal_as_f32() {
        // Distinct f64s, one f32: the doc id decides, as in trec_eval 9.0.x.
        let d = docs(&[("a", 1.0 + 1e-12), ("b", 1.0)]);
        assert_eq!(ids(&trec_eval_order(&d)), ["b", "a"]);
        let d = docs(&[("a", 0.0), ("b", -0.0), ("c", 5e-324)]);
        assert_eq!(ids(&trec_eval_order(&d)), ["c", "b", "a"]);
        let d = docs(&[("a", f64::INFINITY), ("b", 1e39)]);
        assert_eq!(ids(&trec_eval_order(&d)), ["b", "a"]);
        // Far enough apart to differ as f32.
        let d = docs(&[("a", 1.0 + 1e-6), ("b", 1.0)]);
        assert_eq!(ids(&trec_eval_order(&d)), ["a", "b"]);
    }

    #[test]
    fn doc_ids_compare_as_bytes() {
        let d = docs(&[
            ("Z", 0.0),
            ("é", 0.0),
            ("z", 0.0),
            ("d10", 0.0),
            ("d9", 0.0),
        ]);
        assert_eq!(ids(&trec_eval_order(&d)), ["é", "z", "d9", "d10", "Z"]);
    }

    #[test]
    fn formatted_scores_round_trip() {
        let mut bits: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut scores = vec![0.0, -0.0, 1.0, 0.1, f64::MAX, f64::MIN_POSITIVE, 5e-324];
        scores.extend([f64::INFINITY, f64::NEG_INFINITY]);
        for _ in 0..2000 {
            bits = bits.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            let score = f64::from_bits(bits);
            if !score.is_nan() {
                scores.push(score);
            }
        }
        for score in scores {
            let line = format_run_line("q", "d", 1, score, "tag").unwrap();
            let run = parse_trec_run(&line).unwrap();
            let parsed = run.get("q").unwrap()[0].1;
            assert_eq!(parsed.to_bits(), score.to_bits(), "{line}");
        }
    }

    #[test]
    fn format_rejects_unwritable_fields() {
        assert_eq!(
            format_run_line("q", "d", 3, 2.5, "bm25"),
            Ok("q Q0 d 3 2.5 bm25".to_owned())
        );
        for (q, d, tag) in [
            ("", "d", "t"),
            ("q 1", "d", "t"),
            ("q", "d\t", "t"),
            ("q", "d", ""),
        ] {
            assert!(matches!(
                format_run_line(q, d, 1, 1.0, tag),
                Err(RunLineError::BadField { .. })
            ));
        }
        assert_eq!(
            format_run_line("q", "d", 1, f64::NAN, "t"),
            Err(RunLineError::NanScore)
        );
    }

    #[test]
    fn format_run_writes_trec_eval_order() {
        let mut run = Run::new();
        for (q, d, s) in [
            ("q2", "a", 1.0),
            ("q1", "x", 0.5),
            ("q2", "b", 1.0),
            ("q2", "c", 2.0),
        ] {
            run.push(q, d, s).unwrap();
        }
        let text = format_run(&run, "t").unwrap();
        let reread = parse_trec_run(&text).unwrap();
        for ((q, original), (rq, reread)) in run.queries().zip(reread.queries()) {
            assert_eq!(q, rq);
            let expected: Vec<(String, f64)> =
                trec_eval_order(original).into_iter().cloned().collect();
            assert_eq!(reread, expected.as_slice());
        }
        let ranks: Vec<&str> = text.lines().map(|l| l.split(' ').nth(3).unwrap()).collect();
        assert_eq!(ranks, ["1", "2", "3", "1"]);
    }
}
