//! The blob most tests start from: documents indexed with the Danish
//! analyzer and okapi's defaults, with the queries, judgments and vectors
//! a test gives. One place, so a field added to [`BlobInput`] is filled
//! once for every test.

use super::{encode, BlobInput, DenseInput, DocumentInput, JudgmentInput, QueryInput};
use crate::analysis::Analyzer;
use crate::index::InvertedIndex;
use crate::search::{Bm25Params, Bm25Variant};

/// The encoded blob of `documents` (with `queries`, `judgments` and
/// `dense`).
pub(crate) fn danish_blob(
    documents: &[DocumentInput],
    queries: &[QueryInput],
    judgments: &[JudgmentInput],
    dense: Option<DenseInput<'_>>,
) -> Vec<u8> {
    danish_input(documents, queries, judgments, dense, |input| {
        encode(input).unwrap().0
    })
}

/// Hands `f` the input of `documents`, indexed (with `queries`,
/// `judgments` and `dense`).
pub(crate) fn danish_input<R>(
    documents: &[DocumentInput],
    queries: &[QueryInput],
    judgments: &[JudgmentInput],
    dense: Option<DenseInput<'_>>,
    f: impl FnOnce(&BlobInput<'_>) -> R,
) -> R {
    let analyzer = Analyzer::by_name("da").unwrap();
    let index = InvertedIndex::build(documents.iter().map(|d| analyzer.tokens(&d.text))).unwrap();
    let input = BlobInput {
        sources: &[],
        builder: "tests".into(),
        analyzer: analyzer.name().into(),
        bm25: Bm25Params::new(Bm25Variant::Okapi).into(),
        manifest: Default::default(),
        documents,
        queries,
        judgments,
        text_index: &index,
        augmented_index: None,
        editorial_index: None,
        dense,
    };
    f(&input)
}

/// Documents `a` "sea", `b` "shore", `c` "way", without and with a
/// definition edge from `c` to `b` (and one to an unknown id, dropped).
pub(crate) fn definition_blobs() -> (Vec<u8>, Vec<u8>) {
    let doc = |id: &str, text: &str| DocumentInput {
        id: id.into(),
        text: text.into(),
        source: "s".into(),
        ..DocumentInput::default()
    };
    let mut documents = vec![doc("a", "sea"), doc("b", "shore"), doc("c", "way")];
    let plain = danish_blob(&documents, &[], &[], None);
    documents[2].definition_refs = vec!["b".into(), "x".into()];
    (plain, danish_blob(&documents, &[], &[], None))
}
