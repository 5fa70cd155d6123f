//! The optional dense section: vectors read back exactly, readers that do
//! not know the section skip it, and damage that gets past the checksum and
//! the content hash is caught by the section's own checks.

mod blob_support;

use nomos_core::blob::{encode, Blob, BlobError, DenseInput, Field};
use nomos_core::dense::DenseIndex;

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
    let info = blob.sections().iter().find(|i| &i.tag == b"DENS").unwrap();
    assert_eq!(info.name, "dense");
    assert_eq!(flags(&bytes, *b"DENS"), 1, "written as optional");
}

#[test]
fn blobs_without_vectors_have_none() {
    let s = sample();
    let mut plain = input(&s);
    plain.dense = None;
    let blob = Blob::load(&encode(&plain).unwrap().0).unwrap();
    assert!(blob.dense_model().is_none());
    assert!(blob.dense(Field::Text).is_none());
    assert!(blob.sections().iter().all(|i| &i.tag != b"DENS"));
}

#[test]
fn text_vectors_alone_are_enough() {
    let s = sample();
    let mut only_text = input(&s);
    only_text.dense = Some(DenseInput {
        augmented: None,
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
    let (mut bytes, _) = encode(&input(&s)).unwrap();
    let at = table(&bytes)
        .iter()
        .position(|e| e.tag == *b"DENS")
        .unwrap();
    bytes[32 + 24 * at..][..4].copy_from_slice(b"DENZ");
    reseal_checksum(&mut bytes);
    let blob = Blob::load(&bytes).unwrap();
    assert!(blob.dense_model().is_none());
    assert!(blob.sections().iter().any(|i| i.name == "(unknown DENZ)"));
    assert_eq!(blob.n_docs(), s.documents.len());
}

#[test]
fn mismatched_vectors_are_refused_at_encoding() {
    let s = sample();
    let short = DenseIndex::build(&unit_vectors(3, 5), DENSE_DIM).unwrap();
    let mut bad = input(&s);
    bad.dense = Some(DenseInput {
        model: "m".into(),
        model_hash: String::new(),
        text: &short,
        augmented: None,
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
        .find(|e| e.tag == *b"DENS")
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
/// changed by `edit`, then every hash recomputed.
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
    let old_hash = content_hash(&out);
    edit(&mut out[hits[0]..hits[0] + pattern.len()]);
    let new_hash = content_hash(&out);
    // The header archive stores the content hash as 16 little-endian bytes.
    let header = table(&out)[0];
    let header_bytes = &mut out[header.offset..header.offset + header.len];
    let at = header_bytes
        .windows(16)
        .position(|w| w == old_hash.to_le_bytes())
        .unwrap();
    header_bytes[at..at + 16].copy_from_slice(&new_hash.to_le_bytes());
    reseal_checksum(&mut out);
    out
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

/// xxh3-128 over every section after the header, in table order.
fn content_hash(bytes: &[u8]) -> u128 {
    let mut h = xxhash_rust::xxh3::Xxh3::new();
    for e in table(bytes).iter().skip(1) {
        h.update(&bytes[e.offset..e.offset + e.len]);
    }
    h.digest128()
}

fn reseal_checksum(bytes: &mut [u8]) {
    let mut h = xxhash_rust::xxh3::Xxh3::new();
    h.update(&bytes[..16]);
    h.update(&bytes[24..]);
    bytes[16..24].copy_from_slice(&h.digest().to_le_bytes());
}
