//! A fragmented pool's store: the loaded meta, the fragments fetched so
//! far (kept in memory within a byte budget, so search-as-you-type reuses
//! them; the lists' centroids kept apart, once fetched), the Search
//! view's latest result and open article, "Make available offline" for
//! the whole pool and "Keep this act offline" for one act (the room the
//! browser gives the site read first, its storage asked to persist, and a
//! lack of room reported while what was kept stays kept), and dropping
//! what earlier builds of the pool left in the worker's cache.
//! A query fetches the fragments it lacks in parallel: a dense or hybrid
//! one first embeds the query with the pool's model (BM25's rows
//! standing in meanwhile, as on a blob) and fetches the centroids, then
//! its postings and probed lists at once; a query superseded by then
//! (typing on) fetches nothing more. A fragment that
//! fails core's checks fails that query with a message naming the file,
//! and is dropped from the service worker's caches so that the next try
//! fetches it anew. The ranking and the rows are [`crate::pool::fragmented`]'s.
//! The Search view's status lines are written here, from the result.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use futures::future::join_all;
use leptos::prelude::*;
use leptos::task::spawn_local;
use nomos_core::fragments::{Centroids, FragmentKind, SourceFiles};
use nomos_core::methods::Method;
use nomos_core::search::{Bm25Params, Explanation};

use crate::format::{plural, quoted, ranked_cut, thousands};
use crate::latest::{Latest, Ticket};
use crate::pool::engine::{Article, ResultRow};
use crate::pool::fragmented::{FragPool, FragRanking, FragmentCache, Opened, CACHE_BYTES};
use crate::pool::scope::PoolScope;
use crate::pools::frag_error::FragError;
use crate::pools::kept_acts::{act_name, KeptActs};
use crate::semantic::Semantic;
use crate::state::{AppState, PoolChoice};
use crate::web::{
    ask_service_worker, fetch_bytes, forget_cached, keep_fragment_bytes, local_get, local_set, now,
    persist_storage, storage_estimate, worker_controls_page_within, FetchError, Limit,
    ServiceWorkerError, StorageEstimate,
};
use nomos_core::facets::Narrowing;
use nomos_core::facets::{self, FacetCounts};

/// Result rows shown first, and added by "Show more". Fewer than a blob's
/// 25: each row costs its documents fragment (about 8 KB of text that is
/// deflated already; 35 KB before blocks of 16 KiB).
pub const PAGE: usize = 10;
/// Typing restarts this timer, so a burst of keystrokes fetches once.
const DEBOUNCE: Duration = Duration::from_millis(100);
/// Fragments fetched at once while making a pool available offline,
/// then handed to the service worker together. Each batch waits for its
/// slowest fetch and for the worker, so more than the six connections a
/// browser opens to a host pays: the demo's 10⁵-chunk pool (4,127 files)
/// took 41.9 s in batches of 6 and 32.7 s in batches of 32 over loopback;
/// the browser queues the rest of a batch itself.
const OFFLINE_PARALLEL: usize = 32;
/// How long "Make available offline" waits for a first visit's service
/// worker to take over the page.
const CONTROL_WAIT_MS: i32 = 10_000;

/// Under `localStorage`'s key of this name after the pool's URL: the
/// content hash of the build this browser last opened.
const BUILD_KEY: &str = "#build";

/// One query's outcome.
#[derive(Clone, PartialEq)]
pub struct FragResult {
    pub query: String,
    pub method: Method,
    /// The rows shown, and how many pass the filters; or why not.
    pub outcome: Result<(Vec<ResultRow>, usize), FragError>,
    /// The ranking narrowed by the filters, for "Show more".
    pub ranking: Option<Arc<FragRanking>>,
    /// The filters it was narrowed by.
    pub narrowed: Narrowing,
    /// The whole ranking's facets, and how many hits it has.
    pub facets: Option<(FacetCounts, usize)>,
    /// From the query to its rows, fetches (and embedding) included.
    pub millis: f64,
    /// Embedding the query, for a dense method.
    pub embed_millis: Option<f64>,
    /// Fragments this query fetched, and their bytes.
    pub fetched: (usize, u64),
    /// The chosen method, while BM25's rows stand in for it until its
    /// query is embedded.
    pub follows: Option<Method>,
}

