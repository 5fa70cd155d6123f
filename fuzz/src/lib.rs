//! What the fuzz targets check, one function per kind of untrusted input.
//! Each takes any bytes and panics only on a bug: a panic inside the code
//! under test, or a broken promise (a parse that does not read back what
//! its formatter wrote). The libFuzzer targets (`fuzz_targets/`, built with
//! the `fuzz` feature by `scripts/fuzz.sh`) call these, and so does a
//! plain `cargo test` (`tests/replay.rs`), on the seeds and on every input
//! that ever crashed. The blob, link, TREC and method checks are here; the
//! rest have modules of their own.

mod fragments;
mod imports;
mod llm;
mod manifests;
mod siblings;
pub mod tiny;

use std::sync::Arc;

use nomos_app::url_state::LinkState;
use nomos_core::analysis::Analyzer;
use nomos_core::blob::{reseal, Blob, Field};
use nomos_core::eval::{format_run, format_trec_qrels, parse_trec_qrels, parse_trec_run, Run};
use nomos_core::methods::Method;
use nomos_core::search::{Bm25Scorer, Bm25Variant, Searcher};

/// A target's check: any bytes in, a panic only on a bug.
pub type Check = fn(&[u8]);

/// Every target: its name (the folder of its seeds and regressions) and
/// its check.
pub const TARGETS: [(&str, Check); 10] = [
    ("blob_open", blob_open),
    ("url_state", url_state),
    ("trec", trec),
    ("method_spec", method_spec),
    ("fragments", fragments),
    ("siblings", siblings),
    ("transcript", transcript),
    ("llm_reply", llm_reply),
    ("imports", imports),
    ("manifests", manifests),
];

pub use fragments::fragments;
pub use imports::imports;
pub use llm::{llm_reply, transcript};
pub use manifests::manifests;
pub use siblings::siblings;

/// `Blob::load` on the bytes as given (mostly the frame's checks) and
/// resealed (so mutations reach every section's checks); a blob that loads
/// must answer every accessor and rank (BM25 both ways, with and without
/// its idf table, and every set of vectors) without panicking.
pub fn blob_open(data: &[u8]) {
    if let Ok(blob) = Blob::load(data) {
        exercise(blob);
    }
    let mut sealed = data.to_vec();
    reseal(&mut sealed);
    if let Ok(blob) = Blob::load(&sealed) {
        exercise(blob);
    }
}

fn exercise(mut blob: Blob) {
    let _ = (blob.text_parts_for(0..blob.n_docs()), blob.text_bytes());
    for doc in 0..blob.n_docs() {
        let _ = (blob.doc_id(doc), blob.title(doc), blob.source(doc));
        let _ = (blob.area(doc), blob.article(doc));
        let _ = (blob.explicit_refs(doc), blob.implicit_refs(doc));
    }
    let queries: Vec<String> = blob.queries_iter().map(|q| q.text.to_owned()).collect();
    for q in 0..blob.n_queries() {
        let _ = blob.judgments(q).count();
    }
    let analyzer = Analyzer::by_name(blob.analyzer()).expect("the loader checked the analyzer");
    let params = blob.bm25_params();
    let idf = blob.idf_table().cloned();
    for field in [Field::Text, Field::Augmented] {
        if let Some(dense) = blob.dense(field) {
            // The corpus mean and a one-hot vector as queries.
            let mut one_hot = vec![0.0; dense.dim()];
            one_hot[0] = 1.0;
            for query in [dense.mean().to_vec(), one_hot] {
                let _ = dense.search(&query, 10);
                let _ = dense.search_binary(&query, 10, 100);
                let _ = dense.best_vector(&query, 0);
            }
        }
        let Some(index) = blob.take_index(field) else {
            continue;
        };
        for term in 0..index.n_terms() as u32 {
            let _ = index.postings(term).count();
        }
        let index = Arc::new(index);
        for variant in [Bm25Variant::Okapi, Bm25Variant::Lucene] {
            let params = nomos_core::search::Bm25Params { variant, ..params };
            for table in [idf.clone(), None] {
                let scorer = Bm25Scorer::with_idf_table(index.clone(), params, table)
                    .expect("the loader checked the BM25 defaults");
                let searcher = Searcher::new(analyzer, scorer);
                for query in queries.iter().take(5) {
                    let hits = searcher.search(query, 10);
                    if let Some(hit) = hits.first() {
                        let _ = searcher.scorer().explain(&analyzer.tokens(query), hit.doc);
                    }
                }
            }
        }
    }
}

/// A link's fragment, decoded (never fails), encoded, and decoded again to
/// the same state.
pub fn url_state(data: &[u8]) {
    let fragment = String::from_utf8_lossy(data);
    let state = LinkState::decode(&fragment);
    let link = state.encode();
    assert_eq!(LinkState::decode(&link), state, "{link}");
}

/// TREC runs and qrels: what parses formats, and the format parses back
/// to the same run and judgments.
pub fn trec(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(run) = parse_trec_run(text) {
        if let Ok(written) = format_run(&run, "fuzz") {
            let read = parse_trec_run(&written).expect("a written run parses");
            assert_eq!(sorted(&read), sorted(&run), "{written}");
        }
    }
    if let Ok(qrels) = parse_trec_qrels(text) {
        let written = format_trec_qrels(&qrels);
        assert_eq!(parse_trec_qrels(&written).as_ref(), Ok(&qrels), "{written}");
    }
}

/// A run's rankings by document id, for comparing runs whatever their order.
fn sorted(run: &Run) -> Vec<(String, Vec<(String, f64)>)> {
    let mut queries: Vec<_> = run
        .queries()
        .map(|(q, docs)| {
            let mut docs = docs.to_vec();
            docs.sort_by(|a, b| a.0.cmp(&b.0));
            (q.to_owned(), docs)
        })
        .collect();
    queries.sort_by(|a, b| a.0.cmp(&b.0));
    queries
}

/// A method spec (`rrf:k=60,depth=100`), parsed, written and parsed back to
/// the same method; and its first `key=value` set on each method.
pub fn method_spec(data: &[u8]) {
    let spec = String::from_utf8_lossy(data);
    if let Ok(method) = spec.parse::<Method>() {
        let written = method.to_string();
        assert_eq!(written.parse::<Method>().as_ref(), Ok(&method), "{written}");
        let _ = method.parameters();
    }
    if let Some((key, value)) = spec.split_once('=') {
        for name in Method::NAMES {
            let method = Method::by_name(name).expect("a listed name");
            let _ = method.with_param(key, value);
        }
    }
}
