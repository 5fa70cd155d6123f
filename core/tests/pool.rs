//! `Pool::from_blob` ranks exactly like the blob's analyzer feeding a
//! scorer over the index the blob was built from, and reads the blob's
//! benchmark.

mod blob_support;

use nomos_core::analysis::Analyzer;
use nomos_core::blob::{Blob, Field};
use nomos_core::eval::Qrels;
use nomos_core::methods::Method;
use nomos_core::pool::{Benchmark, Grouping, Pool, PoolError};
use nomos_core::search::{editorial, Bm25Params, Bm25Scorer, Bm25Variant, ParamsError};

use blob_support::{input, sample};

#[test]
fn pool_from_a_blob_ranks_like_analyzer_and_scorer() {
    let s = sample();
    let (bytes, _) = nomos_core::blob::encode(&input(&s)).unwrap();
    let mut blob = Blob::load(&bytes).unwrap();
    let analyzer = Analyzer::by_name(blob.analyzer()).unwrap();
    let queries: Vec<String> = blob.queries_iter().map(|q| q.text.to_owned()).collect();
    let pool = Pool::from_blob(&mut blob).unwrap();
    assert!(blob.index(Field::Text).is_none(), "the text index moved");
    assert!(blob.dense(Field::Text).is_none(), "the text vectors moved");
    assert_eq!(pool.analyzer(), analyzer);
    assert_eq!(pool.default_params(), blob_params());
    assert_eq!(pool.dense_model().unwrap().id, "test-model");
    assert_eq!(pool.dense().unwrap().n_docs(), s.documents.len());

    for params in [blob_params(), Bm25Params::new(Bm25Variant::Lucene)] {
        let reference = Bm25Scorer::new(s.index.clone(), params).unwrap();
        for q in &queries {
            let tokens = analyzer.tokens(q);
            let expected = reference.search(&tokens, usize::MAX, true);
            assert!(!expected.is_empty(), "{q}");
            let rank = |k| pool.rank(&Method::Bm25, &params, &tokens, None, k, true);
            assert_eq!(rank(usize::MAX).unwrap(), expected);
            assert_eq!(rank(3).unwrap(), expected[..expected.len().min(3)]);
        }
    }

    // The index is gone: a second pool cannot be made from this blob.
    assert_eq!(
        Pool::from_blob(&mut blob).unwrap_err(),
        PoolError::NoIndex("text")
    );
}

/// CRAwLeR-DK's protocol ranks the augmented texts: a pool over that field
/// ranks as a scorer over the augmented index, with its vectors.
#[test]
fn a_pool_over_the_augmented_field_ranks_the_augmented_texts() {
    let s = sample();
    let (bytes, _) = nomos_core::blob::encode(&input(&s)).unwrap();
    let mut blob = Blob::load(&bytes).unwrap();
    let queries: Vec<String> = blob.queries_iter().map(|q| q.text.to_owned()).collect();
    let pool = Pool::from_blob_field(&mut blob, Field::Augmented).unwrap();
    assert!(blob.index(Field::Text).is_some(), "the text index stays");
    assert!(blob.index(Field::Augmented).is_none());
    assert!(pool.dense().is_some(), "the augmented vectors moved");
    let params = pool.default_params();
    let reference = Bm25Scorer::new(s.augmented.clone(), params).unwrap();
    let mut ranked = 0;
    for q in &queries {
        let tokens = pool.analyzer().tokens(q);
        let expected = reference.search(&tokens, 10, true);
        ranked += expected.len();
        let got = pool.rank(&Method::Bm25, &params, &tokens, None, 10, true);
        assert_eq!(got.unwrap(), expected, "{q}");
    }
    assert!(ranked > 0);
    assert_eq!(
        Pool::from_blob_field(&mut blob, Field::Augmented).unwrap_err(),
        PoolError::NoIndex("augmented")
    );
}

