//! BM25 parity with the reference implementations, on fixtures written by
//! `scripts/fixtures/gen_bm25.py` (rank_bm25 0.2.2 `BM25Okapi`, bm25s 0.3.8
//! lucene): for every query and configuration, the top-100 document ids must
//! be identical and their scores bit-identical (they are: the scorer repeats
//! the references' floating-point operations in the same order), and the
//! okapi idf table must match entry for entry, in rank_bm25's dict order.

use std::fs::File;
use std::io::BufReader;

use flate2::read::GzDecoder;
use nomos_core::hits::{top_k_into, Hit};
use nomos_core::index::InvertedIndex;
use nomos_core::search::{Bm25Params, Bm25Scorer, Bm25Variant};
use serde_json::Value;

const TOP: usize = 100;

fn load(name: &str) -> Value {
    let path = format!(
        "{}/tests/fixtures/bm25/{name}.json.gz",
        env!("CARGO_MANIFEST_DIR")
    );
    let file = File::open(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_reader(BufReader::new(GzDecoder::new(file))).unwrap()
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap().to_owned())
        .collect()
}

fn floats(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

fn params(config: &Value) -> Bm25Params {
    Bm25Params {
        variant: config["variant"].as_str().unwrap().parse().unwrap(),
        k1: config["k1"].as_f64().unwrap(),
        b: config["b"].as_f64().unwrap(),
        epsilon: config["epsilon"].as_f64().unwrap(),
    }
}

/// Checks every run of one fixture; returns how many queries were compared.
fn check_corpus(name: &str) -> usize {
    let fx = load(name);
    let docs: Vec<Vec<String>> = fx["docs"].as_array().unwrap().iter().map(strings).collect();
    let queries: Vec<Vec<String>> = fx["queries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| strings(&q["tokens"]))
        .collect();
    // Score through a blob-style round trip, so `from_parts` is covered too.
    let built = InvertedIndex::build(&docs).unwrap();
    let index = InvertedIndex::from_parts(built.into_parts()).unwrap();
    let mut scorer = Bm25Scorer::new(index, Bm25Params::default()).unwrap();

    let runs = fx["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 4);
    let mut scores = Vec::new();
    let mut hits: Vec<Hit> = Vec::new();
    let mut compared = 0;
    for run in runs {
        let params = params(run);
        scorer.set_params(params).unwrap();
        let tops = run["top"].as_array().unwrap();
        let top_scores = run["scores"].as_array().unwrap();
        assert_eq!(tops.len(), queries.len());
        for (q, query) in queries.iter().enumerate() {
            let want_ids: Vec<u32> = tops[q]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_u64().unwrap() as u32)
                .collect();
            let want_scores = floats(&top_scores[q]);
            scorer.score_into(query, &mut scores);
            top_k_into(&scores, TOP, false, &mut hits);
            let got_ids: Vec<u32> = hits.iter().map(|h| h.doc).collect();
            assert_eq!(got_ids, want_ids, "{name} {params:?} query {q}: ids");
            for (rank, (hit, want)) in hits.iter().zip(&want_scores).enumerate() {
                assert_eq!(
                    hit.score.to_bits(),
                    want.to_bits(),
                    "{name} {params:?} query {q} rank {rank}: {} vs reference {want}",
                    hit.score
                );
            }
            compared += 1;
        }
    }

    if let Some(idf) = fx.get("idf") {
        let params = params(idf);
        assert_eq!(params.variant, Bm25Variant::Okapi);
        scorer.set_params(params).unwrap();
        // rank_bm25's dict order is our term-id order.
        assert_eq!(
            scorer.index().terms().collect::<Vec<_>>(),
            strings(&idf["terms"])
        );
        let want = floats(&idf["values"]);
        assert_eq!(scorer.idf().len(), want.len());
        for (t, (got, want)) in scorer.idf().iter().zip(&want).enumerate() {
            assert_eq!(got.to_bits(), want.to_bits(), "{name} idf of term {t}");
        }
        // The epsilon floor is in use, so the idf mean is checked too.
        let floor = params.epsilon * idf["average_idf"].as_f64().unwrap();
        assert!(want.contains(&floor), "{name}: no floored idf");
    }
    compared
}

#[test]
fn greek_constitution_matches_rank_bm25_and_bm25s() {
    assert_eq!(check_corpus("el_syntagma"), 4 * 159);
}

/// The Civil Code as the el-codes reader reads it (`scripts/fixtures/gen_bm25.py`).
#[test]
fn greek_civil_code_matches_rank_bm25_and_bm25s() {
    assert_eq!(check_corpus("el_codes_ak"), 4 * 45);
}

#[test]
fn danish_acts_match_rank_bm25_and_bm25s() {
    assert_eq!(check_corpus("da_acts"), 4 * 50);
}

#[test]
fn synthetic_corpus_matches_rank_bm25_and_bm25s() {
    assert_eq!(check_corpus("synthetic"), 4 * 32);
}

/// `explain`'s total is the score to the bit, for every configuration of
/// every fixture corpus, on each query's top documents (several terms
/// summed), a document it ranks low, and every 7th query only, for time.
#[test]
fn explanations_add_up_to_the_scores_bit_for_bit() {
    for name in ["el_syntagma", "el_codes_ak", "da_acts", "synthetic"] {
        let fx = load(name);
        let docs: Vec<Vec<String>> = fx["docs"].as_array().unwrap().iter().map(strings).collect();
        let index = InvertedIndex::build(&docs).unwrap();
        let mut scorer = Bm25Scorer::new(index, Bm25Params::default()).unwrap();
        let mut scores = Vec::new();
        let mut hits: Vec<Hit> = Vec::new();
        for run in fx["runs"].as_array().unwrap() {
            scorer.set_params(params(run)).unwrap();
            for query in fx["queries"].as_array().unwrap().iter().step_by(7) {
                let query = strings(&query["tokens"]);
                scorer.score_into(&query, &mut scores);
                top_k_into(&scores, 10, false, &mut hits);
                let low = hits.last().map(|h| h.doc + 1).unwrap_or(0) % docs.len() as u32;
                for doc in hits.iter().map(|h| h.doc).chain([low]) {
                    let e = scorer.explain(&query, doc).unwrap();
                    assert_eq!(
                        e.total.to_bits(),
                        scores[doc as usize].to_bits(),
                        "{name} {:?} doc {doc}: {e}",
                        scorer.params()
                    );
                    assert_eq!(e.terms.len(), query.len());
                }
            }
        }
    }
}
