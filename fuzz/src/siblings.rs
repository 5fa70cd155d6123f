//! A light blob's sibling files: its display text and its vectors.

use nomos_core::blob::{relist_sibling, Blob, Field, SiblingKind};

use crate::tiny;

/// One selector byte (even: the text file, odd: the vectors file), then
/// the file. Attached as given to the tiny light blob, then relisted (its
/// header's hash and the blob's entry rewritten to match it), so that
/// mutations reach the section's own checks; a file that attaches must
/// give every article, or vectors that rank, without panicking.
pub fn siblings(data: &[u8]) {
    let Some((&which, bytes)) = data.split_first() else {
        return;
    };
    let kind = SiblingKind::ALL[usize::from(which) % 2];
    let light = tiny::light();
    attach(&light.blob, kind, bytes);
    let (mut blob, mut file) = (light.blob.clone(), bytes.to_vec());
    if relist_sibling(&mut blob, kind, &mut file).is_ok() {
        attach(&blob, kind, &file);
    }
}

fn attach(blob: &[u8], kind: SiblingKind, file: &[u8]) {
    let mut blob = Blob::load(blob).expect("the tiny light blob loads");
    match kind {
        SiblingKind::Text => {
            if blob.attach_text(file).is_ok() {
                for doc in 0..blob.n_docs() {
                    let _ = blob.article(doc);
                }
            }
        }
        SiblingKind::Vectors => {
            if blob.attach(kind, file).is_ok() {
                if let Some(dense) = blob.dense(Field::Text) {
                    let query = dense.mean().to_vec();
                    let _ = dense.search(&query, 10);
                    let _ = dense.search_binary(&query, 10, 100);
                    let _ = dense.best_vector(&query, 0);
                }
            }
        }
    }
}