#[test]
fn the_scorer_is_kept_for_the_last_parameters() {
    let s = sample();
    let (bytes, _) = nomos_core::blob::encode(&input(&s)).unwrap();
    let pool = Pool::from_blob(&mut Blob::load(&bytes).unwrap()).unwrap();
    let okapi = blob_params();
    let first = pool.scorer(&okapi).unwrap();
    assert!(std::sync::Arc::ptr_eq(
        &first,
        &pool.scorer(&okapi).unwrap()
    ));
    let lucene = Bm25Params::new(Bm25Variant::Lucene);
    assert_eq!(pool.scorer(&lucene).unwrap().params(), lucene);
    assert!(!std::sync::Arc::ptr_eq(
        &first,
        &pool.scorer(&okapi).unwrap()
    ));
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
    let pool = Pool::from_blob(&mut blob).unwrap();
    assert!(matches!(
        pool.scorer(&bad),
        Err(ParamsError::OutOfRange { name: "b", .. })
    ));
    assert!(pool
        .rank(&Method::Bm25, &bad, &["x"], None, 10, true)
        .is_err());
}

#[test]
fn the_benchmark_is_read_in_blob_order() {
    let s = sample();
    let (bytes, _) = nomos_core::blob::encode(&input(&s)).unwrap();
    let mut blob = Blob::load(&bytes).unwrap();
    let analyzer = Analyzer::by_name(blob.analyzer()).unwrap();
    let bench = Benchmark::from_blob(&blob, &analyzer).unwrap();
    let ids: Vec<&str> = bench.queries.iter().map(|q| q.id.as_str()).collect();
    let expected: Vec<&str> = s.queries.iter().map(|q| q.id.as_str()).collect();
    assert_eq!(ids, expected);
    assert_eq!(bench.doc_ids.len(), s.documents.len());
    assert_eq!(bench.doc_ids[0], "Syntagma::1");
    // Some queries have an area: grouped by it, "(none)" for the others.
    assert_eq!(bench.grouping, Grouping::QueryArea);
    assert_eq!(bench.grouping.heading(), "Area");
    let q0 = &bench.queries[0];
    assert_eq!(q0.area.as_deref(), Some("first half"));
    assert_eq!(q0.groups, ["first half"]);
    assert_eq!(bench.queries[1].groups, ["(none)"]);
    assert_eq!(q0.tokens, analyzer.tokens(&q0.text));
    // The judgment of a missing document was dropped when encoding.
    assert_eq!(q0.judged, [(0, 1)]);
    assert_eq!(q0.gold().collect::<Vec<_>>(), [0]);
    assert_eq!((q0.n_gold(), q0.grade(0), q0.grade(1)), (1, Some(1), None));
    assert!(bench.one_gold);
    assert_eq!(bench.position("q5"), Some(1));
    assert_eq!(bench.position("q1"), None);
    assert_eq!(bench.qrels.get("q5").unwrap()["Syntagma::6"], 1);

    // Opening the pool leaves the benchmark readable from the blob.
    Pool::from_blob(&mut blob).unwrap();
    assert_eq!(
        Benchmark::from_blob(&blob, &analyzer).unwrap().queries,
        bench.queries
    );

    // From parts: the same queries and judgments give the same benchmark,
    // and without areas queries are grouped by their gold's source.
    let mut qrels = Qrels::new();
    for j in &s.judgments {
        qrels.insert(&j.query_id, &j.doc_id, j.relevance).unwrap();
    }
    let source = |_| Some("Syntagma");
    let parts = Benchmark::from_parts(
        bench.doc_ids.clone(),
        s.queries.clone(),
        qrels.clone(),
        &analyzer,
        &source,
    );
    assert_eq!(parts.queries, bench.queries);
    assert_eq!(
        parts.qrels.get("q0").unwrap().len(),
        2,
        "all judgments kept"
    );
    let no_areas = s
        .queries
        .iter()
        .map(|q| nomos_core::blob::QueryInput {
            area: None,
            ..q.clone()
        })
        .collect();
    let by_source =
        Benchmark::from_parts(bench.doc_ids.clone(), no_areas, qrels, &analyzer, &source);
    assert_eq!(by_source.grouping, Grouping::GoldSource);
    assert_eq!(by_source.queries[1].groups, ["Syntagma"]);

    // A run cut short evaluates the queries it did: they alone, found
    // by id at their new places, with every judgment kept.
    let second = bench.only(&[1]);
    assert_eq!(second.queries, [bench.queries[1].clone()]);
    assert_eq!(
        (second.position("q5"), second.position("q0")),
        (Some(0), None)
    );
    assert_eq!(second.qrels.get("q0"), bench.qrels.get("q0"));
    assert_eq!(second.grouping, bench.grouping);
}