/// `ranked` narrowed by `by`, with the whole ranking's facets and
/// length: filters and facets come from the meta, so only the narrowed
/// rows' documents fragments are fetched.
fn narrowed(
    pool: &FragPool,
    ranked: FragRanking,
    by: &Narrowing,
) -> (Arc<FragRanking>, (FacetCounts, usize)) {
    let counted = (facets::counts(pool, &ranked.hits), ranked.hits.len());
    // Unnarrowed, the hits move: a common word's ranking holds a million.
    let hits = match by == &Narrowing::default() {
        true => ranked.hits,
        false => facets::narrow(pool, &ranked.hits, by),
    };
    (
        Arc::new(FragRanking {
            hits,
            terms: ranked.terms,
            cut: ranked.cut,
        }),
        counted,
    )
}

/// Where "Make available offline" stands.
#[derive(Debug, Clone, PartialEq)]
pub enum OfflineStatus {
    Idle,
    Fetching { done: u64, total: u64 },
    Ready,
    Failed(FragError),
}

/// Where "Keep this act offline" stands for one act.
#[derive(Debug, Clone, PartialEq)]
pub enum ActStatus {
    /// Its directory pages are being fetched, to name its files.
    Sizing,
    /// Its files and their size: shown before anything is downloaded.
    Sized(SourceFiles),
    Fetching {
        done: u64,
        total: u64,
    },
    /// Every file of it is kept by the service worker: its bytes.
    Kept(u64),
    Failed(FragError),
}

/// A loaded fragmented pool. `Copy`: signal and stored-value handles.
#[derive(Clone, Copy)]
pub struct FragStore {
    /// The pool's owner, which its tasks hold while they run.
    scope: PoolScope,
    pub choice: StoredValue<Option<PoolChoice>>,
    pub pool: StoredValue<Arc<FragPool>>,
    /// Where the meta and fragments are served, ending in `/`.
    dir: StoredValue<String>,
    cache: StoredValue<RefCell<FragmentCache>, LocalStorage>,
    /// The lists' centroids, once a dense query fetched them.
    centroids: StoredValue<Option<Arc<Centroids>>>,
    semantic: Semantic,
    pub result: RwSignal<Option<FragResult>>,
    pub article: RwSignal<Option<Result<Article, FragError>>>,
    pub offline: RwSignal<OfflineStatus>,
    /// Where keeping each act shown so far offline stands, by source id
    /// (a download goes on while other acts are shown).
    pub acts: RwSignal<HashMap<String, ActStatus>>,
    /// The acts this browser keeps offline.
    pub kept_acts: RwSignal<KeptActs>,
    /// The room the browser gives the site, read before each download.
    pub space: RwSignal<Option<StorageEstimate>>,
    /// Whether the browser made the site's storage persistent, once asked.
    pub persisted: RwSignal<Option<bool>>,
    /// The ids and documents of the references of every article opened
    /// (for following them, and "Back" to an earlier one).
    linked: StoredValue<Vec<(String, u32)>>,
    searches: Latest,
    articles: Latest,
}

impl FragStore {
    pub fn new(
        scope: PoolScope,
        choice: Option<PoolChoice>,
        pool: FragPool,
        dir: String,
        semantic: Semantic,
    ) -> Self {
        let kept = KeptActs::load(&dir, &pool.content_hash());
        FragStore {
            scope,
            choice: StoredValue::new(choice),
            pool: StoredValue::new(Arc::new(pool)),
            dir: StoredValue::new(dir),
            cache: StoredValue::new_local(RefCell::new(FragmentCache::new(CACHE_BYTES))),
            centroids: StoredValue::new(None),
            semantic,
            result: RwSignal::new(None),
            article: RwSignal::new(None),
            offline: RwSignal::new(OfflineStatus::Idle),
            acts: RwSignal::new(HashMap::new()),
            kept_acts: RwSignal::new(kept),
            space: RwSignal::new(None),
            persisted: RwSignal::new(None),
            linked: StoredValue::new(Vec::new()),
            searches: Latest::new(),
            articles: Latest::new(),
        }
    }

    /// Searches the state's query (once typing pauses) and opens its
    /// article, for as long as the calling view lives.
    pub fn follow(self, state: AppState) {
        let timer = StoredValue::new(None::<TimeoutHandle>);
        Effect::new(move |_| {
            let query = state.query.get();
            let method = state.method.get();
            let params = state.params.get();
            let by = state.narrowing();
            if let Some(t) = timer.get_value() {
                t.clear();
            }
            let run = move || self.search(query, method, params, by);
            timer.set_value(set_timeout_with_handle(run, DEBOUNCE).ok());
        });
        Effect::new(move |_| self.prepare(&state.method.get()));
        // The article opens once the rows that name it are shown (a shared
        // link names the query and the article).
        Effect::new(move |_| {
            let id = state.article.get();
            self.result.track();
            self.open_article(id, state.query.get_untracked());
        });
    }

