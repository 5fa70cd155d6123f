//! Relevance judgments and their two text formats.

use std::collections::BTreeMap;

use super::parse::{is_c_space, parse_relevance, trec_fields, Duplicate, ParseError};

/// Relevance judgments: query id -> doc id -> relevance. Order is irrelevant
/// to every measure, so both levels are sorted maps.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Qrels {
    queries: BTreeMap<String, BTreeMap<String, i32>>,
}

impl Qrels {
    /// No judgments.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds one judgment; a second judgment of the same pair is an error.
    pub fn insert(
        &mut self,
        query_id: &str,
        doc_id: &str,
        relevance: i32,
    ) -> Result<(), Duplicate> {
        let docs = self.queries.entry(query_id.to_owned()).or_default();
        if docs.contains_key(doc_id) {
            return Err(Duplicate {
                query_id: query_id.to_owned(),
                doc_id: doc_id.to_owned(),
            });
        }
        docs.insert(doc_id.to_owned(), relevance);
        Ok(())
    }

    /// The judgments of one query, if it has any.
    pub fn get(&self, query_id: &str) -> Option<&BTreeMap<String, i32>> {
        self.queries.get(query_id)
    }

    /// Query ids in sorted order.
    pub fn query_ids(&self) -> impl Iterator<Item = &str> {
        self.queries.keys().map(String::as_str)
    }

    /// Number of judged queries.
    pub fn len(&self) -> usize {
        self.queries.len()
    }

    /// Whether no query has judgments.
    pub fn is_empty(&self) -> bool {
        self.queries.is_empty()
    }

    fn insert_line(&mut self, q: &str, d: &str, rel: i32, line: usize) -> Result<(), ParseError> {
        self.insert(q, d, rel)
            .map_err(|e| ParseError::new(line, e.to_string()))
    }
}

/// Writes TREC qrels, `qid 0 docid rel` per line, queries and documents
/// in sorted order: what [`parse_trec_qrels`] reads back as the same
/// judgments. Ids must hold no whitespace (the format splits on it).
pub fn format_trec_qrels(qrels: &Qrels) -> String {
    let mut out = String::new();
    for (q, docs) in &qrels.queries {
        for (d, rel) in docs {
            out.push_str(&format!("{q} 0 {d} {rel}\n"));
        }
    }
    out
}

/// Parses TREC qrels: `qid iter docid rel` per line, whitespace separated, the
/// `iter` column ignored (as trec_eval). Blank lines are skipped; a repeated
/// (query, doc) pair is an error, as trec_eval aborts on it.
pub fn parse_trec_qrels(text: &str) -> Result<Qrels, ParseError> {
    let mut qrels = Qrels::new();
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        let fields = trec_fields(line);
        match fields[..] {
            [] => {}
            [q, _iter, d, rel] => qrels.insert_line(q, d, parse_relevance(rel, n)?, n)?,
            _ => {
                return Err(ParseError::new(
                    n,
                    format!(
                        "expected 4 fields 'qid iter docid rel', found {}",
                        fields.len()
                    ),
                ))
            }
        }
    }
    Ok(qrels)
}

/// The header line every BEIR `qrels/*.tsv` file starts with.
const BEIR_HEADER: [&str; 3] = ["query-id", "corpus-id", "score"];

