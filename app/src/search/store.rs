//! The Search view's reactive pipeline: the query box's text debounced
//! into the committed query, the committed query embedded when a dense
//! method wants it, an LLM method's run (asked for, or started at once
//! when a transcript is replayed), and memos for the ranking (through
//! [`pipeline`], which decides what ranks),
//! the filtered hits and the facet counts, the rows shown (a page at a
//! time) and the open article, with a light blob's text parts fetched for
//! both. Views read these; none of the logic lives in a view.

use std::time::Duration;

use leptos::prelude::*;
use leptos::task::spawn_local;
use nomos_core::blob::Field;
use nomos_core::hits::Hit;
use nomos_core::methods::Method;
use nomos_core::search::{Bm25Params, Explanation};

use crate::article::go_to::{self, GoTo, GoToRow};
use crate::format::{duration, plural, quoted, ranked_cut, thousands};
use crate::llm::search::{RunStatus, SearchKey};
use crate::llm::{Llm, Readiness};
use crate::pool::engine::{Article, QueryError, ResultRow};
use crate::pools::session::QueryEmbedding;
use crate::pools::store::Pools;
use crate::search::pipeline::{self, LlmHits, QueryVector, Request, Timed};
use crate::semantic::{ModelStatus, Semantic};
use crate::state::AppState;
use crate::web::now;
use nomos_core::facets::{self, FacetCounts};

/// Typing restarts this timer, so a burst of keystrokes ranks once.
const DEBOUNCE: Duration = Duration::from_millis(100);
/// Result rows shown at first and added by "Show more".
pub const PAGE: usize = 25;

/// What the Search view shows, derived from the state and the pool.
#[derive(Clone, Copy)]
pub struct SearchStore {
    /// The query the ranking uses: the box's text once typing pauses.
    pub committed: RwSignal<String>,
    pub ranking: Memo<Option<Timed>>,
    /// The ranking's hits that pass the source and area filters.
    pub filtered: Memo<Option<Vec<Hit>>>,
    /// The ranking's facets, before filtering.
    pub facet_counts: Memo<Option<FacetCounts>>,
    /// How many of the filtered hits are shown as rows.
    pub limit: RwSignal<usize>,
    /// The first `limit` filtered hits' rows.
    pub rows: Memo<Option<Vec<ResultRow>>>,
    /// The open article, the ranking's terms marked.
    pub article: Memo<Option<Result<Article, QueryError>>>,
    /// Where the committed query's citations lead (the "Go to" rows).
    pub go_to: Memo<GoTo>,
    /// The source of the article last opened, whose § comes first when a
    /// citation names no act.
    last_source: RwSignal<Option<String>>,
    state: AppState,
    pools: Pools,
    semantic: Semantic,
    llm: Llm,
}