    /// What screen readers hear after each query (the live region).
    pub fn status(&self) -> String {
        let Some(r) = self.result.get() else {
            return String::new();
        };
        let q = r.query.trim();
        if q.is_empty() {
            return String::new();
        }
        let cut = ranked_cut(r.ranking.as_ref().is_some_and(|k| k.cut));
        let ranked = r.facets.as_ref().map_or(0, |(_, n)| *n);
        let by = r.narrowed.described(act_name);
        match &r.outcome {
            Ok(_) if ranked == 0 => format!("No article matches {}", quoted(q)),
            Ok(_) if by.is_empty() => format!(
                "{} for {}{cut}",
                plural(ranked, "result", "results"),
                quoted(q),
            ),
            Ok((_, shown)) => format!(
                "{} of {} for {} in {}{cut}",
                thousands(*shown),
                plural(ranked, "result", "results"),
                quoted(q),
                by.join(", ")
            ),
            Err(_) => format!("The search for {} failed", quoted(q)),
        }
    }

    /// How the shown query ranked, and what it fetched.
    pub fn timing(&self) -> Option<String> {
        let r = self.result.get()?;
        let (n, bytes) = r.fetched;
        let embedded = r
            .embed_millis
            .map(|ms| format!(" (embedding {ms:.0} ms)"))
            .unwrap_or_default();
        let follows = r
            .follows
            .map(|m| format!("; {} follows once the query is embedded", m.name()))
            .unwrap_or_default();
        Some(format!(
            "{} over fragments: {:.0} ms{embedded}, {} fetched ({:.1} KB){follows}",
            r.method.name(),
            r.millis,
            plural(n, "fragment", "fragments"),
            bytes as f64 / 1024.0
        ))
    }

    /// Why the shown query has no rows, if it failed.
    pub fn error(&self) -> Option<String> {
        Some(self.result.get()?.outcome.err()?.to_string())
    }

    /// The pool is being replaced: stop publishing.
    pub fn close(&self) {
        self.searches.cancel();
        self.articles.cancel();
    }

    fn url(&self, file: &str) -> String {
        self.dir.with_value(|d| format!("{d}{file}"))
    }

    /// Fetches fragment `n` of `pool` and checks it with `check`, with its
    /// length and URL; a fragment that fails (its fetch, its listed size or
    /// its check) is dropped from the service worker's caches, so that the
    /// next try fetches it anew.
    async fn fetch_checked<T>(
        self,
        pool: &FragPool,
        n: usize,
        check: impl FnOnce(&[u8]) -> Result<T, FragError>,
    ) -> Result<(T, u64, String), FragError> {
        let listed = self
            .cache
            .with_value(|c| pool.listed(n, &c.borrow()))
            .ok_or_else(|| FragError::NotListed {
                pool: pool.name.clone(),
                n,
            })?;
        let url = self.url(&listed.file);
        let bytes = fetch_bytes(&url, Limit::Listed(listed.len), |_, _| {})
            .await
            .map_err(|e| {
                forget_cached(vec![url.clone()]);
                match e {
                    FetchError::Network { .. } => FragError::Offline {
                        file: listed.file.clone(),
                        document: matches!(
                            listed.kind,
                            FragmentKind::Docs | FragmentKind::DocsPage
                        ),
                        cause: e,
                    },
                    e => FragError::Fetch(e),
                }
            })?;
        let checked = check(&bytes).inspect_err(|_| forget_cached(vec![url.clone()]))?;
        Ok((checked, bytes.len() as u64, url))
    }

    /// Fetches and checks fragments `numbers` at once, and keeps them:
    /// how many bytes came, or the first failure's message.
    async fn fetch_all(self, numbers: Vec<usize>) -> Result<u64, FragError> {
        let pool = self.pool.get_value();
        let fetches = numbers.iter().map(|&n| {
            let pool = pool.clone();
            async move {
                let open = |bytes: &[u8]| {
                    self.cache
                        .with_value(|c| pool.open(n, bytes, &c.borrow()))
                        .map_err(|cause| FragError::Damaged {
                            pool: pool.name.clone(),
                            cause,
                        })
                };
                let (opened, len, url) = self.fetch_checked(&pool, n, open).await?;
                Ok::<_, FragError>((n, len, opened, url))
            }
        });
        let mut total = 0;
        let mut kept = Vec::new();
        for fetched in join_all(fetches).await {
            let (n, len, opened, url) = fetched?;
            total += len;
            kept.push(url);
            self.cache
                .with_value(|c| c.borrow_mut().insert(n, len, opened));
        }
        keep_offline(kept);
        Ok(total)
    }

