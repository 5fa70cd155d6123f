//! Turning documents, queries, judgments and built indexes into blob bytes.

use std::collections::HashMap;

use rkyv::rancor;
use xxhash_rust::xxh3::Xxh3;

use super::format::{
    Bm25Defaults, Csr, DenseSection, DenseSet, DocsSection, GraphSection, Header, IdfSection,
    LexicalSection, Manifest, QrelsSection, QueriesSection, SectionKind, StrTable, TextSection,
    VectorField, FORMAT_VERSION, NONE,
};
use super::sources::SourceInput;
use super::text::{self, ArticleTextRef, Layout};
use super::{frame, BlobError};
use crate::dense::DenseIndex;
use crate::index::InvertedIndex;
use crate::search::IdfTable;

/// One retrievable unit as the builder hands it over: a statutory article,
/// a stykke, or a STARD article. Readers produce these directly.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DocumentInput {
    /// Opaque id as the benchmark spells it (`AK::914`, `straffeloven_§236_stk10`).
    pub id: String,
    /// Heading shown in results; may be empty.
    pub title: String,
    /// The text that is analysed and indexed.
    pub text: String,
    /// LLM-augmented text (CRAwLeR-DK `augmented_chunks.jsonl`), indexed as a
    /// second field when present.
    pub augmented: Option<String>,
    /// Law, code or source the article belongs to (a GBR prefix, a law's
    /// short name), used for filters.
    pub source: String,
    /// Legal area, where the benchmark gives one (GBR's five areas).
    pub area: Option<String>,
    /// Paragraphs or stykker for display; empty when the text is one block.
    pub paragraphs: Vec<String>,
    /// Ids this article cites (explicit context).
    pub explicit_refs: Vec<String>,
    /// Ids of its siblings (implicit context, e.g. the other stykker of a §).
    pub implicit_refs: Vec<String>,
    /// Ids of the stykker that define terms it uses (Danish law's
    /// definitions). Kept apart from `explicit_refs`: the text does not
    /// cite them, so "Cited by" must not list them.
    pub definition_refs: Vec<String>,
    /// The divisions it stands in, outermost first, for display (the Greek
    /// codes' books and chapters); empty where the reader gives none.
    pub path: Vec<String>,
    /// The date of its version, `YYYY-MM-DD`, for display, where the
    /// reader knows it.
    pub version_date: Option<String>,
}

/// A benchmark query.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct QueryInput {
    /// Unique among the queries.
    pub id: String,
    /// The question as asked.
    pub text: String,
    /// Legal area, where the benchmark gives one.
    pub area: Option<String>,
}

/// One relevance judgment.
#[derive(Debug, Clone, PartialEq)]
pub struct JudgmentInput {
    /// The judged query's id.
    pub query_id: String,
    /// The judged document's id.
    pub doc_id: String,
    /// The grade; 1 and above is relevant.
    pub relevance: i32,
}

/// Everything a blob is made from. The indexes must have been built over
/// `documents` in order (the augmented one over each document's augmented
/// text, or whatever stand-in the builder chose).
pub struct BlobInput<'a> {
    /// The writing program, e.g. `nomos 0.1.0`.
    pub builder: String,
    /// The analyzer name the index was built with.
    pub analyzer: String,
    /// The BM25 settings of the pool's baseline.
    pub bm25: Bm25Defaults,
    /// What the pool is and where it came from.
    pub manifest: Manifest,
    /// In corpus order (the ranking tie-break).
    pub documents: &'a [DocumentInput],
    /// Benchmark queries, in order.
    pub queries: &'a [QueryInput],
    /// Judgments; unknown ids are dropped and counted.
    pub judgments: &'a [JudgmentInput],
    /// The index over `documents`' text.
    pub text_index: &'a InvertedIndex,
    /// The index over the augmented text, if any.
    pub augmented_index: Option<&'a InvertedIndex>,
    /// The index over the titles, where they are editorial headings (see
    /// [`crate::search::editorial`]).
    pub editorial_index: Option<&'a InvertedIndex>,
    /// Document embeddings, when the pool was built with a model.
    pub dense: Option<DenseInput<'a>>,
    /// What the sources are called, where the builder knows (may be empty).
    pub sources: &'a [SourceInput],
}

