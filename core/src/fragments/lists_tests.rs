//! Dense ranking over lists fragments equals
//! [`DenseIndex::search_ivf`] to the bit, and brute force with every list
//! probed; damaged, forged and missing lists fragments fail clearly and
//! never panic.

use super::format::{ListsSection, FRAGMENT_MAGIC, FRAGMENT_VERSION, LISTS_TAG};
use super::{
    fragment_input, fragment_with_lists, relist, Centroids, DenseLists, Fetched, FragmentError,
    FragmentKind, Fragmented, ListsFragment, Meta, TermFragment,
};
use crate::blob::test_blob::{danish_blob, danish_input};
use crate::blob::{archive, frame, reseal, Blob, DenseInput, DenseModel, DocumentInput, Field};
use crate::dense::{DenseIndex, Ivf, Passages};
use crate::embed::{Pooling, Windows};
use crate::methods::Method;
use crate::search::{Bm25Params, Bm25Variant};

const DIM: usize = 64;
const DOCS: usize = 300;

/// Deterministic pseudo-random values in −1..1.
fn noise(seed: u64, n: usize) -> Vec<f32> {
    let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 40) as f32 / (1u64 << 23) as f32 - 1.0
        })
        .collect()
}

/// The pool's `DOCS` documents, without their vectors.
fn documents() -> Vec<DocumentInput> {
    (0..DOCS)
        .map(|d| DocumentInput {
            id: format!("d{d}"),
            text: format!("text number {d} of the pool"),
            source: "s".into(),
            ..DocumentInput::default()
        })
        .collect()
}

/// `DOCS` documents, every third with two vectors (a document scores as
/// its best), every third of the rest with the vector of the document
/// before it (the same text: the lists fragments store it once), and the
/// blob holding them.
fn pool() -> (DenseIndex, Vec<u8>) {
    let mut offsets = vec![0u32];
    let mut starts = Vec::new();
    for d in 0..DOCS {
        let n = if d % 3 == 0 { 2 } else { 1 };
        starts.extend([0, 5].iter().take(n));
        offsets.push(offsets[d] + n as u32);
    }
    let mut vectors = noise(7, *offsets.last().unwrap() as usize * DIM);
    for d in (1..DOCS).filter(|d| d % 3 == 2 && d % 9 != 8) {
        let (to, from) = (offsets[d] as usize * DIM, offsets[d - 1] as usize * DIM);
        vectors.copy_within(from..from + DIM, to);
    }
    let passages = Passages { offsets, starts };
    let dense = DenseIndex::build_passages(&vectors, DIM, Some(passages)).unwrap();
    let documents = documents();
    let vectors = DenseInput {
        model: "m".into(),
        model_hash: "h".into(),
        pooling: Pooling::new(Windows::Max, false),
        text: &dense,
        augmented: None,
        hybrid: None,
    };
    let blob = danish_blob(&documents, &[], &[], Some(vectors));
    (dense, blob)
}

struct Cut {
    dense: DenseIndex,
    ivf: Ivf,
    meta_bytes: Vec<u8>,
    meta: Meta,
    files: Vec<Vec<u8>>,
    centroids: Centroids,
}

fn cut() -> Cut {
    let (dense, blob) = pool();
    let blob = Blob::load(&blob).unwrap();
    let ivf = Ivf::build(&dense, 20, 3).unwrap();
    let made = fragment_with_lists(&blob, 4096, Some(&ivf)).unwrap();
    let meta = Meta::load(&made.meta).unwrap();
    let files: Vec<Vec<u8>> = made.fragments.into_iter().map(|(_, b)| b).collect();
    let n = meta.needed_centroids().unwrap();
    assert_eq!(meta.fragments()[n].kind, FragmentKind::Centroids);
    let centroids = meta.open_centroids(n, &files[n]).unwrap();
    Cut {
        dense,
        ivf,
        meta_bytes: made.meta,
        meta,
        files,
        centroids,
    }
}

fn lists_numbers(meta: &Meta) -> Vec<usize> {
    (0..meta.fragments().len())
        .filter(|&n| meta.fragments()[n].kind == FragmentKind::Lists)
        .collect()
}

