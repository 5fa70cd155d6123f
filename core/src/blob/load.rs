//! Loading: frame checks, rkyv validation of every section, then semantic
//! checks across sections. Anything wrong is a [`BlobError`], never a panic.

use std::collections::HashMap;
use std::ops::Range;

use rkyv::rancor;
use rkyv::util::AlignedVec;

use super::archived::{access, aligned, archive_error};
use super::dense_section::load_dense;
use super::encode::content_hash_of;
use super::format::{
    ArchivedCsr, ArchivedDenseSection, ArchivedDocsSection, ArchivedGraphSection, ArchivedHeader,
    ArchivedIdfSection, ArchivedLexicalSection, ArchivedQrelsSection, ArchivedQueriesSection,
    ArchivedSiblingsSection, ArchivedSourcesSection, ArchivedTextPartsSection, ArchivedTextSection,
    Header, SectionKind, SiblingKind, FORMAT_VERSION, NONE,
};
use super::frame::{self, FLAG_OPTIONAL};
use super::text_parts::PartSlot;
use super::{sibling, Blob, BlobError, Field, SectionInfo};
use crate::analysis::Analyzer;
use crate::index::{IndexParts, InvertedIndex};
use crate::search::Bm25Params;
use crate::search::IdfTable;

/// Where the sections a loaded blob reads in place lie in its kept bytes.
pub(super) struct Ranges {
    pub docs: Range<usize>,
    /// `None` in a light blob: the text is in a sibling.
    pub text: Option<Range<usize>>,
    pub queries: Option<Range<usize>>,
    pub qrels: Option<Range<usize>>,
    pub graph: Option<Range<usize>>,
    pub definitions: Option<Range<usize>>,
}

/// Whether a loaded blob reads `kind` from its bytes (kept), or copies it
/// into structures of its own at load (the header, indexes, vectors and
/// idf table), so that its bytes need not stay.
fn read_in_place(kind: SectionKind) -> bool {
    matches!(
        kind,
        SectionKind::Docs
            | SectionKind::Text
            | SectionKind::Queries
            | SectionKind::Qrels
            | SectionKind::Graph
            | SectionKind::Definitions
    )
}

impl Blob {
    /// What the first bytes of a file say (see [`frame::declared_len`]):
    /// an error when they are not the start of a blob this build reads,
    /// else the file's length once the 32-byte prefix is there.
    pub fn declared_len(start: &[u8]) -> Result<Option<u64>, BlobError> {
        frame::declared_len(start, FORMAT_VERSION)
    }

