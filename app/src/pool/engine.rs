//! A loaded pool: the validated blob, its core [`Pool`]s (what ranks: one
//! per lexical field, the augmented one when the blob has it), the
//! reverse of its citation graph, and its benchmark, read on the first
//! evaluation (not at load: a search never needs it), with what the views
//! need to show results and articles. Ranking and
//! highlighting are `nomos-core`'s; this module only gathers their output
//! into plain values for the views. An engine never changes once loaded:
//! BM25 settings are passed to each ranking, so a slider cannot make a
//! pool look new.

use std::fmt;
use std::sync::{Arc, OnceLock};

use nomos_core::analysis::Analyzer;
use nomos_core::blob::{ArticleText, Blob, BlobError, DenseModel, Field, SiblingKind, SiblingRef};
use nomos_core::cite::CiteIndex;
use nomos_core::hits::Hit;
use nomos_core::llm::estimate::{estimate, Estimate};
use nomos_core::llm::{Prompts, Settings};
use nomos_core::methods::{result_depth, Method, RankError};
use nomos_core::pool::{Benchmark, Pool, PoolError};
use nomos_core::search::highlight::{self, QueryTerms, Segment};
use nomos_core::search::{cap_runs, Bm25Params, Explanation, ParamsError};

/// Characters of article text shown under a result.
const SNIPPET_CHARS: usize = 220;

pub struct Engine {
    /// What the user calls this pool (manifest title or file name).
    pub name: String,
    blob: Blob,
    pool: Pool,
    /// The augmented field's pool (its index and vectors), when the blob
    /// has that field. Built at load: `Blob::load` has decoded its index
    /// already, so this only moves it.
    augmented: Option<Pool>,
    /// For each document, the documents whose explicit references cite it.
    cited_by: Vec<Vec<u32>>,
    /// The blob's queries and judgments, read on first use.
    bench: OnceLock<Result<Arc<Benchmark>, String>>,
    /// Where each article is, for citations typed in the search box.
    cite: CiteIndex,
}

/// Why a blob cannot become an engine.
#[derive(Debug, Clone, PartialEq)]
pub enum EngineError {
    /// The bytes are not a valid blob.
    Open { name: String, error: BlobError },
    /// A valid blob this build cannot search (unknown analyzer, no index).
    Search { name: String, error: PoolError },
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Open { name, error } => write!(f, "{name} cannot be opened: {error}"),
            EngineError::Search { name, error } => {
                write!(f, "{name} cannot be searched: {error}")
            }
        }
    }
}

impl std::error::Error for EngineError {}

/// Why an engine could not rank, explain or show what it was asked.
#[derive(Debug, Clone, PartialEq)]
pub enum QueryError {
    /// The pool cannot rank with `method` (e.g. it lacks vectors).
    Rank { method: Method, error: RankError },
    /// The BM25 settings cannot explain a score.
    Explain(ParamsError),
    /// The pool `pool` has no document number `doc`.
    NoDocument { doc: u32, pool: String },
    /// The pool `pool` has no article `id`.
    NoArticle { id: String, pool: String },
    /// Article `id`'s text cannot be read.
    Article { id: String, error: BlobError },
}

impl fmt::Display for QueryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            QueryError::Rank { method, error } => {
                write!(f, "{method:#} cannot rank this pool: {error}")
            }
            QueryError::Explain(error) => error.fmt(f),
            QueryError::NoDocument { doc, pool } => write!(f, "no document {doc} in {pool}"),
            QueryError::NoArticle { id, pool } => write!(f, "no article {id:?} in {pool}"),
            QueryError::Article { id, error } => write!(f, "article {id}: {error}"),
        }
    }
}

impl std::error::Error for QueryError {}

/// A query's ranking: every document scoring above zero, best first.
#[derive(Debug, Clone, PartialEq)]
pub struct Ranking {
    pub terms: QueryTerms,
    pub hits: Vec<Hit>,
    /// The query's embedding, when a dense list ranked it over documents
    /// with several vectors: each row then shows its closest passage.
    pub passages_for: Option<Vec<f32>>,
    /// Only the query's first [`nomos_core::search::QUERY_RUNS_MAX`] runs of words were ranked.
    pub cut: bool,
}

/// A piece of text with its marked and unmarked segments (byte ranges into
/// `text`).
#[derive(Debug, Clone, PartialEq)]
pub struct MarkedText {
    pub text: String,
    pub segments: Vec<Segment>,
}

/// One row of the result list.
#[derive(Debug, Clone, PartialEq)]
pub struct ResultRow {
    pub rank: usize,
    pub doc: u32,
    pub id: String,
    pub title: String,
    /// The title is an editorial heading, not the law's ([`Engine::titles_are_editorial`]).
    pub editorial_title: bool,
    /// The source's caption ([`Engine::source_caption`]).
    pub source: String,
    pub score: f64,
    pub snippet: MarkedText,
    pub cut_start: bool,
    pub cut_end: bool,
    /// The snippet is from the document's closest passage to the query:
    /// its number (1-based) and how many the document has.
    pub passage: Option<(usize, usize)>,
}