fn blob_params() -> Bm25Params {
    Bm25Params::new(Bm25Variant::Okapi)
}

/// Editorial headings (the blob's `LEXE` field) add their BM25 score times
/// the weight to the text's, in every lexical ranking; weight 0 ranks the
/// text alone, bit for bit as a blob without them.
#[test]
fn editorial_headings_add_their_weighted_bm25_to_the_text() {
    let s = sample();
    let analyzer = Analyzer::by_name("gbr-greek").unwrap();
    let headings_of =
        |d: &nomos_core::blob::DocumentInput| d.title.rsplit(" - ").next().unwrap().to_owned();
    let headings = nomos_core::index::InvertedIndex::build(
        s.documents.iter().map(|d| analyzer.tokens(&headings_of(d))),
    )
    .unwrap();
    let bytes = |with: bool| {
        let mut input = input(&s);
        input.editorial_index = with.then_some(&headings);
        nomos_core::blob::encode(&input).unwrap().0
    };
    let mut blob = Blob::load(&bytes(true)).unwrap();
    assert!(blob.has_editorial_headings());
    let idf = blob.idf_table().cloned();
    let pool = Pool::from_blob(&mut blob).unwrap();
    assert!(blob.has_editorial_headings(), "still said once taken");
    assert_eq!(pool.editorial_weight(), Some(editorial::WEIGHT));
    let params = pool.default_params();
    let text = Bm25Scorer::with_idf_table(s.index.clone(), params, idf.clone()).unwrap();
    let heads = Bm25Scorer::with_idf_table(headings.clone(), params, idf).unwrap();

    let mut moved = 0;
    for d in &s.documents {
        let tokens = analyzer.tokens(&headings_of(d));
        let mut expected: Vec<f64> = text.scores(&tokens);
        for (e, h) in expected.iter_mut().zip(heads.scores(&tokens)) {
            *e += editorial::WEIGHT * h;
        }
        let mut top = Vec::new();
        nomos_core::hits::top_k_into(&expected, 10, true, &mut top);
        let got = pool.rank(&Method::Bm25, &params, &tokens, None, 10, true);
        assert_eq!(got.unwrap(), top, "{}", d.id);
        let explained = pool.explain(&params, &tokens, top[0].doc).unwrap().unwrap();
        assert_eq!(
            explained.score().to_bits(),
            top[0].score.to_bits(),
            "{}",
            d.id
        );
        assert_eq!(explained.editorial.unwrap().weight, editorial::WEIGHT);
        moved += usize::from(top != text.search(&tokens, 10, true));
    }
    assert!(moved > 0, "the headings change some rankings");

    let alone = Pool::from_blob(&mut Blob::load(&bytes(true)).unwrap())
        .unwrap()
        .with_editorial_weight(0.0)
        .unwrap();
    let without = Pool::from_blob(&mut Blob::load(&bytes(false)).unwrap()).unwrap();
    assert!(!Blob::load(&bytes(false)).unwrap().has_editorial_headings());
    assert_eq!(
        (alone.editorial_weight(), without.editorial_weight()),
        (None, None)
    );
    for q in ["ελευθερία του τύπου", "Προστασία του περιβάλλοντος"]
    {
        let tokens = analyzer.tokens(q);
        let rank = |p: &Pool| {
            p.rank(&Method::Bm25, &params, &tokens, None, 10, true)
                .unwrap()
        };
        assert_eq!(rank(&alone), rank(&without), "{q}");
        let first = rank(&alone)[0].doc;
        let explained = alone.explain(&params, &tokens, first).unwrap().unwrap();
        assert_eq!(explained.editorial, None, "{q}");
    }
    assert_eq!(
        without.with_editorial_weight(-1.0).unwrap_err(),
        PoolError::EditorialWeight(-1.0)
    );
}
