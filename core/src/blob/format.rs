//! What each section holds, as rkyv-archived structs. Any change to these
//! types or to their meaning must bump [`FORMAT_VERSION`].

use rkyv::{Archive, Deserialize, Serialize};

/// The blob layout version this build writes and reads.
pub const FORMAT_VERSION: u32 = 1;

/// `area_of` / `source_of` value for "none given".
pub const NONE: u32 = u32::MAX;

/// The kinds of section this version knows, with their 4-byte tags.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SectionKind {
    /// [`Header`]: analyzer, BM25 defaults, source manifest, content hash.
    Header,
    /// [`DocsSection`]: ids, titles, sources and areas of the documents.
    Docs,
    /// [`TextSection`]: compressed display text (text, paragraphs, augmented).
    Text,
    /// [`LexicalSection`] of the plain text field.
    LexText,
    /// [`LexicalSection`] of the augmented text field (CRAwLeR-DK).
    LexAugmented,
    /// [`LexicalSection`] over the titles where they are editorial
    /// headings (shown, not enacted: the Constitution's). Optional, with the
    /// `FLAG_OPTIONAL` table flag: a reader that predates it ranks the text
    /// alone.
    LexEditorial,
    /// [`QueriesSection`].
    Queries,
    /// [`QrelsSection`].
    Qrels,
    /// [`GraphSection`].
    Graph,
    /// [`DenseSection`], optional: written with the `FLAG_OPTIONAL` table
    /// flag, so readers that predate it skip it.
    Dense,
    /// [`IdfSection`], optional likewise.
    Idf,
    /// [`SourcesSection`], optional likewise: what each source is called.
    Sources,
    /// [`SiblingsSection`]: the sections moved into sibling files. Required:
    /// a reader that predates it would miss the text.
    Siblings,
    /// [`TextPartsSection`]: the text moved into several sibling files, one
    /// run of documents each. Required, like `Siblings`.
    TextParts,
    /// [`Csr`] of definition edges (a chunk to the stykker defining the
    /// terms it uses), optional: only score propagation reads it, and a
    /// reader that predates it ranks and shows the pool as before.
    Definitions,
    /// The pool's hybrid method (a method spec, e.g. `weighted:w=0.3`),
    /// optional: what ranks by default where the vectors can be used.
    /// Measured per pool, since no one fusion is best on every pool; a
    /// reader that predates it uses its own default.
    Hybrid,
}

impl SectionKind {
    /// Every kind, in file order.
    pub const ALL: [SectionKind; 16] = [
        SectionKind::Header,
        SectionKind::Docs,
        SectionKind::Text,
        SectionKind::LexText,
        SectionKind::LexAugmented,
        SectionKind::LexEditorial,
        SectionKind::Queries,
        SectionKind::Qrels,
        SectionKind::Graph,
        SectionKind::Dense,
        SectionKind::Idf,
        SectionKind::Sources,
        SectionKind::Siblings,
        SectionKind::TextParts,
        SectionKind::Definitions,
        SectionKind::Hybrid,
    ];

    /// The four bytes naming the section in the table.
    pub fn tag(self) -> [u8; 4] {
        match self {
            SectionKind::Header => *b"HEAD",
            SectionKind::Docs => *b"DOCS",
            SectionKind::Text => *b"TEXT",
            SectionKind::LexText => *b"LEXT",
            SectionKind::LexAugmented => *b"LEXA",
            SectionKind::LexEditorial => *b"LEXE",
            SectionKind::Queries => *b"QURY",
            SectionKind::Qrels => *b"QREL",
            SectionKind::Graph => *b"GRPH",
            SectionKind::Dense => *b"DNSP",
            SectionKind::Idf => *b"IDFL",
            SectionKind::Sources => *b"SRCN",
            SectionKind::Siblings => *b"SIBL",
            SectionKind::TextParts => *b"TXTP",
            SectionKind::Definitions => *b"DEFN",
            SectionKind::Hybrid => *b"HYBR",
        }
    }

    /// A readable name for messages and `nomos info`.
    pub fn name(self) -> &'static str {
        match self {
            SectionKind::Header => "header",
            SectionKind::Docs => "docs",
            SectionKind::Text => "text",
            SectionKind::LexText => "lexical:text",
            SectionKind::LexAugmented => "lexical:augmented",
            SectionKind::LexEditorial => "lexical:editorial",
            SectionKind::Queries => "queries",
            SectionKind::Qrels => "qrels",
            SectionKind::Graph => "graph",
            SectionKind::Dense => "dense",
            SectionKind::Idf => "idf",
            SectionKind::Sources => "sources",
            SectionKind::Siblings => "siblings",
            SectionKind::TextParts => "text parts",
            SectionKind::Definitions => "definitions",
            SectionKind::Hybrid => "hybrid default",
        }
    }

    /// The tag dense vectors had before the pooling was recorded
    /// (one averaged vector per document, no pooling field): such a blob is
    /// refused with a message to rebuild it, rather than its vectors being
    /// read under a pooling they were not made with or silently dropped.
    pub const RETIRED_DENSE: [u8; 4] = *b"DENS";

    /// The kind named by `tag`, if known.
    pub fn from_tag(tag: [u8; 4]) -> Option<SectionKind> {
        SectionKind::ALL.into_iter().find(|k| k.tag() == tag)
    }
}