/// Document vectors for the optional dense section, over `documents` in
/// order, all of one dimension.
pub struct DenseInput<'a> {
    /// The model's id, e.g. `multilingual-e5-small-int8`.
    pub model: String,
    /// Hash of the model's manifest (see [`DenseSection`]).
    pub model_hash: String,
    /// How documents became vectors; several vectors per document only
    /// with a multi-vector pooling.
    pub pooling: crate::embed::Pooling,
    /// The text vectors.
    pub text: &'a DenseIndex,
    /// The augmented text's vectors, if any.
    pub augmented: Option<&'a DenseIndex>,
    /// The method the pool ranks with by default where its vectors can be
    /// used (`hybrid`), if not the readers' own default; written as given,
    /// checked when the pool is opened.
    pub hybrid: Option<String>,
}

/// What the encoder dropped, for the builder to report. Nothing else is
/// ever dropped: every other inconsistency is an error.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EncodeReport {
    /// Judgments naming no known query.
    pub judgments_unknown_query: usize,
    /// Judgments naming no known document.
    pub judgments_unknown_doc: usize,
    /// The same (query, document) judged again; the first judgment is kept.
    pub judgments_duplicate: usize,
    /// Explicit references naming no known document.
    pub explicit_refs_unknown: usize,
    /// Implicit references naming no known document.
    pub implicit_refs_unknown: usize,
    /// Definition edges naming no known document.
    pub definition_refs_unknown: usize,
    /// Definition edges written (0: no `definitions` section).
    pub definition_edges: usize,
}

