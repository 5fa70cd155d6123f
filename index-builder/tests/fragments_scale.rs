//! Exactness at scale: a synthetic Danish pool of 10⁵ chunks (`nomos
//! synth`, fixed seed), built once as a blob and as fragments (`nomos build
//! -o --fragments`, the fragments cut from the builder's input, not from the
//! blob), ranks to the bit the same over both: every document's BM25 score
//! (okapi and lucene) and the top 100, for a few hundred queries drawn from
//! the pool's own text, of 3 terms and of 6 to 12. The queries are ranked
//! in-process through nomos-core, one build for both formats, so the test
//! stays within its CI budget. A damaged fragment is refused.

#[path = "support/cli.rs"]
mod cli;

use std::collections::HashMap;
use std::path::Path;

use cli::{data, ok};
use nomos_core::blob::{reseal, Blob, Field};
use nomos_core::fragments::{FragmentError, FragmentKind, Meta, TermFragment};
use nomos_core::hits::top_k;
use nomos_core::pool::Pool;
use nomos_core::search::{Bm25Params, Bm25Variant};

/// Chunks in the synthetic pool: enough for thousands of fragments.
const DOCS: usize = 100_000;
/// Queries of 3 terms, and of 6 to 12.
const SHORT_QUERIES: usize = 200;
const LONG_QUERIES: usize = 100;

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// `n` terms of document `doc`'s text, spread over it (`None`: too short).
fn query_from(blob: &Blob, meta: &Meta, doc: usize, n: usize, seed: usize) -> Option<Vec<String>> {
    let text = blob.article(doc).unwrap().text;
    let tokens = meta.analyzer().tokens(&text);
    if tokens.len() < n {
        return None;
    }
    let stride = tokens.len() / n;
    Some(
        (0..n)
            .map(|i| tokens[i * stride + (seed + i) % stride].clone())
            .collect(),
    )
}

#[test]
fn a_synthetic_pool_of_100k_chunks_ranks_to_the_bit_over_fragments() {
    let dir = tempfile::tempdir().unwrap();
    let (src, blob_path, frag_dir) = (
        dir.path().join("synth"),
        dir.path().join("pool.blob"),
        dir.path().join("fragments"),
    );
    let data = data();
    let docs = DOCS.to_string();
    ok(&[
        "synth",
        "--from",
        "da",
        "--docs",
        &docs,
        "--seed",
        "1",
        "--data",
        path(&data),
        "--out",
        path(&src),
    ]);
    ok(&[
        "build",
        "--format",
        "da-acts",
        path(&src),
        "-o",
        path(&blob_path),
        "--fragments",
        path(&frag_dir),
    ]);

    let mut blob = Blob::load(&std::fs::read(&blob_path).unwrap()).unwrap();
    let meta = Meta::load(&std::fs::read(frag_dir.join("meta")).unwrap()).unwrap();
    assert_eq!(meta.n_docs(), DOCS);
    assert!(meta.n_fragments() > 500, "{} fragments", meta.n_fragments());
    let queries: Vec<Vec<String>> = (0..)
        .filter_map(|i: usize| {
            let long = i >= SHORT_QUERIES;
            let n = if long { 6 + i % 7 } else { 3 };
            query_from(&blob, &meta, (i * 7_919) % DOCS, n, i)
        })
        .take(SHORT_QUERIES + LONG_QUERIES)
        .collect();
    let pool = Pool::from_blob_field(&mut blob, Field::Text).unwrap();

    let read = |n: usize| std::fs::read(frag_dir.join(&meta.fragments()[n].file)).unwrap();
    let mut opened: HashMap<usize, TermFragment> = HashMap::new();
    let okapi = Bm25Params::new(Bm25Variant::Okapi);
    let lucene = Bm25Params::new(Bm25Variant::Lucene);
    let scorers = [
        (okapi, pool.scorer(&okapi).unwrap()),
        (lucene, pool.scorer(&lucene).unwrap()),
    ];
    let mut fetched = 0;
    for tokens in &queries {
        let needed = meta.needed(Field::Text, tokens).unwrap();
        for &n in &needed {
            if let std::collections::hash_map::Entry::Vacant(e) = opened.entry(n) {
                e.insert(meta.open(n, &read(n)).unwrap());
            }
        }
        fetched += needed.len();
        let given: Vec<&TermFragment> = needed.iter().map(|n| &opened[n]).collect();
        for (params, scorer) in &scorers {
            let whole = scorer.scores(tokens);
            let parts = meta.scores(Field::Text, *params, tokens, &given).unwrap();
            for &(doc, part) in &parts {
                assert_eq!(
                    whole[doc as usize].to_bits(),
                    part.to_bits(),
                    "{tokens:?} {params}: document {doc}"
                );
            }
            let nonzero = |s: f64| s.to_bits() != 0;
            assert_eq!(
                whole.iter().filter(|&&s| nonzero(s)).count(),
                parts.iter().filter(|&&(_, s)| nonzero(s)).count(),
                "{tokens:?} {params}: documents scored over the blob only"
            );
            let ranked = meta
                .rank(Field::Text, *params, tokens, &given, 100)
                .unwrap();
            assert_eq!(
                ranked.len(),
                100,
                "{tokens:?}: drawn from the text, it matches"
            );
            assert_eq!(ranked, top_k(&whole, 100, true), "{tokens:?} {params}");
        }
    }
    assert!(fetched >= queries.len(), "every query needs a fragment");

    // A damaged fragment, postings, page or documents, is refused by name.
    let page_number = meta
        .fragments()
        .iter()
        .position(|f| f.kind == FragmentKind::DocsPage)
        .unwrap();
    let page = meta.open_page(page_number, &read(page_number)).unwrap();
    let (docs_number, docs_listed) = page.fragments().next().unwrap();
    for kind in [
        FragmentKind::Postings,
        FragmentKind::DocsPage,
        FragmentKind::Docs,
    ] {
        let (n, file) = match kind {
            FragmentKind::Docs => (docs_number, docs_listed.file.clone()),
            kind => {
                let n = meta.fragments().iter().position(|f| f.kind == kind);
                let n = n.unwrap();
                (n, meta.fragments()[n].file.clone())
            }
        };
        let mut bytes = std::fs::read(frag_dir.join(&file)).unwrap();
        let at = bytes.len() / 2;
        bytes[at] ^= 0x01;
        for damaged in [bytes.clone(), {
            reseal(&mut bytes);
            bytes
        }] {
            let err = match kind {
                FragmentKind::Postings => meta.open(n, &damaged).map(drop),
                FragmentKind::DocsPage => meta.open_page(n, &damaged).map(drop),
                FragmentKind::Docs => meta.open_docs(&page, n, &damaged).map(drop),
                FragmentKind::Lists | FragmentKind::Centroids => unreachable!("no vectors"),
            }
            .expect_err("a damaged fragment opened");
            match err {
                FragmentError::Fragment { file: named, .. } => assert_eq!(named, file),
                other => panic!("{other}"),
            }
        }
    }
}
