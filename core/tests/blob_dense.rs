//! The optional dense section: vectors read back exactly, readers that do
//! not know the section skip it, and damage that gets past the checksum and
//! the content hash is caught by the section's own checks.

mod blob_support;

use nomos_core::blob::{encode, reseal, Blob, BlobError, DenseInput, Field};
use nomos_core::dense::{DenseIndex, Passages};
use nomos_core::embed::{Pooling, Windows};

use blob_support::{input, sample, unit_vectors, DENSE_DIM};

#[test]
fn vectors_read_back_exactly_and_rank_identically() {
    let s = sample();
    let (bytes, _) = encode(&input(&s)).unwrap();
    let mut blob = Blob::load(&bytes).unwrap();
    let model = blob.dense_model().unwrap();
    assert_eq!(
        (model.id.as_str(), model.manifest_hash.as_str(), model.dim),
        ("test-model", "0123abcd", DENSE_DIM)
    );
    assert_eq!(model.pooling, Pooling::new(Windows::First, false));
    assert_eq!(blob.dense(Field::Text), Some(&s.dense));
    assert_eq!(blob.dense(Field::Augmented), Some(&s.dense_augmented));
    let query = &unit_vectors(1, 99);
    assert_eq!(
        blob.dense(Field::Text)
            .unwrap()
            .search_binary(query, 10, 50),
        s.dense.search_binary(query, 10, 50)
    );
    assert_eq!(blob.take_dense(Field::Text), Some(s.dense.clone()));
    assert!(blob.dense(Field::Text).is_none());
    let info = blob.sections().iter().find(|i| &i.tag == b"DNSP").unwrap();
    assert_eq!(info.name, "dense");
    assert_eq!(flags(&bytes, *b"DNSP"), 1, "written as optional");
}

#[test]
fn blobs_without_vectors_have_none() {
    let s = sample();
    let mut plain = input(&s);
    plain.dense = None;
    let blob = Blob::load(&encode(&plain).unwrap().0).unwrap();
    assert!(blob.dense_model().is_none());
    assert!(blob.dense(Field::Text).is_none());
    assert!(blob.sections().iter().all(|i| &i.tag != b"DNSP"));
}

#[test]
fn text_vectors_alone_are_enough() {
    let s = sample();
    let mut only_text = input(&s);
    only_text.dense = Some(DenseInput {
        augmented: None,
        hybrid: None,
        ..only_text.dense.unwrap()
    });
    let blob = Blob::load(&encode(&only_text).unwrap().0).unwrap();
    assert!(blob.dense(Field::Text).is_some());
    assert!(blob.dense(Field::Augmented).is_none());
}

/// What a reader from before the dense section sees: an unknown tag with
/// the optional flag, which it skips.
#[test]
fn a_reader_without_the_section_skips_it() {
    let s = sample();
    let bytes = retagged(&s, *b"DENZ");
    let blob = Blob::load(&bytes).unwrap();
    assert!(blob.dense_model().is_none());
    assert!(blob.sections().iter().any(|i| i.name == "(unknown DENZ)"));
    assert_eq!(blob.n_docs(), s.documents.len());
}

/// Vectors from before the pooling was recorded (tag `DENS`, one averaged
/// vector per document) are refused with what to do, not read under a
/// pooling they were not made with.
#[test]
fn vectors_from_before_the_pooling_was_recorded_are_refused_clearly() {
    let bytes = retagged(&sample(), *b"DENS");
    let err = Blob::load(&bytes).err().expect("refused");
    assert!(
        err.to_string()
            .contains("rebuild the pool with `nomos build --embed`"),
        "{err}"
    );
}

/// Several vectors per document (MaxP) round-trip with their pooling, and a
/// document scores as its best vector.
#[test]
fn several_vectors_per_document_read_back_and_score_as_the_best() {
    let s = sample();
    let n = s.documents.len();
    // Document 0 gets three vectors, the others one each.
    let mut vectors = unit_vectors(2, 7);
    vectors.extend(unit_vectors(n, 1));
    let mut offsets = vec![0u32];
    offsets.extend(3..=n as u32 + 2);
    let mut starts = vec![0, 40, 95];
    starts.extend(std::iter::repeat_n(0, n - 1));
    let passages = Passages { offsets, starts };
    let multi = DenseIndex::build_passages(&vectors, DENSE_DIM, Some(passages)).unwrap();
    assert_eq!((multi.n_docs(), multi.n_vectors()), (n, n + 2));
    let max = Pooling::new(Windows::Max, false);
    let mut with_max = input(&s);
    with_max.dense = Some(DenseInput {
        pooling: max,
        text: &multi,
        augmented: None,
        hybrid: None,
        ..with_max.dense.unwrap()
    });
    let blob = Blob::load(&encode(&with_max).unwrap().0).unwrap();
    assert_eq!(blob.dense_model().unwrap().pooling, max);
    let loaded = blob.dense(Field::Text).unwrap();
    assert_eq!(loaded, &multi);
    // A query equal to document 0's second vector: document 0 wins on it.
    let query = loaded.vector(1).unwrap();
    let hits = loaded.search(&query, 3).unwrap();
    assert_eq!(hits[0].doc, 0);
    assert_eq!(
        loaded.best_vector(&query, 0).unwrap().map(|(v, _)| v),
        Some(1)
    );
    assert_eq!(loaded.search_binary(&query, 3, 1000).unwrap(), hits);

    // Several vectors under a one-vector pooling cannot be written.
    let mut mislabelled = with_max;
    mislabelled.dense.as_mut().unwrap().pooling = Pooling::new(Windows::First, true);
    assert!(matches!(encode(&mislabelled), Err(BlobError::Input(_))));
}

