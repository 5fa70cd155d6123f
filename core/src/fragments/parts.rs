//! What fragments are cut from ([`Parts`]): a pool's indexes, statistics
//! and documents, taken from a loaded blob or straight from a builder's
//! input (past the blob's text limit), so that `nomos fragment` and
//! `nomos build --split` share one cutting code and cut the same pool into
//! the same bytes.

use std::collections::HashMap;

use super::FragmentError;
use crate::blob::format::{Bm25Defaults, Manifest};
use crate::blob::{document_parts, idf_table, unique_ids, Blob, BlobInput, DocumentParts, Field};
use crate::index::InvertedIndex;
use crate::search::IdfTable;

/// A pool as the cutter reads it.
pub(super) struct Parts<'a> {
    pub analyzer: &'a str,
    pub bm25: Bm25Defaults,
    pub manifest: &'a Manifest,
    pub n_docs: usize,
    /// The lexical fields with postings, the text first.
    pub fields: Vec<(Field, &'a InvertedIndex)>,
    /// BM25's idf logarithms over every field's document frequencies.
    pub idf: IdfTable,
    /// Distinct source names; [`Documents::source`] indexes them.
    pub sources: Vec<&'a str>,
    pub docs: &'a dyn Documents,
    pub text: TextBlocks<'a>,
}

/// What a documents fragment shows of each document.
pub(super) trait Documents {
    fn id(&self, doc: usize) -> &str;
    fn title(&self, doc: usize) -> &str;
    /// Index into [`Parts::sources`].
    fn source(&self, doc: usize) -> u32;
    /// Documents it cites.
    fn explicit_refs(&self, doc: usize) -> Vec<u32>;
    /// Its siblings.
    fn implicit_refs(&self, doc: usize) -> Vec<u32>;
}

/// The display text's deflated blocks (as the blob's text section holds
/// them): block `b` holds documents `block_docs[b]..block_docs[b + 1]`
/// in `data[block_ends[b]..block_ends[b + 1]]`, `raw_lens[b]` bytes
/// inflated.
pub(super) struct TextBlocks<'a> {
    pub block_docs: Vec<u32>,
    pub block_ends: Vec<u32>,
    pub raw_lens: Vec<u32>,
    pub data: &'a [u8],
}

impl TextBlocks<'_> {
    pub fn n_blocks(&self) -> usize {
        self.raw_lens.len()
    }
}

/// A loaded blob's documents.
pub(super) struct BlobDocs<'a> {
    blob: &'a Blob,
    sources: HashMap<&'a str, u32>,
}

impl<'a> BlobDocs<'a> {
    pub fn new(blob: &'a Blob) -> Self {
        BlobDocs {
            blob,
            sources: blob.sources().zip(0..).collect(),
        }
    }
}

impl Documents for BlobDocs<'_> {
    fn id(&self, doc: usize) -> &str {
        self.blob.doc_id(doc).unwrap_or_default()
    }
    fn title(&self, doc: usize) -> &str {
        self.blob.title(doc).unwrap_or_default()
    }
    fn source(&self, doc: usize) -> u32 {
        self.blob
            .source(doc)
            .and_then(|s| self.sources.get(s))
            .copied()
            .unwrap_or_default()
    }
    fn explicit_refs(&self, doc: usize) -> Vec<u32> {
        self.blob.explicit_refs(doc)
    }
    fn implicit_refs(&self, doc: usize) -> Vec<u32> {
        self.blob.implicit_refs(doc)
    }
}

impl<'a> Parts<'a> {
    /// `blob`'s parts (loaded with its text: whole, or a light blob with
    /// its text file attached).
    pub fn of_blob(blob: &'a Blob, docs: &'a BlobDocs<'a>) -> Result<Parts<'a>, FragmentError> {
        let text = blob.text().ok_or_else(|| {
            FragmentError::Input(
                "the blob's text is in a sibling file: fragment the whole blob".into(),
            )
        })?;
        let native = |v: &[rkyv::rend::u32_le]| v.iter().map(|x| x.to_native()).collect();
        let fields: Vec<_> = blob
            .fields()
            .filter_map(|f| Some((f, blob.index(f)?)))
            .collect();
        let n_docs = blob.n_docs();
        let idf = match blob.idf_table() {
            Some(table) => table.clone(),
            None => IdfTable::compute(
                n_docs as u64,
                fields
                    .iter()
                    .flat_map(|(_, index)| index.doc_freqs().iter().copied()),
            ),
        };
        let header = blob.header();
        Ok(Parts {
            analyzer: &header.analyzer,
            bm25: header.bm25,
            manifest: &header.manifest,
            n_docs,
            fields,
            idf,
            sources: blob.sources().collect(),
            docs,
            text: TextBlocks {
                block_docs: native(text.block_docs.as_slice()),
                block_ends: native(text.block_ends.as_slice()),
                raw_lens: native(text.raw_lens.as_slice()),
                data: text.data.as_slice(),
            },
        })
    }

    /// The parts of what `input` would encode into a blob, with no limit
    /// on the display text's total.
    pub fn of_input(input: &'a BlobInput<'a>, docs: &'a InputDocs<'a>) -> Parts<'a> {
        let mut fields = vec![(Field::Text, input.text_index)];
        if let Some(index) = input.augmented_index {
            fields.push((Field::Augmented, index));
        }
        let text = &docs.parts.text;
        Parts {
            analyzer: &input.analyzer,
            bm25: input.bm25,
            manifest: &input.manifest,
            n_docs: input.documents.len(),
            fields,
            idf: idf_table(input),
            sources: docs.parts.sources.iter().map(String::as_str).collect(),
            docs,
            text: TextBlocks {
                block_docs: text.block_docs.clone(),
                block_ends: text.block_ends.clone(),
                raw_lens: text.raw_lens.clone(),
                data: &text.data,
            },
        }
    }
}

/// A builder's documents with their sources, references and text encoded
/// as a blob's are.
pub(super) struct InputDocs<'a> {
    documents: &'a [crate::blob::DocumentInput],
    pub parts: DocumentParts,
}

impl<'a> InputDocs<'a> {
    /// Fails on duplicate ids, as encoding a blob does; `deflated` hears
    /// how many documents' text is deflated so far.
    pub fn new(input: &'a BlobInput<'a>, deflated: &dyn Fn(usize)) -> Result<Self, FragmentError> {
        let input_error = |e: crate::blob::BlobError| FragmentError::Input(e.to_string());
        let doc_index = unique_ids(input.documents.iter().map(|d| d.id.as_str()), "document")
            .map_err(input_error)?;
        let parts =
            document_parts(input.documents, &doc_index, u64::MAX, deflated).map_err(input_error)?;
        Ok(InputDocs {
            documents: input.documents,
            parts,
        })
    }
}

impl Documents for InputDocs<'_> {
    fn id(&self, doc: usize) -> &str {
        &self.documents[doc].id
    }
    fn title(&self, doc: usize) -> &str {
        &self.documents[doc].title
    }
    fn source(&self, doc: usize) -> u32 {
        self.parts.source_of[doc]
    }
    fn explicit_refs(&self, doc: usize) -> Vec<u32> {
        neighbours(&self.parts.explicit, doc)
    }
    fn implicit_refs(&self, doc: usize) -> Vec<u32> {
        neighbours(&self.parts.implicit, doc)
    }
}

fn neighbours(csr: &crate::blob::format::Csr, doc: usize) -> Vec<u32> {
    csr.targets[csr.offsets[doc] as usize..csr.offsets[doc + 1] as usize].to_vec()
}