    /// Drops what earlier builds of the pool left in the service worker's
    /// cache, where the fragments queries fetched are kept for good. The
    /// first time this browser opens a build other than the one it opened
    /// before, the app reads every directory page (to know the documents
    /// fragments' names) and names all the pool's files; the worker drops
    /// the rest of the directory (`keepOnlyFragments`). A pool opened for
    /// the first time has nothing to drop. Housekeeping: a failure is
    /// logged, and the next opening tries again.
    pub fn drop_earlier_builds(self) {
        let pool = self.pool.get_value();
        let key = self.url(BUILD_KEY);
        let build = pool.content_hash();
        match local_get(&key) {
            Some(seen) if seen == build => return,
            None => {
                let _ = local_set(&key, &build);
                return;
            }
            Some(_) => {}
        }
        self.scope.spawn(async move {
            let pages = pool.meta().pages().to_vec();
            if let Err(e) = self.fetch_all(pages).await {
                return leptos::logging::debug_warn!("an earlier build's files stay: {e}");
            }
            let files = self.cache.with_value(|c| {
                let c = c.borrow();
                let numbers = (0..pool.meta().fragments().len()).chain(c.listed_docs());
                numbers
                    .filter_map(|n| pool.listed(n, &c))
                    .map(|f| self.url(&f.file))
                    .collect::<Vec<_>>()
            });
            let urls: Vec<String> = std::iter::once(self.url("meta")).chain(files).collect();
            match ask_service_worker("keepOnlyFragments", &urls).await {
                Ok(_) => {
                    let _ = local_set(&key, &build);
                }
                Err(e) => leptos::logging::debug_warn!("an earlier build's files stay: {e}"),
            }
        });
    }

    /// Starts loading the pool's model when `method` embeds queries here,
    /// so that its download begins when the method is chosen.
    pub fn prepare(self, method: &Method) {
        let ranks = self.pool.with_value(|p| p.unavailable(method).is_none());
        if method.needs_dense() && ranks {
            self.semantic.ensure_loaded();
        }
    }

    /// The pool's centroids, fetched and checked on first need and kept;
    /// with the bytes fetched (0 when kept already).
    async fn centroids(self) -> Result<(Arc<Centroids>, u64), FragError> {
        if let Some(kept) = self.centroids.get_value() {
            return Ok((kept, 0));
        }
        let pool = self.pool.get_value();
        let n = pool.centroids()?;
        let open = |bytes: &[u8]| match self.cache.with_value(|c| pool.open(n, bytes, &c.borrow()))
        {
            Ok(Opened::Centroids(c)) => Ok(c),
            Ok(_) => Err(FragError::NoCentroids {
                pool: pool.name.clone(),
            }),
            Err(cause) => Err(FragError::Damaged {
                pool: pool.name.clone(),
                cause,
            }),
        };
        let (centroids, len, url) = self.fetch_checked(&pool, n, open).await?;
        keep_offline(vec![url]);
        let centroids = Arc::new(centroids);
        self.centroids.set_value(Some(centroids.clone()));
        Ok((centroids, len))
    }

    /// `query`'s embedding with the pool's model (waiting for its load,
    /// which the model line shows), and how long embedding took.
    async fn embed(
        self,
        query: &str,
        wanted: impl Fn() -> Result<(), FragError>,
    ) -> Result<(Vec<f32>, f64), FragError> {
        self.semantic.ready().await.map_err(FragError::Model)?;
        // The model may have taken seconds: a query typed over since is
        // not embedded.
        wanted()?;
        let started = now();
        let vector = self
            .semantic
            .embed_query(query.to_owned())
            .await
            .map_err(FragError::Embedding)?;
        Ok((vector, now() - started))
    }