/// Encodes a blob. Fails on duplicate document or query ids, on indexes
/// that do not cover the documents, and on sizes beyond the `u32` layout.
pub fn encode(input: &BlobInput<'_>) -> Result<(Vec<u8>, EncodeReport), BlobError> {
    let docs = input.documents;
    let n_docs = count(docs.len(), "documents")?;
    let doc_index = unique_ids(docs.iter().map(|d| d.id.as_str()), "document")?;
    let query_index = unique_ids(input.queries.iter().map(|q| q.id.as_str()), "query")?;
    let mut report = EncodeReport::default();

    let parts = document_parts(docs, &doc_index, Layout::BLOB, &|_| {})?;
    let mut areas = Interner::default();
    let docs_section = DocsSection {
        ids: StrTable::build(docs.iter().map(|d| d.id.as_str()))?,
        titles: StrTable::build(docs.iter().map(|d| d.title.as_str()))?,
        source_of: parts.source_of,
        area_of: docs
            .iter()
            .map(|d| areas.intern(d.area.as_deref()))
            .collect(),
        sources: StrTable::default(),
        areas: StrTable::default(),
    };
    let queries_section = QueriesSection {
        ids: StrTable::build(input.queries.iter().map(|q| q.id.as_str()))?,
        texts: StrTable::build(input.queries.iter().map(|q| q.text.as_str()))?,
        area_of: input
            .queries
            .iter()
            .map(|q| areas.intern(q.area.as_deref()))
            .collect(),
    };
    let docs_section = DocsSection {
        sources: StrTable::build(parts.sources.iter().map(String::as_str))?,
        areas: StrTable::build(areas.names.iter().map(String::as_str))?,
        ..docs_section
    };
    let qrels = qrels_section(input, &query_index, &doc_index, &mut report)?;
    report.explicit_refs_unknown = parts.unknown_explicit;
    report.implicit_refs_unknown = parts.unknown_implicit;
    let graph = GraphSection {
        explicit: parts.explicit,
        implicit: parts.implicit,
        unknown_explicit: count(parts.unknown_explicit, "unknown references")?,
        unknown_implicit: count(parts.unknown_implicit, "unknown references")?,
    };
    let text = parts.text;
    let (definitions, unknown) = Csr::resolve(docs.iter().map(|d| &d.definition_refs), &doc_index)?;
    report.definition_refs_unknown = unknown;
    report.definition_edges = definitions.targets.len();

    let mut sections: Vec<(SectionKind, rkyv::util::AlignedVec)> = vec![
        (SectionKind::Docs, archive(&docs_section)?),
        (SectionKind::Text, archive(&text)?),
        (
            SectionKind::LexText,
            archive(&lexical(input.text_index, n_docs, "text")?)?,
        ),
    ];
    if let Some(aug) = input.augmented_index {
        sections.push((
            SectionKind::LexAugmented,
            archive(&lexical(aug, n_docs, "augmented")?)?,
        ));
    }
    if let Some(editorial) = input.editorial_index {
        sections.push((
            SectionKind::LexEditorial,
            archive(&lexical(editorial, n_docs, "editorial headings")?)?,
        ));
    }
    if !input.queries.is_empty() {
        sections.push((SectionKind::Queries, archive(&queries_section)?));
        sections.push((SectionKind::Qrels, archive(&qrels)?));
    }
    sections.push((SectionKind::Graph, archive(&graph)?));
    if !definitions.targets.is_empty() {
        sections.push((SectionKind::Definitions, archive(&definitions)?));
    }
    if let Some(dense) = &input.dense {
        sections.push((SectionKind::Dense, archive(&dense_section(dense, n_docs)?)?));
        if let Some(hybrid) = &dense.hybrid {
            sections.push((SectionKind::Hybrid, archive(hybrid)?));
        }
    }
    let idf = idf_table(input);
    let idf_section = IdfSection {
        dfs: idf.dfs().to_vec(),
        okapi: idf.okapi_values().to_vec(),
        lucene: idf.lucene_values().to_vec(),
    };
    sections.push((SectionKind::Idf, archive(&idf_section)?));
    if let Some(names) = super::sources::section(&parts.sources, input.sources)? {
        sections.push((SectionKind::Sources, archive(&names)?));
    }

    let header = Header {
        builder: input.builder.clone(),
        analyzer: input.analyzer.clone(),
        bm25: input.bm25,
        manifest: input.manifest.clone(),
        content_hash: content_hash(sections.iter().map(|(_, b)| b.as_slice())),
        n_docs,
        n_queries: count(input.queries.len(), "queries")?,
        n_judgments: count(qrels.docs.len(), "judgments")?,
    };
    let header = archive(&header)?;
    let mut parts: Vec<([u8; 4], u32, &[u8])> = vec![(SectionKind::Header.tag(), 0, &header)];
    parts.extend(sections.iter().map(|(kind, bytes)| {
        let flags = match kind {
            SectionKind::Dense
            | SectionKind::Idf
            | SectionKind::Sources
            | SectionKind::Definitions
            | SectionKind::Hybrid
            | SectionKind::LexEditorial => frame::FLAG_OPTIONAL,
            _ => 0,
        };
        (kind.tag(), flags, bytes.as_slice())
    }));
    Ok((frame::assemble(FORMAT_VERSION, &parts)?, report))
}

/// What a blob and a fragmented pool make alike of the documents: each
/// one's source (names in first-seen order), the cross-references
/// resolved to documents, and the display text in deflated blocks.
pub(crate) struct DocumentParts {
    /// Distinct source names, first seen first.
    pub sources: Vec<String>,
    /// Each document's index into `sources`.
    pub source_of: Vec<u32>,
    pub explicit: Csr,
    pub implicit: Csr,
    /// References naming no document, dropped.
    pub unknown_explicit: usize,
    pub unknown_implicit: usize,
    pub text: TextSection,
}

