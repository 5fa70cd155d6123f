//! Read access to a loaded blob: the API the CLI and the browser use.
//! Documents, text, queries, judgments and the graph are read in place
//! from their archives; the rest was rebuilt at load.

use super::format::{
    ArchivedCsr, ArchivedDocsSection, ArchivedGraphSection, ArchivedQrelsSection,
    ArchivedQueriesSection, ArchivedTextSection, Header, SectionKind, SiblingKind, NONE,
};
use super::text::ArticleText;
use super::{Blob, BlobError, DenseModel, Field, SectionInfo};
use crate::dense::DenseIndex;
use crate::index::InvertedIndex;
use crate::search::{Bm25Params, IdfTable};

/// A benchmark query stored in a blob.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QueryRef<'a> {
    /// The query's id.
    pub id: &'a str,
    /// The question as asked.
    pub text: &'a str,
    /// The legal area recorded with it, if any.
    pub area: Option<&'a str>,
}

/// One judgment of a query: document index and relevance grade.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct JudgmentRef {
    /// The judged document's index.
    pub doc: u32,
    /// Its grade.
    pub relevance: i32,
}

impl Blob {
    /// The header: analyzer, BM25 defaults, manifest, counts.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The analyzer the index was built with; queries must use it too.
    pub fn analyzer(&self) -> &str {
        &self.header.analyzer
    }

    /// The BM25 variant and parameters the blob was built for.
    pub fn bm25_params(&self) -> Bm25Params {
        self.header.bm25.into()
    }

    /// The sections in file order, with their sizes.
    pub fn sections(&self) -> &[SectionInfo] {
        &self.sections
    }

    /// Total size of the blob file.
    pub fn len_bytes(&self) -> usize {
        self.file_len
    }

    /// Documents in the pool.
    pub fn n_docs(&self) -> usize {
        self.header.n_docs as usize
    }

    /// Document `doc`'s id (`None` out of range; likewise below).
    pub fn doc_id(&self, doc: usize) -> Option<&str> {
        self.docs().ids.get(doc)
    }

    /// The index of the document with this id.
    pub fn doc_index(&self, id: &str) -> Option<u32> {
        let docs = self.docs();
        let at = self
            .doc_order
            .binary_search_by(|&d| docs.ids.get(d as usize).unwrap_or_default().cmp(id))
            .ok()?;
        Some(self.doc_order[at])
    }

    /// Document `doc`'s title.
    pub fn title(&self, doc: usize) -> Option<&str> {
        self.docs().titles.get(doc)
    }

    /// The law, code or source the document belongs to (may be empty).
    pub fn source(&self, doc: usize) -> Option<&str> {
        let docs = self.docs();
        docs.sources
            .get(docs.source_of.get(doc)?.to_native() as usize)
    }

    /// Document `doc`'s legal area, if it has one.
    pub fn area(&self, doc: usize) -> Option<&str> {
        let docs = self.docs();
        self.area_name(docs.area_of.get(doc)?.to_native())
    }

