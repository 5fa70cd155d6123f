//! What fragments are cut from ([`Parts`]): a pool's indexes, statistics
//! and documents, taken from a loaded blob or straight from a builder's
//! input (past the blob's text limit), so that `nomos fragment` and
//! `nomos build --fragments` share one cutting code and cut the same pool into
//! the same bytes.

use std::collections::HashMap;

use super::FragmentError;
use crate::blob::format::{Bm25Defaults, Manifest, TextSection};
use crate::blob::{
    document_parts, encode_text, idf_table, unique_ids, ArticleText, Blob, BlobInput,
    DocumentParts, Field, Layout, SiblingKind,
};
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
    /// The display text in [`Layout::FRAGMENTS`]' blocks.
    pub text: &'a TextSection,
}

/// What a documents fragment shows of each document.
pub(super) trait Documents {
    fn id(&self, doc: usize) -> &str;
    fn title(&self, doc: usize) -> &str;
    /// Index into [`Parts::sources`].
    fn source(&self, doc: usize) -> u32;
    /// Its legal area, if it has one.
    fn area(&self, doc: usize) -> Option<&str>;
    /// Documents it cites.
    fn explicit_refs(&self, doc: usize) -> Vec<u32>;
    /// Its siblings.
    fn implicit_refs(&self, doc: usize) -> Vec<u32>;
}

/// A loaded blob's documents, and their text cut again in
/// [`Layout::FRAGMENTS`]' blocks (a blob's are larger).
pub(super) struct BlobDocs<'a> {
    blob: &'a Blob,
    sources: HashMap<&'a str, u32>,
    text: TextSection,
}

impl<'a> BlobDocs<'a> {
    /// Fails when the blob's text is not loaded or a block is damaged.
    pub fn new(blob: &'a Blob) -> Result<Self, FragmentError> {
        if !blob.has(SiblingKind::Text) {
            return Err(FragmentError::Input(
                "the blob's text is in a sibling file: fragment the whole blob".into(),
            ));
        }
        let input = |e: crate::blob::BlobError| FragmentError::Input(e.to_string());
        let articles = (0..blob.n_docs())
            .map(|d| blob.article(d))
            .collect::<Result<Vec<_>, _>>()
            .map_err(input)?;
        let text = encode_text(
            articles.iter().map(ArticleText::borrowed),
            Layout::FRAGMENTS,
        )
        .map_err(input)?;
        Ok(BlobDocs {
            blob,
            sources: blob.sources().zip(0..).collect(),
            text,
        })
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
    fn area(&self, doc: usize) -> Option<&str> {
        self.blob.area(doc)
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
            text: &docs.text,
            docs,
        })
    }

    /// The parts of what `input` would encode into a blob, with no limit
    /// on the display text's total.
    pub fn of_input(input: &'a BlobInput<'a>, docs: &'a InputDocs<'a>) -> Parts<'a> {
        let mut fields = vec![(Field::Text, input.text_index)];
        if let Some(index) = input.augmented_index {
            fields.push((Field::Augmented, index));
        }
        Parts {
            analyzer: &input.analyzer,
            bm25: input.bm25,
            manifest: &input.manifest,
            n_docs: input.documents.len(),
            fields,
            idf: idf_table(input),
            sources: docs.parts.sources.iter().map(String::as_str).collect(),
            text: &docs.parts.text,
            docs,
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
        let parts = document_parts(input.documents, &doc_index, Layout::FRAGMENTS, deflated)
            .map_err(input_error)?;
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
    fn area(&self, doc: usize) -> Option<&str> {
        self.documents[doc].area.as_deref()
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
