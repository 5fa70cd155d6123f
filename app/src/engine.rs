//! A loaded pool: the validated blob, its [`Searcher`], and the reverse of
//! its citation graph, with what the views need to show results and
//! articles. Ranking and highlighting are `nomos-core`'s; this module only
//! gathers their output into plain values for the views.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::OnceLock;

use nomos_core::blob::{Blob, DenseModel, Field};
use nomos_core::dense::DenseIndex;
use nomos_core::search::highlight::{self, QueryTerms, Segment};
use nomos_core::search::methods::{rank, Collection, ForwardIndex, Method, MethodQuery};
use nomos_core::search::{Bm25Params, Hit, ParamsError, Searcher};

/// Characters of article text shown under a result.
const SNIPPET_CHARS: usize = 220;
/// Results of the purely dense methods: every document has a cosine, so
/// they list the nearest ones only (the fusions list the union of their
/// inputs' top 100, and the lexical methods every matching document).
pub const DENSE_RESULTS: usize = 100;

pub struct Engine {
    /// What the user calls this pool (manifest title or file name).
    pub name: String,
    blob: Blob,
    searcher: Searcher,
    /// The article texts' vectors and their model, when the blob has them.
    dense: Option<(DenseModel, Arc<DenseIndex>)>,
    /// Built on the first PRF query.
    forward: OnceLock<ForwardIndex>,
    /// For each document, the documents whose explicit references cite it.
    cited_by: Vec<Vec<u32>>,
}

/// A query's ranking: every document scoring above zero, best first.
#[derive(Debug, Clone, PartialEq)]
pub struct Ranking {
    pub terms: QueryTerms,
    pub hits: Vec<Hit>,
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
    pub source: String,
    pub score: f64,
    pub snippet: MarkedText,
    pub cut_start: bool,
    pub cut_end: bool,
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
    pub source: String,
    pub area: Option<String>,
    pub paragraphs: Vec<MarkedText>,
    pub cites: Vec<DocLink>,
    pub cited_by: Vec<DocLink>,
    pub siblings: Vec<DocLink>,
}

