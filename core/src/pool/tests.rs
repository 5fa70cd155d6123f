use super::*;
use crate::blob::test_blob::{danish_blob, definition_blobs};
use crate::blob::{DenseInput, DocumentInput};
use crate::embed::{Pooling, Windows};
use crate::methods::rrf;

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

/// `mix` ranks by the vectors moved toward what each document points to,
/// `ctx-rrf` fuses it with `prop` as `rrf` fuses two lists, and both need
/// the graph.
#[test]
fn mix_and_ctx_rrf_rank_along_the_graph_and_need_it() {
    let doc = |id: &str, text: &str, refs: &[&str]| DocumentInput {
        id: id.into(),
        text: text.into(),
        source: "s".into(),
        definition_refs: refs.iter().map(|&r| r.into()).collect(),
        ..DocumentInput::default()
    };
    // `c` says what `a` says, and uses a term `b` defines.
    let vectors = DenseIndex::build(&[1.0, 0.0, 0.0, 1.0, 1.0, 0.0], 2).unwrap();
    let open = |c_refs: &[&str]| {
        let documents = [
            doc("a", "sea", &[]),
            doc("b", "shore", &[]),
            doc("c", "way", c_refs),
        ];
        let dense = DenseInput {
            model: "m".into(),
            model_hash: "h".into(),
            pooling: Pooling::new(Windows::First, false),
            text: &vectors,
            augmented: None,
            hybrid: None,
        };
        let bytes = danish_blob(&documents, &[], &[], Some(dense));
        Pool::from_blob(&mut Blob::load(&bytes).unwrap()).unwrap()
    };
    let pool = open(&["b"]);
    let params = pool.default_params();
    let shore = pool.analyzer().tokens("shore");
    let q = [0.0f32, 1.0];
    let rank = |spec: &str, k: usize| {
        let method: Method = spec.parse().unwrap();
        pool.rank(&method, &params, &shore, Some(&q), k, true)
            .unwrap()
    };
    let docs = |hits: &[Hit]| hits.iter().map(|h| h.doc).collect::<Vec<_>>();
    // Plain dense ties `a` and `c` at 0; mixed, `c` is (1, 1)/√2.
    assert_eq!(docs(&rank("dense", 3)), [1, 0, 2]);
    let mixed = rank("mix:share=1", 3);
    assert_eq!(docs(&mixed), [1, 2, 0]);
    assert!((mixed[1].score - 0.5f64.sqrt()).abs() < 0.01, "{mixed:?}");
    let fused = rank("ctx-rrf:share=0.5,mix=1", 3);
    let expected = rrf(
        &[&rank("prop:share=0.5", 100), &rank("mix:share=1", 100)],
        60.0,
    );
    assert_eq!(fused, expected);
    assert_eq!(docs(&fused), [1, 2, 0]);

    let plain = open(&[]);
    for spec in ["mix", "ctx-rrf"] {
        let method: Method = spec.parse().unwrap();
        let refused = plain.rank(&method, &params, &shore, Some(&q), 3, true);
        assert_eq!(refused, Err(RankError::NoGraph), "{spec}");
    }
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