/// One window of a document with several vectors.
struct Passage {
    /// 1-based, in the document.
    number: usize,
    /// The document's windows.
    of: usize,
    /// Bytes of the document's text.
    range: std::ops::Range<usize>,
}

/// The largest character boundary of `text` at or below `at`: stored
/// offsets are untrusted bytes.
fn char_floor(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// A link to another document.
#[derive(Debug, Clone, PartialEq)]
pub struct DocLink {
    pub id: String,
    pub title: String,
}

/// Everything the article view shows.
#[derive(Debug, Clone, PartialEq)]
pub struct Article {
    pub id: String,
    /// BCP 47 language of the text.
    pub lang: &'static str,
    pub title: String,
    /// The title is an editorial heading, not the law's ([`Engine::titles_are_editorial`]).
    pub editorial_title: bool,
    /// The source's caption ([`Engine::source_caption`]).
    pub source: String,
    /// The article's official citation (`Straffeloven § 244, stk. 1 (LBK
    /// nr. 1294 af 2025)`, `Άρθρο 14 Συντάγματος`); for an id that names
    /// no article, its title and source.
    pub citation: String,
    pub area: Option<String>,
    /// The divisions it stands in, outermost first (empty for most sources).
    pub path: Vec<String>,
    /// Its version's date, `YYYY-MM-DD`, where the source gives one.
    pub version_date: Option<String>,
    pub paragraphs: Vec<MarkedText>,
    pub cites: Vec<DocLink>,
    pub cited_by: Vec<DocLink>,
    pub siblings: Vec<DocLink>,
}

impl Engine {
    /// Validates `bytes` as a blob (see `Blob::load`) and prepares it for
    /// search. `name` is used in messages.
    pub fn load(bytes: &[u8], name: &str) -> Result<Engine, EngineError> {
        let mut blob = Blob::load(bytes).map_err(|error| EngineError::Open {
            name: name.to_owned(),
            error,
        })?;
        let pool = Pool::from_blob(&mut blob).map_err(|error| EngineError::Search {
            name: name.to_owned(),
            error,
        })?;
        let augmented = match blob.index(Field::Augmented) {
            Some(_) => Some(Pool::from_blob_field(&mut blob, Field::Augmented).map_err(
                |error| EngineError::Search {
                    name: name.to_owned(),
                    error,
                },
            )?),
            None => None,
        };
        let mut cited_by = vec![Vec::new(); blob.n_docs()];
        for doc in 0..blob.n_docs() {
            for target in blob.explicit_refs(doc) {
                if let Some(list) = cited_by.get_mut(target as usize) {
                    list.push(doc as u32);
                }
            }
        }
        Ok(Engine {
            name: name.to_owned(),
            cite: CiteIndex::from_blob(&blob),
            blob,
            pool,
            augmented,
            cited_by,
            bench: OnceLock::new(),
        })
    }

    /// The blob, for views that read more than search needs (benchmark
    /// queries and judgments).
    pub fn blob(&self) -> &Blob {
        &self.blob
    }

    /// What ranks the pool's documents on their text.
    pub fn pool(&self) -> &Pool {
        &self.pool
    }

    /// What ranks `field`: the text's pool for a field the blob lacks
    /// (a link may name one).
    pub fn pool_of(&self, field: Field) -> &Pool {
        match field {
            Field::Augmented => self.augmented.as_ref().unwrap_or(&self.pool),
            Field::Text => &self.pool,
        }
    }

    /// Whether the blob has the augmented field.
    pub fn has_augmented(&self) -> bool {
        self.augmented.is_some()
    }

    /// The field that ranks when `wanted` is chosen: text where the blob
    /// lacks `wanted`.
    pub fn field_for(&self, wanted: Field) -> Field {
        match (wanted, self.has_augmented()) {
            (Field::Augmented, true) => Field::Augmented,
            _ => Field::Text,
        }
    }

    /// The pool's benchmark queries and judgments, as `nomos eval` reads
    /// them (read once, on first use), or why they cannot be read.
    pub fn benchmark(&self) -> Result<Arc<Benchmark>, String> {
        self.bench
            .get_or_init(|| {
                Benchmark::from_blob(&self.blob, &self.pool.analyzer())
                    .map(Arc::new)
                    .map_err(|e| format!("{}'s benchmark: {e}", self.name))
            })
            .clone()
    }

    pub fn n_docs(&self) -> usize {
        self.blob.n_docs()
    }

    pub fn n_queries(&self) -> usize {
        self.blob.n_queries()
    }

    /// What ranking the benchmark's first `queries` queries (`None`: the
    /// query `typed`) with `method` would cost in LLM calls and tokens;
    /// `None` for a method that asks no LLM. Whole articles are counted
    /// at the pool's mean size, while its text is loaded.
    pub fn llm_estimate(
        &self,
        method: &Method,
        settings: &Settings,
        queries: Option<usize>,
        typed: &str,
    ) -> Option<Estimate> {
        let (n, query_bytes) = match queries {
            Some(n) => {
                let n = n.min(self.n_queries());
                let bytes = self
                    .blob
                    .queries_iter()
                    .take(n)
                    .map(|q| q.text.trim().len());
                (n, bytes.sum::<usize>())
            }
            None => (1, typed.trim().len()),
        };
        let article_bytes = self.blob.text_bytes().unwrap_or(0) / self.n_docs().max(1) as u64;
        let prompts = Prompts::for_analyzer(self.pool.analyzer().name());
        estimate(
            method,
            &prompts,
            settings,
            n,
            query_bytes as u64,
            article_bytes,
        )
    }

    /// BCP 47 language of the pool's text, from its analyzer, so the
    /// browser picks fonts (and screen readers a voice) for it.
    pub fn lang(&self) -> &'static str {
        match self.pool.analyzer().name() {
            "gbr-greek" => "el",
            "da" => "da",
            "zh" => "zh",
            _ => "",
        }
    }

    pub fn analyzer_description(&self) -> &'static str {
        self.pool.analyzer().description()
    }

    /// The blob's content hash as `nomos manifest` writes it (32 hex
    /// digits): which version of a pool a link was made with.
    pub fn content_hash(&self) -> String {
        format!("{:032x}", self.blob.header().content_hash)
    }

    /// The BM25 method the blob was built for.
    pub fn default_params(&self) -> Bm25Params {
        self.blob.bm25_params()
    }

    /// The method a newly loaded pool starts with: its hybrid where it has
    /// vectors (in the blob or in its vectors file) and `model_served`,
    /// BM25 elsewhere ([`Pool::default_method`]).
    pub fn default_method(&self, model_served: bool) -> Method {
        self.pool
            .default_method(self.dense_model().is_some() && model_served)
    }

    /// The pool's caveats (e.g. STARD's reduced pool).
    pub fn notes(&self) -> Vec<String> {
        self.blob.header().manifest.notes.clone()
    }

    /// The model the pool's vectors were made with, if it has any (also
    /// while they are in a vectors file not yet attached).
    pub fn dense_model(&self) -> Option<&DenseModel> {
        self.blob.dense_model()
    }

    /// The sibling files of `kind` the blob lists whose data is not in the
    /// blob and not attached yet (`nomos split`): the vectors file, or the
    /// text parts not yet attached, in document order.
    pub fn missing(&self, kind: SiblingKind) -> Vec<&SiblingRef> {
        match kind {
            SiblingKind::Text => self
                .blob
                .text_parts_for(0..self.blob.n_docs())
                .unwrap_or_default(),
            SiblingKind::Vectors => self
                .blob
                .sibling(kind)
                .filter(|_| self.pool.dense().is_none())
                .into_iter()
                .collect(),
        }
    }

    /// The text parts that the documents `docs` need and that are not
    /// attached yet (none for a document the pool does not have).
    pub fn missing_text(&self, docs: &[usize]) -> Vec<&SiblingRef> {
        self.blob
            .text_parts_for(docs.iter().copied())
            .unwrap_or_default()
    }

    /// Checks `bytes` as the pool's text file and shows its text from now
    /// on (snippets, articles).
    pub fn attach_text(&self, bytes: &[u8]) -> Result<(), BlobError> {
        self.blob.attach_text(bytes)
    }

    /// Checks `bytes` as the pool's vectors file and gives its vectors to
    /// the pools that rank each field, so the dense methods can run.
    pub fn attach_vectors(&self, bytes: &[u8]) -> Result<(), BlobError> {
        let sets = self.blob.read_vectors(bytes)?;
        let Some(model) = self.blob.dense_model() else {
            return Ok(());
        };
        for (field, index) in sets {
            let pool = match field {
                Field::Text => &self.pool,
                Field::Augmented => match &self.augmented {
                    Some(pool) => pool,
                    None => continue,
                },
            };
            pool.add_dense(model.clone(), index);
        }
        Ok(())
    }

    /// `query` ranked on `field` with `method` and BM25 `params`: every
    /// document the lexical methods match, the fusions' union, the dense
    /// methods' nearest ([`result_depth`]). `embedding` is the query's,
    /// from the pool's model, for the dense methods.
    pub fn rank(
        &self,
        field: Field,
        method: &Method,
        params: &Bm25Params,
        query: &str,
        embedding: Option<&[f32]>,
    ) -> Result<Ranking, QueryError> {
        let analyzer = self.pool.analyzer();
        let mut tokens = analyzer.tokens(query);
        let cut = cap_runs(&mut tokens);
        let k = result_depth(method);
        let hits = self
            .pool_of(field)
            .rank(method, params, &tokens, embedding, k, true)
            .map_err(|error| QueryError::Rank {
                method: *method,
                error,
            })?;
        // Passages are windows of the ranked text: shown for the text
        // field only, as snippets always show the text.
        let multi_vector = self.field_for(field) == Field::Text
            && self.pool.dense().is_some_and(|d| d.passages().is_some());
        Ok(Ranking {
            terms: QueryTerms::new(&analyzer, query),
            hits,
            passages_for: embedding
                .filter(|_| multi_vector && method.needs_dense())
                .map(<[f32]>::to_vec),
            cut,
        })
    }

    /// A ranking made elsewhere (by an LLM method), with `marked`'s
    /// words marked in the snippets.
    pub fn ranking_of(&self, hits: Vec<Hit>, marked: &str) -> Ranking {
        Ranking {
            terms: QueryTerms::new(&self.pool.analyzer(), marked),
            hits,
            passages_for: None,
            cut: false,
        }
    }

    /// How BM25 with `params` scores `doc` for `query` on `field`, term
    /// by term.
    pub fn explain(
        &self,
        field: Field,
        params: &Bm25Params,
        query: &str,
        doc: u32,
    ) -> Result<Explanation, QueryError> {
        let mut tokens = self.pool.analyzer().tokens(query);
        cap_runs(&mut tokens);
        self.pool_of(field)
            .explain(params, &tokens, doc)
            .map_err(QueryError::Explain)?
            .ok_or_else(|| QueryError::NoDocument {
                doc,
                pool: self.name.clone(),
            })
    }

    /// The index of the document with id `id`.
    pub fn doc_index(&self, id: &str) -> Option<u32> {
        self.blob.doc_index(id)
    }

    /// Whether the titles are editorial headings (shown, not enacted),
    /// which the views label so: the blob indexes them apart, and its pool
    /// ranks them at a lower weight (`nomos_core::search::editorial`).
    pub fn titles_are_editorial(&self) -> bool {
        self.blob.has_editorial_headings()
    }

    /// Document `doc`'s title.
    pub fn title(&self, doc: u32) -> String {
        self.blob.title(doc as usize).unwrap_or_default().to_owned()
    }

    /// A document's id, as runs and the observer name it.
    pub fn doc_id(&self, doc: u32) -> String {
        self.blob
            .doc_id(doc as usize)
            .unwrap_or_default()
            .to_owned()
    }

    /// Document `doc`'s source id (what filters and links name).
    pub fn source(&self, doc: u32) -> &str {
        self.blob.source(doc as usize).unwrap_or_default()
    }

    /// What source `id` is called (`Straffeloven` for `straffeloven`); the
    /// id itself where the blob does not say.
    pub fn source_name(&self, id: &str) -> String {
        let i = self.blob.sources().position(|s| s == id);
        i.and_then(|i| self.blob.source_info(i))
            .map_or_else(|| id.to_owned(), |info| info.name.clone())
    }

    /// Document `doc`'s source as results and articles show it: its name
    /// with its number and date where the blob has them (`Straffeloven
    /// (LBK nr. 1294 af 07/11/2025)`, `Ν. 5209/2025 (13/06/2025)`).
    pub fn source_caption(&self, doc: u32) -> String {
        let Some(info) = self.blob.doc_source_info(doc as usize) else {
            return self.source(doc).to_owned();
        };
        let date = match info.date.split('-').collect::<Vec<_>>()[..] {
            [y, m, d] => format!("{d}/{m}/{y}"),
            _ => String::new(),
        };
        let number = (info.number != info.name).then_some(info.number.as_str());
        match (number.filter(|n| !n.is_empty()), date.is_empty()) {
            (Some(n), false) if n.starts_with("LBK ") || n.starts_with("Lov ") => {
                format!("{} ({n} af {date})", info.name)
            }
            (Some(n), false) => format!("{} ({n}, {date})", info.name),
            (Some(n), true) => format!("{} ({n})", info.name),
            (None, false) => format!("{} ({date})", info.name),
            (None, true) => info.name.clone(),
        }
    }

    /// Where the citations in the search box lead.
    pub fn cite(&self) -> &CiteIndex {
        &self.cite
    }

    pub fn area(&self, doc: u32) -> Option<&str> {
        self.blob.area(doc as usize)
    }

    /// The result row of `hit` in `ranking` at `rank` (1-based), with its
    /// snippet: from the document's closest passage when the ranking was
    /// dense over several vectors per document, else from the whole text.
    pub fn row(&self, rank: usize, hit: Hit, ranking: &Ranking) -> ResultRow {
        let doc = hit.doc as usize;
        let text = self.blob.article(doc).map(|a| a.text).unwrap_or_default();
        let passage = ranking
            .passages_for
            .as_deref()
            .and_then(|q| self.closest_passage(q, doc, &text));
        let within = passage.as_ref().map_or(0..text.len(), |p| p.range.clone());
        let (snippet, cut_start, cut_end) =
            marked_snippet(&self.pool.analyzer(), &text, within, &ranking.terms);
        ResultRow {
            rank,
            doc: hit.doc,
            id: self.blob.doc_id(doc).unwrap_or_default().to_owned(),
            title: self.blob.title(doc).unwrap_or_default().to_owned(),
            editorial_title: self.titles_are_editorial(),
            source: self.source_caption(hit.doc),
            score: hit.score,
            snippet,
            cut_start,
            cut_end,
            passage: passage.map(|p| (p.number, p.of)),
        }
    }

    /// The window of `doc` (whose text is `text`) whose vector is closest
    /// to `query`, when the document has several; its byte range runs to
    /// the next window's start.
    fn closest_passage(&self, query: &[f32], doc: usize, text: &str) -> Option<Passage> {
        let dense = self.pool.dense()?;
        let vectors = dense.doc_vectors(doc);
        if vectors.len() < 2 {
            return None;
        }
        let (best, _) = dense.best_vector(query, doc).ok()??;
        let at = |v: usize| match v < vectors.end {
            true => char_floor(text, dense.passage_start(v)),
            false => text.len(),
        };
        let range = at(best)..at(best + 1);
        (range.start < range.end).then(|| Passage {
            number: best - vectors.start + 1,
            of: vectors.len(),
            range,
        })
    }

    /// The article `id` with `terms` marked, or why it cannot be shown.
    pub fn article(&self, id: &str, terms: &QueryTerms) -> Result<Article, QueryError> {
        let doc = self
            .blob
            .doc_index(id)
            .ok_or_else(|| QueryError::NoArticle {
                id: id.to_owned(),
                pool: self.name.clone(),
            })?;
        let d = doc as usize;
        let text = self.blob.article(d).map_err(|error| QueryError::Article {
            id: id.to_owned(),
            error,
        })?;
        let paragraphs = marked_paragraphs(&self.pool.analyzer(), &text, terms);
        let links = |docs: &[u32]| docs.iter().map(|&t| self.link(t)).collect();
        Ok(Article {
            id: id.to_owned(),
            lang: self.lang(),
            title: self.blob.title(d).unwrap_or_default().to_owned(),
            editorial_title: self.titles_are_editorial(),
            source: self.source_caption(doc),
            citation: self.citation(d),
            area: self.area(doc).map(str::to_owned),
            path: text.path,
            version_date: text.version_date,
            paragraphs,
            cites: links(&self.blob.explicit_refs(d)),
            cited_by: links(self.cited_by.get(d).map_or(&[], Vec::as_slice)),
            siblings: links(&self.blob.implicit_refs(d)),
        })
    }

    /// Document `d`'s [`Article::citation`].
    fn citation(&self, d: usize) -> String {
        let official = self.blob.source(d).and_then(|source| {
            let act = self.blob.sources().position(|s| s == source)?;
            self.cite.official(act, self.blob.doc_id(d)?)
        });
        official.unwrap_or_else(|| {
            let title = self.blob.title(d).unwrap_or_default();
            match self.source_caption(d as u32) {
                source if source.is_empty() => title.to_owned(),
                source => format!("{title}, {source}"),
            }
        })
    }

    fn link(&self, doc: u32) -> DocLink {
        let d = doc as usize;
        DocLink {
            id: self.blob.doc_id(d).unwrap_or_default().to_owned(),
            title: self.blob.title(d).unwrap_or_default().to_owned(),
        }
    }
}

