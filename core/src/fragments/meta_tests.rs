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