    /// Validates `bytes` completely and loads it. Sections read in place
    /// (documents, text, queries, judgments, graph) are copied once into
    /// 16-byte-aligned storage the blob keeps (rkyv needs aligned
    /// archives; a fetched buffer has no such guarantee). The others are
    /// copied aligned one at a time, checked and rebuilt into structures of
    /// their own ([`InvertedIndex`], which checks every posting,
    /// [`DenseIndex`](crate::dense::DenseIndex), [`IdfTable`]), and their
    /// bytes dropped: a loaded blob holds nothing of the file twice.
    pub fn load(bytes: &[u8]) -> Result<Blob, BlobError> {
        let table = frame::parse(bytes, FORMAT_VERSION)?;

        let mut sections = Vec::with_capacity(table.len());
        let mut found: HashMap<SectionKind, Range<usize>> = HashMap::new();
        for entry in &table {
            let range = entry.offset..entry.offset + entry.len;
            if entry.tag == SectionKind::RETIRED_DENSE {
                return Err(BlobError::invalid(
                    SectionKind::Dense.name(),
                    "the vectors are in the layout of nomos before the pooling was recorded \
                     (section DENS); rebuild the pool with `nomos build --embed`"
                        .to_owned(),
                ));
            }
            match SectionKind::from_tag(entry.tag) {
                Some(kind) => {
                    found.insert(kind, range);
                    sections.push(SectionInfo {
                        name: kind.name().to_owned(),
                        tag: entry.tag,
                        offset: entry.offset,
                        len: entry.len,
                    });
                }
                None if entry.flags & FLAG_OPTIONAL != 0 => sections.push(SectionInfo {
                    name: format!("(unknown {})", String::from_utf8_lossy(&entry.tag)),
                    tag: entry.tag,
                    offset: entry.offset,
                    len: entry.len,
                }),
                None => {
                    return Err(BlobError::SectionTable(format!(
                        "required section `{}` is unknown to this reader",
                        String::from_utf8_lossy(&entry.tag)
                    )))
                }
            }
        }
        if table.first().map(|e| e.tag) != Some(SectionKind::Header.tag()) {
            return Err(BlobError::SectionTable(
                "the header is not the first section".into(),
            ));
        }
        let required = |kind: SectionKind| {
            found
                .get(&kind)
                .cloned()
                .ok_or(BlobError::MissingSection(kind.name()))
        };
        let header_range = required(SectionKind::Header)?;
        let header_bytes = aligned(&bytes[header_range]);
        let header: &ArchivedHeader = access(&header_bytes, "header")?;
        let header: Header = rkyv::deserialize::<Header, rancor::Error>(header)
            .map_err(|e| archive_error("header", e))?;
        let hash = content_hash_of(bytes, &table);
        if hash != header.content_hash {
            return Err(BlobError::invalid(
                "header",
                "content hash does not match the sections",
            ));
        }
        check_header(&header)?;
        let n_docs = header.n_docs as usize;

        let (kept, kept_at) = keep_in_place(bytes, &found);
        let kept_range = |kind: SectionKind| kept_at.get(&kind).cloned();
        let ranges = Ranges {
            docs: kept_range(SectionKind::Docs)
                .ok_or(BlobError::MissingSection(SectionKind::Docs.name()))?,
            text: kept_range(SectionKind::Text),
            queries: kept_range(SectionKind::Queries),
            qrels: kept_range(SectionKind::Qrels),
            graph: kept_range(SectionKind::Graph),
            definitions: kept_range(SectionKind::Definitions),
        };
        let docs: &ArchivedDocsSection = access(slice(&kept, &ranges.docs), "docs")?;
        let doc_order = check_docs(docs, n_docs)?;
        let has_parts = found.contains_key(&SectionKind::TextParts);
        let mut listed = match found.get(&SectionKind::Siblings) {
            None => sibling::Listed {
                siblings: Vec::new(),
                vectors_model: None,
            },
            Some(range) => {
                let section = aligned(&bytes[range.clone()]);
                let list: &ArchivedSiblingsSection =
                    access(&section, SectionKind::Siblings.name())?;
                sibling::check_listed(list, n_docs, |kind| match kind {
                    SiblingKind::Text => found.contains_key(&SectionKind::Text) || has_parts,
                    SiblingKind::Vectors => found.contains_key(&SectionKind::Dense),
                })?
            }
        };
        // A text file listed in `SIBL` (before text parts) is one part.
        let mut parts: Vec<PartSlot> = listed
            .siblings
            .iter()
            .filter(|s| s.kind == SiblingKind::Text)
            .map(|_| PartSlot::default())
            .collect();
        if let Some(range) = found.get(&SectionKind::TextParts) {
            let name = SectionKind::TextParts.name();
            if found.contains_key(&SectionKind::Text) {
                return Err(BlobError::invalid(
                    name,
                    "the text is both in the blob and in part files",
                ));
            }
            let section = aligned(&bytes[range.clone()]);
            let list: &ArchivedTextPartsSection = access(&section, name)?;
            for (sibling, raw) in sibling::check_parts(list, n_docs)? {
                if listed.siblings.iter().any(|s| s.file == sibling.file) {
                    return Err(BlobError::invalid(
                        name,
                        format!("`{}` is listed twice", sibling.file),
                    ));
                }
                listed.siblings.push(sibling);
                parts.push(PartSlot {
                    raw_bytes: Some(raw),
                    section: Default::default(),
                });
            }
        }
        match &ranges.text {
            Some(range) => {
                let text: &ArchivedTextSection = access(slice(&kept, range), "text")?;
                text.validate(n_docs)?;
            }
            None if has_parts || !parts.is_empty() => {}
            None => return Err(BlobError::MissingSection(SectionKind::Text.name())),
        }
        check_queries_and_qrels(&kept, &ranges, &header, docs.areas.count())?;
        if let Some(range) = &ranges.graph {
            let graph: &ArchivedGraphSection = access(slice(&kept, range), "graph")?;
            graph.explicit.validate("explicit", n_docs)?;
            graph.implicit.validate("implicit", n_docs)?;
        }
        if let Some(range) = &ranges.definitions {
            let edges: &ArchivedCsr = access(slice(&kept, range), "definitions")?;
            edges.validate("definitions", n_docs)?;
        }

        let mut fields = Vec::new();
        for (field, kind) in [
            (Field::Text, SectionKind::LexText),
            (Field::Augmented, SectionKind::LexAugmented),
        ] {
            let range = match (field, found.get(&kind)) {
                (_, Some(range)) => range.clone(),
                (Field::Text, None) => return Err(BlobError::MissingSection(kind.name())),
                (Field::Augmented, None) => continue,
            };
            let section = aligned(&bytes[range]);
            let lex: &ArchivedLexicalSection = access(&section, kind.name())?;
            fields.push((field, rebuild_index(lex, kind, n_docs)?));
        }
        let editorial = match found.get(&SectionKind::LexEditorial) {
            None => None,
            Some(range) => {
                let kind = SectionKind::LexEditorial;
                let section = aligned(&bytes[range.clone()]);
                let lex: &ArchivedLexicalSection = access(&section, kind.name())?;
                Some(rebuild_index(lex, kind, n_docs)?)
            }
        };

        let (dense_model, dense) = match found.get(&SectionKind::Dense) {
            None => (listed.vectors_model, Vec::new()),
            Some(range) => {
                let section = aligned(&bytes[range.clone()]);
                let section: &ArchivedDenseSection = access(&section, "dense")?;
                let (model, sets) = load_dense(section, n_docs)?;
                (Some(model), sets)
            }
        };

        let idf_table = match found.get(&SectionKind::Idf) {
            None => None,
            Some(range) => {
                let section = aligned(&bytes[range.clone()]);
                let section: &ArchivedIdfSection = access(&section, "idf")?;
                let table = IdfTable::from_parts(
                    n_docs as u64,
                    section.dfs.iter().map(|d| d.to_native()).collect(),
                    section.okapi.iter().map(|v| v.to_native()).collect(),
                    section.lucene.iter().map(|v| v.to_native()).collect(),
                )
                .map_err(|e| BlobError::invalid(SectionKind::Idf.name(), e.to_string()))?;
                Some(table)
            }
        };

        let source_info = match found.get(&SectionKind::Sources) {
            None => Vec::new(),
            Some(range) => {
                let section = aligned(&bytes[range.clone()]);
                let section: &ArchivedSourcesSection = access(&section, "sources")?;
                super::sources::load(section, docs.sources.count())?
            }
        };

        let hybrid = match found.get(&SectionKind::Hybrid) {
            None => None,
            Some(range) => {
                let section = aligned(&bytes[range.clone()]);
                let spec: &rkyv::string::ArchivedString = access(&section, "hybrid default")?;
                if spec.is_empty() || spec.len() > MAX_HYBRID {
                    return Err(BlobError::invalid(
                        SectionKind::Hybrid.name(),
                        format!("{} bytes, not 1 to {MAX_HYBRID}", spec.len()),
                    ));
                }
                Some(spec.as_str().to_owned())
            }
        };

        Ok(Blob {
            bytes: kept,
            source_info,
            file_len: bytes.len(),
            sections,
            header,
            ranges,
            fields,
            editorial,
            dense_model,
            dense,
            hybrid,
            idf_table,
            doc_order,
            text_cache: Default::default(),
            siblings: listed.siblings,
            text_parts: parts,
        })
    }
}