impl SearchStore {
    /// Starts the pipeline; it lives as long as the calling view.
    pub fn new(state: AppState, pools: Pools, semantic: Semantic, llm: Llm) -> Self {
        let committed = RwSignal::new(state.query.get_untracked());
        let timer = StoredValue::new(None::<TimeoutHandle>);
        Effect::new(move |_| {
            let text = state.query.get();
            if let Some(t) = timer.get_value() {
                t.clear();
            }
            let handle = set_timeout_with_handle(move || committed.set(text), DEBOUNCE).ok();
            timer.set_value(handle);
        });
        embed_committed(committed, state, pools, semantic);
        replay_committed(committed, state, pools, semantic, llm);

        let ranking = Memo::new(move |previous: Option<&Option<Timed>>| {
            let session = pools.session.get()?;
            let query = committed.get();
            let status = semantic.status.get();
            let vectors_wait = session.siblings.vectors_wait();
            let waiting = vectors_wait
                .clone()
                .unwrap_or_else(|| status.waiting_reason());
            let embedded = session
                .embedded
                .with(|e| e.as_ref().filter(|e| e.query == query).cloned());
            let failed = embedded
                .as_ref()
                .and_then(|e| e.vector.as_ref().err().map(ToString::to_string));
            let vector = match &embedded {
                // A light blob's vectors come after it.
                _ if vectors_wait.is_some() => QueryVector::Waiting(&waiting),
                Some(QueryEmbedding {
                    vector: Ok(v),
                    millis,
                    ..
                }) => QueryVector::Embedded {
                    vector: v,
                    millis: *millis,
                },
                Some(_) => QueryVector::Failed(failed.as_deref().unwrap_or_default()),
                None if status == ModelStatus::Ready => QueryVector::Embedding,
                None => QueryVector::Waiting(&waiting),
            };
            let method = state.method.get();
            let params = state.params.get();
            let field = state.field.get();
            let key = SearchKey {
                query: query.clone(),
                method,
                params,
                field,
                source: state.llm.get(),
            };
            let status = method
                .needs_llm()
                .then(|| session.llm_search.status_for(&key))
                .flatten();
            let pending;
            let llm_hits = match &status {
                Some(RunStatus::Done(f)) => LlmHits::Ranked {
                    hits: &f.ranking.hits,
                    marked: &f.ranking.marked,
                    millis: f.millis,
                },
                other => {
                    pending = waiting_for_llm(other.as_ref(), method, llm);
                    LlmHits::Pending(&pending)
                }
            };
            let request = Request {
                query: &query,
                method,
                params,
                field,
                vector,
                llm: llm_hits,
            };
            let previous = previous.and_then(Option::as_ref);
            pipeline::rank(&session.engine, &request, previous, &now)
        });
        let filtered = Memo::new(move |_| {
            let by = state.narrowing();
            let engine = pools.engine()?;
            ranking.with(|r| Some(facets::narrow(&*engine, &r.as_ref()?.ranking.hits, &by)))
        });
        let facet_counts = Memo::new(move |_| {
            let engine = pools.engine()?;
            ranking.with(|r| Some(facets::counts(&*engine, &r.as_ref()?.ranking.hits)))
        });
        let (limit, rows) = shown_rows(ranking, filtered, pools);
        let article = open_article(ranking, state, pools);
        let last_source = RwSignal::new(None::<String>);
        Effect::new(move |_| {
            let Some(id) = state.article.get() else {
                return;
            };
            let Some(engine) = pools.engine() else { return };
            if let Some(doc) = engine.doc_index(&id) {
                last_source.set(Some(engine.source(doc).to_owned()));
            }
            // A citation that does not lead here no longer applies.
            let stale = state.cite.with_untracked(|c| {
                c.as_deref()
                    .is_some_and(|c| !go_to::leads_to(&engine, c, &id))
            });
            if stale {
                state.cite.set(None);
            }
        });
        let go_to = Memo::new(move |_| {
            let query = committed.get();
            let Some(engine) = pools.engine() else {
                return GoTo::default();
            };
            last_source.with(|last| go_to::go_to(&engine, &query, last.as_deref()))
        });
        // A query that is only a citation with one target opens it, once
        // per query (closing it then leaves it closed).
        let opened_for = StoredValue::new(String::new());
        Effect::new(move |_| {
            let g = go_to.get();
            let query = committed.get_untracked();
            if !g.only_citation || g.rows.len() != 1 || opened_for.with_value(|q| *q == query) {
                return;
            }
            opened_for.set_value(query);
            let row = &g.rows[0];
            state.cite.set(Some(row.cite.clone()));
            state.article.set(Some(row.id.clone()));
        });
        SearchStore {
            committed,
            ranking,
            filtered,
            facet_counts,
            limit,
            rows,
            article,
            go_to,
            last_source,
            state,
            pools,
            semantic,
            llm,
        }
    }

    /// The loaded pool's size and name.
    pub fn pool_named(&self) -> Option<(usize, String)> {
        self.pools.engine().map(|e| (e.n_docs(), e.name.clone()))
    }

    /// Article `id`'s BM25 score for `query` over `field` with `params`,
    /// taken apart; `None` while no pool is loaded.
    pub fn explain(
        &self,
        id: &str,
        field: Field,
        params: &Bm25Params,
        query: &str,
    ) -> Option<Result<Explanation, QueryError>> {
        let engine = self.pools.engine()?;
        let Some(doc) = engine.doc_index(id) else {
            return Some(Err(QueryError::NoArticle {
                id: id.to_owned(),
                pool: engine.name.clone(),
            }));
        };
        Some(engine.explain(field, params, query, doc))
    }

    /// What screen readers hear after each ranking (the live region).
    pub fn status(&self) -> String {
        let (state, pools) = (self.state, self.pools);
        let query = self.committed.get();
        let query = query.trim();
        let Some(timed) = self.ranking.get() else {
            return String::new();
        };
        if query.is_empty() {
            return String::new();
        }
        if timed.ranking.terms.is_empty() {
            return format!(
                "{} has no searchable words (only stop words or punctuation)",
                quoted(query)
            );
        }
        let total = timed.ranking.hits.len();
        let shown = self.filtered.with(|f| f.as_ref().map_or(0, Vec::len));
        let filter = state.narrowing().described(|s| {
            pools
                .engine()
                .map_or_else(|| s.to_owned(), |e| e.source_name(s))
        });
        let by_llm = timed.method.needs_llm();
        let counted = match (total, filter.is_empty()) {
            (0, _) if by_llm => format!("The LLM's ranking has no article for {}", quoted(query)),
            (0, _) => format!("No article matches {}", quoted(query)),
            (_, true) => format!(
                "{} for {}",
                plural(total, "result", "results"),
                quoted(query)
            ),
            (_, false) => format!(
                "{} of {} for {} in {}",
                thousands(shown),
                plural(total, "result", "results"),
                quoted(query),
                filter.join(", ")
            ),
        };
        let cut = ranked_cut(timed.ranking.cut);
        match timed.updated {
            true => format!("{counted}, updated with semantic results{cut}"),
            false => format!("{counted}{cut}"),
        }
    }

