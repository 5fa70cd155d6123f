//! Exports of an evaluation: the TREC run file and the metrics JSON as
//! `nomos eval` writes them (same lines, same keys in the same order), and
//! the per-query metrics as CSV. Files are handed to the browser as
//! downloads through a Blob URL.

use std::fmt;

use nomos_core::eval::{format_run_line, RunLineError};

use super::job::Outcome;
use nomos_core::pool::Benchmark;

/// A run line that cannot be written, and the query it is for.
#[derive(Debug, Clone, PartialEq)]
pub struct RunFileError {
    pub query: String,
    pub error: RunLineError,
}

impl fmt::Display for RunFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "query {}: {}", self.query, self.error)
    }
}

impl std::error::Error for RunFileError {}

/// The run tag `nomos eval` writes for an outcome: the configuration,
/// and for an LLM method its prompt set, model and seed.
pub fn run_tag(outcome: &Outcome) -> String {
    let llm = outcome.llm.as_ref().map_or("", |l| l.tag_suffix.as_str());
    format!("nomos-{}{llm}", outcome.config.tag())
}

/// The TREC run: each query's ranking in our order (ties in corpus order),
/// ranks from 1, as `nomos eval --run` writes it.
pub fn run_file(bench: &Benchmark, outcome: &Outcome) -> Result<String, RunFileError> {
    let tag = run_tag(outcome);
    let mut out = String::new();
    for (q, hits) in bench.queries.iter().zip(&outcome.hits) {
        for (rank, hit) in hits.iter().enumerate() {
            let doc = &bench.doc_ids[hit.doc as usize];
            let line = format_run_line(&q.id, doc, rank + 1, hit.score, &tag).map_err(|error| {
                RunFileError {
                    query: q.id.clone(),
                    error,
                }
            })?;
            out.push_str(&line);
            out.push('\n');
        }
    }
    Ok(out)
}

/// The metrics JSON of `nomos eval --metrics`: one key per measure (the
/// mean), then `per_query`, pretty-printed with two-space indents.
pub fn metrics_json(outcome: &Outcome) -> String {
    let names: Vec<String> = outcome
        .eval
        .measures
        .iter()
        .map(|m| m.to_string())
        .collect();
    let mut out = String::from("{\n");
    for (name, mean) in names.iter().zip(&outcome.eval.means) {
        out.push_str(&format!("  {}: {},\n", json_str(name), json_num(*mean)));
    }
    if outcome.eval.queries.is_empty() {
        out.push_str("  \"per_query\": {}\n}");
        return out;
    }
    out.push_str("  \"per_query\": {\n");
    for (i, q) in outcome.eval.queries.iter().enumerate() {
        out.push_str(&format!("    {}: {{\n", json_str(&q.query_id)));
        for (j, (name, v)) in names.iter().zip(&q.values).enumerate() {
            let comma = if j + 1 < names.len() { "," } else { "" };
            out.push_str(&format!(
                "      {}: {}{comma}\n",
                json_str(name),
                json_num(*v)
            ));
        }
        let comma = if i + 1 < outcome.eval.queries.len() {
            ","
        } else {
            ""
        };
        out.push_str(&format!("    }}{comma}\n"));
    }
    out.push_str("  }\n}");
    out
}

/// One row per evaluated query (`query`, `gold` = number of gold articles,
/// then each measure at full precision), and a last row `all` with the
/// means, as trec_eval names its summary.
pub fn metrics_csv(bench: &Benchmark, outcome: &Outcome) -> String {
    let mut out = String::from("query,gold");
    for m in &outcome.eval.measures {
        out.push(',');
        out.push_str(&m.to_string());
    }
    out.push('\n');
    for (q, &b) in outcome.eval.queries.iter().zip(&outcome.rows) {
        out.push_str(&csv_field(&q.query_id));
        out.push_str(&format!(",{}", bench.queries[b].n_gold()));
        for v in &q.values {
            out.push_str(&format!(",{v}"));
        }
        out.push('\n');
    }
    out.push_str("all,");
    for v in &outcome.eval.means {
        out.push_str(&format!(",{v}"));
    }
    out.push('\n');
    out
}

/// `"text"` with JSON escapes, as serde_json writes keys.
fn json_str(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".to_owned())
}