/// The longest hybrid method spec a blob may name: a method and its
/// parameters take a few dozen bytes.
const MAX_HYBRID: usize = 256;

/// Copies the sections read in place into one aligned buffer, each at a
/// multiple of 16, and says where each went.
fn keep_in_place(
    bytes: &[u8],
    found: &HashMap<SectionKind, Range<usize>>,
) -> (AlignedVec<16>, HashMap<SectionKind, Range<usize>>) {
    let mut in_place: Vec<(SectionKind, Range<usize>)> = found
        .iter()
        .filter(|(kind, _)| read_in_place(**kind))
        .map(|(kind, range)| (*kind, range.clone()))
        .collect();
    crate::order::sort_by_key(&mut in_place, |(_, range)| range.start);
    let padded = |len: usize| len.div_ceil(frame::ALIGN) * frame::ALIGN;
    let total = in_place.iter().map(|(_, r)| padded(r.len())).sum();
    let mut kept = AlignedVec::<16>::with_capacity(total);
    let mut at = HashMap::new();
    for (kind, range) in in_place {
        kept.resize(padded(kept.len()), 0);
        let start = kept.len();
        kept.extend_from_slice(&bytes[range]);
        at.insert(kind, start..kept.len());
    }
    (kept, at)
}

/// `range` of the kept bytes; it starts at a multiple of 16, so the slice
/// is as aligned as the buffer.
fn slice<'a>(kept: &'a AlignedVec<16>, range: &Range<usize>) -> &'a [u8] {
    kept.get(range.clone()).unwrap_or_default()
}

