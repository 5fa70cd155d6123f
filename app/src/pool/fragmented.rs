//! A fragmented pool (a meta file and content-addressed fragments, `nomos
//! fragment`) ready to rank and show, with no browser in sight: which
//! fragments a query or a result list needs and which of them are held
//! already, the fetched fragments kept within a byte budget (least
//! recently used first out), the ranking over them (core's
//! `Meta::rank_method`: BM25, and where the pool was cut with lists dense
//! and hybrid over the probed lists, to the bit as over the blob with the
//! same lists) and the rows and articles the views show.
//! Fetching is the fragmented store's; every fragment is checked here by
//! core before anything in it is used.

use std::sync::Arc;

use nomos_core::blob::Field;
use nomos_core::fragments::{
    Centroids, DocFragment, DocsPage, Fetched, FragmentError, FragmentKind, FragmentRef,
    ListsFragment, Meta, SourceFiles, TermFragment,
};
use nomos_core::hits::Hit;
use nomos_core::methods::{result_depth, Method};
use nomos_core::search::highlight::QueryTerms;
use nomos_core::search::{cap_runs, Bm25Params, Explanation};

use crate::pool::engine::{marked_paragraphs, marked_snippet, Article, DocLink, ResultRow};

/// Memory the fragments kept may hold (about, [`Opened::heap_bytes`]; a
/// postings fragment holds more than its file, each posting's document
/// length being 4 bytes): enough for a session of search-as-you-type over
/// all of Danish law, far below what a browser tab may use.
pub const CACHE_BYTES: u64 = 96 << 20;

/// A loaded meta file and what the user calls the pool.
pub struct FragPool {
    pub name: String,
    meta: Meta,
}

/// A checked fragment.
pub enum Opened {
    Terms(TermFragment),
    Docs(DocFragment),
    Lists(ListsFragment),
    Centroids(Centroids),
    /// A page of the documents directory: kept for the session, never let
    /// go (about 1 KB each, a few hundred at 10⁶ chunks), so the documents
    /// fragments it lists can be named, fetched and checked.
    Page(DocsPage),
}

impl Opened {
    /// About the memory it holds (at least its file's `bytes`).
    fn heap_bytes(&self, bytes: u64) -> u64 {
        let held = match self {
            Opened::Terms(t) => t.heap_bytes(),
            Opened::Docs(d) => d.heap_bytes(),
            Opened::Lists(l) => l.heap_bytes(),
            Opened::Centroids(_) | Opened::Page(_) => 0,
        };
        (held as u64).max(bytes)
    }
}

/// Checked fragments by number, within a memory budget: the least recently
/// used leave first (directory pages stay). A query holds its own `Arc`s
/// while it ranks, so an eviction never takes a fragment from under it.
pub struct FragmentCache {
    budget: u64,
    used: u64,
    /// Least recently used first: (number, memory held, fragment).
    entries: Vec<(usize, u64, Arc<Opened>)>,
}

/// A ranking over a fragmented pool.
#[derive(Clone, PartialEq)]
pub struct FragRanking {
    pub terms: QueryTerms,
    /// Best first: every document BM25 scores above zero, the fusions'
    /// union, dense methods' nearest ([`result_depth`], as over a blob).
    pub hits: Vec<Hit>,
    /// Only the query's first [`nomos_core::search::QUERY_RUNS_MAX`] runs of words were ranked.
    pub cut: bool,
}

impl FragPool {
    /// Checks `bytes` as a meta file (`Meta::load`).
    pub fn load(bytes: &[u8], name: &str) -> Result<FragPool, FragmentError> {
        Ok(FragPool {
            name: name.to_owned(),
            meta: Meta::load(bytes)?,
        })
    }

    pub fn meta(&self) -> &Meta {
        &self.meta
    }

    pub fn n_docs(&self) -> usize {
        self.meta.n_docs()
    }

    /// The pool's content hash (the meta's, over its fragments' hashes),
    /// as the manifest and links write it.
    pub fn content_hash(&self) -> String {
        format!("{:032x}", self.meta.content_hash())
    }

    /// Every fragment's bytes together: what "Make available offline"
    /// downloads.
    pub fn total_bytes(&self) -> u64 {
        self.meta.fragment_bytes()
    }