    /// Distinct source names, for filters.
    pub fn sources(&self) -> impl Iterator<Item = &str> + '_ {
        self.docs().sources.iter()
    }

    /// What source `i` (in [`Self::sources`] order) is called, when the
    /// blob says.
    pub fn source_info(&self, i: usize) -> Option<&super::SourceInfo> {
        self.source_info.get(i)
    }

    /// What document `doc`'s source is called, when the blob says.
    pub fn doc_source_info(&self, doc: usize) -> Option<&super::SourceInfo> {
        let i = self.docs().source_of.get(doc)?.to_native() as usize;
        self.source_info(i)
    }

    /// Distinct area names of documents and queries, for filters.
    pub fn areas(&self) -> impl Iterator<Item = &str> + '_ {
        self.docs().areas.iter()
    }

    /// Document `doc`'s display text. Its block (~64 KiB) is inflated on
    /// first use and kept while recently used (at most 64 blocks, 32 MiB),
    /// so reading documents block by block inflates each block once.
    /// In a light blob, the text part holding `doc` must be attached;
    /// until it is, the error names its file as not loaded.
    pub fn article(&self, doc: usize) -> Result<ArticleText, BlobError> {
        if let Some(text) = self.text() {
            return self.text_cache.article(0, text, doc);
        }
        let Some((at, part)) = self.part_of(doc) else {
            return Err(BlobError::invalid(
                SectionKind::Text.name(),
                format!("no document {doc}"),
            ));
        };
        match self.part_text(at) {
            // SAFETY: validated as `ArchivedTextSection` by `attach_text`
            // before it kept the bytes, never mutated afterwards.
            Some(bytes) => self.text_cache.article(
                at,
                unsafe { rkyv::access_unchecked(bytes) },
                doc - part.docs.start,
            ),
            None => Err(BlobError::Sibling {
                kind: SiblingKind::Text.name(),
                file: part.file.clone(),
                message: "is not loaded".into(),
            }),
        }
    }

    /// The display text's size inflated (texts, paragraphs and augmented
    /// texts with their framing), while it is loaded: what an LLM prompt
    /// showing whole articles costs is estimated from it.
    /// A blob whose text is in parts says it before they are fetched.
    pub fn text_bytes(&self) -> Option<u64> {
        if let Some(text) = self.text() {
            return Some(text.raw_bytes());
        }
        (0..self.text_parts.len())
            .map(|at| {
                let attached = self.part_text(at).map(|bytes| {
                    // SAFETY: as in `article`.
                    let text: &ArchivedTextSection = unsafe { rkyv::access_unchecked(bytes) };
                    text.raw_bytes()
                });
                self.text_parts[at].raw_bytes.or(attached)
            })
            .sum()
    }

    /// The lexical fields still held (see [`Self::take_index`]).
    pub fn fields(&self) -> impl Iterator<Item = Field> + '_ {
        self.fields.iter().map(|(f, _)| *f)
    }

    /// The inverted index of `field`, for BM25 ([`crate::search`]).
    pub fn index(&self, field: Field) -> Option<&InvertedIndex> {
        self.fields
            .iter()
            .find(|(f, _)| *f == field)
            .map(|(_, i)| i)
    }

    /// Moves the index of `field` out (e.g. into a pool, which shares it
    /// among its BM25 scorers) rather than copying it; afterwards
    /// [`Self::index`] returns `None` for it.
    pub fn take_index(&mut self, field: Field) -> Option<InvertedIndex> {
        let at = self.fields.iter().position(|(f, _)| *f == field)?;
        Some(self.fields.remove(at).1)
    }

    /// Moves the index over the editorial headings out (see
    /// [`crate::search::editorial`]), if the blob has one.
    pub fn take_editorial_index(&mut self) -> Option<InvertedIndex> {
        self.editorial.take()
    }

    /// Whether the titles are editorial headings (shown, not enacted), which
    /// the blob indexes apart: the app labels them so. Still true once the
    /// index is taken.
    pub fn has_editorial_headings(&self) -> bool {
        self.sections
            .iter()
            .any(|s| s.tag == super::format::SectionKind::LexEditorial.tag())
    }

    /// BM25's idf logarithms as the builder computed them, if the blob has
    /// them (see [`crate::search::IdfTable`]).
    pub fn idf_table(&self) -> Option<&IdfTable> {
        self.idf_table.as_ref()
    }

    /// The model of the document vectors, when the blob has any, also
    /// while they are in a sibling not yet attached.
    pub fn dense_model(&self) -> Option<&DenseModel> {
        self.dense_model.as_ref()
    }

    /// The method spec the builder chose as the pool's hybrid
    /// (`nomos build --hybrid`), if any, unparsed: the pool above parses it.
    pub fn hybrid(&self) -> Option<&str> {
        self.hybrid.as_deref()
    }

    /// The document vectors of `field`, for dense ranking.
    pub fn dense(&self, field: Field) -> Option<&DenseIndex> {
        self.dense.iter().find(|(f, _)| *f == field).map(|(_, d)| d)
    }

    /// Moves the vectors of `field` out, like [`Self::take_index`].
    pub fn take_dense(&mut self, field: Field) -> Option<DenseIndex> {
        let at = self.dense.iter().position(|(f, _)| *f == field)?;
        Some(self.dense.remove(at).1)
    }

    /// Benchmark queries in the pool.
    pub fn n_queries(&self) -> usize {
        self.header.n_queries as usize
    }

    /// Query `q`, in blob order.
    pub fn query(&self, q: usize) -> Option<QueryRef<'_>> {
        let queries = self.queries()?;
        Some(QueryRef {
            id: queries.ids.get(q)?,
            text: queries.texts.get(q)?,
            area: self.area_name(queries.area_of.get(q)?.to_native()),
        })
    }

    /// Every query, in blob order.
    pub fn queries_iter(&self) -> impl Iterator<Item = QueryRef<'_>> + '_ {
        (0..self.n_queries()).filter_map(|q| self.query(q))
    }

    /// Query `q`'s judgments, documents in increasing index order.
    pub fn judgments(&self, q: usize) -> impl Iterator<Item = JudgmentRef> + '_ {
        let qrels = self.qrels();
        let range = qrels
            .and_then(|j| {
                let start = j.offsets.get(q)?.to_native() as usize;
                let end = j.offsets.get(q + 1)?.to_native() as usize;
                Some(start..end)
            })
            .unwrap_or(0..0);
        range.filter_map(move |i| {
            let j = qrels?;
            Some(JudgmentRef {
                doc: j.docs.get(i)?.to_native(),
                relevance: j.relevance.get(i)?.to_native(),
            })
        })
    }

    /// Documents that `doc` cites.
    pub fn explicit_refs(&self, doc: usize) -> Vec<u32> {
        self.graph()
            .map(|g| g.explicit.neighbours(doc).collect())
            .unwrap_or_default()
    }

    /// Documents that are `doc`'s siblings.
    pub fn implicit_refs(&self, doc: usize) -> Vec<u32> {
        self.graph()
            .map(|g| g.implicit.neighbours(doc).collect())
            .unwrap_or_default()
    }

    /// The stykker defining terms `doc` uses (empty without a
    /// `definitions` section).
    pub fn definition_refs(&self, doc: usize) -> Vec<u32> {
        self.definitions()
            .map(|g| g.neighbours(doc).collect())
            .unwrap_or_default()
    }

    /// How many explicit and implicit references named ids not in the blob.
    pub fn unknown_refs(&self) -> (u32, u32) {
        self.graph()
            .map(|g| {
                (
                    g.unknown_explicit.to_native(),
                    g.unknown_implicit.to_native(),
                )
            })
            .unwrap_or((0, 0))
    }

    fn area_name(&self, area: u32) -> Option<&str> {
        match area {
            NONE => None,
            a => self.docs().areas.get(a as usize),
        }
    }

    // The accessors below read sections that `Blob::load` validated with
    // `rkyv::access`; the bytes are owned and never mutated afterwards.

    fn docs(&self) -> &ArchivedDocsSection {
        // SAFETY: validated as `ArchivedDocsSection` at load; see above.
        unsafe { rkyv::access_unchecked(&self.bytes[self.ranges.docs.clone()]) }
    }

    /// The text section when it is in the blob (a light blob's is in its
    /// parts: [`Self::article`]).
    pub(crate) fn text(&self) -> Option<&ArchivedTextSection> {
        let range = self.ranges.text.clone()?;
        // SAFETY: validated as `ArchivedTextSection` at load.
        Some(unsafe { rkyv::access_unchecked(&self.bytes[range]) })
    }

    fn queries(&self) -> Option<&ArchivedQueriesSection> {
        let range = self.ranges.queries.clone()?;
        // SAFETY: validated as `ArchivedQueriesSection` at load.
        Some(unsafe { rkyv::access_unchecked(&self.bytes[range]) })
    }

    fn qrels(&self) -> Option<&ArchivedQrelsSection> {
        let range = self.ranges.qrels.clone()?;
        // SAFETY: validated as `ArchivedQrelsSection` at load.
        Some(unsafe { rkyv::access_unchecked(&self.bytes[range]) })
    }

    fn graph(&self) -> Option<&ArchivedGraphSection> {
        let range = self.ranges.graph.clone()?;
        // SAFETY: validated as `ArchivedGraphSection` at load.
        Some(unsafe { rkyv::access_unchecked(&self.bytes[range]) })
    }

    fn definitions(&self) -> Option<&ArchivedCsr> {
        let range = self.ranges.definitions.clone()?;
        // SAFETY: validated as `ArchivedCsr` at load.
        Some(unsafe { rkyv::access_unchecked(&self.bytes[range]) })
    }
}