fn check_header(h: &Header) -> Result<(), BlobError> {
    let bad = |msg: String| Err(BlobError::invalid("header", msg));
    if h.analyzer.is_empty() {
        return bad("no analyzer name".into());
    }
    if Analyzer::by_name(&h.analyzer).is_err() {
        return bad(format!("unknown analyzer `{}`", h.analyzer));
    }
    if let Err(e) = Bm25Params::from(h.bm25).validate() {
        return bad(format!("BM25 defaults: {e}"));
    }
    for f in &h.manifest.files {
        let hex = f.sha256.len() == 64
            && f.sha256
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
        if !hex {
            return bad(format!("manifest file `{}`: bad SHA-256", f.name));
        }
    }
    if h.n_docs == NONE {
        return bad("document count out of range".into());
    }
    Ok(())
}

/// Checks the docs section and returns the documents in the order of
/// their ids (ids unique), for [`Blob::doc_index`]'s binary search: the
/// ids stay in the section, not copied into a map beside it.
fn check_docs(docs: &ArchivedDocsSection, n_docs: usize) -> Result<Vec<u32>, BlobError> {
    let section = "docs";
    docs.ids.validate(section, "ids", Some(n_docs))?;
    docs.titles.validate(section, "titles", Some(n_docs))?;
    docs.sources.validate(section, "sources", None)?;
    docs.areas.validate(section, "areas", None)?;
    let (n_sources, n_areas) = (docs.sources.count(), docs.areas.count());
    if docs.source_of.len() != n_docs
        || docs
            .source_of
            .iter()
            .any(|s| s.to_native() as usize >= n_sources)
    {
        return Err(BlobError::invalid(section, "source indices out of range"));
    }
    check_areas(
        docs.area_of.iter().map(|a| a.to_native()),
        n_docs,
        n_areas,
        section,
    )?;
    let id = |d: u32| docs.ids.get(d as usize).unwrap_or_default();
    let order = crate::order::stable_order(n_docs, &|a, b| id(a).cmp(id(b)));
    if let Some(pair) = order.windows(2).find(|p| id(p[0]) == id(p[1])) {
        return Err(BlobError::invalid(
            section,
            format!("duplicate document id `{}`", id(pair[0])),
        ));
    }
    Ok(order)
}