/// Which BM25 formula the blob's scores were meant for by default.
#[derive(Archive, Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bm25Variant {
    /// rank_bm25 `BM25Okapi` (GBR's baseline).
    Okapi,
    /// bm25s `method="lucene"` (CRAwLeR-DK's baseline).
    Lucene,
}

/// The BM25 settings a blob suggests (stored form of
/// [`crate::search::Bm25Params`], which converts both ways); a caller may
/// override them.
#[derive(Archive, Serialize, Deserialize, Debug, Clone, Copy, PartialEq)]
pub struct Bm25Defaults {
    /// Which BM25 formula.
    pub variant: Bm25Variant,
    /// BM25 k1.
    pub k1: f64,
    /// BM25 b.
    pub b: f64,
    /// rank_bm25's epsilon (floor for negative idf, Okapi only).
    pub epsilon: f64,
}

/// A source file the blob was built from.
#[derive(Archive, Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct ManifestFile {
    /// Path relative to the source directory.
    pub name: String,
    /// Lower-case hex SHA-256 of the file.
    pub sha256: String,
}

/// Where a blob's content came from.
#[derive(Archive, Serialize, Deserialize, Debug, Clone, Default, PartialEq, Eq)]
pub struct Manifest {
    /// Dataset name (`gbr`, `crawler-dk`, `el-syntagma`, ...).
    pub dataset: String,
    /// Human-readable pool name for pickers ("Greek Constitution").
    pub title: String,
    /// The source files read, with their hashes.
    pub files: Vec<ManifestFile>,
    /// Caveats to show next to any score computed on this pool.
    pub notes: Vec<String>,
}

/// The first section: what the blob is and how to use it.
#[derive(Archive, Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Header {
    /// The program that wrote the blob, e.g. `nomos 0.1.0`.
    pub builder: String,
    /// Analyzer name (see [`crate::analysis`]); queries must use the same.
    pub analyzer: String,
    /// The pool baseline's BM25 settings.
    pub bm25: Bm25Defaults,
    /// What the pool is and where it came from.
    pub manifest: Manifest,
    /// xxh3-128 of all other sections' bytes: a stable identity of the
    /// content, e.g. for cache keys.
    pub content_hash: u128,
    /// Documents in the blob.
    pub n_docs: u32,
    /// Benchmark queries.
    pub n_queries: u32,
    /// Judgments kept.
    pub n_judgments: u32,
}

/// Many strings stored as one UTF-8 buffer and end offsets: 4 bytes of
/// overhead per string instead of rkyv's 8, and one validation pass.
#[derive(Archive, Serialize, Debug, Clone, Default, PartialEq, Eq)]
pub struct StrTable {
    /// Every string, concatenated.
    pub text: String,
    /// `ends[i]` is the byte end of string `i`; string 0 starts at 0.
    pub ends: Vec<u32>,
}

/// Per document: ids, titles and the rest of its metadata.
#[derive(Archive, Serialize, Debug)]
pub struct DocsSection {
    /// Document ids, unique.
    pub ids: StrTable,
    /// Document titles.
    pub titles: StrTable,
    /// Distinct source names, in first-seen order.
    pub sources: StrTable,
    /// Index into `sources` per document.
    pub source_of: Vec<u32>,
    /// Distinct area names of documents and queries, in first-seen order.
    pub areas: StrTable,
    /// Index into `areas` per document, or [`NONE`].
    pub area_of: Vec<u32>,
}

/// Display text in independently deflated blocks of consecutive documents,
/// so showing one result inflates one block (~64 KiB), not the corpus.
#[derive(Archive, Serialize, Debug)]
pub struct TextSection {
    /// First document of each block, then the document count (blocks + 1).
    pub block_docs: Vec<u32>,
    /// Byte offsets of each block in `data`, then `data.len()` (blocks + 1).
    pub block_ends: Vec<u32>,
    /// Inflated size of each block.
    pub raw_lens: Vec<u32>,
    /// Raw deflate streams, back to back.
    pub data: Vec<u8>,
}

