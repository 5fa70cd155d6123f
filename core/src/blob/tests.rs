//! Hostile blobs: each is a small valid blob with one thing made wrong and
//! then [`reseal`]ed, so that both integrity checks pass and the load-side
//! check behind them must name the problem.

use miniz_oxide::deflate::compress_to_vec;
use rkyv::rancor;

use super::format::{
    Csr, DenseSection, DenseSet, DocsSection, GraphSection, IdfSection, QrelsSection,
    QueriesSection, SectionKind, StrTable, TextSection, VectorField, FORMAT_VERSION, NONE,
};
use super::test_blob::{danish_blob, definition_blobs};
use super::{frame, reseal, Blob, DocumentInput, JudgmentInput, QueryInput};
use crate::dense::DenseIndex;
use crate::embed::{Pooling, Windows};

/// Three documents (ids `a`, `b`, `c`), two queries with three judgments,
/// one citation, and two-dimensional vectors.
pub(super) fn sample() -> Vec<u8> {
    let doc = |id: &str, text: &str| DocumentInput {
        id: id.into(),
        text: text.into(),
        source: "s".into(),
        ..DocumentInput::default()
    };
    let mut documents = vec![
        doc("a", "fishing rights at sea"),
        doc("b", "rights of way"),
        doc("c", "the sea shore"),
    ];
    documents[0].explicit_refs = vec!["b".into()];
    documents[1].path = vec!["Part 1".into(), "Chapter 2".into()];
    documents[1].version_date = Some("2016-05-12".into());
    let queries = [("q1", "sea"), ("q2", "rights")].map(|(id, text)| QueryInput {
        id: id.into(),
        text: text.into(),
        area: None,
    });
    let judgments = [("q1", "a"), ("q2", "b"), ("q2", "c")].map(|(q, d)| JudgmentInput {
        query_id: q.into(),
        doc_id: d.into(),
        relevance: 1,
    });
    let vectors = DenseIndex::build(&[0.6, 0.8, 1.0, 0.0, 0.0, 1.0], 2).unwrap();
    let dense = super::DenseInput {
        model: "m".into(),
        model_hash: "h".into(),
        pooling: Pooling::new(Windows::First, false),
        text: &vectors,
        augmented: None,
        hybrid: None,
    };
    danish_blob(&documents, &queries, &judgments, Some(dense))
}

/// A section: its tag, table flags and bytes.
pub(super) type Part = ([u8; 4], u32, Vec<u8>);

pub(super) fn parts(bytes: &[u8]) -> Vec<Part> {
    frame::parse(bytes, FORMAT_VERSION)
        .unwrap()
        .into_iter()
        .map(|e| (e.tag, e.flags, bytes[e.offset..e.offset + e.len].to_vec()))
        .collect()
}

/// The sample with its sections changed by `edit`, laid out and resealed.
fn crafted(edit: impl FnOnce(&mut Vec<Part>)) -> Vec<u8> {
    let mut parts = parts(&sample());
    edit(&mut parts);
    let refs: Vec<([u8; 4], u32, &[u8])> = parts
        .iter()
        .map(|(tag, flags, bytes)| (*tag, *flags, bytes.as_slice()))
        .collect();
    let mut bytes = frame::assemble(FORMAT_VERSION, &refs).unwrap();
    reseal(&mut bytes);
    bytes
}

/// The sample with section `kind` replaced by the archive of `section`.
fn with_section<T>(kind: SectionKind, section: &T) -> Vec<u8>
where
    T: for<'a> rkyv::Serialize<
        rkyv::api::high::HighSerializer<
            rkyv::util::AlignedVec,
            rkyv::ser::allocator::ArenaHandle<'a>,
            rancor::Error,
        >,
    >,
{
    let archive = rkyv::to_bytes::<rancor::Error>(section).unwrap().to_vec();
    crafted(|parts| {
        let part = parts.iter_mut().find(|p| p.0 == kind.tag()).unwrap();
        part.2 = archive;
    })
}

/// The message `bytes` are refused with; they must be refused.
fn refusal(bytes: &[u8]) -> String {
    match Blob::load(bytes) {
        Ok(_) => panic!("loaded"),
        Err(e) => e.to_string(),
    }
}

fn assert_refused(bytes: &[u8], message: &str) {
    let got = refusal(bytes);
    assert_eq!(got, message);
}

fn strings(items: &[&str]) -> StrTable {
    StrTable::build(items.iter().copied()).unwrap()
}