impl Engine {
    /// Validates `bytes` as a blob (see `Blob::load`) and prepares it for
    /// search. `name` is used in messages.
    pub fn load(bytes: &[u8], name: &str) -> Result<Engine, String> {
        let mut blob = Blob::load(bytes).map_err(|e| format!("{name} cannot be opened: {e}"))?;
        let params = blob.bm25_params();
        let searcher = Searcher::from_blob(&mut blob, params)
            .map_err(|e| format!("{name} cannot be searched: {e}"))?;
        let model = blob.dense_model().cloned();
        let dense = model.zip(blob.take_dense(Field::Text).map(Arc::new));
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
            blob,
            searcher,
            dense,
            forward: OnceLock::new(),
            cited_by,
        })
    }

    /// The blob, for views that read more than search needs (benchmark
    /// queries and judgments).
    pub fn blob(&self) -> &Blob {
        &self.blob
    }

    pub fn searcher(&self) -> &Searcher {
        &self.searcher
    }

    pub fn n_docs(&self) -> usize {
        self.blob.n_docs()
    }

    pub fn n_queries(&self) -> usize {
        self.blob.n_queries()
    }

    /// BCP 47 language of the pool's text, from its analyzer, so the
    /// browser picks fonts (and screen readers a voice) for it.
    pub fn lang(&self) -> &'static str {
        match self.searcher.analyzer().name() {
            "gbr-greek" => "el",
            "da" => "da",
            "zh" => "zh",
            _ => "",
        }
    }

    pub fn analyzer_description(&self) -> &'static str {
        self.searcher.analyzer().description()
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

    pub fn params(&self) -> Bm25Params {
        self.searcher.params()
    }

    pub fn set_params(&mut self, params: Bm25Params) -> Result<(), ParamsError> {
        self.searcher.set_params(params)
    }

    /// The pool's caveats (e.g. STARD's reduced pool).
    pub fn notes(&self) -> Vec<String> {
        self.blob.header().manifest.notes.clone()
    }

    /// The pool's document vectors, for evaluation jobs.
    pub fn dense_index(&self) -> Option<Arc<DenseIndex>> {
        self.dense.as_ref().map(|(_, d)| d.clone())
    }

    /// The model the pool's vectors were made with, if it has any.
    pub fn dense_model(&self) -> Option<&DenseModel> {
        self.dense.as_ref().map(|(m, _)| m)
    }

    /// `query` ranked with `method` (BM25 with the current parameters):
    /// every document the lexical methods match, the fusions' union, the
    /// dense methods' [`DENSE_RESULTS`] nearest. `embedding` is the
    /// query's, from the pool's model, for the dense methods.
    pub fn rank(
        &self,
        method: &Method,
        query: &str,
        embedding: Option<&[f32]>,
    ) -> Result<Ranking, String> {
        let analyzer = self.searcher.analyzer();
        let tokens = analyzer.tokens(query);
        let collection = Collection {
            scorer: self.searcher.scorer(),
            forward: &self.forward,
            dense: self.dense.as_ref().map(|(_, d)| &**d),
        };
        let k = match method.needs_lexical() {
            true => usize::MAX,
            false => DENSE_RESULTS,
        };
        let hits = rank(
            method,
            &collection,
            &MethodQuery {
                tokens: &tokens,
                embedding,
            },
            k,
            true,
        )
        .map_err(|e| format!("{method:#} cannot rank this pool: {e}"))?;
        Ok(Ranking {
            terms: QueryTerms::new(&analyzer, query),
            hits,
        })
    }

    pub fn source(&self, doc: u32) -> &str {
        self.blob.source(doc as usize).unwrap_or_default()
    }

    pub fn area(&self, doc: u32) -> Option<&str> {
        self.blob.area(doc as usize)
    }

    /// The result row of `hit` at `rank` (1-based), with its snippet.
    pub fn row(&self, rank: usize, hit: Hit, terms: &QueryTerms) -> ResultRow {
        let doc = hit.doc as usize;
        let text = self.blob.article(doc).map(|a| a.text).unwrap_or_default();
        let snip = highlight::snippet(&self.searcher.analyzer(), &text, terms, SNIPPET_CHARS);
        let start = snip.range.start;
        let segments = snip
            .segments
            .iter()
            .map(|s| Segment {
                range: s.range.start - start..s.range.end - start,
                marked: s.marked,
            })
            .collect();
        ResultRow {
            rank,
            doc: hit.doc,
            id: self.blob.doc_id(doc).unwrap_or_default().to_owned(),
            title: self.blob.title(doc).unwrap_or_default().to_owned(),
            source: self.source(hit.doc).to_owned(),
            score: hit.score,
            snippet: MarkedText {
                text: text[snip.range].to_owned(),
                segments,
            },
            cut_start: snip.cut_start,
            cut_end: snip.cut_end,
        }
    }

    /// The article `id` with `terms` marked, or why it cannot be shown.
    pub fn article(&self, id: &str, terms: &QueryTerms) -> Result<Article, String> {
        let doc = self
            .blob
            .doc_index(id)
            .ok_or_else(|| format!("no article {id:?} in {}", self.name))?;
        let d = doc as usize;
        let text = self
            .blob
            .article(d)
            .map_err(|e| format!("article {id}: {e}"))?;
        let paragraphs: Vec<String> = if text.paragraphs.is_empty() {
            text.text
                .split('\n')
                .map(str::trim)
                .filter(|p| !p.is_empty())
                .map(str::to_owned)
                .collect()
        } else {
            text.paragraphs
        };
        let analyzer = self.searcher.analyzer();
        let paragraphs = paragraphs
            .into_iter()
            .map(|p| {
                let marks = highlight::merged_spans(&highlight::matches(&analyzer, &p, terms));
                MarkedText {
                    segments: highlight::segments(0..p.len(), &marks),
                    text: p,
                }
            })
            .collect();
        let links = |docs: &[u32]| docs.iter().map(|&t| self.link(t)).collect();
        Ok(Article {
            id: id.to_owned(),
            lang: self.lang(),
            title: self.blob.title(d).unwrap_or_default().to_owned(),
            source: self.source(doc).to_owned(),
            area: self.area(doc).map(str::to_owned),
            paragraphs,
            cites: links(&self.blob.explicit_refs(d)),
            cited_by: links(self.cited_by.get(d).map_or(&[], Vec::as_slice)),
            siblings: links(&self.blob.implicit_refs(d)),
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

/// How many hits fall in each value of `key` (documents without one are
/// not counted), most first, then by name.
pub fn facet_counts<'e>(
    hits: &[Hit],
    key: impl Fn(u32) -> Option<&'e str>,
) -> Vec<(String, usize)> {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for h in hits {
        if let Some(k) = key(h.doc).filter(|k| !k.is_empty()) {
            *counts.entry(k).or_default() += 1;
        }
    }
    let mut out: Vec<(String, usize)> =
        counts.into_iter().map(|(k, n)| (k.to_owned(), n)).collect();
    out.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    out
}