#[test]
fn mismatched_vectors_are_refused_at_encoding() {
    let s = sample();
    let short = DenseIndex::build(&unit_vectors(3, 5), DENSE_DIM).unwrap();
    let mut bad = input(&s);
    bad.dense = Some(DenseInput {
        model: "m".into(),
        model_hash: String::new(),
        pooling: Pooling::new(Windows::First, false),
        text: &short,
        augmented: None,
        hybrid: None,
    });
    assert!(matches!(encode(&bad), Err(BlobError::Input(_))));
    let mut unnamed = input(&s);
    unnamed.dense.as_mut().unwrap().model.clear();
    assert!(matches!(encode(&unnamed), Err(BlobError::Input(_))));
}

#[test]
fn damaged_vectors_are_caught_behind_valid_hashes() {
    let s = sample();
    let (bytes, _) = encode(&input(&s)).unwrap();
    let dense = table(&bytes)
        .into_iter()
        .find(|e| e.tag == *b"DNSP")
        .unwrap();
    let region = dense.offset..dense.offset + dense.len;

    let nan_scale = replace_once(
        &bytes,
        region.clone(),
        &s.dense.scales()[5].to_le_bytes(),
        |b| b.copy_from_slice(&f32::NAN.to_le_bytes()),
    );
    expect_invalid(&nan_scale, "text vectors: scale value 5 is not finite");

    let negative = replace_once(
        &bytes,
        region.clone(),
        &s.dense.scales()[7].to_le_bytes(),
        |b| b.copy_from_slice(&(-1.0f32).to_le_bytes()),
    );
    expect_invalid(&negative, "document 7 has a negative scale");

    let codes: Vec<u8> = s.dense.codes()[3 * DENSE_DIM..][..32]
        .iter()
        .map(|&c| c as u8)
        .collect();
    let min_code = replace_once(&bytes, region, &codes, |b| b[0] = 0x80);
    expect_invalid(&min_code, "document 3 has an int8 code of -128");
}

fn expect_invalid(bytes: &[u8], needle: &str) {
    match Blob::load(bytes) {
        Err(
            err @ BlobError::Invalid {
                section: "dense", ..
            },
        ) => {
            assert!(err.to_string().contains(needle), "{err}")
        }
        Err(other) => panic!("{other}"),
        Ok(_) => panic!("loaded"),
    }
}

/// A copy of `bytes` with the one occurrence of `pattern` inside `region`
/// changed by `edit`, then resealed.
fn replace_once(
    bytes: &[u8],
    region: std::ops::Range<usize>,
    pattern: &[u8],
    edit: impl Fn(&mut [u8]),
) -> Vec<u8> {
    let hits: Vec<usize> = bytes[region.clone()]
        .windows(pattern.len())
        .enumerate()
        .filter(|(_, w)| *w == pattern)
        .map(|(i, _)| region.start + i)
        .collect();
    assert_eq!(hits.len(), 1, "pattern must be unique");
    let mut out = bytes.to_vec();
    edit(&mut out[hits[0]..hits[0] + pattern.len()]);
    reseal(&mut out);
    out
}

/// The sample blob with its dense section's tag changed to `tag`,
/// resealed.
fn retagged(s: &blob_support::Sample, tag: [u8; 4]) -> Vec<u8> {
    let (mut bytes, _) = encode(&input(s)).unwrap();
    let at = table(&bytes)
        .iter()
        .position(|e| e.tag == *b"DNSP")
        .unwrap();
    bytes[32 + 24 * at..][..4].copy_from_slice(&tag);
    reseal(&mut bytes);
    bytes
}

#[derive(Clone, Copy)]
struct Entry {
    tag: [u8; 4],
    offset: usize,
    len: usize,
}

/// The section table (see the frame layout in `blob/frame.rs`).
fn table(bytes: &[u8]) -> Vec<Entry> {
    let n = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    (0..n)
        .map(|i| {
            let e = &bytes[32 + 24 * i..][..24];
            Entry {
                tag: e[..4].try_into().unwrap(),
                offset: u64::from_le_bytes(e[8..16].try_into().unwrap()) as usize,
                len: u64::from_le_bytes(e[16..24].try_into().unwrap()) as usize,
            }
        })
        .collect()
}

fn flags(bytes: &[u8], tag: [u8; 4]) -> u32 {
    let at = table(bytes).iter().position(|e| e.tag == tag).unwrap();
    u32::from_le_bytes(bytes[32 + 24 * at + 4..][..4].try_into().unwrap())
}