/// [`DocumentParts`] of `docs` (whose ids `doc_index` numbers), their
/// display text cut as `layout` says; `deflated` hears how many
/// documents' text is deflated, now and then (the slow part, for a
/// progress bar).
pub(crate) fn document_parts(
    docs: &[DocumentInput],
    doc_index: &HashMap<&str, u32>,
    layout: Layout,
    deflated: &dyn Fn(usize),
) -> Result<DocumentParts, BlobError> {
    let mut sources = Interner::default();
    let source_of = docs
        .iter()
        .map(|d| sources.intern(Some(&d.source)))
        .collect();
    let (explicit, unknown_explicit) =
        Csr::resolve(docs.iter().map(|d| &d.explicit_refs), doc_index)?;
    let (implicit, unknown_implicit) =
        Csr::resolve(docs.iter().map(|d| &d.implicit_refs), doc_index)?;
    let text = text::encode(
        docs.iter().enumerate().map(|(i, d)| {
            if i % 1024 == 0 {
                deflated(i);
            }
            ArticleTextRef {
                text: &d.text,
                paragraphs: &d.paragraphs,
                augmented: d.augmented.as_deref(),
                path: &d.path,
                version_date: d.version_date.as_deref(),
            }
        }),
        layout,
    )?;
    Ok(DocumentParts {
        sources: sources.names,
        source_of,
        explicit,
        implicit,
        unknown_explicit,
        unknown_implicit,
        text,
    })
}

/// BM25's idf logarithms over every lexical field's document frequencies.
pub(crate) fn idf_table(input: &BlobInput<'_>) -> IdfTable {
    let dfs = input
        .text_index
        .doc_freqs()
        .iter()
        .chain(input.augmented_index.iter().flat_map(|i| i.doc_freqs()))
        .chain(input.editorial_index.iter().flat_map(|i| i.doc_freqs()))
        .copied();
    IdfTable::compute(input.documents.len() as u64, dfs)
}

/// xxh3-128 over the sections after the header, in table order.
pub(super) fn content_hash<'a>(sections: impl IntoIterator<Item = &'a [u8]>) -> u128 {
    let mut h = Xxh3::new();
    for s in sections {
        h.update(s);
    }
    h.digest128()
}

/// [`content_hash`] of a file's sections after the first (the header) as
/// its section table lays them out.
pub(super) fn content_hash_of(bytes: &[u8], table: &[frame::SectionEntry]) -> u128 {
    content_hash(
        table
            .iter()
            .skip(1)
            .map(|e| &bytes[e.offset..e.offset + e.len]),
    )
}

pub(crate) fn archive<T>(value: &T) -> Result<rkyv::util::AlignedVec, BlobError>
where
    T: for<'a> rkyv::Serialize<
        rkyv::api::high::HighSerializer<
            rkyv::util::AlignedVec,
            rkyv::ser::allocator::ArenaHandle<'a>,
            rancor::Error,
        >,
    >,
{
    rkyv::to_bytes::<rancor::Error>(value).map_err(|e| BlobError::Input(format!("rkyv: {e}")))
}

pub(crate) fn count(n: usize, what: &str) -> Result<u32, BlobError> {
    u32::try_from(n).map_err(|_| BlobError::Input(format!("too many {what} for a u32")))
}

pub(crate) fn unique_ids<'a>(
    ids: impl Iterator<Item = &'a str>,
    what: &str,
) -> Result<HashMap<&'a str, u32>, BlobError> {
    let mut map = HashMap::new();
    let mut duplicates = 0usize;
    let mut first = None;
    for (i, id) in ids.enumerate() {
        if map.insert(id, count(i, what)?).is_some() {
            duplicates += 1;
            first.get_or_insert(id);
        }
    }
    match first {
        None => Ok(map),
        Some(id) => Err(BlobError::Input(format!(
            "{duplicates} duplicate {what} ids (first: `{id}`)"
        ))),
    }
}

