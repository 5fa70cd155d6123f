//! The documents fragments of [`super::fragment`]: one text block each,
//! with its documents' ids, titles and cross-references, and the
//! directory pages that list them.

use super::format::{
    fragment_hash, DocsPageSection, DocsSection, FragmentEntry, DOCS_PAGE_TAG, DOCS_TAG,
    FRAGMENT_MAGIC, FRAGMENT_VERSION,
};
use super::parts::Parts;
use super::FragmentError;
use crate::blob::format::{Csr, StrTable, TextSection};
use crate::blob::{archive, frame};

/// The documents fragments of `pool`, as (first document, file bytes):
/// one text block each. A query fetches the fragment of every row it
/// shows, most of them a block apart, so a row costs a block
/// (docs/benchmarks/fragments.md, "Text blocks of 16 KiB").
pub(super) fn docs_files(pool: &Parts<'_>) -> Result<Vec<(u32, Vec<u8>)>, FragmentError> {
    (0..pool.text.raw_lens.len())
        .map(|block| {
            let section = section(pool, block, block + 1)?;
            let section = archive(&section).map_err(|e| FragmentError::Input(e.to_string()))?;
            let bytes =
                frame::assemble_as(FRAGMENT_MAGIC, FRAGMENT_VERSION, &[(DOCS_TAG, 0, &section)])
                    .map_err(|e| FragmentError::Input(e.to_string()))?;
            Ok((pool.text.block_docs[block], bytes))
        })
        .collect()
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
                    hash: fragment_hash(bytes),
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

fn section(pool: &Parts<'_>, first: usize, end: usize) -> Result<DocsSection, FragmentError> {
    let input = |e: crate::blob::BlobError| FragmentError::Input(e.to_string());
    let text = pool.text;
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
