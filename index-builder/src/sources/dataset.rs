//! The in-memory form every reader produces: articles, queries, judgments and
//! cross-references, in source order (the order is the ranking tie-break).

// Readers produce the blob encoder's input types directly, under the names
// the readers speak of.
pub use nomos_core::blob::{
    DocumentInput as Article, JudgmentInput as Judgment, QueryInput as Query, SourceInfo,
    SourceInput,
};

/// A file a pool was read from, for the blob's source manifest.
#[derive(Debug, Clone, PartialEq)]
pub struct SourceFile {
    /// Path relative to the source directory.
    pub name: String,
    /// Lower-case hex SHA-256 of the file's bytes.
    pub sha256: String,
}

/// Everything read from one source, before indexing. Not a pool: that
/// name is kept for the indexed form a query ranks against,
/// `nomos_core::pool::Pool`.
#[derive(Debug, Clone, Default)]
pub struct Dataset {
    /// Dataset name for the manifest (`beir`, `gbr`, `crawler-dk`, ...).
    pub dataset: String,
    pub articles: Vec<Article>,
    pub queries: Vec<Query>,
    pub judgments: Vec<Judgment>,
    pub files: Vec<SourceFile>,
    /// Caveats shown wherever the pool's scores are (e.g. STARD's reduced pool).
    pub notes: Vec<String>,
    /// The titles are article headings enacted with the text (Greek acts):
    /// part of what is searched, so the lexical index covers them and a
    /// `title+` pooling embeds them before the text. Other titles (lawspot's
    /// editorial headings on the Constitution, labels such as "Άρθρο 39" or
    /// "§ 5, stk. 2") are shown, never searched.
    pub titles_are_headings: bool,
    /// The titles are headings an editor gave the articles (lawspot's on the
    /// Constitution): shown, so a reader searches by them, but not the
    /// law's words, so the blob indexes them in a field of their own that
    /// ranks with a lower weight (`nomos_core::search::editorial`).
    pub titles_are_editorial: bool,
    /// What the sources are called, from the source files (may be empty).
    pub sources: Vec<SourceInput>,
    /// Each article's lexical text starts with its source's name and
    /// aliases, so `straffeloven § 244` finds Straffeloven's stykker: our
    /// own Danish acts, whose stykker never name their act. Never for a
    /// benchmark's format, whose rankings must stay the reference's.
    pub source_names_indexed: bool,
    /// The terms its documents define (`da-law`'s `definitions[]`), in
    /// document order; not part of a blob.
    pub definitions: Vec<Definition>,
}

/// A term one document defines; its scope is that document.
#[derive(Debug, Clone, PartialEq)]
pub struct Definition {
    /// The defining document (its articles' `source`).
    pub source: String,
    pub term: String,
    pub definition: String,
    /// The stykker of the defining provision that use the term (all its
    /// stykker if none does); empty when the provision is no § of the
    /// document's articles (text kept outside §§).
    pub defined_in: Vec<String>,
}