    pub fn analyzer_description(&self) -> &'static str {
        self.meta.analyzer().description()
    }

    /// The pool's caveats, as its builder wrote them.
    pub fn notes(&self) -> Vec<String> {
        self.meta.info().notes.clone()
    }

    /// BCP 47 language of the text.
    pub fn lang(&self) -> &'static str {
        match self.meta.analyzer().name() {
            "gbr-greek" => "el",
            "da" => "da",
            "zh" => "zh",
            _ => "",
        }
    }

    /// Why `method` cannot rank this pool, or `None` when it can (BM25;
    /// dense and hybrid where the pool was cut with lists).
    pub fn unavailable(&self, method: &Method) -> Option<String> {
        self.meta.cannot_rank(method)
    }

    /// The centroids fragment's number, which a dense query fetches first
    /// (and the store keeps).
    pub fn centroids(&self) -> Result<usize, FragmentError> {
        self.meta.needed_centroids()
    }

    /// The lists fragments ranking `embedding` with `method` needs that
    /// `cache` lacks (none for a method that ranks without vectors).
    pub fn missing_lists(
        &self,
        method: &Method,
        centroids: &Centroids,
        embedding: &[f32],
        cache: &FragmentCache,
    ) -> Result<Vec<usize>, FragmentError> {
        let Some(probes) = Meta::probes_of(method) else {
            return Ok(Vec::new());
        };
        let needed = self.meta.needed_lists(centroids, embedding, probes)?;
        Ok(needed.into_iter().filter(|&n| !cache.has(n)).collect())
    }

    /// The query's tokens, through the pool's analyzer, cut to
    /// [`nomos_core::search::QUERY_RUNS_MAX`] runs (see [`Self::ranked_tokens`]).
    pub fn tokens(&self, query: &str) -> Vec<String> {
        self.ranked_tokens(query).0
    }

    /// The query's tokens as ranked, and whether they were cut.
    fn ranked_tokens(&self, query: &str) -> (Vec<String>, bool) {
        let mut tokens = self.meta.analyzer().tokens(query);
        let cut = cap_runs(&mut tokens);
        (tokens, cut)
    }

    /// The postings fragments ranking `tokens` with `method` needs that
    /// `cache` lacks: none for a method without BM25 (`dense`), whose
    /// query would otherwise fetch postings it never reads.
    pub fn missing_postings(
        &self,
        method: &Method,
        tokens: &[String],
        cache: &FragmentCache,
    ) -> Result<Vec<usize>, FragmentError> {
        let needed = self.postings(method, tokens)?;
        Ok(needed.into_iter().filter(|&n| !cache.has(n)).collect())
    }

    /// The postings fragments `method` ranks `tokens` with.
    fn postings(&self, method: &Method, tokens: &[String]) -> Result<Vec<usize>, FragmentError> {
        match method.needs_lexical() {
            true => self.meta.needed(Field::Text, tokens),
            false => Ok(Vec::new()),
        }
    }

    /// What showing `docs` needs next that `cache` lacks: the directory
    /// pages listing their documents fragments, or once those are held,
    /// the documents fragments (so a caller fetches until none are
    /// missing: at most two rounds).
    pub fn missing_docs(
        &self,
        docs: &[u32],
        cache: &FragmentCache,
    ) -> Result<Vec<usize>, FragmentError> {
        let pages = self.meta.needed_pages(docs)?;
        let missing: Vec<usize> = pages.iter().copied().filter(|&n| !cache.has(n)).collect();
        if !missing.is_empty() {
            return Ok(missing);
        }
        let needed = self.meta.needed_docs(&cache.pages(&pages), docs)?;
        Ok(needed.into_iter().filter(|&n| !cache.has(n)).collect())
    }

    /// The directory pages listing act `source`'s documents fragments
    /// that `cache` lacks: fetched before [`Self::act_files`] can name
    /// them (a few KB).
    pub fn missing_act_pages(
        &self,
        source: &str,
        cache: &FragmentCache,
    ) -> Result<Vec<usize>, FragmentError> {
        let pages = self.meta.source_pages(source)?;
        Ok(pages.into_iter().filter(|&n| !cache.has(n)).collect())
    }

    /// What keeping act `source` offline fetches: its directory pages and
    /// documents fragments, and their size (core's `Meta::source_files`,
    /// through the pages `cache` holds).
    pub fn act_files(
        &self,
        source: &str,
        cache: &FragmentCache,
    ) -> Result<SourceFiles, FragmentError> {
        let pages = self.meta.source_pages(source)?;
        self.meta.source_files(&cache.pages(&pages), source)
    }

    /// Fragment `number` as the meta lists it, or a directory page in
    /// `cache` does.
    pub fn listed(&self, number: usize, cache: &FragmentCache) -> Option<FragmentRef> {
        match self.meta.fragments().get(number) {
            Some(listed) => Some(listed.clone()),
            None => cache.page_listing(number)?.fragment(number).cloned(),
        }
    }

    /// Checks `bytes` as fragment `number`, of the kind the meta (or for a
    /// documents fragment, its page in `cache`) lists.
    pub fn open(
        &self,
        number: usize,
        bytes: &[u8],
        cache: &FragmentCache,
    ) -> Result<Opened, FragmentError> {
        let kind = self.meta.fragments().get(number).map(|f| f.kind);
        match kind {
            Some(FragmentKind::Postings) => self.meta.open(number, bytes).map(Opened::Terms),
            Some(FragmentKind::DocsPage) => self.meta.open_page(number, bytes).map(Opened::Page),
            Some(FragmentKind::Lists) => self.meta.open_lists(number, bytes).map(Opened::Lists),
            Some(FragmentKind::Centroids) => self
                .meta
                .open_centroids(number, bytes)
                .map(Opened::Centroids),
            Some(FragmentKind::Docs) | None => match cache.page_listing(number) {
                Some(page) => self.meta.open_docs(page, number, bytes).map(Opened::Docs),
                None => Err(FragmentError::Input(format!(
                    "no held directory page lists fragment number {number}"
                ))),
            },
        }
    }

    /// Checks `bytes` as fragment `number` of any kind: what "Make
    /// available offline" does to every fragment. Gives back a directory
    /// page, which the caller keeps (it lists the documents fragments to
    /// fetch next), and nothing else.
    pub fn check(
        &self,
        number: usize,
        bytes: &[u8],
        cache: &FragmentCache,
    ) -> Result<Option<Opened>, FragmentError> {
        self.open(number, bytes, cache)
            .map(|o| matches!(o, Opened::Page(_)).then_some(o))
    }

    /// `query` ranked with `method` and BM25 `params` over the cached
    /// fragments (which must hold those [`Self::missing_postings`] and,
    /// for a dense method, [`Self::missing_lists`] named), `embedding`
    /// being the query's and `centroids` the pool's for a dense method.
    pub fn rank(
        &self,
        query: &str,
        method: &Method,
        params: Bm25Params,
        dense: Option<(&[f32], &Centroids)>,
        cache: &mut FragmentCache,
    ) -> Result<FragRanking, FragmentError> {
        let (tokens, cut) = self.ranked_tokens(query);
        let mut held: Vec<Arc<Opened>> = self
            .postings(method, &tokens)?
            .into_iter()
            .filter_map(|n| cache.get(n))
            .collect();
        if let (Some((embedding, centroids)), Some(probes)) = (dense, Meta::probes_of(method)) {
            let lists = self.meta.needed_lists(centroids, embedding, probes)?;
            held.extend(lists.into_iter().filter_map(|n| cache.get(n)));
        }
        let mut terms: Vec<&TermFragment> = Vec::new();
        let mut lists: Vec<&ListsFragment> = Vec::new();
        for opened in &held {
            match opened.as_ref() {
                Opened::Terms(t) => terms.push(t),
                Opened::Lists(l) => lists.push(l),
                _ => {}
            }
        }
        let fetched = Fetched {
            terms: &terms,
            centroids: dense.map(|(_, c)| c),
            lists: &lists,
        };
        let k = result_depth(method);
        let embedding = dense.map(|(e, _)| e);
        let hits = self
            .meta
            .rank_method(method, params, &tokens, embedding, &fetched, k)?;
        Ok(FragRanking {
            terms: QueryTerms::new(&self.meta.analyzer(), query),
            hits,
            cut,
        })
    }

    /// Document `doc`'s BM25 score for `query` with `params` over the text
    /// (the field a fragmented pool ranks), term by term, from the cached
    /// postings fragments, which must hold those
    /// [`Self::missing_postings`] named for BM25 (core's `Meta::explain`:
    /// `None` when the document has none of the query's terms).
    pub fn explain(
        &self,
        query: &str,
        params: Bm25Params,
        doc: u32,
        cache: &mut FragmentCache,
    ) -> Result<Option<Explanation>, FragmentError> {
        let tokens = self.tokens(query);
        let held: Vec<Arc<Opened>> = self
            .postings(&Method::Bm25, &tokens)?
            .into_iter()
            .filter_map(|n| cache.get(n))
            .collect();
        let terms: Vec<&TermFragment> = held
            .iter()
            .filter_map(|o| match o.as_ref() {
                Opened::Terms(t) => Some(t),
                _ => None,
            })
            .collect();
        self.meta.explain(Field::Text, params, &tokens, &terms, doc)
    }

    /// The number of the documents fragment holding `doc`, if its page
    /// is cached.
    fn docs_number(&self, doc: u32, cache: &FragmentCache) -> Result<usize, FragmentError> {
        let pages = self.meta.needed_pages(&[doc])?;
        let needed = self.meta.needed_docs(&cache.pages(&pages), &[doc])?;
        needed.first().copied().ok_or_else(|| {
            FragmentError::Input(format!("no documents fragment holds document {doc}"))
        })
    }

    /// The documents fragment holding `doc`, if cached.
    fn docs_of(&self, doc: u32, cache: &mut FragmentCache) -> Option<Arc<Opened>> {
        let n = self.docs_number(doc, cache).ok()?;
        cache.get(n)
    }

    /// The rows of `hits` (ranked from `first`, 0-based), their snippets
    /// marked with `terms`; the documents fragments must be cached.
    pub fn rows(
        &self,
        hits: &[Hit],
        first: usize,
        terms: &QueryTerms,
        cache: &mut FragmentCache,
    ) -> Result<Vec<ResultRow>, FragmentError> {
        let analyzer = self.meta.analyzer();
        hits.iter()
            .enumerate()
            .map(|(i, hit)| {
                let docs = self.held_docs(hit.doc, cache)?;
                let Opened::Docs(d) = docs.as_ref() else {
                    unreachable!("held_docs gives documents fragments")
                };
                let text = d.article(hit.doc)?.text;
                let (snippet, cut_start, cut_end) =
                    marked_snippet(&analyzer, &text, 0..text.len(), terms);
                Ok(ResultRow {
                    rank: first + i + 1,
                    doc: hit.doc,
                    id: d.id(hit.doc).unwrap_or_default().to_owned(),
                    title: d.title(hit.doc).unwrap_or_default().to_owned(),
                    // Fragments do not carry the editorial headings field.
                    editorial_title: false,
                    source: self.meta.source(hit.doc).unwrap_or_default().to_owned(),
                    score: hit.score,
                    snippet,
                    cut_start,
                    cut_end,
                    passage: None,
                })
            })
            .collect()
    }

    /// The documents fragment holding `doc`, which must be cached.
    fn held_docs(&self, doc: u32, cache: &mut FragmentCache) -> Result<Arc<Opened>, FragmentError> {
        let n = self.docs_number(doc, cache)?;
        let file = self.listed(n, cache).map(|f| f.file).unwrap_or_default();
        cache.get(n).ok_or(FragmentError::Missing { file })
    }

    /// Document `doc`'s id, if its fragment is cached.
    pub fn doc_id(&self, doc: u32, cache: &mut FragmentCache) -> Option<String> {
        match self.docs_of(doc, cache).as_deref()? {
            Opened::Docs(d) => d.id(doc).map(str::to_owned),
            _ => None,
        }
    }

    /// The documents an article needs shown: `doc` and those it cites and
    /// is a sibling of (their ids and titles), once `doc`'s own fragment
    /// is cached; else `doc` alone.
    pub fn article_docs(&self, doc: u32, cache: &mut FragmentCache) -> Vec<u32> {
        let mut docs = vec![doc];
        if let Some(Opened::Docs(d)) = self.docs_of(doc, cache).as_deref() {
            docs.extend(d.explicit_refs(doc).unwrap_or_default());
            docs.extend(d.implicit_refs(doc).unwrap_or_default());
        }
        docs
    }

    /// Article `doc` with `terms` marked; its fragment and those of
    /// [`Self::article_docs`] must be cached. "Cited by" needs the whole
    /// graph, which no fragment holds: it stays empty.
    pub fn article(
        &self,
        doc: u32,
        terms: &QueryTerms,
        cache: &mut FragmentCache,
    ) -> Result<Article, FragmentError> {
        let held = self.held_docs(doc, cache)?;
        let Opened::Docs(d) = held.as_ref() else {
            unreachable!("held_docs gives documents fragments")
        };
        let text = d.article(doc)?;
        let paragraphs = marked_paragraphs(&self.meta.analyzer(), &text, terms);
        let mut links = |targets: &[u32]| -> Vec<DocLink> {
            targets
                .iter()
                .filter_map(|&t| {
                    let held = self.held_docs(t, cache).ok()?;
                    let Opened::Docs(f) = held.as_ref() else {
                        return None;
                    };
                    Some(DocLink {
                        id: f.id(t)?.to_owned(),
                        title: f.title(t)?.to_owned(),
                    })
                })
                .collect()
        };
        let cites = links(d.explicit_refs(doc).unwrap_or_default());
        let siblings = links(d.implicit_refs(doc).unwrap_or_default());
        let id = d.id(doc).unwrap_or_default().to_owned();
        let title = d.title(doc).unwrap_or_default().to_owned();
        let source = self.meta.source(doc).unwrap_or_default().to_owned();
        Ok(Article {
            citation: format!("{title}, {source}"),
            id,
            lang: self.lang(),
            title,
            editorial_title: false,
            source,
            area: None,
            path: text.path,
            version_date: text.version_date,
            paragraphs,
            cites,
            cited_by: Vec::new(),
            siblings,
        })
    }
}

