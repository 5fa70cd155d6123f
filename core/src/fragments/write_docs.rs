//! The documents fragments of [`super::fragment`]: consecutive whole text
//! blocks of the blob per fragment, with those documents' ids, titles,
//! sources and cross-references.

use std::collections::HashMap;

use super::format::{DocsSection, DOCS_TAG, FRAGMENT_MAGIC, FRAGMENT_VERSION};
use super::FragmentError;
use crate::blob::format::{ArchivedTextSection, Csr, StrTable, TextSection};
use crate::blob::{archive, frame, Blob};

/// The documents fragments of `blob`, as (first document, file bytes),
/// each about `max_bytes` at most (a text block larger than that gets a
/// fragment of its own).
pub(super) fn docs_files(
    blob: &Blob,
    max_bytes: usize,
) -> Result<Vec<(u32, Vec<u8>)>, FragmentError> {
    let text = blob.text().ok_or_else(|| {
        FragmentError::Input("the blob's text is in a sibling file: fragment the whole blob".into())
    })?;
    let sources: HashMap<&str, u32> = blob.sources().zip(0..).collect();
    let block_docs: Vec<usize> = text
        .block_docs
        .iter()
        .map(|d| d.to_native() as usize)
        .collect();
    let block_ends: Vec<usize> = text
        .block_ends
        .iter()
        .map(|e| e.to_native() as usize)
        .collect();
    let costs: Vec<usize> = (0..text.n_blocks())
        .map(|b| {
            block_cost(
                blob,
                block_docs[b]..block_docs[b + 1],
                block_ends[b + 1] - block_ends[b],
            )
        })
        .collect();
    let mut files = Vec::new();
    let mut first_block = 0;
    while first_block < text.n_blocks() {
        // Whole blocks while the estimate stays within the limit.
        let mut end_block = first_block + 1;
        let mut size = costs[first_block];
        while end_block < text.n_blocks() && size + costs[end_block] <= max_bytes {
            size += costs[end_block];
            end_block += 1;
        }
        let section = section(blob, text, &sources, first_block, end_block)?;
        let section = archive(&section).map_err(|e| FragmentError::Input(e.to_string()))?;
        let bytes =
            frame::assemble_as(FRAGMENT_MAGIC, FRAGMENT_VERSION, &[(DOCS_TAG, 0, &section)])
                .map_err(|e| FragmentError::Input(e.to_string()))?;
        files.push((block_docs[first_block] as u32, bytes));
        first_block = end_block;
    }
    Ok(files)
}

/// About a text block's bytes in a fragment: its deflated text, and its
/// documents' ids, titles, and 4 bytes per document and reference.
fn block_cost(blob: &Blob, docs: std::ops::Range<usize>, deflated: usize) -> usize {
    let per_doc = |d: usize| {
        blob.doc_id(d).map_or(0, str::len)
            + blob.title(d).map_or(0, str::len)
            + 4 * (4 + blob.explicit_refs(d).len() + blob.implicit_refs(d).len())
    };
    docs.map(per_doc).sum::<usize>() + deflated
}

fn section(
    blob: &Blob,
    text: &ArchivedTextSection,
    sources: &HashMap<&str, u32>,
    first: usize,
    end: usize,
) -> Result<DocsSection, FragmentError> {
    let input = |e: crate::blob::BlobError| FragmentError::Input(e.to_string());
    let doc0 = text.block_docs[first].to_native();
    let docs = doc0 as usize..text.block_docs[end].to_native() as usize;
    let byte0 = text.block_ends[first].to_native();
    let data_range = byte0 as usize..text.block_ends[end].to_native() as usize;
    let csr = |refs: &dyn Fn(usize) -> Vec<u32>| -> Csr {
        let mut csr = Csr {
            offsets: vec![0],
            targets: Vec::new(),
        };
        for d in docs.clone() {
            csr.targets.extend(refs(d));
            csr.offsets.push(csr.targets.len() as u32);
        }
        csr
    };
    Ok(DocsSection {
        first_doc: doc0,
        ids: StrTable::build(docs.clone().map(|d| blob.doc_id(d).unwrap_or_default()))
            .map_err(input)?,
        titles: StrTable::build(docs.clone().map(|d| blob.title(d).unwrap_or_default()))
            .map_err(input)?,
        source_of: docs
            .clone()
            .map(|d| {
                blob.source(d)
                    .and_then(|s| sources.get(s))
                    .copied()
                    .unwrap_or_default()
            })
            .collect(),
        text: TextSection {
            block_docs: text.block_docs.as_slice()[first..=end]
                .iter()
                .map(|d| d.to_native() - doc0)
                .collect(),
            block_ends: text.block_ends.as_slice()[first..=end]
                .iter()
                .map(|e| e.to_native() - byte0)
                .collect(),
            raw_lens: text.raw_lens.as_slice()[first..end]
                .iter()
                .map(|l| l.to_native())
                .collect(),
            data: text.data.as_slice()[data_range].to_vec(),
        },
        explicit: csr(&|d| blob.explicit_refs(d)),
        implicit: csr(&|d| blob.implicit_refs(d)),
    })
}
