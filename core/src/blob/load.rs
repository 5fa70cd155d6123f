//! Loading: frame checks, rkyv validation of every section, then semantic
//! checks across sections. Anything wrong is a [`BlobError`], never a panic.

use std::collections::HashMap;
use std::ops::Range;

use rkyv::rancor;
use rkyv::util::AlignedVec;

use super::encode::content_hash_of;
use super::format::{
    ArchivedDenseSection, ArchivedDocsSection, ArchivedGraphSection, ArchivedHeader,
    ArchivedIdfSection, ArchivedLexicalSection, ArchivedQrelsSection, ArchivedQueriesSection,
    ArchivedTextSection, ArchivedVectorField, Header, SectionKind, FORMAT_VERSION, NONE,
};
use super::frame::{self, FLAG_OPTIONAL};
use super::{Blob, BlobError, DenseModel, Field, SectionInfo};
use crate::analysis::Analyzer;
use crate::dense::{DenseIndex, DenseParts, Passages};
use crate::embed::Pooling;
use crate::index::{IndexParts, InvertedIndex};
use crate::search::Bm25Params;
use crate::search::IdfTable;

/// Byte ranges of the sections a loaded blob reads from.
pub(super) struct Ranges {
    pub docs: Range<usize>,
    pub text: Range<usize>,
    pub queries: Option<Range<usize>>,
    pub qrels: Option<Range<usize>>,
    pub graph: Option<Range<usize>>,
}

impl Blob {
    /// Validates `bytes` completely and loads it. The bytes are copied once
    /// into 16-byte-aligned storage (rkyv needs aligned archives; a fetched
    /// buffer has no such guarantee), and the lexical fields are rebuilt
    /// into [`InvertedIndex`]es, which checks every posting.
    pub fn load(bytes: &[u8]) -> Result<Blob, BlobError> {
        let table = frame::parse(bytes, FORMAT_VERSION)?;
        let mut aligned = AlignedVec::<16>::with_capacity(bytes.len());
        aligned.extend_from_slice(bytes);

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
        let header: &ArchivedHeader = access(&aligned, header_range.clone(), "header")?;
        let header: Header = rkyv::deserialize::<Header, rancor::Error>(header)
            .map_err(|e| archive_error("header", e))?;
        let hash = content_hash_of(&aligned, &table);
        if hash != header.content_hash {
            return Err(BlobError::invalid(
                "header",
                "content hash does not match the sections",
            ));
        }
        check_header(&header)?;
        let n_docs = header.n_docs as usize;

        let ranges = Ranges {
            docs: required(SectionKind::Docs)?,
            text: required(SectionKind::Text)?,
            queries: found.get(&SectionKind::Queries).cloned(),
            qrels: found.get(&SectionKind::Qrels).cloned(),
            graph: found.get(&SectionKind::Graph).cloned(),
        };
        let docs: &ArchivedDocsSection = access(&aligned, ranges.docs.clone(), "docs")?;
        let doc_ids = check_docs(docs, n_docs)?;
        let text: &ArchivedTextSection = access(&aligned, ranges.text.clone(), "text")?;
        text.validate(n_docs)?;
        check_queries_and_qrels(&aligned, &ranges, &header, docs.areas.count())?;
        if let Some(range) = &ranges.graph {
            let graph: &ArchivedGraphSection = access(&aligned, range.clone(), "graph")?;
            graph.explicit.validate("explicit", n_docs)?;
            graph.implicit.validate("implicit", n_docs)?;
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
            let lex: &ArchivedLexicalSection = access(&aligned, range, kind.name())?;
            fields.push((field, rebuild_index(lex, field, n_docs)?));
        }

        let (dense_model, dense) = match found.get(&SectionKind::Dense) {
            None => (None, Vec::new()),
            Some(range) => {
                let section: &ArchivedDenseSection = access(&aligned, range.clone(), "dense")?;
                let (model, sets) = load_dense(section, n_docs)?;
                (Some(model), sets)
            }
        };

        let idf_table = match found.get(&SectionKind::Idf) {
            None => None,
            Some(range) => {
                let section: &ArchivedIdfSection = access(&aligned, range.clone(), "idf")?;
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

        Ok(Blob {
            bytes: aligned,
            sections,
            header,
            ranges,
            fields,
            dense_model,
            dense,
            idf_table,
            doc_ids,
        })
    }
}

/// rkyv's bytecheck validation of one section.
pub(super) fn access<'a, T>(
    bytes: &'a AlignedVec<16>,
    range: Range<usize>,
    section: &'static str,
) -> Result<&'a T, BlobError>
where
    T: rkyv::Portable
        + for<'b> rkyv::bytecheck::CheckBytes<rkyv::api::high::HighValidator<'b, rancor::Error>>,
{
    let slice = bytes.get(range).ok_or(BlobError::SectionTable(format!(
        "section `{section}` out of bounds"
    )))?;
    rkyv::access::<T, rancor::Error>(slice).map_err(|e| archive_error(section, e))
}

fn archive_error(section: &'static str, e: rancor::Error) -> BlobError {
    BlobError::Archive {
        section,
        message: e.to_string(),
    }
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

/// Checks the docs section and returns the id → index map (ids unique).
fn check_docs(
    docs: &ArchivedDocsSection,
    n_docs: usize,
) -> Result<HashMap<Box<str>, u32>, BlobError> {
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
    let mut ids = HashMap::with_capacity(n_docs);
    for (i, id) in docs.ids.iter().enumerate() {
        if ids.insert(Box::from(id), i as u32).is_some() {
            return Err(BlobError::invalid(
                section,
                format!("duplicate document id `{id}`"),
            ));
        }
    }
    Ok(ids)
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
    let q: &ArchivedQueriesSection = access(bytes, queries, "queries")?;
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

    let j: &ArchivedQrelsSection = access(bytes, qrels, "qrels")?;
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
    field: Field,
    n_docs: usize,
) -> Result<InvertedIndex, BlobError> {
    let section = match field {
        Field::Text => SectionKind::LexText.name(),
        Field::Augmented => SectionKind::LexAugmented.name(),
    };
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
        field: field.name(),
        error,
    })
}

/// Copies the dense section's sets into [`DenseIndex`]es, which check them.
fn load_dense(
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