impl FragmentCache {
    pub fn new(budget: u64) -> Self {
        FragmentCache {
            budget,
            used: 0,
            entries: Vec::new(),
        }
    }

    /// Whether fragment `number` is held.
    pub fn has(&self, number: usize) -> bool {
        self.entries.iter().any(|(n, _, _)| *n == number)
    }

    /// Fragment `number`, now the most recently used.
    pub fn get(&mut self, number: usize) -> Option<Arc<Opened>> {
        let at = self.entries.iter().position(|(n, _, _)| *n == number)?;
        let entry = self.entries.remove(at);
        let opened = entry.2.clone();
        self.entries.push(entry);
        Some(opened)
    }

    /// Holds `opened` as fragment `number` (a file of `bytes`), letting
    /// the least recently used go while the memory held is over budget
    /// (never the one just added, nor a directory page).
    pub fn insert(&mut self, number: usize, bytes: u64, opened: Opened) {
        if self.has(number) {
            return;
        }
        let held = opened.heap_bytes(bytes);
        self.entries.push((number, held, Arc::new(opened)));
        self.used += held;
        while self.used > self.budget {
            let older = &self.entries[..self.entries.len() - 1];
            let Some(at) = older
                .iter()
                .position(|(_, _, o)| !matches!(o.as_ref(), Opened::Page(_)))
            else {
                break;
            };
            let (_, gone, _) = self.entries.remove(at);
            self.used -= gone;
        }
    }