fn lexical(index: &InvertedIndex, n_docs: u32, field: &str) -> Result<LexicalSection, BlobError> {
    if index.n_docs() != n_docs as usize {
        return Err(BlobError::Input(format!(
            "the {field} index covers {} documents, not {n_docs}",
            index.n_docs()
        )));
    }
    Ok(LexicalSection {
        terms: StrTable::build(index.terms())?,
        doc_freqs: index.doc_freqs().to_vec(),
        offsets: index.offsets().to_vec(),
        postings: index.postings_bytes().to_vec(),
        doc_lens: index.doc_lens().to_vec(),
    })
}

fn dense_section(input: &DenseInput<'_>, n_docs: u32) -> Result<DenseSection, BlobError> {
    if input.model.is_empty() {
        return Err(BlobError::Input("dense vectors need a model id".into()));
    }
    let dim = input.text.dim();
    let mut sets = Vec::new();
    for (field, index) in [
        (VectorField::Text, Some(input.text)),
        (VectorField::Augmented, input.augmented),
    ] {
        let Some(index) = index else { continue };
        if index.passages().is_some() && !input.pooling.multi_vector() {
            return Err(BlobError::Input(format!(
                "{field:?} vectors: several per document, but pooling {} keeps one",
                input.pooling
            )));
        }
        if index.n_docs() != n_docs as usize || index.dim() != dim {
            return Err(BlobError::Input(format!(
                "{field:?} vectors: {} documents of {} dimensions, expected {n_docs} of {dim}",
                index.n_docs(),
                index.dim()
            )));
        }
        sets.push(DenseSet {
            field,
            codes: index.codes().to_vec(),
            scales: index.scales().to_vec(),
            bits: index.bits().to_vec(),
            mean: index.mean().to_vec(),
            passages: index
                .passages()
                .map_or_else(Vec::new, |p| p.offsets.clone()),
            starts: index.passages().map_or_else(Vec::new, |p| p.starts.clone()),
        });
    }
    Ok(DenseSection {
        model: input.model.clone(),
        model_hash: input.model_hash.clone(),
        dim: count(dim, "dimensions")?,
        pooling: input.pooling.to_string(),
        sets,
    })
}

fn qrels_section(
    input: &BlobInput<'_>,
    query_index: &HashMap<&str, u32>,
    doc_index: &HashMap<&str, u32>,
    report: &mut EncodeReport,
) -> Result<QrelsSection, BlobError> {
    let mut by_query: Vec<Vec<(u32, i32)>> = vec![Vec::new(); input.queries.len()];
    for j in input.judgments {
        let Some(&q) = query_index.get(j.query_id.as_str()) else {
            report.judgments_unknown_query += 1;
            continue;
        };
        let Some(&d) = doc_index.get(j.doc_id.as_str()) else {
            report.judgments_unknown_doc += 1;
            continue;
        };
        let list = &mut by_query[q as usize];
        if list.iter().any(|&(doc, _)| doc == d) {
            report.judgments_duplicate += 1;
        } else {
            list.push((d, j.relevance));
        }
    }
    let mut section = QrelsSection {
        offsets: vec![0],
        docs: Vec::new(),
        relevance: Vec::new(),
    };
    for mut list in by_query {
        list.sort_unstable_by_key(|&(doc, _)| doc);
        for (doc, rel) in list {
            section.docs.push(doc);
            section.relevance.push(rel);
        }
        section
            .offsets
            .push(count(section.docs.len(), "judgments")?);
    }
    Ok(section)
}

/// Distinct names in first-seen order; `None` maps to [`NONE`].
#[derive(Default)]
struct Interner {
    names: Vec<String>,
    ids: HashMap<String, u32>,
}

impl Interner {
    fn intern(&mut self, name: Option<&str>) -> u32 {
        let Some(name) = name else { return NONE };
        if let Some(&id) = self.ids.get(name) {
            return id;
        }
        // At most one name per document or query: far below u32::MAX.
        let id = self.names.len() as u32;
        self.names.push(name.to_owned());
        self.ids.insert(name.to_owned(), id);
        id
    }
}
