use super::*;
use crate::blob::test_blob::{danish_blob, definition_blobs};
use crate::blob::{DenseInput, DocumentInput};
use crate::embed::{Pooling, Windows};

/// `prop` ranks along a blob's definition edges, and a pool with no edge
/// refuses it rather than ranking plain BM25.
#[test]
fn prop_ranks_along_definition_edges_and_needs_a_graph() {
    let (plain, with_edges) = definition_blobs();
    let prop: Method = "prop:share=0.5".parse().unwrap();
    let pool = Pool::from_blob(&mut Blob::load(&with_edges).unwrap()).unwrap();
    assert_eq!(pool.graph().map(|g| g.n_edges()), Some(1));
    let shore = pool.analyzer().tokens("shore");
    let params = pool.default_params();
    let hits = pool.rank(&prop, &params, &shore, None, 10, true).unwrap();
    // `c` uses a term `b` defines: it gains half of b's score.
    assert_eq!(hits.iter().map(|h| h.doc).collect::<Vec<_>>(), [1, 2]);
    assert_eq!(hits[1].score, 0.5 * hits[0].score);

    let pool = Pool::from_blob(&mut Blob::load(&plain).unwrap()).unwrap();
    assert!(pool.graph().is_none());
    let refused = pool.rank(&prop, &params, &shore, None, 10, true);
    assert_eq!(refused, Err(RankError::NoGraph));
    assert!(refused.unwrap_err().to_string().contains("has none"));
}

/// A pool starts with its builder's hybrid where its vectors can be used,
/// and BM25 elsewhere; with none named, `rrf`. A blob naming a method that
/// does not fuse BM25 and dense, or one out of range, does not open.
#[test]
fn a_pool_starts_with_its_own_hybrid() {
    let documents = ["sea", "shore"].map(|text| DocumentInput {
        id: text.into(),
        text: text.into(),
        source: "s".into(),
        ..DocumentInput::default()
    });
    let vectors = DenseIndex::build(&[0.6, 0.8, 1.0, 0.0], 2).unwrap();
    let open = |hybrid: Option<&str>| {
        let dense = DenseInput {
            model: "m".into(),
            model_hash: "h".into(),
            pooling: Pooling::new(Windows::First, false),
            text: &vectors,
            augmented: None,
            hybrid: hybrid.map(Into::into),
        };
        let bytes = danish_blob(&documents, &[], &[], Some(dense));
        Pool::from_blob(&mut Blob::load(&bytes).unwrap())
    };
    let pool = open(Some("weighted:w=0.3")).unwrap();
    assert_eq!(pool.default_method(true), "weighted:w=0.3".parse().unwrap());
    assert_eq!(pool.default_method(false), Method::Bm25);
    let pool = open(None).unwrap();
    assert_eq!(pool.default_method(true), Method::by_name("rrf").unwrap());
    assert_eq!(
        open(Some("prf")).unwrap_err().to_string(),
        "the blob's hybrid default: \"prf\" is not a hybrid: a pool's hybrid fuses BM25 and \
         dense (rrf, weighted)"
    );
    assert_eq!(
        open(Some("weighted:w=2")).unwrap_err().to_string(),
        "the blob's hybrid default: method weighted: w = 2 is out of range"
    );
}
