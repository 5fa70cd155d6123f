//! A meta file's content hash is computed from its bytes, so an altered
//! meta does not keep the identity the manifest lists.

use super::{fragment, Meta};
use crate::blob::test_blob::danish_blob;
use crate::blob::{frame, Blob, DocumentInput};

#[test]
fn an_altered_meta_has_another_content_hash() {
    let documents: Vec<DocumentInput> = (0..30)
        .map(|d| DocumentInput {
            id: format!("d{d}"),
            text: format!("lov om skat nummer {d}"),
            source: "s".into(),
            ..DocumentInput::default()
        })
        .collect();
    let blob = Blob::load(&danish_blob(&documents, &[], &[], None)).unwrap();
    let made = fragment(&blob, 4096).unwrap();
    let meta = Meta::load(&made.meta).unwrap();
    // Cut twice, the same pool has the same identity.
    let again = fragment(&blob, 4096).unwrap();
    assert_eq!(
        Meta::load(&again.meta).unwrap().content_hash(),
        meta.content_hash()
    );
    // The BM25 defaults changed and the frame resealed: a valid meta
    // that ranks differently.
    let k1 = meta.bm25_params().k1;
    let at = made
        .meta
        .windows(8)
        .position(|w| w == k1.to_le_bytes())
        .unwrap();
    let mut altered = made.meta.clone();
    altered[at..at + 8].copy_from_slice(&(k1 + 0.25).to_le_bytes());
    frame::seal(&mut altered);
    let forged = Meta::load(&altered).unwrap();
    assert_eq!(forged.bm25_params().k1, k1 + 0.25);
    assert_ne!(forged.content_hash(), meta.content_hash());
}

/// Sources and areas come back from the meta's runs for every document,
/// interleaved or not, and runs that do not tile the documents are
/// refused.
#[test]
fn each_documents_source_and_area_are_in_the_meta() {
    let source = |d: usize| match d {
        0..=9 => "a",
        10..=14 => "b",
        15..=19 => "a",
        _ => "c",
    };
    let documents: Vec<DocumentInput> = (0..30)
        .map(|d| DocumentInput {
            id: format!("d{d}"),
            text: format!("lov om skat nummer {d}"),
            source: source(d).into(),
            area: (d % 7 != 0).then(|| ["skat", "straf"][d % 2].to_owned()),
            ..DocumentInput::default()
        })
        .collect();
    let blob = Blob::load(&danish_blob(&documents, &[], &[], None)).unwrap();
    let made = fragment(&blob, 4096).unwrap();
    let meta = Meta::load(&made.meta).unwrap();
    for d in 0..30 {
        assert_eq!(meta.source(d as u32), Some(source(d)), "document {d}");
        assert_eq!(meta.area(d as u32), blob.area(d), "document {d}");
    }
    assert_eq!(meta.source(30), None);
    assert_eq!(meta.source_docs("a"), [0..10, 15..20]);
    assert_eq!(meta.source_docs("c"), vec![(20..30)]);
    assert!(meta.source_docs("x").is_empty());

    // The last source run says 11 documents, not 10: past the pool.
    let mut long = made.meta.clone();
    let runs = [10u32, 0, 5, 1, 5, 0, 10, 2];
    let bytes: Vec<u8> = runs.iter().flat_map(|v| v.to_le_bytes()).collect();
    let at = long.windows(bytes.len()).position(|w| w == bytes).unwrap();
    long[at + 24..at + 28].copy_from_slice(&11u32.to_le_bytes());
    frame::seal(&mut long);
    let err = Meta::load(&long).unwrap_err().to_string();
    assert!(
        err.contains("sources: the runs go past the 30 documents"),
        "{err}"
    );
    // A source index past the table.
    let mut foreign = made.meta.clone();
    foreign[at + 28..at + 32].copy_from_slice(&3u32.to_le_bytes());
    frame::seal(&mut foreign);
    let err = Meta::load(&foreign).unwrap_err().to_string();
    assert!(err.contains("with value 3 of 3"), "{err}");
}