#[test]
fn the_sample_loads_and_crafting_alone_changes_nothing() {
    let blob = Blob::load(&sample()).unwrap();
    assert_eq!((blob.n_docs(), blob.n_queries()), (3, 2));
    let same = crafted(|_| {});
    assert_eq!(same, sample());
    // Resealing fixes both fields: a flipped title byte loads once resealed.
    let mut flipped = sample();
    let docs = frame::parse(&flipped, FORMAT_VERSION).unwrap()[1];
    let at = docs.offset
        + flipped[docs.offset..docs.offset + docs.len]
            .windows(3)
            .position(|w| w == b"abc")
            .unwrap();
    flipped[at] = b'x';
    assert!(refusal(&flipped).contains("checksum mismatch"));
    frame::seal(&mut flipped);
    assert_eq!(
        refusal(&flipped),
        "blob section `header` is inconsistent: content hash does not match the sections"
    );
    reseal(&mut flipped);
    let blob = Blob::load(&flipped).unwrap();
    assert_eq!(blob.doc_id(0), Some("x"));
}

fn docs_with_ids(ids: &[&str]) -> DocsSection {
    DocsSection {
        ids: strings(ids),
        titles: strings(&["", "", ""]),
        sources: strings(&["s"]),
        source_of: vec![0; 3],
        areas: strings(&[]),
        area_of: vec![NONE; 3],
    }
}

#[test]
fn a_duplicate_document_id_is_refused() {
    // The same section with distinct ids loads: only the repeat is wrong.
    Blob::load(&with_section(
        SectionKind::Docs,
        &docs_with_ids(&["a", "b", "c"]),
    ))
    .unwrap();
    assert_refused(
        &with_section(SectionKind::Docs, &docs_with_ids(&["a", "b", "a"])),
        "blob section `docs` is inconsistent: duplicate document id `a`",
    );
}

#[test]
fn a_duplicate_query_id_is_refused() {
    let queries = |ids: &[&str]| QueriesSection {
        ids: strings(ids),
        texts: strings(&["sea", "rights"]),
        area_of: vec![NONE; 2],
    };
    Blob::load(&with_section(SectionKind::Queries, &queries(&["q1", "q2"]))).unwrap();
    assert_refused(
        &with_section(SectionKind::Queries, &queries(&["q1", "q1"])),
        "blob section `queries` is inconsistent: duplicate query id `q1`",
    );
}

#[test]
fn qrels_offsets_that_decrease_are_refused() {
    let qrels = |offsets: Vec<u32>| QrelsSection {
        offsets,
        docs: vec![0, 1, 2],
        relevance: vec![1; 3],
    };
    Blob::load(&with_section(SectionKind::Qrels, &qrels(vec![0, 1, 3]))).unwrap();
    // Starts at 0 and ends at the judgment count, but goes down between.
    assert_refused(
        &with_section(SectionKind::Qrels, &qrels(vec![0, 4, 3])),
        "blob section `qrels` is inconsistent: offsets do not tile the judgments",
    );
}

#[test]
fn a_graph_target_past_the_documents_is_refused() {
    let graph = |target: u32| GraphSection {
        explicit: Csr {
            offsets: vec![0, 1, 1, 1],
            targets: vec![target],
        },
        implicit: Csr {
            offsets: vec![0; 4],
            targets: Vec::new(),
        },
        unknown_explicit: 0,
        unknown_implicit: 0,
    };
    Blob::load(&with_section(SectionKind::Graph, &graph(2))).unwrap();
    assert_refused(
        &with_section(SectionKind::Graph, &graph(3)),
        "blob section `graph` is inconsistent: explicit: target 3 out of range",
    );
}

/// Definition edges live in their own optional section, apart from the
/// citations that "Cited by" lists; a blob without any has no section.
#[test]
fn definition_edges_are_kept_apart_from_citations() {
    let (plain, with_edges) = definition_blobs();
    assert!(!parts(&plain).iter().any(|p| p.0 == *b"DEFN"));
    let defn = parts(&with_edges)
        .into_iter()
        .find(|p| p.0 == *b"DEFN")
        .unwrap();
    assert_eq!(defn.1, frame::FLAG_OPTIONAL);
    let blob = Blob::load(&with_edges).unwrap();
    assert_eq!(blob.definition_refs(2), [1]);
    assert!(blob.explicit_refs(2).is_empty());
    assert!(Blob::load(&plain).unwrap().definition_refs(2).is_empty());
}

