//! The documents fragments of [`super::fragment`]: consecutive whole text
//! blocks per fragment, with those documents' ids, titles,
//! sources and cross-references.

use xxhash_rust::xxh3::xxh3_128;

use super::format::{
    DocsPageSection, DocsSection, FragmentEntry, DOCS_PAGE_TAG, DOCS_TAG, FRAGMENT_MAGIC,
    FRAGMENT_VERSION,
};
use super::parts::{Documents, Parts};
use super::FragmentError;
use crate::blob::format::{Csr, StrTable, TextSection};
use crate::blob::{archive, frame};

/// The documents fragments of `pool`, as (first document, file bytes),
/// each about `max_bytes` at most (a text block larger than that gets a
/// fragment of its own).
pub(super) fn docs_files(
    pool: &Parts<'_>,
    max_bytes: usize,
) -> Result<Vec<(u32, Vec<u8>)>, FragmentError> {
    let text = &pool.text;
    let n_blocks = text.n_blocks();
    let block_docs: Vec<usize> = text.block_docs.iter().map(|&d| d as usize).collect();
    let block_ends: Vec<usize> = text.block_ends.iter().map(|&e| e as usize).collect();
    let costs: Vec<usize> = (0..n_blocks)
        .map(|b| {
            block_cost(
                pool.docs,
                block_docs[b]..block_docs[b + 1],
                block_ends[b + 1] - block_ends[b],
            )
        })
        .collect();
    let mut files = Vec::new();
    let mut first_block = 0;
    while first_block < n_blocks {
        // Whole blocks while the estimate stays within the limit.
        let mut end_block = first_block + 1;
        let mut size = costs[first_block];
        while end_block < n_blocks && size + costs[end_block] <= max_bytes {
            size += costs[end_block];
            end_block += 1;
        }
        let section = section(pool, first_block, end_block)?;
        let section = archive(&section).map_err(|e| FragmentError::Input(e.to_string()))?;
        let bytes =
            frame::assemble_as(FRAGMENT_MAGIC, FRAGMENT_VERSION, &[(DOCS_TAG, 0, &section)])
                .map_err(|e| FragmentError::Input(e.to_string()))?;
        files.push((block_docs[first_block] as u32, bytes));
        first_block = end_block;
    }
    Ok(files)
}

/// Documents fragments a directory page lists. A query fetches the page
/// of each row it shows, 28 bytes an entry (a hash, a length, a first
/// document), and the meta lists each page in about 30: 32 keeps a page
/// near 1 KB and the meta's share a thirty-second of what it was
/// (ARCHITECTURE.md, "Directory pages").
pub(super) const DOCS_PER_PAGE: usize = 32;

/// The directory pages of `docs` (documents fragments as
/// [`docs_files`] makes them), `per_page` entries each: (first document,
/// file bytes).
pub(super) fn docs_pages(
    docs: &[(u32, Vec<u8>)],
    per_page: usize,
) -> Result<Vec<(u32, Vec<u8>)>, FragmentError> {
    let input = |e: crate::blob::BlobError| FragmentError::Input(e.to_string());
    let mut pages = Vec::new();
    for (p, run) in docs.chunks(per_page).enumerate() {
        let section = DocsPageSection {
            first_fragment: u32::try_from(p * per_page)
                .map_err(|_| FragmentError::Input("too many documents fragments".into()))?,
            first_docs: run.iter().map(|(first, _)| *first).collect(),
            fragments: run
                .iter()
                .map(|(_, bytes)| FragmentEntry {
                    hash: xxh3_128(bytes),
                    len: bytes.len() as u64,
                })
                .collect(),
        };
        let section = archive(&section).map_err(input)?;
        let bytes = frame::assemble_as(
            FRAGMENT_MAGIC,
            FRAGMENT_VERSION,
            &[(DOCS_PAGE_TAG, 0, &section)],
        )
        .map_err(input)?;
        pages.push((run[0].0, bytes));
    }
    Ok(pages)
}

/// About a text block's bytes in a fragment: its deflated text, and its
/// documents' ids, titles, and 4 bytes per document and reference.
fn block_cost(docs: &dyn Documents, range: std::ops::Range<usize>, deflated: usize) -> usize {
    let per_doc = |d: usize| {
        docs.id(d).len()
            + docs.title(d).len()
            + 4 * (4 + docs.explicit_refs(d).len() + docs.implicit_refs(d).len())
    };
    range.map(per_doc).sum::<usize>() + deflated
}

fn section(pool: &Parts<'_>, first: usize, end: usize) -> Result<DocsSection, FragmentError> {
    let input = |e: crate::blob::BlobError| FragmentError::Input(e.to_string());
    let text = &pool.text;
    let doc0 = text.block_docs[first];
    let docs = doc0 as usize..text.block_docs[end] as usize;
    let byte0 = text.block_ends[first];
    let data_range = byte0 as usize..text.block_ends[end] as usize;
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
    let d = pool.docs;
    Ok(DocsSection {
        first_doc: doc0,
        ids: StrTable::build(docs.clone().map(|i| d.id(i))).map_err(input)?,
        titles: StrTable::build(docs.clone().map(|i| d.title(i))).map_err(input)?,
        source_of: docs.clone().map(|i| d.source(i)).collect(),
        text: TextSection {
            block_docs: text.block_docs[first..=end]
                .iter()
                .map(|&b| b - doc0)
                .collect(),
            block_ends: text.block_ends[first..=end]
                .iter()
                .map(|&e| e - byte0)
                .collect(),
            raw_lens: text.raw_lens[first..end].to_vec(),
            data: text.data[data_range].to_vec(),
        },
        explicit: csr(&|i| d.explicit_refs(i)),
        implicit: csr(&|i| d.implicit_refs(i)),
    })
}