/// One lexical field: [`crate::index::IndexParts`] with the vocabulary as
/// a string table.
#[derive(Archive, Serialize, Debug)]
pub struct LexicalSection {
    /// The vocabulary, in term id order.
    pub terms: StrTable,
    /// Documents per term.
    pub doc_freqs: Vec<u32>,
    /// Where each term's postings start.
    pub offsets: Vec<u32>,
    /// Varint-coded postings.
    pub postings: Vec<u8>,
    /// Tokens per document.
    pub doc_lens: Vec<u32>,
}

/// Benchmark queries in order.
#[derive(Archive, Serialize, Debug)]
pub struct QueriesSection {
    /// Query ids, unique.
    pub ids: StrTable,
    /// Query texts.
    pub texts: StrTable,
    /// Index into the docs section's `areas` per query, or [`NONE`].
    pub area_of: Vec<u32>,
}

/// Judgments grouped by query, documents in increasing index order.
#[derive(Archive, Serialize, Debug)]
pub struct QrelsSection {
    /// Query `q`'s judgments are `offsets[q]..offsets[q + 1]`.
    pub offsets: Vec<u32>,
    /// The judged documents' indexes.
    pub docs: Vec<u32>,
    /// Their grades.
    pub relevance: Vec<i32>,
}

/// Adjacency lists in compressed sparse row form.
#[derive(Archive, Serialize, Debug, Default)]
pub struct Csr {
    /// Document `d`'s neighbours are `targets[offsets[d]..offsets[d + 1]]`.
    pub offsets: Vec<u32>,
    /// The neighbours' document indexes.
    pub targets: Vec<u32>,
}

/// Cross-references between documents, resolved to document indices.
#[derive(Archive, Serialize, Debug)]
pub struct GraphSection {
    /// Citations (explicit context).
    pub explicit: Csr,
    /// Siblings (implicit context).
    pub implicit: Csr,
    /// References to ids that are not in the blob, dropped at build time.
    pub unknown_explicit: u32,
    /// The same for implicit references.
    pub unknown_implicit: u32,
}

/// Which text a set of document vectors embeds.
#[derive(Archive, Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
pub enum VectorField {
    /// The document text.
    Text,
    /// The LLM-augmented text (CRAwLeR-DK).
    Augmented,
}

/// BM25's idf logarithms per document frequency of any lexical field,
/// computed by the builder (see [`crate::search::IdfTable`], which checks
/// them on load): frequencies ascending, and for each okapi's and
/// lucene's log ratio.
#[derive(Archive, Serialize, Debug)]
pub struct IdfSection {
    /// Distinct document frequencies, ascending.
    pub dfs: Vec<u32>,
    /// Okapi's logarithm for each.
    pub okapi: Vec<f64>,
    /// Lucene's logarithm for each.
    pub lucene: Vec<f64>,
}

/// What a source (an act, a code) is called and how it is cited, as its
/// source files give it: the app shows `name` for the machine id, and the
/// citation parser (`cite`) finds the act by any of `aliases` or by
/// its number.
#[derive(Archive, Serialize, Deserialize, Debug, Clone, Default, PartialEq, Eq)]
pub struct SourceInfo {
    /// The proper name (`Straffeloven`, `Σύνταγμα`).
    pub name: String,
    /// The official title (`Bekendtgørelse af straffeloven`); may be empty.
    pub title: String,
    /// Other names a citation may use: popular names, official
    /// abbreviations, inflected forms (`strfl.`, `Συντάγματος`, `ΑΚ`).
    pub aliases: Vec<String>,
    /// The official number as cited (`LBK nr. 1294`, `Ν. 5209/2025`); may be
    /// empty.
    pub number: String,
    /// The date of that number, `YYYY-MM-DD`; may be empty.
    pub date: String,
}

/// One [`SourceInfo`] per source of the docs section, in its order.
#[derive(Archive, Serialize, Debug)]
pub struct SourcesSection {
    /// Per source name of [`DocsSection::sources`].
    pub sources: Vec<SourceInfo>,
}

/// Document embeddings from one model, quantised as
/// [`crate::dense::DenseParts`]: per vector `dim` int8 codes and an f32
/// scale, `ceil(dim / 64)` words of sign bits, and per set the corpus mean
/// vector the bits are relative to. About `dim + 4 + dim / 8` bytes per
/// vector and set (436 for 384 dimensions); one vector per document unless
/// the pooling keeps one per window.
#[derive(Archive, Serialize, Debug)]
pub struct DenseSection {
    /// The embedding model's id, for display and to pick the query encoder.
    pub model: String,
    /// Hash of the model's manifest: query embeddings must come from the
    /// very model (weights, tokenizer, prefixes) the documents were
    /// embedded with.
    pub model_hash: String,
    /// Vector dimension.
    pub dim: u32,
    /// How documents became vectors, in [`crate::embed::Pooling`]'s text
    /// form (`first`, `title+max`, ...).
    pub pooling: String,
    /// The text set first, then optionally the augmented set.
    pub sets: Vec<DenseSet>,
}