    /// Ranks `query` with `method` (BM25; dense and hybrid where the pool
    /// has lists: the others say why not), fetching what it lacks, and
    /// publishes its first [`PAGE`] rows unless a newer query started
    /// meanwhile.
    pub fn search(self, query: String, method: Method, params: Bm25Params, by: Narrowing) {
        let ticket = self.searches.begin();
        // Typing supersedes queries still waiting for the model or the
        // centroids: each step that fetches asks first, and stops quietly
        // (only a current query publishes, so this message never shows).
        let wanted = move || match ticket.is_current() {
            true => Ok(()),
            false => Err(FragError::Superseded),
        };
        self.scope.spawn(async move {
            let started = now();
            let mut fetched = (0, 0);
            let mut ranking = None;
            let mut facets = None;
            let mut embed_millis = None;
            let outcome = async {
                let pool = self.pool.get_value();
                if let Some(why) = pool.unavailable(&method) {
                    return Err(FragError::Unavailable(why));
                }
                let dense = method.needs_dense() && !query.trim().is_empty();
                if method.needs_dense() && !dense {
                    return Ok((Vec::new(), 0));
                }
                // A dense query's embedding and the centroids come first:
                // they name the lists to fetch. BM25's rows stand in
                // while the query is embedded.
                let dense = match dense {
                    true => {
                        let (_, embedded) = futures::join!(
                            self.stand_in(&query, method, params, &by, started, ticket),
                            self.embed(&query, wanted)
                        );
                        let (embedding, millis) = embedded?;
                        embed_millis = Some(millis);
                        wanted()?;
                        let (centroids, len) = self.centroids().await?;
                        if len > 0 {
                            fetched.0 += 1;
                            fetched.1 += len;
                        }
                        Some((embedding, centroids))
                    }
                    false => None,
                };
                let tokens = pool.tokens(&query);
                let missing = self.cache.with_value(|c| {
                    let c = c.borrow();
                    let mut missing = pool.missing_postings(&method, &tokens, &c)?;
                    if let Some((embedding, centroids)) = &dense {
                        missing.extend(pool.missing_lists(&method, centroids, embedding, &c)?);
                    }
                    Ok::<_, nomos_core::fragments::FragmentError>(missing)
                })?;
                wanted()?;
                fetched.0 += missing.len();
                fetched.1 += self.fetch_all(missing).await?;
                let given = dense.as_ref().map(|(e, c)| (e.as_slice(), c.as_ref()));
                let ranked = self.cache.with_value(|c| {
                    pool.rank(&query, &method, params, given, &mut c.borrow_mut())
                })?;
                let (narrowed, counted) = narrowed(&pool, ranked, &by);
                ranking = Some(narrowed.clone());
                facets = Some(counted);
                wanted()?;
                let (rows, got) = self.page(&narrowed, 0).await?;
                fetched.0 += got.0;
                fetched.1 += got.1;
                Ok((rows, narrowed.hits.len()))
            }
            .await;
            if ticket.is_current() {
                self.result.set(Some(FragResult {
                    query,
                    method,
                    outcome,
                    ranking,
                    narrowed: by,
                    facets,
                    millis: now() - started,
                    embed_millis,
                    fetched,
                    follows: None,
                }));
            }
        });
    }

    /// Ranks `query` with BM25 over its postings and publishes its first
    /// rows as standing in for `chosen`, a dense method whose query is
    /// still to be embedded, unless a newer query started. A failure
    /// publishes nothing: the chosen method's query, which fetches the
    /// same postings, reports it.
    async fn stand_in(
        self,
        query: &str,
        chosen: Method,
        params: Bm25Params,
        by: &Narrowing,
        started: f64,
        ticket: Ticket,
    ) {
        let pool = self.pool.get_value();
        let ranked = async {
            let missing = self.cache.with_value(|c| {
                pool.missing_postings(&Method::Bm25, &pool.tokens(query), &c.borrow())
            })?;
            let mut fetched = (missing.len(), self.fetch_all(missing).await?);
            let ranked = self.cache.with_value(|c| {
                pool.rank(query, &Method::Bm25, params, None, &mut c.borrow_mut())
            })?;
            let (ranked, counted) = narrowed(&pool, ranked, by);
            let (rows, got) = self.page(&ranked, 0).await?;
            fetched.0 += got.0;
            fetched.1 += got.1;
            Ok::<_, FragError>((rows, ranked, counted, fetched))
        }
        .await;
        if let (Ok((rows, ranked, counted, fetched)), true) = (ranked, ticket.is_current()) {
            self.result.set(Some(FragResult {
                query: query.to_owned(),
                method: Method::Bm25,
                outcome: Ok((rows, ranked.hits.len())),
                ranking: Some(ranked),
                narrowed: by.clone(),
                facets: Some(counted),
                millis: now() - started,
                embed_millis: None,
                fetched,
                follows: Some(chosen),
            }));
        }
    }

    /// The rows of `ranked` from `first` (at most [`PAGE`]), fetching the
    /// documents fragments they lack; with the fragments and bytes fetched.
    async fn page(
        self,
        ranked: &FragRanking,
        first: usize,
    ) -> Result<(Vec<ResultRow>, (usize, u64)), FragError> {
        let pool = self.pool.get_value();
        let shown =
            &ranked.hits[first.min(ranked.hits.len())..(first + PAGE).min(ranked.hits.len())];
        let docs: Vec<u32> = shown.iter().map(|h| h.doc).collect();
        // Their directory pages, then their documents fragments.
        let (mut n, mut bytes) = (0, 0);
        for _ in 0..2 {
            let missing = self
                .cache
                .with_value(|c| pool.missing_docs(&docs, &c.borrow()))?;
            n += missing.len();
            bytes += self.fetch_all(missing).await?;
        }
        let rows = self
            .cache
            .with_value(|c| pool.rows(shown, first, &ranked.terms, &mut c.borrow_mut()))?;
        Ok((rows, (n, bytes)))
    }