/// A definitions section whose target is past the documents is refused.
#[test]
fn a_definition_target_past_the_documents_is_refused() {
    let edges = |target: u32| Csr {
        offsets: vec![0, 1, 1, 1],
        targets: vec![target],
    };
    let with = |target: u32| {
        let archive = rkyv::to_bytes::<rancor::Error>(&edges(target))
            .unwrap()
            .to_vec();
        crafted(|parts| parts.push((*b"DEFN", frame::FLAG_OPTIONAL, archive)))
    };
    assert_eq!(Blob::load(&with(2)).unwrap().definition_refs(0), [2]);
    assert_refused(
        &with(3),
        "blob section `graph` is inconsistent: definitions: target 3 out of range",
    );
}

/// A hybrid default is read as written; one longer than any method spec,
/// or bytes that are not an archived string, are refused.
#[test]
fn a_hybrid_default_is_read_and_checked() {
    let with =
        |bytes: Vec<u8>| crafted(|parts| parts.push((*b"HYBR", frame::FLAG_OPTIONAL, bytes)));
    let spec = |s: &str| {
        rkyv::to_bytes::<rancor::Error>(&s.to_owned())
            .unwrap()
            .to_vec()
    };
    assert_eq!(Blob::load(&sample()).unwrap().hybrid(), None);
    let blob = Blob::load(&with(spec("weighted:w=0.3"))).unwrap();
    assert_eq!(blob.hybrid(), Some("weighted:w=0.3"));
    assert_refused(
        &with(spec(&"w".repeat(257))),
        "blob section `hybrid default` is inconsistent: 257 bytes, not 1 to 256",
    );
    assert!(Blob::load(&with(vec![0xff; 3])).is_err());
}

/// A text section of one block holding `raw` for the three documents.
fn text_block(raw: &[u8]) -> Vec<u8> {
    let data = compress_to_vec(raw, 6);
    let section = TextSection {
        block_docs: vec![0, 3],
        block_ends: vec![0, data.len() as u32],
        raw_lens: vec![raw.len() as u32],
        data,
    };
    with_section(SectionKind::Text, &section)
}

/// A record with the given flags byte, text `t` and no paragraphs.
fn record(flags: u8, paragraphs: u32) -> Vec<u8> {
    let mut r = vec![flags];
    r.extend_from_slice(&1u32.to_le_bytes());
    r.push(b't');
    r.extend_from_slice(&paragraphs.to_le_bytes());
    r
}

#[test]
fn bad_text_records_are_refused_with_what_is_wrong() {
    let good = [record(0, 0), record(0, 0), record(0, 0)].concat();
    Blob::load(&text_block(&good)).unwrap();
    let prefix = "blob section `text` is inconsistent: ";
    assert_refused(
        &text_block(&[record(0, 0), record(0, 0), record(16, 0)].concat()),
        &format!("{prefix}document 2: unknown flags 0x10"),
    );
    assert_refused(
        &text_block(&[record(0, 0), record(0, u32::MAX), record(0, 0)].concat()),
        &format!("{prefix}document 1: 4294967295 paragraphs cannot fit in the 10 bytes left"),
    );
    assert_refused(
        &text_block(&[good.as_slice(), b"xy"].concat()),
        &format!("{prefix}block 0: 2 trailing bytes after its last document"),
    );
    assert_refused(
        &text_block(&good[..good.len() - 1]),
        &format!("{prefix}document 2: record needs 4 bytes, 3 left"),
    );
}

#[test]
fn a_header_that_is_not_first_is_refused() {
    assert_refused(
        &crafted(|parts| parts.swap(0, 1)),
        "malformed blob section table: the header is not the first section",
    );
}

#[test]
fn an_unknown_required_section_or_flag_is_refused() {
    // Unknown but optional: skipped.
    Blob::load(&crafted(|parts| {
        parts.push((*b"ZZZZ", frame::FLAG_OPTIONAL, vec![1]))
    }))
    .unwrap();
    assert_refused(
        &crafted(|parts| parts.push((*b"ZZZZ", 0, vec![1]))),
        "malformed blob section table: required section `ZZZZ` is unknown to this reader",
    );
    assert_refused(
        &crafted(|parts| parts[1].1 = 2),
        "malformed blob section table: section `DOCS` has unknown flags 0x2",
    );
}

#[test]
fn non_zero_padding_is_refused() {
    let mut bytes = sample();
    let table = frame::parse(&bytes, FORMAT_VERSION).unwrap();
    // The first gap between one section's end and the next one's start.
    let (gap, next) = table
        .windows(2)
        .map(|w| (w[0].offset + w[0].len, w[1]))
        .find(|(end, next)| *end < next.offset)
        .expect("some section is padded");
    bytes[gap] = 1;
    reseal(&mut bytes);
    assert_refused(
        &bytes,
        &format!(
            "malformed blob section table: non-zero padding before section `{}`",
            String::from_utf8_lossy(&next.tag)
        ),
    );
}