    /// The held directory pages among `numbers`.
    fn pages(&self, numbers: &[usize]) -> Vec<&DocsPage> {
        self.entries
            .iter()
            .filter_map(|(n, _, o)| match o.as_ref() {
                Opened::Page(p) if numbers.contains(n) => Some(p),
                _ => None,
            })
            .collect()
    }

    /// The held directory page listing documents fragment `number`.
    fn page_listing(&self, number: usize) -> Option<&DocsPage> {
        self.entries.iter().find_map(|(_, _, o)| match o.as_ref() {
            Opened::Page(p) if p.fragment(number).is_some() => Some(p),
            _ => None,
        })
    }

    /// The documents fragments the held directory pages list.
    pub fn listed_docs(&self) -> Vec<usize> {
        self.entries
            .iter()
            .filter_map(|(_, _, o)| match o.as_ref() {
                Opened::Page(p) => Some(p.fragments().map(|(n, _)| n)),
                _ => None,
            })
            .flatten()
            .collect()
    }

    /// Memory held (about).
    #[cfg(test)]
    pub fn used(&self) -> u64 {
        self.used
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nomos_core::fragments::fragment;

    /// The test engine's blob, cut into fragments of at most `max` bytes:
    /// the meta's bytes and each fragment's.
    fn pool() -> (FragPool, Vec<Vec<u8>>, crate::pool::engine::Engine) {
        let engine = crate::pool::engine::tests::engine();
        // A blob as loaded (an engine moves its index into its pool).
        let bytes = crate::pool::engine::tests::blob_with(None, false);
        let blob = nomos_core::blob::Blob::load(&bytes).unwrap();
        let cut = fragment(&blob, nomos_core::fragments::MIN_FRAGMENT_BYTES).unwrap();
        let pool = FragPool::load(&cut.meta, "frag").unwrap();
        let files = cut.fragments.into_iter().map(|(_, bytes)| bytes).collect();
        (pool, files, engine)
    }

    fn fill(pool: &FragPool, files: &[Vec<u8>], numbers: &[usize], cache: &mut FragmentCache) {
        for &n in numbers {
            let opened = pool.open(n, &files[n], cache).unwrap();
            cache.insert(n, files[n].len() as u64, opened);
        }
    }

    #[test]
    fn ranks_as_the_blob_and_shows_rows_and_articles() {
        let (pool, files, engine) = pool();
        let mut cache = FragmentCache::new(CACHE_BYTES);
        let tokens = pool.tokens("skat lov");
        let missing = pool
            .missing_postings(&Method::Bm25, &tokens, &cache)
            .unwrap();
        assert!(!missing.is_empty());
        fill(&pool, &files, &missing, &mut cache);
        assert!(pool
            .missing_postings(&Method::Bm25, &tokens, &cache)
            .unwrap()
            .is_empty());
        let params = Bm25Params::default();
        let ranked = pool
            .rank("skat lov", &Method::Bm25, params, None, &mut cache)
            .unwrap();
        let blob = engine
            .rank(Field::Text, &Method::Bm25, &params, "skat lov", None)
            .unwrap();
        assert_eq!(ranked.hits, blob.hits, "to the bit, as the blob");

        let docs: Vec<u32> = ranked.hits.iter().map(|h| h.doc).collect();
        // Rows need their directory pages, then their documents
        // fragments: missing ones say so.
        let pages = pool.missing_docs(&docs, &cache).unwrap();
        assert!(pages.iter().all(|&n| n < pool.meta().fragments().len()));
        fill(&pool, &files, &pages, &mut cache);
        let missing = pool.missing_docs(&docs, &cache).unwrap();
        assert!(!missing.is_empty() && missing.iter().all(|n| !pages.contains(n)));
        let Err(FragmentError::Missing { .. }) =
            pool.rows(&ranked.hits, 0, &ranked.terms, &mut cache)
        else {
            panic!("rows without their documents fragments");
        };
        fill(&pool, &files, &missing, &mut cache);
        assert!(pool.missing_docs(&docs, &cache).unwrap().is_empty());
        let rows = pool
            .rows(&ranked.hits, 0, &ranked.terms, &mut cache)
            .unwrap();
        let expected: Vec<ResultRow> = ranked
            .hits
            .iter()
            .enumerate()
            .map(|(i, &h)| engine.row(i + 1, h, &blob))
            .collect();
        for (row, want) in rows.iter().zip(&expected) {
            assert_eq!(
                (&row.id, &row.title, row.score, &row.snippet),
                (&want.id, &want.title, want.score, &want.snippet)
            );
        }
        let doc = ranked.hits[0].doc;
        let wanted = pool.article_docs(doc, &mut cache);
        for _ in 0..2 {
            let more = pool.missing_docs(&wanted, &cache).unwrap();
            fill(&pool, &files, &more, &mut cache);
        }
        let article = pool.article(doc, &ranked.terms, &mut cache).unwrap();
        let blob_article = engine.article(&rows[0].id, &blob.terms).unwrap();
        assert_eq!(article.paragraphs, blob_article.paragraphs);
        assert_eq!(article.cites, blob_article.cites);
        assert_eq!(article.siblings, blob_article.siblings);
    }

    #[test]
    fn explains_as_the_blob_once_the_postings_are_cached() {
        let (pool, files, engine) = pool();
        let mut cache = FragmentCache::new(CACHE_BYTES);
        let params = Bm25Params::default();
        let query = "skat lov skat";
        let Err(FragmentError::Missing { .. }) = pool.explain(query, params, 0, &mut cache) else {
            panic!("explained without the query's postings");
        };
        let missing = pool
            .missing_postings(&Method::Bm25, &pool.tokens(query), &cache)
            .unwrap();
        fill(&pool, &files, &missing, &mut cache);
        let mut explained = 0;
        for doc in 0..pool.n_docs() as u32 {
            let blob = engine.explain(Field::Text, &params, query, doc).unwrap();
            match pool.explain(query, params, doc, &mut cache).unwrap() {
                Some(cut) => {
                    assert_eq!(cut, blob, "document {doc}");
                    assert_eq!(cut.total.to_bits(), blob.total.to_bits());
                    explained += 1;
                }
                None => assert_eq!(blob.total.to_bits(), 0, "document {doc}"),
            }
        }
        assert!(explained > 1, "{explained} documents explained");
    }

    /// The dense test engine's blob cut with lists, every stage of a dense
    /// query as the store takes them: the centroids, the probed lists,
    /// the ranking. With every list probed, dense and rrf rank as the
    /// blob's brute force does.
    #[test]
    fn dense_and_hybrid_rank_as_the_blob() {
        let engine = crate::pool::engine::tests::dense_engine();
        let vectors = [1.0, 0.0, 0.0, 1.0, 0.6, 0.8];
        let dense = nomos_core::dense::DenseIndex::build_passages(&vectors, 2, None).unwrap();
        let pooling = nomos_core::embed::Pooling::new(nomos_core::embed::Windows::First, false);
        let bytes = crate::pool::engine::tests::blob_with(Some((dense.clone(), pooling)), false);
        let blob = nomos_core::blob::Blob::load(&bytes).unwrap();
        let ivf = nomos_core::dense::Ivf::build(&dense, 2, 1).unwrap();
        let cut = nomos_core::fragments::fragment_with_lists(
            &blob,
            nomos_core::fragments::MIN_FRAGMENT_BYTES,
            Some(&ivf),
        )
        .unwrap();
        let pool = FragPool::load(&cut.meta, "frag").unwrap();
        let files: Vec<Vec<u8>> = cut.fragments.into_iter().map(|(_, b)| b).collect();
        let mut cache = FragmentCache::new(CACHE_BYTES);
        let n = pool.centroids().unwrap();
        let Opened::Centroids(centroids) = pool.open(n, &files[n], &cache).unwrap() else {
            panic!("fragment {n} is not the centroids");
        };
        let params = Bm25Params::default();
        let query = "skat";
        let embedding = [0.8f32, 0.6];
        for method in [Method::Dense { probes: 0 }, "rrf:probes=0".parse().unwrap()] {
            assert_eq!(pool.unavailable(&method), None);
            let tokens = pool.tokens(query);
            let postings = pool.missing_postings(&method, &tokens, &cache).unwrap();
            // Dense alone fetches no postings; the fusion needs its terms'.
            assert_eq!(postings.is_empty(), !method.needs_lexical(), "{method}");
            fill(&pool, &files, &postings, &mut cache);
            let lists = pool
                .missing_lists(&method, &centroids, &embedding, &cache)
                .unwrap();
            // A probed list not yet fetched fails by name.
            if let Some(&first) = lists.first() {
                let Err(FragmentError::Missing { file }) = pool.rank(
                    query,
                    &method,
                    params,
                    Some((&embedding, &centroids)),
                    &mut cache,
                ) else {
                    panic!("ranked without a probed list");
                };
                assert_eq!(Some(file), pool.listed(first, &cache).map(|f| f.file));
            }
            fill(&pool, &files, &lists, &mut cache);
            let ranked = pool
                .rank(
                    query,
                    &method,
                    params,
                    Some((&embedding, &centroids)),
                    &mut cache,
                )
                .unwrap();
            let whole = engine
                .rank(Field::Text, &method, &params, query, Some(&embedding))
                .unwrap();
            assert!(!ranked.hits.is_empty());
            assert_eq!(ranked.hits, whole.hits, "{method}");
        }
    }

    /// An act's files are named once its pages are held, and they are
    /// every fragment its documents need: all of them held, each of its
    /// articles shows.
    #[test]
    fn an_acts_files_hold_every_article_of_it() {
        let (pool, files, _) = pool();
        let mut cache = FragmentCache::new(CACHE_BYTES);
        let source = pool.meta().sources()[0].clone();
        let pages = pool.missing_act_pages(&source, &cache).unwrap();
        assert!(!pages.is_empty());
        let Err(FragmentError::Missing { .. }) = pool.act_files(&source, &cache) else {
            panic!("an act's files named without its pages");
        };
        fill(&pool, &files, &pages, &mut cache);
        assert!(pool.missing_act_pages(&source, &cache).unwrap().is_empty());
        let act = pool.act_files(&source, &cache).unwrap();
        assert_eq!(act.pages, pages);
        let listed = |n: usize| files[n].len() as u64;
        let bytes: u64 = act.pages.iter().chain(&act.docs).map(|&n| listed(n)).sum();
        assert_eq!(act.bytes, bytes);
        fill(&pool, &files, &act.docs, &mut cache);
        let terms = QueryTerms::new(&pool.meta().analyzer(), "");
        let docs = (0..pool.n_docs() as u32).filter(|&d| pool.meta().source(d) == Some(&source));
        for doc in docs {
            assert!(pool.missing_docs(&[doc], &cache).unwrap().is_empty());
            let article = pool.article(doc, &terms, &mut cache).unwrap();
            assert_eq!(article.source, source);
        }
        let Err(e) = pool.act_files("no such act", &cache) else {
            panic!("an unknown act has files");
        };
        assert!(e.to_string().contains("no source named"), "{e}");
    }

    #[test]
    fn a_damaged_fragment_is_refused_by_name() {
        let (pool, mut files, _) = pool();
        let n = pool
            .missing_postings(&Method::Bm25, &pool.tokens("skat"), &FragmentCache::new(1))
            .unwrap()[0];
        let middle = files[n].len() / 2;
        files[n][middle] ^= 0xff;
        let cache = FragmentCache::new(1);
        let Err(e) = pool.open(n, &files[n], &cache) else {
            panic!("a damaged fragment opened");
        };
        let file = pool.listed(n, &cache).unwrap().file;
        assert!(e.to_string().contains(&file), "{e}");
    }

    #[test]
    fn the_cache_lets_the_least_recently_used_go_but_keeps_pages() {
        let (pool, files, _) = pool();
        let listed = pool.meta().fragments();
        let kind = |n: usize| listed[n].kind;
        let page = (0..listed.len()).find(|&n| kind(n) == FragmentKind::DocsPage);
        let (page, a) = (page.unwrap(), 0);
        assert_eq!(kind(a), FragmentKind::Postings);
        // The documents fragments follow the listed ones.
        let b = listed.len();
        assert!(b < files.len());
        // What each holds in memory, at least its file's size.
        let held = |n: usize| {
            let mut cache = FragmentCache::new(u64::MAX);
            fill(&pool, &files, &[page], &mut cache);
            let opened = pool.open(n, &files[n], &cache).unwrap();
            opened.heap_bytes(files[n].len() as u64)
        };
        assert!(
            held(a) > files[a].len() as u64,
            "a posting's length is 4 bytes"
        );
        let mut cache = FragmentCache::new(held(page) + held(a) + held(b) - 1);
        fill(&pool, &files, &[page, a, b], &mut cache);
        assert!(!cache.has(a) && cache.has(b), "over budget: the older goes");
        assert!(cache.has(page), "but not a directory page");
        assert_eq!(cache.used(), held(page) + held(b));
        let mut cache = FragmentCache::new(1);
        fill(&pool, &files, &[page, a, b], &mut cache);
        assert!(cache.has(page) && !cache.has(a) && cache.has(b));
    }

    #[test]
    fn without_lists_only_bm25_ranks_and_the_others_say_why() {
        let (pool, _, _) = pool();
        assert_eq!(pool.unavailable(&Method::Bm25), None);
        for m in ["dense", "rrf", "prf", "react-bm25"] {
            let m: Method = m.parse().unwrap();
            let why = pool.unavailable(&m).unwrap();
            assert!(why.starts_with(m.name()), "{why}");
        }
        let why = pool.unavailable(&Method::Dense { probes: 8 }).unwrap();
        assert!(why.contains("without the vectors' inverted lists"), "{why}");
    }
}
