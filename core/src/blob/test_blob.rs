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
    encode(&input).unwrap().0
}