#[test]
fn fragments_rank_as_the_index_does() {
    let c = cut();
    assert_eq!(c.meta.dense_model(), Some(("m", "h", DIM)));
    assert_eq!(c.meta.n_lists(), 20);
    assert!(lists_numbers(&c.meta).len() > 3, "several lists fragments");
    for (q, query) in noise(99, 8 * DIM).chunks(DIM).enumerate() {
        for probes in [1, 2, 5, 19, 20, 0] {
            let needed = c.meta.needed_lists(&c.centroids, query, probes).unwrap();
            let opened: Vec<ListsFragment> = needed
                .iter()
                .map(|&n| c.meta.open_lists(n, &c.files[n]).unwrap())
                .collect();
            let given: Vec<&ListsFragment> = opened.iter().collect();
            let hits = c
                .meta
                .rank_dense(&c.centroids, query, probes, &given, 50)
                .unwrap();
            let memory = c.dense.search_ivf(&c.ivf, query, 50, probes).unwrap();
            assert_eq!(hits, memory, "query {q}, {probes} probes");
            if probes == 0 || probes >= 20 {
                assert_eq!(hits, c.dense.search(query, 50).unwrap());
            }
            // Fewer lists fetch fewer vectors.
            let listed: usize = c
                .meta
                .probed_lists(&c.centroids, query, probes)
                .unwrap()
                .iter()
                .map(|&l| c.meta.list_size(l))
                .sum();
            assert_eq!(listed == c.dense.n_vectors(), probes == 0 || probes >= 20);
        }
    }
}

#[test]
fn methods_rank_fragments_as_the_blob_with_the_same_lists() {
    let c = cut();
    let mut blob = Blob::load(&pool().1).unwrap();
    let whole = crate::pool::Pool::from_blob(&mut blob).unwrap();
    assert!(whole.add_ivf(c.ivf.clone()));
    let params = Bm25Params::new(Bm25Variant::Okapi);
    let tokens = c.meta.analyzer().tokens("number 7 of text");
    let terms: Vec<TermFragment> = c
        .meta
        .needed(Field::Text, &tokens)
        .unwrap()
        .into_iter()
        .map(|n| c.meta.open(n, &c.files[n]).unwrap())
        .collect();
    let terms: Vec<&TermFragment> = terms.iter().collect();
    for (q, query) in noise(42, 4 * DIM).chunks(DIM).enumerate() {
        for spec in [
            "dense:probes=3",
            "rrf:probes=2,depth=40",
            "weighted:probes=5",
            "bm25",
        ] {
            let method: Method = spec.parse().unwrap();
            let probes = Meta::probes_of(&method);
            let lists: Vec<ListsFragment> = match probes {
                Some(p) => c
                    .meta
                    .needed_lists(&c.centroids, query, p)
                    .unwrap()
                    .into_iter()
                    .map(|n| c.meta.open_lists(n, &c.files[n]).unwrap())
                    .collect(),
                None => Vec::new(),
            };
            let lists: Vec<&ListsFragment> = lists.iter().collect();
            let fetched = Fetched {
                terms: &terms,
                centroids: Some(&c.centroids),
                lists: &lists,
            };
            let ranked = c
                .meta
                .rank_method(&method, params, &tokens, Some(query), &fetched, 30)
                .unwrap();
            let expected = whole
                .rank(&method, &params, &tokens, Some(query), 30, true)
                .unwrap();
            assert!(!ranked.is_empty());
            assert_eq!(ranked, expected, "query {q}, {spec}");
        }
    }
    // Without the probed lists, or the centroids, a dense method says
    // which file it lacks.
    let method: Method = "rrf".parse().unwrap();
    let query = &noise(1, DIM)[..];
    let bare = Fetched {
        terms: &terms,
        ..Fetched::default()
    };
    let Err(FragmentError::Missing { file }) =
        c.meta
            .rank_method(&method, params, &tokens, Some(query), &bare, 10)
    else {
        panic!("ranked without the centroids");
    };
    assert_eq!(file, c.meta.fragments()[c.centroids.number()].file);
    let without_lists = Fetched {
        centroids: Some(&c.centroids),
        ..bare
    };
    assert!(matches!(
        c.meta
            .rank_method(&method, params, &tokens, Some(query), &without_lists, 10),
        Err(FragmentError::Missing { .. })
    ));
    for (spec, can) in [
        ("dense", true),
        ("rrf", true),
        ("weighted", true),
        ("bm25", true),
    ]
    .into_iter()
    .chain([("dense-binary", false), ("rocchio", false), ("prf", false)])
    {
        let method: Method = spec.parse().unwrap();
        assert_eq!(c.meta.cannot_rank(&method).is_none(), can, "{spec}");
    }
}

