//! Files a user imports into Evaluate: their own judgments (a BEIR
//! `queries.jsonl` and TREC qrels, as exported) and run files made
//! elsewhere.

use nomos_app::judgments::Judgments;
use nomos_core::eval::{evaluate, parse_trec_qrels, parse_trec_run, reported, trec_eval_order};

/// The bytes up to the first NUL as `queries.jsonl` and the rest as
/// qrels: judgments that import export to files that import back to
/// them, and store and read back alike. The whole text as a run file,
/// evaluated against the tiny pool's judgments with every reported
/// measure, and each query's ranking in trec_eval's order.
pub fn imports(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (queries, qrels) = text.split_once('\0').unwrap_or((text, ""));
    if let Ok(judgments) = Judgments::import("queries.jsonl", queries, "qrels.txt", qrels) {
        let (q, r) = (judgments.to_queries_jsonl(), judgments.to_trec_qrels());
        let back = Judgments::import("queries.jsonl", &q, "qrels.txt", &r).ok();
        assert!(back.as_ref() == Some(&judgments), "{q}\n{r}");
        let stored = Judgments::from_json(&judgments.to_json()).ok();
        assert!(stored.as_ref() == Some(&judgments));
    }
    let _ = Judgments::from_json(text);
    if let Ok(run) = parse_trec_run(text) {
        let qrels = parse_trec_qrels("q1 0 a 2\nq2 0 b 1\nq2 0 c 1\n").expect("valid qrels");
        let _ = evaluate(&qrels, &run, &reported());
        for (_, docs) in run.queries() {
            let _ = trec_eval_order(docs);
        }
    }
}