fn check_areas(
    area_of: impl ExactSizeIterator<Item = u32>,
    n: usize,
    n_areas: usize,
    section: &'static str,
) -> Result<(), BlobError> {
    if area_of.len() != n {
        return Err(BlobError::invalid(
            section,
            "one area index per entry expected",
        ));
    }
    for a in area_of {
        if a != NONE && a as usize >= n_areas {
            return Err(BlobError::invalid(
                section,
                format!("area index {a} out of range"),
            ));
        }
    }
    Ok(())
}

fn check_queries_and_qrels(
    bytes: &AlignedVec<16>,
    ranges: &Ranges,
    header: &Header,
    n_areas: usize,
) -> Result<(), BlobError> {
    let n_queries = header.n_queries as usize;
    let (queries, qrels) = match (&ranges.queries, &ranges.qrels) {
        (Some(q), Some(j)) => (q.clone(), j.clone()),
        (None, None) if n_queries == 0 && header.n_judgments == 0 => return Ok(()),
        (None, _) => return Err(BlobError::MissingSection(SectionKind::Queries.name())),
        (_, None) => return Err(BlobError::MissingSection(SectionKind::Qrels.name())),
    };
    let q: &ArchivedQueriesSection = access(slice(bytes, &queries), "queries")?;
    q.ids.validate("queries", "ids", Some(n_queries))?;
    q.texts.validate("queries", "texts", Some(n_queries))?;
    check_areas(
        q.area_of.iter().map(|a| a.to_native()),
        n_queries,
        n_areas,
        "queries",
    )?;
    let mut seen = std::collections::HashSet::with_capacity(n_queries);
    if let Some(id) = q.ids.iter().find(|id| !seen.insert(*id)) {
        return Err(BlobError::invalid(
            "queries",
            format!("duplicate query id `{id}`"),
        ));
    }

    let j: &ArchivedQrelsSection = access(slice(bytes, &qrels), "qrels")?;
    let bad = |msg: &str| Err(BlobError::invalid("qrels", msg));
    let n_judgments = header.n_judgments as usize;
    if j.offsets.len() != n_queries + 1
        || j.docs.len() != n_judgments
        || j.relevance.len() != n_judgments
    {
        return bad("array lengths disagree with the header");
    }
    let offsets: Vec<usize> = j.offsets.iter().map(|o| o.to_native() as usize).collect();
    if offsets[0] != 0
        || offsets[n_queries] != n_judgments
        || offsets.windows(2).any(|w| w[1] < w[0])
    {
        return bad("offsets do not tile the judgments");
    }
    for w in offsets.windows(2) {
        let docs = &j.docs[w[0]..w[1]];
        if docs.iter().any(|d| d.to_native() >= header.n_docs)
            || docs
                .windows(2)
                .any(|p| p[1].to_native() <= p[0].to_native())
        {
            return bad("judged documents out of range or not increasing");
        }
    }
    Ok(())
}

/// Copies one lexical section into [`IndexParts`] and lets the index check
/// every posting.
fn rebuild_index(
    lex: &ArchivedLexicalSection,
    kind: SectionKind,
    n_docs: usize,
) -> Result<InvertedIndex, BlobError> {
    let section = kind.name();
    lex.terms.validate(section, "terms", None)?;
    if lex.doc_lens.len() != n_docs {
        return Err(BlobError::invalid(
            section,
            format!(
                "{} document lengths for {n_docs} documents",
                lex.doc_lens.len()
            ),
        ));
    }
    let parts = IndexParts {
        terms: lex.terms.iter().map(str::to_owned).collect(),
        doc_freqs: lex.doc_freqs.iter().map(|v| v.to_native()).collect(),
        offsets: lex.offsets.iter().map(|v| v.to_native()).collect(),
        postings: lex.postings.to_vec(),
        doc_lens: lex.doc_lens.iter().map(|v| v.to_native()).collect(),
    };
    InvertedIndex::from_parts(parts).map_err(|error| BlobError::Index {
        field: section,
        error,
    })
}