/// `documents` cut into fragments straight from the builder's input, as
/// `nomos build --fragments` cuts them, with `lists` for dense queries.
fn danish_fragments(
    documents: &[DocumentInput],
    max_bytes: usize,
    lists: Option<DenseLists<'_>>,
) -> Result<Fragmented, FragmentError> {
    danish_input(documents, &[], &[], None, |input| {
        Ok(fragment_input(input, max_bytes, lists, &|_| {})?.0)
    })
}

/// Vectors for some documents only (`nomos build --embed-only`): the lists
/// name each vector's pool document, so dense ranks exactly those, with
/// the scores they have when every document has vectors.
#[test]
fn vectors_for_some_documents_rank_those_documents_as_over_all() {
    let (full, _) = pool();
    let docs: Vec<u32> = (0..DOCS as u32)
        .filter(|d| d % 4 == 1 || d % 9 == 0)
        .collect();
    let mut vectors = Vec::new();
    let mut passages = Passages {
        offsets: vec![0],
        starts: Vec::new(),
    };
    for &d in &docs {
        for v in full.doc_vectors(d as usize) {
            vectors.extend(full.vector(v).unwrap());
            passages.starts.push(full.passage_start(v) as u32);
        }
        passages.offsets.push((vectors.len() / DIM) as u32);
    }
    let part = DenseIndex::build_passages(&vectors, DIM, Some(passages)).unwrap();
    let ivf = Ivf::build(&part, 8, 3).unwrap();
    let documents = documents();
    let model = DenseModel {
        id: "m".into(),
        manifest_hash: "h".into(),
        dim: DIM,
        pooling: Pooling::new(Windows::Max, false),
    };
    let lists = DenseLists {
        model: &model,
        index: &part,
        ivf: &ivf,
        docs: Some(&docs),
    };
    let made = danish_fragments(&documents, 4096, Some(lists)).unwrap();
    let meta = Meta::load(&made.meta).unwrap();
    let files: Vec<Vec<u8>> = made.fragments.into_iter().map(|(_, b)| b).collect();
    let n = meta.needed_centroids().unwrap();
    let centroids = meta.open_centroids(n, &files[n]).unwrap();
    for query in noise(42, 4 * DIM).chunks(DIM) {
        let needed = meta.needed_lists(&centroids, query, 0).unwrap();
        let opened: Vec<ListsFragment> = needed
            .iter()
            .map(|&n| meta.open_lists(n, &files[n]).unwrap())
            .collect();
        let given: Vec<&ListsFragment> = opened.iter().collect();
        let hits = meta.rank_dense(&centroids, query, 0, &given, DOCS).unwrap();
        let over_all: Vec<_> = full
            .search(query, DOCS)
            .unwrap()
            .into_iter()
            .filter(|h| docs.contains(&h.doc))
            .collect();
        assert_eq!(hits, over_all);
        assert_eq!(hits.len(), docs.len());
    }
    // The documents must be the pool's, in order.
    for bad in [
        vec![0u32; docs.len()],
        vec![DOCS as u32; docs.len()],
        docs[1..].to_vec(),
    ] {
        let lists = DenseLists {
            docs: Some(&bad),
            ..lists
        };
        let refused = danish_fragments(&documents, 4096, Some(lists));
        assert!(refused.is_err(), "{bad:?}");
    }
}