    /// Adds the next [`PAGE`] rows of the shown query's ranking, unless a
    /// newer query is shown by then. A failure shows as the query's.
    pub fn show_more(self) {
        let Some((ranked, first)) = self.result.with_untracked(|r| {
            let r = r.as_ref()?;
            let (rows, _) = r.outcome.as_ref().ok()?;
            Some((r.ranking.clone()?, rows.len()))
        }) else {
            return;
        };
        self.scope.spawn(async move {
            let page = self.page(&ranked, first).await;
            self.result.update(|r| {
                let Some(r) = r.as_mut() else { return };
                if !r.ranking.as_ref().is_some_and(|s| Arc::ptr_eq(s, &ranked)) {
                    return;
                }
                match (page, &mut r.outcome) {
                    (Ok((more, got)), Ok((rows, _))) if rows.len() == first => {
                        rows.extend(more);
                        r.fetched.0 += got.0;
                        r.fetched.1 += got.1;
                    }
                    (Err(e), outcome) => *outcome = Err(e),
                    _ => {}
                }
            });
        });
    }

    /// Opens the article `id` (one of the shown rows or their references)
    /// with `query`'s words marked.
    pub fn open_article(self, id: Option<String>, query: String) {
        let ticket = self.articles.begin();
        let Some(id) = id else {
            return self.article.set(None);
        };
        self.scope.spawn(async move {
            let outcome = async {
                let pool = self.pool.get_value();
                let Some(doc) = self.doc_of(&id) else {
                    // A link's article opens once the rows naming it are
                    // shown; only then is its absence an answer.
                    let shown = self.result.with_untracked(|r| {
                        r.as_ref()
                            .is_some_and(|r| r.query == query && r.outcome.is_ok())
                    });
                    return match shown {
                        true => Err(FragError::NotShown { id }),
                        false => Ok(None),
                    };
                };
                // First the article's own fragment (which lists its
                // references), then those of the articles it refers to,
                // each after its directory page.
                for _ in 0..4 {
                    let docs = self
                        .cache
                        .with_value(|c| pool.article_docs(doc, &mut c.borrow_mut()));
                    let missing = self
                        .cache
                        .with_value(|c| pool.missing_docs(&docs, &c.borrow()))?;
                    self.fetch_all(missing).await?;
                }
                let terms =
                    nomos_core::search::highlight::QueryTerms::new(&pool.meta().analyzer(), &query);
                self.cache.with_value(|c| {
                    let mut c = c.borrow_mut();
                    let linked: Vec<_> = pool
                        .article_docs(doc, &mut c)
                        .into_iter()
                        .chain([doc])
                        .filter_map(|d| Some((pool.doc_id(d, &mut c)?, d)))
                        .collect();
                    self.linked.update_value(|l| {
                        for (id, d) in linked {
                            if !l.iter().any(|(i, _)| *i == id) {
                                l.push((id, d));
                            }
                        }
                    });
                    pool.article(doc, &terms, &mut c)
                        .map(Some)
                        .map_err(FragError::from)
                })
            }
            .await;
            if ticket.is_current() {
                self.article.set(outcome.transpose());
            }
        });
    }

    /// Article `id`'s BM25 score for `query` with `params` taken apart
    /// ([`FragPool::explain`]), given to `done`, once the query's postings
    /// fragments the cache lacks (an article opened by a link before its
    /// query ranked) are fetched as a query fetches them.
    pub fn explain(
        self,
        id: &str,
        query: String,
        params: Bm25Params,
        done: impl FnOnce(Result<Option<Explanation>, FragError>) + 'static,
    ) {
        let Some(doc) = self.doc_of(id) else {
            return done(Err(FragError::NotShown { id: id.to_owned() }));
        };
        self.scope.spawn(async move {
            let explained = async {
                let pool = self.pool.get_value();
                let tokens = pool.tokens(&query);
                let missing = self
                    .cache
                    .with_value(|c| pool.missing_postings(&Method::Bm25, &tokens, &c.borrow()))?;
                self.fetch_all(missing).await?;
                self.cache
                    .with_value(|c| pool.explain(&query, params, doc, &mut c.borrow_mut()))
                    .map_err(FragError::from)
            }
            .await;
            done(explained);
        });
    }