/// A result row's snippet of `text` within its byte range `within`, the
/// part around `terms`' matches, marked; and whether text was cut before
/// and after it: what the blob's and the fragments' rows show.
pub(crate) fn marked_snippet(
    analyzer: &Analyzer,
    text: &str,
    within: std::ops::Range<usize>,
    terms: &QueryTerms,
) -> (MarkedText, bool, bool) {
    let snip = highlight::snippet(analyzer, &text[within.clone()], terms, SNIPPET_CHARS);
    let range = within.start + snip.range.start..within.start + snip.range.end;
    let segments = snip
        .segments
        .iter()
        .map(|s| Segment {
            range: s.range.start - snip.range.start..s.range.end - snip.range.start,
            marked: s.marked,
        })
        .collect();
    let marked = MarkedText {
        text: text[range.clone()].to_owned(),
        segments,
    };
    (marked, range.start > 0, range.end < text.len())
}

/// An article's paragraphs for display (its text's lines when it has
/// none) with `terms` marked: what the blob's and the fragments' article
/// views show.
pub(crate) fn marked_paragraphs(
    analyzer: &Analyzer,
    text: &ArticleText,
    terms: &QueryTerms,
) -> Vec<MarkedText> {
    let lines: Vec<&str> = match text.paragraphs.is_empty() {
        true => text
            .text
            .split('\n')
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .collect(),
        false => text.paragraphs.iter().map(String::as_str).collect(),
    };
    lines
        .into_iter()
        .map(|p| {
            let marks = highlight::merged_spans(&highlight::matches(analyzer, p, terms));
            MarkedText {
                segments: highlight::segments(0..p.len(), &marks),
                text: p.to_owned(),
            }
        })
        .collect()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use nomos_core::analysis::Analyzer;
    use nomos_core::blob::{encode, BlobInput, Bm25Defaults, DenseInput, DocumentInput, Manifest};
    use nomos_core::dense::{DenseIndex, Passages};
    use nomos_core::embed::{Pooling, Windows};
    use nomos_core::index::InvertedIndex;

    /// A three-article Danish pool: two laws, one area, one citation.
    pub fn engine() -> Engine {
        engine_with(None, false)
    }

    /// [`engine`] with an augmented field, where only A2's augmented text
    /// (`Lov A om skat: …`) mentions "skat" besides A1 and B1.
    pub fn augmented_engine() -> Engine {
        engine_with(None, true)
    }

    /// [`engine`] with a 2-dimensional vector per article: A1 (1, 0),
    /// A2 (0, 1), B1 (0.6, 0.8).
    pub fn dense_engine() -> Engine {
        let vectors = [1.0, 0.0, 0.0, 1.0, 0.6, 0.8];
        let dense = DenseIndex::build_passages(&vectors, 2, None).unwrap();
        engine_with(Some((dense, Pooling::new(Windows::First, false))), false)
    }

    /// Two acts with names, numbers and dates (`Lov A`, LBK nr. 7 of
    /// 2020-01-02, and `Lov B`), each with a § 1 of one stykke; Lov A's has
    /// numbered items.
    pub fn named_engine() -> Engine {
        use nomos_core::blob::{SourceInfo, SourceInput};
        let doc = |id: &str, source: &str, paragraphs: &[&str]| DocumentInput {
            id: id.into(),
            title: id.into(),
            text: paragraphs.join("\n"),
            source: source.into(),
            paragraphs: paragraphs.iter().map(|p| (*p).to_owned()).collect(),
            ..DocumentInput::default()
        };
        let documents = [
            doc(
                "A_§1_stk1",
                "A",
                &["§ 1. Skat betales af:", "1) løn", "2) renter"],
            ),
            doc("B_§1_stk1", "B", &["§ 1. Afgift af tobak."]),
        ];
        let sources = [
            SourceInput {
                source: "A".into(),
                info: SourceInfo {
                    name: "Lov A".into(),
                    number: "LBK nr. 7".into(),
                    date: "2020-01-02".into(),
                    ..SourceInfo::default()
                },
            },
            SourceInput {
                source: "B".into(),
                info: SourceInfo {
                    name: "Lov B".into(),
                    ..SourceInfo::default()
                },
            },
        ];
        let analyzer = Analyzer::by_name("da").unwrap();
        let tokens: Vec<Vec<String>> = documents.iter().map(|d| analyzer.tokens(&d.text)).collect();
        let index = InvertedIndex::build(&tokens).unwrap();
        let (bytes, _) = encode(&BlobInput {
            sources: &sources,
            builder: "test".into(),
            analyzer: "da".into(),
            bm25: nomos_core::search::Bm25Params::new(nomos_core::search::Bm25Variant::Okapi)
                .into(),
            manifest: Manifest::default(),
            documents: &documents,
            queries: &[],
            judgments: &[],
            text_index: &index,
            augmented_index: None,
            editorial_index: None,
            dense: None,
        })
        .unwrap();
        Engine::load(&bytes, "named").unwrap()
    }

    #[test]
    fn sources_show_their_names_numbers_and_dates() {
        let e = named_engine();
        assert_eq!(e.source_caption(0), "Lov A (LBK nr. 7 af 02/01/2020)");
        assert_eq!(e.source_caption(1), "Lov B");
        assert_eq!(e.source_name("A"), "Lov A");
        assert_eq!(e.source_name("nowhere"), "nowhere");
        let old = engine();
        assert_eq!(
            (old.source_caption(0), old.source_name("Lov A")),
            ("Lov A".to_owned(), "Lov A".to_owned())
        );
    }

    /// [`engine`], with `vectors` (made with `pooling`) when given, and
    /// an augmented field when `augmented`.
    fn engine_with(vectors: Option<(DenseIndex, Pooling)>, augmented: bool) -> Engine {
        Engine::load(&blob_with(vectors, augmented), "test pool").unwrap()
    }

    /// The blob [`engine_with`] loads.
    pub fn blob_with(vectors: Option<(DenseIndex, Pooling)>, augmented: bool) -> Vec<u8> {
        let doc = |id: &str, text: &str, source: &str, area: Option<&str>, cites: &[&str]| {
            DocumentInput {
                id: id.into(),
                title: format!("§ {id}"),
                text: text.into(),
                augmented: None,
                source: source.into(),
                area: area.map(Into::into),
                paragraphs: Vec::new(),
                explicit_refs: cites.iter().map(|c| (*c).to_owned()).collect(),
                ..DocumentInput::default()
            }
        };
        let mut documents = [
            doc(
                "A1",
                "Skat af indkomst betales hvert år.",
                "Lov A",
                Some("skat"),
                &[],
            ),
            doc(
                "A2",
                "Denne lov træder i kraft i dag.",
                "Lov A",
                None,
                &["A1"],
            ),
            doc(
                "B1",
                "Afgifter og skat opkræves af staten efter mange lange regler her.",
                "Lov B",
                None,
                &["A1"],
            ),
        ];
        documents[1].path = vec!["Kapitel 1".into(), "Afsnit 2".into()];
        documents[1].version_date = Some("2016-05-12".into());
        if augmented {
            for d in &mut documents {
                d.augmented = Some(format!("{} om skat: {}", d.source, d.text));
            }
            documents[0].augmented = Some(documents[0].text.clone());
            documents[2].augmented = Some(documents[2].text.clone());
        }
        let analyzer = Analyzer::by_name("da").unwrap();
        let tokens: Vec<Vec<String>> = documents.iter().map(|d| analyzer.tokens(&d.text)).collect();
        let index = InvertedIndex::build(&tokens).unwrap();
        let augmented_index = augmented.then(|| {
            let tokens: Vec<Vec<String>> = documents
                .iter()
                .map(|d| analyzer.tokens(d.augmented.as_deref().unwrap_or_default()))
                .collect();
            InvertedIndex::build(&tokens).unwrap()
        });
        let (bytes, _) = encode(&BlobInput {
            sources: &[],
            builder: "test".into(),
            analyzer: "da".into(),
            bm25: Bm25Defaults {
                variant: nomos_core::blob::format::Bm25Variant::Okapi,
                k1: 1.5,
                b: 0.75,
                epsilon: 0.25,
            },
            manifest: Manifest::default(),
            documents: &documents,
            queries: &[],
            judgments: &[],
            text_index: &index,
            augmented_index: augmented_index.as_ref(),
            editorial_index: None,
            dense: vectors.as_ref().map(|(text, pooling)| DenseInput {
                model: "test-model".into(),
                model_hash: "00".into(),
                pooling: *pooling,
                text,
                augmented: None,
                hybrid: None,
            }),
        })
        .unwrap();
        bytes
    }

    #[test]
    fn a_light_pool_ranks_before_its_text_and_vectors_arrive() {
        let vectors = DenseIndex::build(&[1.0, 0.0, 0.0, 1.0, 0.6, 0.8], 2).unwrap();
        let whole = blob_with(Some((vectors, Pooling::new(Windows::First, false))), false);
        let split = nomos_core::blob::split(
            &whole,
            "pool",
            &SiblingKind::ALL,
            nomos_core::blob::DEFAULT_PART_BYTES,
        )
        .unwrap();
        let file = |kind| {
            let (_, bytes) = split.siblings.iter().find(|(s, _)| s.kind == kind).unwrap();
            bytes.clone()
        };
        let e = Engine::load(&split.blob, "pool.blob").unwrap();
        let params = e.default_params();
        // BM25 ranks at once; the rows wait for their snippets, the dense
        // methods for the vectors, whose model is known.
        assert_eq!(e.missing(SiblingKind::Text)[0].file, "pool.0.text");
        assert_eq!(e.missing_text(&[0])[0].file, "pool.0.text");
        assert!(e.dense_model().is_some() && !e.missing(SiblingKind::Vectors).is_empty());
        assert_eq!(e.default_method(true), Method::default_for(true));
        let r = e
            .rank(Field::Text, &Method::Bm25, &params, "skat", None)
            .unwrap();
        assert_eq!(r.hits.len(), 2);
        assert_eq!(e.row(1, r.hits[0], &r).snippet.text, "");
        assert!(e
            .rank(
                Field::Text,
                &Method::Dense { probes: 0 },
                &params,
                "",
                Some(&[1.0, 0.0])
            )
            .is_err());
        let terms = QueryTerms::new(&e.pool().analyzer(), "skat");
        assert_eq!(
            e.article("A1", &terms).unwrap_err().to_string(),
            "article A1: the pool's text file `pool.0.text` is not loaded"
        );
        // A file of the wrong kind is refused, the right ones attach.
        assert!(e.attach_text(&file(SiblingKind::Vectors)).is_err());
        e.attach_text(&file(SiblingKind::Text)).unwrap();
        e.attach_vectors(&file(SiblingKind::Vectors)).unwrap();
        assert!(
            e.missing(SiblingKind::Text).is_empty() && e.missing(SiblingKind::Vectors).is_empty()
        );
        assert_eq!(
            e.row(1, r.hits[0], &r).snippet.text,
            "Skat af indkomst betales hvert år."
        );
        let dense = e
            .rank(
                Field::Text,
                &Method::Dense { probes: 0 },
                &params,
                "",
                Some(&[1.0, 0.0]),
            )
            .unwrap();
        assert_eq!(dense.hits[0].doc, 0);
    }

    #[test]
    fn a_dense_hit_shows_its_closest_passage() {
        // B1 has two windows, the second starting at "opkræves"; a query
        // on the second's vector ranks B1 first with that passage shown.
        let b1 = "Afgifter og skat opkræves af staten efter mange lange regler her.";
        let second = b1.find("opkræves").unwrap() as u32;
        let vectors = [[1.0, 0.0], [0.0, 1.0], [0.6, 0.8], [0.0, -1.0]].concat();
        let passages = Passages {
            offsets: vec![0, 1, 2, 4],
            starts: vec![0, 0, 0, second],
        };
        let dense = DenseIndex::build_passages(&vectors, 2, Some(passages)).unwrap();
        let e = engine_with(Some((dense, Pooling::new(Windows::Max, false))), false);
        let params = e.default_params();
        let query = [0.0, -1.0];
        let ranking = e
            .rank(
                Field::Text,
                &Method::Dense { probes: 0 },
                &params,
                "xyz",
                Some(&query),
            )
            .unwrap();
        assert_eq!(ranking.hits[0].doc, 2);
        let row = e.row(1, ranking.hits[0], &ranking);
        assert_eq!(row.passage, Some((2, 2)));
        assert!(row.cut_start && !row.cut_end);
        assert_eq!(
            row.snippet.text,
            "opkræves af staten efter mange lange regler her."
        );
        // A document with one vector, and BM25, show the whole text's start.
        let plain = e.row(2, ranking.hits[1], &ranking);
        assert_eq!((plain.passage, plain.cut_start), (None, false));
        let lexical = e
            .rank(Field::Text, &Method::Bm25, &params, "skat", None)
            .unwrap();
        assert!(lexical.passages_for.is_none());
        assert_eq!(e.row(1, Hit { doc: 2, score: 1.0 }, &lexical).passage, None);
    }

    #[test]
    fn the_augmented_field_ranks_its_own_texts() {
        let e = augmented_engine();
        assert!(e.has_augmented());
        let params = e.default_params();
        let docs = |field| -> Vec<u32> {
            let r = e.rank(field, &Method::Bm25, &params, "skat", None).unwrap();
            r.hits.iter().map(|h| h.doc).collect()
        };
        assert_eq!(docs(Field::Text), [0, 2]);
        let augmented = docs(Field::Augmented);
        assert!(augmented.contains(&1), "{augmented:?}");
        assert_eq!(e.field_for(Field::Augmented), Field::Augmented);
        // Snippets still show the text.
        let r = e
            .rank(Field::Augmented, &Method::Bm25, &params, "skat", None)
            .unwrap();
        let a2 = r.hits.iter().find(|h| h.doc == 1).unwrap();
        assert_eq!(
            e.row(1, *a2, &r).snippet.text,
            "Denne lov træder i kraft i dag."
        );
        // A pool without the field ranks its text, whatever is asked.
        let plain = engine();
        assert!(!plain.has_augmented());
        assert_eq!(plain.field_for(Field::Augmented), Field::Text);
        let r = plain
            .rank(Field::Augmented, &Method::Bm25, &params, "skat", None)
            .unwrap();
        assert_eq!(r.hits.iter().map(|h| h.doc).collect::<Vec<_>>(), [0, 2]);
    }

    #[test]
    fn articles_show_their_references_both_ways() {
        let e = engine();
        let terms = QueryTerms::new(&e.pool().analyzer(), "skat");
        let a = e.article("A1", &terms).unwrap();
        assert_eq!(a.lang, "da");
        assert_eq!(a.cites, []);
        let ids: Vec<&str> = a.cited_by.iter().map(|l| l.id.as_str()).collect();
        assert_eq!(ids, ["A2", "B1"]);
        assert!(a.paragraphs[0].segments.iter().any(|s| s.marked));
        assert_eq!((a.path, a.version_date), (Vec::new(), None));
        // A2 stands in two divisions, in a version of a date.
        let a2 = e.article("A2", &terms).unwrap();
        assert_eq!(a2.path, ["Kapitel 1", "Afsnit 2"]);
        assert_eq!(a2.version_date.as_deref(), Some("2016-05-12"));
        assert_eq!(
            e.article("X9", &terms).unwrap_err().to_string(),
            "no article \"X9\" in test pool"
        );
    }

    #[test]
    fn a_damaged_blob_is_refused_with_its_name() {
        let err = Engine::load(b"not a blob", "x.blob").err().unwrap();
        assert!(matches!(err, EngineError::Open { .. }));
        assert!(
            err.to_string().starts_with("x.blob cannot be opened: "),
            "{err}"
        );
    }

    #[test]
    fn llm_runs_are_estimated_from_the_pools_queries_and_articles() {
        let e = engine();
        let settings = Settings::default();
        let react: Method = "react-bm25:rounds=2,candidates=3".parse().unwrap();
        let typed = e.llm_estimate(&react, &settings, None, " skat ").unwrap();
        assert_eq!(typed.calls, 4);
        // Whole articles cost more than their first few characters.
        let short: Method = "react-bm25:rounds=2,candidates=3,chars=1".parse().unwrap();
        let cut = e.llm_estimate(&short, &settings, None, "skat").unwrap();
        assert!(typed.prompt_tokens > cut.prompt_tokens, "{typed:?} {cut:?}");
        // The benchmark's queries, at most as many as it has (none here).
        let all = e.llm_estimate(&react, &settings, Some(1000), "").unwrap();
        assert_eq!((e.n_queries(), all.calls), (0, 0));
        assert_eq!(e.llm_estimate(&Method::Bm25, &settings, None, "skat"), None);
    }
}