#[test]
fn a_missing_list_or_a_bad_query_is_refused() {
    let c = cut();
    let query = &noise(5, DIM)[..];
    let needed = c.meta.needed_lists(&c.centroids, query, 3).unwrap();
    match c.meta.rank_dense(&c.centroids, query, 3, &[], 10) {
        Err(FragmentError::Missing { file }) => {
            assert!(needed.iter().any(|&n| c.meta.fragments()[n].file == file))
        }
        other => panic!("{other:?}"),
    }
    assert!(c
        .meta
        .needed_lists(&c.centroids, &[0.0; DIM + 1], 3)
        .is_err());
    assert!(c
        .meta
        .needed_lists(&c.centroids, &[f32::NAN; DIM], 3)
        .is_err());
    // A postings fragment is not a lists fragment nor the centroids.
    assert!(c.meta.open_lists(0, &c.files[0]).is_err());
    assert!(c.meta.open_centroids(0, &c.files[0]).is_err());
}

/// A lists fragment for the first range of lists, made by hand.
fn forged(c: &Cut, edit: impl FnOnce(&mut ListsSection)) -> (usize, Vec<u8>) {
    let n = lists_numbers(&c.meta)[0];
    let good = c.meta.open_lists(n, &c.files[n]).unwrap();
    let mut section = ListsSection {
        first_list: good.lists().start as u32,
        offsets: vec![0],
        doc_starts: vec![0],
        docs: Vec::new(),
        codes: Vec::new(),
        scales: Vec::new(),
    };
    for l in good.lists() {
        // Each distinct vector once, in the order of its first member.
        let mut groups: Vec<(usize, Vec<u32>)> = Vec::new();
        for &v in c.ivf.list(l) {
            let v = v as usize;
            let same = |&(w, _): &(usize, Vec<u32>)| {
                c.dense.vector_codes(w) == c.dense.vector_codes(v)
                    && c.dense.scales()[w] == c.dense.scales()[v]
            };
            match groups.iter().position(same) {
                Some(g) => groups[g].1.push(c.dense.doc_of(v) as u32),
                None => groups.push((v, vec![c.dense.doc_of(v) as u32])),
            }
        }
        for (v, docs) in groups {
            section.docs.extend(docs);
            section.doc_starts.push(section.docs.len() as u32);
            section.codes.extend_from_slice(c.dense.vector_codes(v));
            section.scales.push(c.dense.scales()[v]);
        }
        section.offsets.push(section.scales.len() as u32);
    }
    edit(&mut section);
    let bytes = archive(&section).unwrap();
    let bytes =
        frame::assemble_as(FRAGMENT_MAGIC, FRAGMENT_VERSION, &[(LISTS_TAG, 0, &bytes)]).unwrap();
    (n, bytes)
}

#[test]
fn forged_lists_are_refused_by_name() {
    let c = cut();
    let (n, same) = forged(&c, |_| ());
    assert_eq!(same, c.files[n], "the forger writes what the cutter does");
    type Edit = Box<dyn FnOnce(&mut ListsSection)>;
    let cases: [(&str, Edit); 8] = [
        ("not in the pool", Box::new(|s| s.docs[0] = DOCS as u32)),
        ("-127..=127", Box::new(|s| s.codes[3] = i8::MIN)),
        ("finite", Box::new(|s| s.scales[1] = f32::NAN)),
        ("sizes", Box::new(|s| s.offsets[1] += 1)),
        ("starts at list", Box::new(|s| s.first_list += 1)),
        ("document starts", Box::new(|s| s.docs.truncate(1))),
        ("document starts", Box::new(|s| s.doc_starts[1] = 0)),
        ("list offsets", Box::new(|s| s.offsets.push(0))),
    ];
    for (expected, edit) in cases {
        let (n, bytes) = forged(&c, edit);
        let mut meta = c.meta_bytes.clone();
        relist(&mut meta, n, &bytes).unwrap();
        let meta = Meta::load(&meta).unwrap();
        let message = meta.open_lists(n, &bytes).unwrap_err().to_string();
        assert!(message.contains(expected), "{expected}: {message}");
        assert!(message.contains(&meta.fragments()[n].file), "{message}");
    }
}