    /// What source `id` is called, where the loaded blob says.
    pub fn source_name(&self, id: &str) -> Option<String> {
        self.pools.engine().map(|e| e.source_name(id))
    }

    /// How the shown ranking was made, and how long it took.
    pub fn timing(&self) -> Option<String> {
        let timed = self.ranking.get()?;
        if self.committed.with(|q| q.trim().is_empty()) {
            return None;
        }
        let ranked = match timed.millis {
            ms if timed.method.needs_llm() => format!("ranked with the LLM in {}", duration(ms)),
            // Browsers coarsen timers to 0.1 ms or more.
            ms if ms < 0.1 => "ranked in < 0.1 ms".to_owned(),
            ms => format!("ranked in {ms:.1} ms"),
        };
        let method = match timed.field {
            Field::Text => timed.method.name().to_owned(),
            field => format!("{} on {}", timed.method.name(), field.name()),
        };
        Some(match timed.embed_millis {
            Some(ms) => format!("{method}: embedded in {ms:.0} ms, {ranked}"),
            None if timed.pending => format!(
                "{method}: {ranked}; {} follows once the query is embedded",
                self.state.method.get().name()
            ),
            None => format!("{method}: {ranked}"),
        })
    }

    /// Why the chosen dense or LLM method is not what ranked (yet).
    pub fn fallback(&self) -> Option<String> {
        let timed = self.ranking.get()?;
        let reason = timed.fallback?;
        let chosen = self.state.method.get();
        Some(match chosen.needs_llm() {
            true => format!("BM25 results until {} has ranked: {reason}.", chosen.name()),
            false => format!(
                "BM25 results: {reason}; {} follows when it can run.",
                chosen.name()
            ),
        })
    }

    /// Opens a "Go to" row's article, its citation kept for the link and
    /// the paragraph mark.
    pub fn open_cited(&self, row: &GoToRow) {
        self.state.cite.set(Some(row.cite.clone()));
        self.state.article.set(Some(row.id.clone()));
    }

    /// The first "Go to" row of the query in the box as it is now (Enter
    /// may come before the debounce), if it holds a citation.
    pub fn first_cited(&self) -> Option<GoToRow> {
        let engine = self.pools.engine()?;
        let query = self.state.query.get_untracked();
        let last = self.last_source.get_untracked();
        go_to::go_to(&engine, &query, last.as_deref())
            .rows
            .into_iter()
            .next()
    }

    /// Ranks the query in the box (now, without waiting for the debounce)
    /// with the chosen LLM method.
    pub fn ask_llm(&self) {
        let query = self.state.query.get_untracked();
        let method = self.state.method.get_untracked();
        let Some(session) = self.pools.session.get_untracked() else {
            return;
        };
        if !method.needs_llm() || query.trim().is_empty() {
            return;
        }
        self.committed.set(query.clone());
        let key = SearchKey {
            query,
            method,
            params: self.state.params.get_untracked(),
            field: self.state.field.get_untracked(),
            source: self.state.llm.get_untracked(),
        };
        session.fetch_text(None);
        session.llm_search.start(
            session.engine.clone(),
            key,
            session.siblings,
            self.llm,
            self.semantic,
        );
    }
}

/// The rows of the first `limit` filtered hits (a page at first, and
/// again for each new result set), with a light blob's text parts for
/// them fetched.
fn shown_rows(
    ranking: Memo<Option<Timed>>,
    filtered: Memo<Option<Vec<Hit>>>,
    pools: Pools,
) -> (RwSignal<usize>, Memo<Option<Vec<ResultRow>>>) {
    let limit = RwSignal::new(PAGE);
    Effect::new(move |_| {
        filtered.track();
        limit.set(PAGE);
    });
    Effect::new(move |_| {
        let Some(session) = pools.session.get() else {
            return;
        };
        let limit = limit.get();
        let docs: Vec<usize> = filtered.with(|hits| {
            hits.iter()
                .flatten()
                .take(limit)
                .map(|h| h.doc as usize)
                .collect()
        });
        session.fetch_text(Some(&docs));
    });
    let rows = Memo::new(move |_| {
        let timed = ranking.get()?;
        let hits = filtered.get()?;
        let limit = limit.get();
        let session = pools.session.get()?;
        // Snippets come with a light blob's text.
        session.siblings.text.track();
        let e = session.engine;
        Some(
            hits.iter()
                .take(limit)
                .enumerate()
                .map(|(i, &hit)| e.row(i + 1, hit, &timed.ranking))
                .collect(),
        )
    });
    (limit, rows)
}

