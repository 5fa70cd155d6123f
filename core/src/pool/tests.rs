use super::*;
use crate::blob::test_blob::definition_blobs;

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
