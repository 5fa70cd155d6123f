//! `Searcher::from_blob` ranks exactly like the blob's analyzer feeding a
//! scorer over the index the blob was built from.

mod blob_support;

use nomos_core::analysis::Analyzer;
use nomos_core::blob::{Blob, Field};
use nomos_core::search::{Bm25Params, Bm25Scorer, Bm25Variant, Searcher, SearcherError};

use blob_support::{input, sample};

#[test]
fn searcher_from_a_blob_ranks_like_analyzer_and_scorer() {
    let s = sample();
    let (bytes, _) = nomos_core::blob::encode(&input(&s)).unwrap();
    let mut blob = Blob::load(&bytes).unwrap();
    let analyzer = Analyzer::by_name(blob.analyzer()).unwrap();
    let queries: Vec<String> = blob.queries_iter().map(|q| q.text.to_owned()).collect();
    let mut searcher = Searcher::from_blob(&mut blob, blob_params()).unwrap();
    assert!(blob.index(Field::Text).is_none(), "the text index moved");
    assert_eq!(searcher.analyzer(), analyzer);

    for params in [blob_params(), Bm25Params::new(Bm25Variant::Lucene)] {
        searcher.set_params(params).unwrap();
        let reference = Bm25Scorer::new(s.index.clone(), params).unwrap();
        for q in &queries {
            let expected = reference.search(&analyzer.tokens(q), usize::MAX, true);
            assert!(!expected.is_empty(), "{q}");
            assert_eq!(searcher.search(q, usize::MAX), expected);
            assert_eq!(searcher.search(q, 3), expected[..expected.len().min(3)]);
        }
    }

    // The index is gone: a second searcher cannot be made from this blob.
    assert_eq!(
        Searcher::from_blob(&mut blob, blob_params()).unwrap_err(),
        SearcherError::NoTextIndex
    );
}

#[test]
fn invalid_params_are_refused() {
    let s = sample();
    let (bytes, _) = nomos_core::blob::encode(&input(&s)).unwrap();
    let mut blob = Blob::load(&bytes).unwrap();
    let bad = Bm25Params {
        b: 2.0,
        ..blob_params()
    };
    assert!(matches!(
        Searcher::from_blob(&mut blob, bad),
        Err(SearcherError::Params(_))
    ));
    assert!(
        blob.index(Field::Text).is_some(),
        "the blob keeps its index"
    );
}

fn blob_params() -> Bm25Params {
    Bm25Params::new(Bm25Variant::Okapi)
}
