//! The document vectors' section (`DNSP`), checked and copied into
//! [`DenseIndex`]es: the same checks whether it sits in a blob or in the
//! blob's vectors file.

use super::format::{ArchivedDenseSection, ArchivedVectorField, SectionKind};
use super::{BlobError, DenseModel, Field};
use crate::dense::{DenseIndex, DenseParts, Passages};
use crate::embed::Pooling;

/// Copies the dense section's sets into [`DenseIndex`]es, which check them.
pub(super) fn load_dense(
    section: &ArchivedDenseSection,
    n_docs: usize,
) -> Result<(DenseModel, Vec<(Field, DenseIndex)>), BlobError> {
    let bad = |msg: String| Err(BlobError::invalid(SectionKind::Dense.name(), msg));
    if section.model.is_empty() {
        return bad("no model id".into());
    }
    let pooling: Pooling = match section.pooling.parse() {
        Ok(pooling) => pooling,
        Err(e) => return bad(format!("{e}; this build of nomos cannot rank with it")),
    };
    let dim = section.dim.to_native();
    let mut sets: Vec<(Field, DenseIndex)> = Vec::new();
    for set in section.sets.iter() {
        let field = match set.field {
            ArchivedVectorField::Text => Field::Text,
            ArchivedVectorField::Augmented => Field::Augmented,
        };
        if sets.iter().any(|(f, _)| *f == field) {
            return bad(format!("two sets of {} vectors", field.name()));
        }
        let parts = DenseParts {
            dim,
            codes: set.codes.to_vec(),
            scales: set.scales.iter().map(|s| s.to_native()).collect(),
            bits: set.bits.iter().map(|b| b.to_native()).collect(),
            mean: set.mean.iter().map(|m| m.to_native()).collect(),
            passages: (!set.passages.is_empty()).then(|| Passages {
                offsets: set.passages.iter().map(|p| p.to_native()).collect(),
                starts: set.starts.iter().map(|s| s.to_native()).collect(),
            }),
        };
        let index = match DenseIndex::from_parts(parts) {
            Ok(index) => index,
            Err(e) => return bad(format!("{} vectors: {e}", field.name())),
        };
        if index.passages().is_some() && !pooling.multi_vector() {
            return bad(format!(
                "{} vectors: several per document under pooling {pooling}",
                field.name()
            ));
        }
        if index.n_docs() != n_docs {
            return bad(format!(
                "{} {} vectors for {n_docs} documents",
                index.n_docs(),
                field.name()
            ));
        }
        sets.push((field, index));
    }
    if sets.first().map(|(f, _)| *f) != Some(Field::Text) {
        return bad("the first set must embed the text field".into());
    }
    let model = DenseModel {
        id: section.model.to_string(),
        manifest_hash: section.model_hash.to_string(),
        dim: dim as usize,
        pooling,
    };
    Ok((model, sets))
}