/// The article the state opens, with the ranking's terms marked; a light
/// blob's text part for it fetched.
fn open_article(
    ranking: Memo<Option<Timed>>,
    state: AppState,
    pools: Pools,
) -> Memo<Option<Result<Article, QueryError>>> {
    Effect::new(move |_| {
        let (Some(id), Some(session)) = (state.article.get(), pools.session.get()) else {
            return;
        };
        if let Some(doc) = session.engine.blob().doc_index(&id) {
            session.fetch_text(Some(&[doc as usize]));
        }
    });
    Memo::new(move |_| {
        let id = state.article.get()?;
        let terms = ranking.with(|r| r.as_ref().map(|t| t.ranking.terms.clone()))?;
        let session = pools.session.get()?;
        // A light blob's text may arrive after the article is opened.
        session.siblings.text.track();
        Some(session.engine.article(&id, &terms))
    })
}

/// Why an LLM method has not ranked the query (yet), for the fallback
/// line: its run's status, or what would start one.
fn waiting_for_llm(status: Option<&RunStatus>, method: Method, llm: Llm) -> String {
    match status {
        Some(RunStatus::Running(Some(step))) => {
            format!("the LLM is working ({})", step.describe())
        }
        Some(RunStatus::Running(None)) => "the LLM run is starting".to_owned(),
        Some(RunStatus::Failed(why)) => format!("the LLM run failed: {why}"),
        Some(RunStatus::Cancelled) => "cancelled; press Enter to ask again".to_owned(),
        Some(RunStatus::Done(_)) | None => match llm.readiness() {
            Readiness::Endpoint(origin) => format!(
                "press Enter to rank with {} ({}, sent to {origin})",
                method.name(),
                calls(method)
            ),
            Readiness::InPage(model) => format!(
                "press Enter to rank with {} ({}, answered by {model} in this page)",
                method.name(),
                calls(method)
            ),
            Readiness::Replay { known: true, .. } => "replaying the transcript".to_owned(),
            Readiness::Replay { sha256, .. } => format!(
                "the transcript {}… is not in this browser; load it in LLM settings",
                &sha256[..12.min(sha256.len())]
            ),
            Readiness::Unset(why) => why,
        },
    }
}

/// About how many LLM calls a query costs with `method`.
fn calls(method: Method) -> String {
    match method {
        Method::ReactBm25 { rounds, .. } => format!("about {} LLM calls", 2 * rounds),
        Method::ReformHybrid { .. } => "2 LLM calls".to_owned(),
        _ => "1 LLM call".to_owned(),
    }
}

/// Starts a replay of the committed query whenever an LLM method is
/// chosen and a known transcript is the source: replies come from the
/// transcript, so nothing is sent and nothing is spent.
fn replay_committed(
    committed: RwSignal<String>,
    state: AppState,
    pools: Pools,
    semantic: Semantic,
    llm: Llm,
) {
    Effect::new(move |_| {
        let query = committed.get();
        let method = state.method.get();
        let Some(session) = pools.session.get() else {
            return;
        };
        let replay = matches!(llm.readiness(), Readiness::Replay { known: true, .. });
        if !method.needs_llm() || !replay || query.trim().is_empty() {
            return;
        }
        let key = SearchKey {
            query,
            method,
            params: state.params.get(),
            field: state.field.get(),
            source: state.llm.get(),
        };
        if session
            .llm_search
            .run
            .with_untracked(|r| r.as_ref().is_some_and(|r| r.key == key))
        {
            return;
        }
        session.fetch_text(None);
        session
            .llm_search
            .start(session.engine.clone(), key, session.siblings, llm, semantic);
    });
}

/// Embeds the committed query whenever a dense method is chosen, the
/// model is ready and the query changed; only the latest embedding
/// publishes (the session's `embeds`).
fn embed_committed(committed: RwSignal<String>, state: AppState, pools: Pools, semantic: Semantic) {
    Effect::new(move |_| {
        let query = committed.get();
        let ready = semantic.status.with(|s| *s == ModelStatus::Ready);
        let Some(session) = pools.session.get() else {
            return;
        };
        let method = state.method.get();
        // An LLM method embeds what the model wrote, not the query.
        if !method.needs_dense() || method.needs_llm() || !ready || query.trim().is_empty() {
            return;
        }
        if session
            .embedded
            .with_untracked(|e| e.as_ref().is_some_and(|e| e.query == query))
        {
            return;
        }
        let ticket = session.embeds.begin();
        spawn_local(async move {
            let started = now();
            let vector = semantic.embed_query(query.clone()).await;
            if ticket.is_current() {
                session.embedded.set(Some(QueryEmbedding {
                    query,
                    millis: now() - started,
                    vector,
                }));
            }
        });
    });
}