    /// The document whose id is `id`, among the rows shown and the open
    /// article's references (ids are not in the meta: a fragmented pool
    /// finds a document by what was shown).
    fn doc_of(&self, id: &str) -> Option<u32> {
        let in_rows = self.result.with_untracked(|r| {
            let (rows, _) = r.as_ref()?.outcome.as_ref().ok()?;
            rows.iter().find(|row| row.id == id).map(|row| row.doc)
        });
        in_rows.or_else(|| {
            self.linked
                .with_value(|l| l.iter().find(|(i, _)| i == id).map(|(_, d)| *d))
        })
    }

    /// Reads the room the browser gives the site (shown beside a
    /// download's size).
    pub fn measure_space(self) {
        self.scope
            .spawn(async move { self.space.set(storage_estimate().await) });
    }

    /// Before a download to keep: a service worker must control the page
    /// (past it nothing is kept), and the site's storage is asked to
    /// persist, so that the browser does not clear it when space runs low.
    async fn ready_to_keep(self) -> Result<(), FragError> {
        // Fetched through the worker, which holds each answer for the
        // app's check and keeps only those.
        if !worker_controls_page_within(CONTROL_WAIT_MS).await {
            return Err(FragError::NoWorker);
        }
        self.persisted.set(Some(persist_storage().await));
        Ok(())
    }

    /// Fetches and checks fragments `numbers`, [`OFFLINE_PARALLEL`] at a
    /// time, and waits for the service worker to keep each batch, adding
    /// their bytes to `done` and reporting it after each batch (directory
    /// pages stay in memory too: they name the documents fragments). Stops
    /// at the first failure, saying plainly when the browser's storage is
    /// full; what earlier batches kept stays kept. The URLs kept.
    async fn keep_in_batches(
        self,
        numbers: &[usize],
        done: &mut u64,
        progress: impl Fn(u64),
    ) -> Result<Vec<String>, FragError> {
        let pool = self.pool.get_value();
        let mut kept = Vec::new();
        for batch in numbers.chunks(OFFLINE_PARALLEL) {
            let checks = batch.iter().map(|&n| {
                let pool = pool.clone();
                async move {
                    // Checked, not kept in memory (but pages): the service
                    // worker keeps it.
                    let check = |bytes: &[u8]| {
                        self.cache
                            .with_value(|c| pool.check(n, bytes, &c.borrow()))
                            .map_err(FragError::from)
                    };
                    let (page, len, url) = self.fetch_checked(&pool, n, check).await?;
                    if let Some(page) = page {
                        self.cache
                            .with_value(|c| c.borrow_mut().insert(n, len, page));
                    }
                    Ok::<_, FragError>((len, url))
                }
            });
            let mut urls = Vec::new();
            let mut bytes = 0;
            for checked in join_all(checks).await {
                let (len, url) = checked?;
                bytes += len;
                urls.push(url);
            }
            ask_service_worker("keepFragments", &urls)
                .await
                .map_err(|e| match e {
                    ServiceWorkerError::Full(_) => FragError::Full {
                        cause: e,
                        kept: *done,
                    },
                    e => FragError::NotKept(e),
                })?;
            *done += bytes;
            kept.extend(urls);
            progress(*done);
        }
        Ok(kept)
    }

    /// Fetches, checks and keeps every fragment for use with no network,
    /// reporting the bytes done of the total.
    pub fn make_offline(self) {
        if matches!(self.offline.get_untracked(), OfflineStatus::Fetching { .. }) {
            return;
        }
        let pool = self.pool.get_value();
        let total = pool.total_bytes();
        self.offline.set(OfflineStatus::Fetching { done: 0, total });
        self.scope.spawn(async move {
            let kept = async {
                self.ready_to_keep().await?;
                let progress = |done| self.offline.set(OfflineStatus::Fetching { done, total });
                let mut done = 0;
                // The listed fragments first: their directory pages (kept
                // in memory) list the documents fragments, fetched next.
                let listed: Vec<usize> = (0..pool.meta().fragments().len()).collect();
                let mut urls = vec![self.url("meta")];
                urls.extend(self.keep_in_batches(&listed, &mut done, progress).await?);
                let docs = self.cache.with_value(|c| c.borrow().listed_docs());
                urls.extend(self.keep_in_batches(&docs, &mut done, progress).await?);
                // The meta's total counts the documents fragments as its
                // pages' entries must add up to.
                if done != total {
                    return Err(FragError::PoolTotal {
                        pool: pool.name.clone(),
                        held: done,
                        listed: total,
                    });
                }
                Ok(urls)
            }
            .await;
            self.measure_space();
            match kept {
                Ok(urls) => {
                    self.offline.set(OfflineStatus::Ready);
                    keep_only_offline(urls);
                }
                Err(e) => self.offline.set(OfflineStatus::Failed(e)),
            }
        });
    }

