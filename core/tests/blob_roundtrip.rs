//! A blob built from the Greek Constitution reads back exactly what went in.

mod blob_support;

use nomos_core::blob::{Blob, EncodeReport, Field, FORMAT_VERSION, MAGIC};
use nomos_core::search::Bm25Scorer;

use blob_support::{input, sample};

#[test]
fn everything_reads_back() {
    let s = sample();
    let (bytes, report) = nomos_core::blob::encode(&input(&s)).unwrap();
    let n = s.documents.len();
    assert_eq!(
        report,
        EncodeReport {
            judgments_unknown_doc: 1,
            explicit_refs_unknown: n,
            ..EncodeReport::default()
        }
    );
    assert_eq!(&bytes[..8], &MAGIC);
    let blob = Blob::load(&bytes).unwrap();

    assert_eq!(blob.analyzer(), "gbr-greek");
    assert_eq!(blob.bm25_params(), input(&s).bm25.into());
    assert_eq!(blob.header().manifest.dataset, "el-syntagma");
    assert_eq!(blob.n_docs(), n);
    assert_eq!(blob.sources().collect::<Vec<_>>(), ["Syntagma"]);
    assert_eq!(
        blob.areas().collect::<Vec<_>>(),
        ["first half", "second half"]
    );
    for (i, d) in s.documents.iter().enumerate() {
        assert_eq!(blob.doc_id(i), Some(d.id.as_str()));
        assert_eq!(blob.doc_index(&d.id), Some(i as u32));
        assert_eq!(blob.title(i), Some(d.title.as_str()));
        assert_eq!(blob.source(i), Some("Syntagma"));
        assert_eq!(blob.area(i), d.area.as_deref());
        let text = blob.article(i).unwrap();
        assert_eq!(text.text, d.text);
        assert_eq!(text.paragraphs, d.paragraphs);
        assert_eq!(text.augmented, d.augmented);
        assert_eq!(text.path, d.path);
        assert_eq!(text.version_date, d.version_date);
        let resolve = |ids: &[String]| -> Vec<u32> {
            ids.iter().filter_map(|id| blob.doc_index(id)).collect()
        };
        assert_eq!(blob.explicit_refs(i), resolve(&d.explicit_refs));
        assert_eq!(blob.implicit_refs(i), resolve(&d.implicit_refs));
    }
    assert_eq!(blob.doc_id(n), None);
    assert!(blob.article(n).is_err());
    assert_eq!(blob.unknown_refs(), (n as u32, 0));

    assert_eq!(blob.n_queries(), s.queries.len());
    for (q, (stored, given)) in blob.queries_iter().zip(&s.queries).enumerate() {
        assert_eq!(stored.id, given.id);
        assert_eq!(stored.text, given.text);
        assert_eq!(stored.area, given.area.as_deref());
        let judged: Vec<_> = blob.judgments(q).map(|j| (j.doc, j.relevance)).collect();
        let expected: Vec<_> = s
            .judgments
            .iter()
            .filter(|j| j.query_id == given.id)
            .filter_map(|j| Some((blob.doc_index(&j.doc_id)?, j.relevance)))
            .collect();
        assert_eq!(judged, expected);
    }
    assert_eq!(blob.header().n_judgments as usize, s.queries.len());
}

#[test]
fn loaded_indexes_equal_the_built_ones_and_rank_identically() {
    let s = sample();
    let (bytes, _) = nomos_core::blob::encode(&input(&s)).unwrap();
    let mut blob = Blob::load(&bytes).unwrap();
    assert_eq!(
        blob.fields().collect::<Vec<_>>(),
        [Field::Text, Field::Augmented]
    );
    for (field, built) in [(Field::Text, &s.index), (Field::Augmented, &s.augmented)] {
        let loaded = blob.take_index(field).unwrap();
        assert_eq!(loaded.clone().into_parts(), built.clone().into_parts());
        // Every document frequency of either field has the builder's logs,
        // and scoring with them is scoring with this platform's ln.
        let table = blob.idf_table().cloned().unwrap();
        assert!(built.doc_freqs().iter().all(|df| table.dfs().contains(df)));
        let params = blob.bm25_params();
        let a = Bm25Scorer::with_idf_table(loaded, params, Some(table)).unwrap();
        let b = Bm25Scorer::new(built.clone(), params).unwrap();
        let analyzer = nomos_core::analysis::Analyzer::by_name(blob.analyzer()).unwrap();
        for q in blob.queries_iter() {
            let tokens = analyzer.tokens(q.text);
            let (sa, sb) = (a.scores(&tokens), b.scores(&tokens));
            assert_eq!(
                sa.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
                sb.iter().map(|x| x.to_bits()).collect::<Vec<_>>()
            );
        }
        assert!(blob.index(field).is_none());
    }
}

#[test]
fn encoding_is_deterministic() {
    let s = sample();
    let a = nomos_core::blob::encode(&input(&s)).unwrap().0;
    let b = nomos_core::blob::encode(&input(&s)).unwrap().0;
    assert_eq!(a, b);
    assert_eq!(
        u32::from_le_bytes(a[8..12].try_into().unwrap()),
        FORMAT_VERSION
    );
}

#[test]
fn duplicate_ids_are_refused() {
    let mut s = sample();
    s.documents[3].id = s.documents[2].id.clone();
    let err = nomos_core::blob::encode(&input(&s)).unwrap_err();
    assert!(
        err.to_string().contains("1 duplicate document ids"),
        "{err}"
    );
}