fn dense_with_dim(dim: u32) -> DenseSection {
    DenseSection {
        model: "m".into(),
        model_hash: "h".into(),
        dim,
        pooling: "first".into(),
        sets: vec![DenseSet {
            field: VectorField::Text,
            codes: vec![0; 6],
            scales: vec![1.0; 3],
            bits: vec![0; 3],
            mean: vec![0.0; 2],
            passages: Vec::new(),
            starts: Vec::new(),
        }],
    }
}

#[test]
fn vectors_of_dimension_zero_or_u32_max_are_refused() {
    Blob::load(&with_section(SectionKind::Dense, &dense_with_dim(2))).unwrap();
    assert_refused(
        &with_section(SectionKind::Dense, &dense_with_dim(0)),
        "blob section `dense` is inconsistent: text vectors: dense vectors need at least one \
         dimension",
    );
    assert_refused(
        &with_section(SectionKind::Dense, &dense_with_dim(u32::MAX)),
        "blob section `dense` is inconsistent: text vectors: codes: 6 values, expected \
         12884901885",
    );
}

#[test]
fn nan_in_the_idf_table_is_refused() {
    let table = parts(&sample())
        .into_iter()
        .find(|p| p.0 == SectionKind::Idf.tag())
        .unwrap()
        .2;
    let mut aligned = rkyv::util::AlignedVec::<16>::new();
    aligned.extend_from_slice(&table);
    let stored =
        rkyv::access::<super::format::ArchivedIdfSection, rancor::Error>(&aligned).unwrap();
    let idf = |first_okapi: f64| IdfSection {
        dfs: stored.dfs.iter().map(|d| d.to_native()).collect(),
        okapi: std::iter::once(first_okapi)
            .chain(stored.okapi.iter().skip(1).map(|v| v.to_native()))
            .collect(),
        lucene: stored.lucene.iter().map(|v| v.to_native()).collect(),
    };
    let first = stored.okapi[0].to_native();
    Blob::load(&with_section(SectionKind::Idf, &idf(first))).unwrap();
    let df = stored.dfs[0].to_native();
    assert_refused(
        &with_section(SectionKind::Idf, &idf(f64::NAN)),
        &format!(
            "blob section `idf` is inconsistent: the logarithm for document frequency {df} is \
             NaN, not about {first}"
        ),
    );
}

#[test]
fn a_section_count_of_u32_max_is_refused() {
    let mut bytes = sample();
    bytes[12..16].copy_from_slice(&u32::MAX.to_le_bytes());
    reseal(&mut bytes);
    assert_refused(
        &bytes,
        "malformed blob section table: 4294967295 sections do not fit in the file",
    );
}

/// The sample with a sources section of `infos` appended, as the encoder
/// writes it (optional).
fn with_sources(infos: Vec<super::SourceInfo>) -> Vec<u8> {
    let section = super::format::SourcesSection { sources: infos };
    let archive = rkyv::to_bytes::<rancor::Error>(&section).unwrap().to_vec();
    crafted(|parts| parts.push((SectionKind::Sources.tag(), frame::FLAG_OPTIONAL, archive)))
}

#[test]
fn source_names_load_and_blobs_without_them_still_do() {
    let old = Blob::load(&sample()).unwrap();
    assert_eq!(old.source_info(0), None);
    let info = super::SourceInfo {
        name: "Straffeloven".into(),
        aliases: vec!["strfl.".into()],
        number: "LBK nr. 1294".into(),
        date: "2025-11-07".into(),
        ..Default::default()
    };
    let blob = Blob::load(&with_sources(vec![info.clone()])).unwrap();
    assert_eq!(blob.doc_source_info(2), Some(&info));
}

#[test]
fn source_names_that_do_not_fit_the_sources_are_refused() {
    let named = |name: &str, date: &str| super::SourceInfo {
        name: name.into(),
        date: date.into(),
        ..Default::default()
    };
    assert_refused(
        &with_sources(vec![named("A", ""), named("B", "")]),
        "blob section `sources` is inconsistent: 2 entries for 1 sources",
    );
    assert_refused(
        &with_sources(vec![named("A", "2025-13-07")]),
        "blob section `sources` is inconsistent: source 0: date `2025-13-07` is not YYYY-MM-DD",
    );
    assert_refused(
        &with_sources(vec![named("", "")]),
        "blob section `sources` is inconsistent: source 0: name must be 1 to 200 characters",
    );
}