    /// Sets act `source`'s status.
    fn set_act(self, source: &str, status: ActStatus) {
        self.acts.update(|a| {
            a.insert(source.to_owned(), status);
        });
    }

    /// Act `source` (the open article's) with its size: kept already, or
    /// being kept, or its directory pages fetched to name its files and
    /// add up their listed lengths (again after a failure); the room the
    /// browser gives is read too.
    pub fn size_act(self, source: String) {
        let known = self.acts.with_untracked(|a| {
            a.get(&source)
                .is_some_and(|st| !matches!(st, ActStatus::Failed(_)))
        });
        if known {
            return;
        }
        if let Some(bytes) = self.kept_acts.with_untracked(|k| k.bytes(&source)) {
            return self.set_act(&source, ActStatus::Kept(bytes));
        }
        self.set_act(&source, ActStatus::Sizing);
        self.scope.spawn(async move {
            let pool = self.pool.get_value();
            let sized = async {
                let missing = self
                    .cache
                    .with_value(|c| pool.missing_act_pages(&source, &c.borrow()))?;
                self.fetch_all(missing).await?;
                self.cache
                    .with_value(|c| pool.act_files(&source, &c.borrow()))
                    .map_err(FragError::from)
            }
            .await;
            self.space.set(storage_estimate().await);
            let status = match sized {
                Ok(files) => ActStatus::Sized(files),
                Err(e) => ActStatus::Failed(FragError::Sizing(Box::new(e))),
            };
            self.set_act(&source, status);
        });
    }

    /// Keeps act `source`, once sized, for use with no network: every
    /// directory page and documents fragment it needs, fetched, checked
    /// and handed to the service worker, with progress; then the act is
    /// listed as kept.
    pub fn keep_act(self, source: String) {
        let Some(ActStatus::Sized(files)) = self.acts.with_untracked(|a| a.get(&source).cloned())
        else {
            return;
        };
        let total = files.bytes;
        self.set_act(&source, ActStatus::Fetching { done: 0, total });
        self.scope.spawn(async move {
            let kept = async {
                self.ready_to_keep().await?;
                let numbers: Vec<usize> = files.pages.iter().chain(&files.docs).copied().collect();
                let progress = |done| self.set_act(&source, ActStatus::Fetching { done, total });
                let mut done = 0;
                self.keep_in_batches(&numbers, &mut done, progress).await?;
                match done == total {
                    true => Ok(()),
                    false => Err(FragError::ActTotal {
                        held: done,
                        listed: total,
                    }),
                }
            }
            .await;
            self.measure_space();
            match kept {
                Ok(()) => {
                    let kept = self.kept_acts.get_untracked().with(&source, total);
                    let build = self.pool.with_value(|p| p.content_hash());
                    if let Err(e) = self.dir.with_value(|d| kept.save(d, &build)) {
                        leptos::logging::debug_warn!("the list of kept acts was not saved: {e}");
                    }
                    self.kept_acts.set(kept);
                    self.set_act(&source, ActStatus::Kept(total));
                }
                Err(e) => self.set_act(&source, ActStatus::Failed(e)),
            }
        });
    }
}

/// Asks the service worker to keep fragments the app checked (and the
/// meta, revalidated on each load); nothing where there is no worker.
pub fn keep_offline(urls: Vec<String>) {
    if urls.is_empty() {
        return;
    }
    spawn_local(async move {
        if let Err(e) = ask_service_worker("keepFragments", &urls).await {
            leptos::logging::debug_warn!("fragments not kept: {e}");
        }
    });
}

/// Asks the service worker to drop what an earlier build of a pool left
/// in its cache, `urls` being every file of the pool as it is now.
/// Housekeeping, not awaited: the pool is offline either way, and a worker
/// of an older build would not answer.
fn keep_only_offline(urls: Vec<String>) {
    spawn_local(async move {
        if let Err(e) = ask_service_worker("keepOnlyFragments", &urls).await {
            leptos::logging::debug_warn!("an earlier build's fragments were not dropped: {e}");
        }
    });
}

/// [`keep_offline`] for a meta the app fetched before the service worker
/// controlled the page, with its bytes, so that the worker need not fetch
/// it again.
pub fn keep_offline_fetched(url: String, bytes: Vec<u8>) {
    spawn_local(async move {
        if let Err(e) = keep_fragment_bytes(&url, &bytes).await {
            leptos::logging::debug_warn!("meta not kept: {e}");
        }
    });
}