/// Parses BEIR qrels: a TSV whose first line is the header
/// `query-id<TAB>corpus-id<TAB>score`, then one judgment per line. Fields are
/// tab separated (ids may hold spaces) and trimmed; blank lines are skipped.
/// A repeated (query, doc) pair is an error, as in TREC qrels (BEIR's own
/// loader would silently keep the last one).
pub fn parse_beir_qrels(text: &str) -> Result<Qrels, ParseError> {
    let mut qrels = Qrels::new();
    let mut header_seen = false;
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        if line.chars().all(is_c_space) {
            continue;
        }
        let fields: Vec<&str> = line
            .split('\t')
            .map(|f| f.trim_matches(is_c_space))
            .collect();
        if !header_seen {
            if fields != BEIR_HEADER {
                return Err(ParseError::new(
                    n,
                    "expected the header 'query-id<TAB>corpus-id<TAB>score'",
                ));
            }
            header_seen = true;
            continue;
        }
        match fields[..] {
            [q, d, rel] if !q.is_empty() && !d.is_empty() => {
                qrels.insert_line(q, d, parse_relevance(rel, n)?, n)?
            }
            [_, _, _] => return Err(ParseError::new(n, "empty query or corpus id")),
            _ => {
                return Err(ParseError::new(
                    n,
                    format!("expected 3 tab-separated fields, found {}", fields.len()),
                ))
            }
        }
    }
    if !header_seen {
        return Err(ParseError::new(
            1,
            "expected the header 'query-id<TAB>corpus-id<TAB>score'",
        ));
    }
    Ok(qrels)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trec_qrels_written_read_back_the_same() {
        let qrels = parse_trec_qrels("q2 0 d1 0\nq1 3 d9 1\nq1 0 d10 2\n").unwrap();
        let text = format_trec_qrels(&qrels);
        assert_eq!(text, "q1 0 d10 2\nq1 0 d9 1\nq2 0 d1 0\n");
        assert_eq!(parse_trec_qrels(&text).unwrap(), qrels);
    }

    #[test]
    fn trec_qrels_skip_blank_lines_and_ignore_iter() {
        let qrels = parse_trec_qrels("q1 0 d1 2\r\n\n  \nq1 7 d2 -1\nq2\t0\td1\t0\n").unwrap();
        assert_eq!(qrels.len(), 2);
        let q1 = qrels.get("q1").unwrap();
        assert_eq!(q1.get("d1"), Some(&2));
        assert_eq!(q1.get("d2"), Some(&-1));
        assert_eq!(qrels.get("q2").unwrap().get("d1"), Some(&0));
        assert_eq!(qrels.query_ids().collect::<Vec<_>>(), ["q1", "q2"]);
    }

    #[test]
    fn trec_qrels_errors_carry_line_numbers() {
        let err = parse_trec_qrels("q1 0 d1 1\n\nq1 0 d2\n").unwrap_err();
        assert_eq!(err.line, 3);
        assert!(err.reason.contains("4 fields"), "{err}");

        let err = parse_trec_qrels("q1 0 d1 1 extra\n").unwrap_err();
        assert_eq!(err.line, 1);

        let err = parse_trec_qrels("q1 0 d1 1\nq1 0 d2 1.5\n").unwrap_err();
        assert_eq!(err.line, 2);
        assert!(err.reason.contains("'1.5'"), "{err}");
        assert_eq!(err.to_string(), format!("line 2: {}", err.reason));
    }

    #[test]
    fn relevance_beyond_32_bits_is_refused_by_name() {
        let err = parse_trec_qrels(
            "q1 0 d1 2147483647
q1 0 d2 2147483648
",
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 2: relevance '2147483648' is out of range (-2147483648 to 2147483647)"
        );
        let header = "query-id\tcorpus-id\tscore\n";
        let err = parse_beir_qrels(&format!("{header}q1\td1\t-2147483649\n")).unwrap_err();
        assert_eq!(err.line, 2);
        assert!(err.reason.contains("out of range"), "{err}");
    }

    #[test]
    fn trec_qrels_reject_duplicate_judgments() {
        let err = parse_trec_qrels("q1 0 d1 1\nq2 0 d1 1\nq1 0 d1 0\n").unwrap_err();
        assert_eq!(err.line, 3);
        assert!(err.reason.contains("duplicate"), "{err}");
    }

    #[test]
    fn non_ascii_spaces_stay_inside_ids() {
        let qrels = parse_trec_qrels("q1 0 d\u{a0}1 1\n").unwrap();
        assert!(qrels.get("q1").unwrap().contains_key("d\u{a0}1"));
    }

    #[test]
    fn beir_qrels_need_the_header() {
        let qrels = parse_beir_qrels("\nquery-id\tcorpus-id\tscore\r\nq 1\tart 7\t1\n\nq2\tx\t0\n")
            .unwrap();
        assert_eq!(qrels.get("q 1").unwrap().get("art 7"), Some(&1));
        assert_eq!(qrels.get("q2").unwrap().get("x"), Some(&0));

        for text in ["", "\n \n", "q1\td1\t1\n", "query-id corpus-id score\n"] {
            let err = parse_beir_qrels(text).unwrap_err();
            assert!(err.reason.contains("header"), "{text:?}: {err}");
        }
        let err = parse_beir_qrels("\n\nq1\td1\t1\n").unwrap_err();
        assert_eq!(err.line, 3);
    }

    #[test]
    fn beir_qrels_errors_carry_line_numbers() {
        let header = "query-id\tcorpus-id\tscore\n";
        let err = parse_beir_qrels(&format!("{header}q1\td1\t1\nq1\td2\n")).unwrap_err();
        assert_eq!(
            (err.line, err.reason.contains("3 tab-separated")),
            (3, true)
        );

        let err = parse_beir_qrels(&format!("{header}q1\td1\tyes\n")).unwrap_err();
        assert_eq!(err.line, 2);

        let err = parse_beir_qrels(&format!("{header}q1\t\t1\n")).unwrap_err();
        assert_eq!(err.line, 2);

        let err = parse_beir_qrels(&format!("{header}q1\td1\t1\nq1\td1\t2\n")).unwrap_err();
        assert_eq!(err.line, 3);
        assert!(err.reason.contains("duplicate"), "{err}");
    }
}