/// One field's vectors.
#[derive(Archive, Serialize, Debug)]
pub struct DenseSet {
    /// Which text the vectors embed.
    pub field: VectorField,
    /// `n_vectors × dim`, vector after vector.
    pub codes: Vec<i8>,
    /// One per vector.
    pub scales: Vec<f32>,
    /// `n_vectors × ceil(dim / 64)` little-endian words.
    pub bits: Vec<u64>,
    /// The corpus mean vector, for the sign bits.
    pub mean: Vec<f32>,
    /// Each document's run of vectors ([`crate::dense::Passages::offsets`]);
    /// empty: one per document.
    pub passages: Vec<u32>,
    /// Per vector, where its window begins in the document's text
    /// ([`crate::dense::Passages::starts`]); empty with `passages`.
    pub starts: Vec<u32>,
}

/// What a sibling file holds: one section moved out of the blob.
#[derive(Archive, Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SiblingKind {
    /// The `TEXT` section: display text, needed for snippets and articles.
    Text,
    /// The `DNSP` section: document vectors, needed by dense methods only.
    Vectors,
}

/// The sibling files a light blob's text or vectors were moved to
/// ([`crate::blob::split`]), each bound by its content hash.
#[derive(Archive, Serialize, Debug)]
pub struct SiblingsSection {
    /// At most one per kind.
    pub files: Vec<SiblingEntry>,
    /// The vectors' model, so the blob says what its vectors are before
    /// they are fetched; present exactly when a vectors sibling is listed.
    pub vectors_model: Option<SiblingModel>,
}

/// One sibling file.
#[derive(Archive, Serialize, Debug)]
pub struct SiblingEntry {
    /// Which section it holds.
    pub kind: SiblingKind,
    /// Its file name, beside the blob (`[A-Za-z0-9._-]`, no path).
    pub file: String,
    /// Its content hash (xxh3-128 of its sections after its header).
    pub content_hash: u128,
    /// Its length in bytes.
    pub len: u64,
}

/// The text of a light blob in part files ([`crate::blob::split`]): each a
/// `TEXT` section over a run of whole blocks, so that a reader fetches the
/// parts holding the documents it shows, not all the text.
#[derive(Archive, Serialize, Debug)]
pub struct TextPartsSection {
    /// In document order; together they hold every document.
    pub parts: Vec<TextPartEntry>,
}

/// One text part file.
#[derive(Archive, Serialize, Debug)]
pub struct TextPartEntry {
    /// Its file name, beside the blob (`[A-Za-z0-9._-]`, no path).
    pub file: String,
    /// Its content hash (xxh3-128 of its sections after its header).
    pub content_hash: u128,
    /// Its length in bytes.
    pub len: u64,
    /// The document after its last: it holds the documents from the
    /// previous part's `end_doc` (0 for the first) to this.
    pub end_doc: u32,
    /// Its text's size inflated ([`ArchivedTextSection::raw_bytes`]), known
    /// before it is fetched.
    pub raw_bytes: u64,
}

/// [`DenseSection`]'s description of its vectors, without them.
#[derive(Archive, Serialize, Debug)]
pub struct SiblingModel {
    /// As [`DenseSection::model`].
    pub model: String,
    /// As [`DenseSection::model_hash`].
    pub model_hash: String,
    /// As [`DenseSection::dim`].
    pub dim: u32,
    /// As [`DenseSection::pooling`].
    pub pooling: String,
}

/// The first section of a sibling file: what it holds and for which pool.
#[derive(Archive, Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct SiblingHeader {
    /// Which section follows.
    pub kind: SiblingKind,
    /// xxh3-128 of the sections after this one.
    pub content_hash: u128,
    /// The documents of the blob it belongs to.
    pub n_docs: u32,
}

impl From<Bm25Defaults> for crate::search::Bm25Params {
    fn from(d: Bm25Defaults) -> Self {
        use crate::search::Bm25Variant as V;
        crate::search::Bm25Params {
            variant: match d.variant {
                Bm25Variant::Okapi => V::Okapi,
                Bm25Variant::Lucene => V::Lucene,
            },
            k1: d.k1,
            b: d.b,
            epsilon: d.epsilon,
        }
    }
}

impl From<crate::search::Bm25Params> for Bm25Defaults {
    fn from(p: crate::search::Bm25Params) -> Self {
        use crate::search::Bm25Variant as V;
        Bm25Defaults {
            variant: match p.variant {
                V::Okapi => Bm25Variant::Okapi,
                V::Lucene => Bm25Variant::Lucene,
            },
            k1: p.k1,
            b: p.b,
            epsilon: p.epsilon,
        }
    }
}