/// Fuzz-style: flipped bytes, resealed and relisted so that they reach the
/// content checks, are refused with the file's name or open and rank
/// without panicking; unrelisted, they fail the listed hash.
#[test]
fn flipped_lists_never_panic() {
    let c = cut();
    let query = &noise(11, DIM)[..];
    let mut refused = 0;
    for n in lists_numbers(&c.meta).into_iter().take(2) {
        let bytes = &c.files[n];
        for at in (32..bytes.len()).step_by((bytes.len() / 200).max(1)) {
            let mut damaged = bytes.clone();
            damaged[at] ^= 0x41;
            assert!(c.meta.open_lists(n, &damaged).is_err());
            reseal(&mut damaged);
            let mut meta = c.meta_bytes.clone();
            relist(&mut meta, n, &damaged).unwrap();
            let meta = Meta::load(&meta).unwrap();
            match meta.open_lists(n, &damaged) {
                Ok(f) => drop(meta.rank_dense(&c.centroids, query, 0, &[&f], 10)),
                Err(e) => {
                    let message = e.to_string();
                    assert!(message.contains(&meta.fragments()[n].file), "{message}");
                    refused += 1;
                }
            }
        }
    }
    assert!(refused > 20, "{refused}");
}

/// Flips in the meta's dense directory are refused or load, never panic.
#[test]
fn flipped_meta_never_panics() {
    let c = cut();
    let query = &noise(13, DIM)[..];
    for at in (32..c.meta_bytes.len()).step_by(7) {
        let mut damaged = c.meta_bytes.clone();
        damaged[at] ^= 0x41;
        frame::seal(&mut damaged);
        if let Ok(meta) = Meta::load(&damaged) {
            let n = meta.needed_centroids();
            let centroids = n.and_then(|n| meta.open_centroids(n, &c.files[n]));
            if let Ok(centroids) = centroids {
                let _ = meta.needed_lists(&centroids, query, 4);
            }
        }
    }
}

/// Flips in the centroids fragment, resealed and relisted, are refused
/// naming the file or choose lists without panicking.
#[test]
fn flipped_centroids_never_panic() {
    let c = cut();
    let n = c.meta.needed_centroids().unwrap();
    let query = &noise(17, DIM)[..];
    let mut refused = 0;
    let bytes = &c.files[n];
    for at in (32..bytes.len()).step_by((bytes.len() / 200).max(1)) {
        let mut damaged = bytes.clone();
        damaged[at] ^= 0x41;
        reseal(&mut damaged);
        let mut meta = c.meta_bytes.clone();
        relist(&mut meta, n, &damaged).unwrap();
        let meta = Meta::load(&meta).unwrap();
        match meta.open_centroids(n, &damaged) {
            Ok(centroids) => drop(meta.needed_lists(&centroids, query, 3)),
            Err(e) => {
                assert!(e.to_string().contains(&meta.fragments()[n].file), "{e}");
                refused += 1;
            }
        }
    }
    // Most flips land in codes or scales, which stay valid values (a
    // centroid moves; lists are still chosen): the frame and archive
    // checks refuse the rest.
    assert!(refused >= 5, "{refused}");
}

#[test]
fn documents_of_the_same_text_share_one_stored_vector() {
    let c = cut();
    let opened: Vec<ListsFragment> = lists_numbers(&c.meta)
        .into_iter()
        .map(|n| c.meta.open_lists(n, &c.files[n]).unwrap())
        .collect();
    let members: usize = opened.iter().map(|f| f.vectors().count()).sum();
    assert_eq!(members, c.dense.n_vectors(), "every document's vectors");
    // Stored once per member, the codes alone and a document and scale
    // each would take this much; shared, less.
    let heap: usize = opened.iter().map(|f| f.heap_bytes()).sum();
    assert!(
        heap < members * (DIM + 8),
        "{heap} bytes for {members} members"
    );
}
