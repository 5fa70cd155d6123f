//! The in-memory form every reader produces: articles, queries, judgments and
//! cross-references, in source order (the order is the ranking tie-break).

/// One retrievable unit: a statutory article, a stykke, or a STARD article.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Article {
    /// Opaque id as the benchmark spells it (`AK::914`, `straffeloven_§236_stk10`).
    pub id: String,
    /// Heading shown in results; may be empty.
    pub title: String,
    /// The text that is analysed and indexed.
    pub text: String,
    /// LLM-augmented text (CRAwLeR-DK `augmented_chunks.jsonl`), indexed as an
    /// alternative field when present.
    pub augmented: Option<String>,
    /// Law, code or source the article belongs to (a GBR prefix, a law's short
    /// name), used for filters.
    pub source: String,
    /// Legal area, where the benchmark gives one (GBR's five areas).
    pub area: Option<String>,
    /// Paragraphs or stykker for display; empty when the text is one block.
    pub paragraphs: Vec<String>,
    /// Ids this article cites (explicit context).
    pub explicit_refs: Vec<String>,
    /// Ids of its siblings (implicit context, e.g. the other stykker of a §).
    pub implicit_refs: Vec<String>,
}

/// A benchmark query.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Query {
    pub id: String,
    pub text: String,
    pub area: Option<String>,
}

/// One relevance judgment.
#[derive(Debug, Clone, PartialEq)]
pub struct Judgment {
    pub query_id: String,
    pub doc_id: String,
    pub relevance: i32,
}

/// A file a pool was read from, for the blob's source manifest.
#[derive(Debug, Clone, PartialEq)]
pub struct SourceFile {
    /// Path relative to the source directory.
    pub name: String,
    /// Lower-case hex SHA-256 of the file's bytes.
    pub sha256: String,
}

/// Everything read from one source.
#[derive(Debug, Clone, Default)]
pub struct Pool {
    /// Dataset name for the manifest (`beir`, `gbr`, `crawler-dk`, ...).
    pub dataset: String,
    pub articles: Vec<Article>,
    pub queries: Vec<Query>,
    pub judgments: Vec<Judgment>,
    pub files: Vec<SourceFile>,
    /// Caveats shown wherever the pool's scores are (e.g. STARD's reduced pool).
    pub notes: Vec<String>,
}