/// A number as serde_json writes an f64 (`0.0`, `0.5419…`).
fn json_num(v: f64) -> String {
    serde_json::to_string(&v).unwrap_or_else(|_| "null".to_owned())
}

/// Quotes a CSV field that needs it (RFC 4180). A field a spreadsheet
/// would run as a formula (starting `=`, `+`, `-`, `@`, tab or CR: ids
/// come from the blob or a run file, i.e. from anyone) gets a leading `'`,
/// which spreadsheets read as "text" and hide (OWASP's advice).
fn csv_field(s: &str) -> String {
    let s = match s.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        true => format!("'{s}"),
        false => s.to_owned(),
    };
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval_config::{Config, RankedBy};
    use nomos_core::blob::Field;
    use nomos_core::eval::{evaluate, Run};
    use nomos_core::methods::Method;
    use nomos_core::search::{Bm25Params, Bm25Variant};

    fn outcome(qrels: &nomos_core::eval::Qrels, run: &Run) -> Outcome {
        let eval = evaluate(qrels, run, &crate::evaluate::measures::reported()[..2]);
        Outcome {
            config: RankedBy::Method(Config {
                method: Method::Bm25,
                params: Bm25Params::new(Bm25Variant::Okapi),
                field: Field::Text,
            }),
            rows: vec![0; eval.queries.len()],
            queries: eval.queries.len(),
            eval,
            hits: Vec::new(),
            llm: None,
            rank_millis: 0.0,
            eval_millis: 0.0,
        }
    }

    #[test]
    fn metrics_json_has_the_cli_shape() {
        let qrels = nomos_core::eval::parse_trec_qrels("q1 0 d 1\nq\"2 0 d 1\n").unwrap();
        let mut run = Run::new();
        run.push("q1", "d", 2.0).unwrap();
        run.add_query("q\"2");
        let json = metrics_json(&outcome(&qrels, &run));
        let parsed: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(parsed["ndcg@10"], 0.5);
        assert_eq!(parsed["per_query"]["q1"]["ndcg@100"], 1.0);
        assert_eq!(parsed["per_query"]["q\"2"]["ndcg@10"], 0.0);
        // Keys in the CLI's order, zeros written as serde_json writes f64.
        assert!(
            json.starts_with("{\n  \"ndcg@10\": 0.5,\n  \"ndcg@100\": 0.5,\n  \"per_query\": {\n")
        );
        assert!(json.contains("\"ndcg@10\": 0.0,"));
        let empty = metrics_json(&outcome(&qrels, &Run::new()));
        assert_eq!(
            empty,
            "{\n  \"ndcg@10\": 0.0,\n  \"ndcg@100\": 0.0,\n  \"per_query\": {}\n}"
        );
    }

    #[test]
    fn tags_and_csv_fields() {
        let qrels = nomos_core::eval::parse_trec_qrels("q1 0 d 1\n").unwrap();
        let tag = |method: &str| {
            let mut o = outcome(&qrels, &Run::new());
            o.config = RankedBy::Method(Config {
                method: method.parse().unwrap(),
                params: Bm25Params::new(Bm25Variant::Lucene),
                field: Field::Text,
            });
            run_tag(&o)
        };
        assert_eq!(tag("bm25"), "nomos-bm25+lucene:k1=1.5,b=0.75");
        assert_eq!(
            tag("rrf:k=20"),
            "nomos-rrf:k=20,depth=100,probes=64+lucene:k1=1.5,b=0.75"
        );
        assert_eq!(tag("dense:probes=0"), "nomos-dense:probes=0");
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("say \"x\""), "\"say \"\"x\"\"\"");
        assert_eq!(csv_field("plain"), "plain");
        // Formulas stay text in a spreadsheet.
        assert_eq!(csv_field("=HYPERLINK(\"x\")"), "\"'=HYPERLINK(\"\"x\"\")\"");
        assert_eq!(csv_field("+1"), "'+1");
        assert_eq!(csv_field("-2+3"), "'-2+3");
        assert_eq!(csv_field("@SUM(A1)"), "'@SUM(A1)");
        assert_eq!(csv_field("\tx"), "'\tx");
        assert_eq!(csv_field("\r=1"), "\"'\r=1\"");
        assert_eq!(csv_field("a=1"), "a=1");
    }
}
