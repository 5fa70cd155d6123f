//! The Search view's reactive pipeline: the query box's text debounced
//! into the committed query, the committed query embedded when a dense
//! method wants it, and memos for the ranking (through
//! [`search_pipeline`](crate::search_pipeline), which decides what ranks),
//! the filtered hits and the facet counts. Views read these; none of the
//! logic lives in a view.

use std::time::Duration;

use leptos::prelude::*;
use leptos::task::spawn_local;
use nomos_core::hits::Hit;

use crate::pools::Pools;
use crate::search_pipeline::{self, QueryVector, Request, Timed};
use crate::semantic::{ModelStatus, Semantic};
use crate::session::QueryEmbedding;
use crate::state::AppState;
use crate::web::now;

/// Typing restarts this timer, so a burst of keystrokes ranks once.
const DEBOUNCE: Duration = Duration::from_millis(100);

/// What the Search view shows, derived from the state and the pool.
#[derive(Clone, Copy)]
pub struct SearchStore {
    /// The query the ranking uses: the box's text once typing pauses.
    pub committed: RwSignal<String>,
    pub ranking: Memo<Option<Timed>>,
    /// The ranking's hits that pass the source and area filters.
    pub filtered: Memo<Option<Vec<Hit>>>,
    pub source_counts: Memo<Option<Vec<(String, usize)>>>,
    pub area_counts: Memo<Option<Vec<(String, usize)>>>,
}

impl SearchStore {
    /// Starts the pipeline; it lives as long as the calling view.
    pub fn new(state: AppState, pools: Pools, semantic: Semantic) -> Self {
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

        let ranking = Memo::new(move |previous: Option<&Option<Timed>>| {
            let session = pools.session.get()?;
            let query = committed.get();
            let status = semantic.status.get();
            let waiting = status.waiting_reason();
            let embedded = session
                .embedded
                .with(|e| e.as_ref().filter(|e| e.query == query).cloned());
            let failed = embedded
                .as_ref()
                .and_then(|e| e.vector.as_ref().err().map(ToString::to_string));
            let vector = match &embedded {
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
            let request = Request {
                query: &query,
                method: state.method.get(),
                params: state.params.get(),
                vector,
            };
            let previous = previous.and_then(Option::as_ref);
            search_pipeline::rank(&session.engine, &request, previous, &now)
        });
        let filtered = Memo::new(move |_| {
            let source = state.source.get();
            let area = state.area.get();
            let engine = pools.engine()?;
            ranking.with(|r| {
                let hits = &r.as_ref()?.ranking.hits;
                Some(search_pipeline::filter(
                    &engine,
                    hits,
                    source.as_deref(),
                    area.as_deref(),
                ))
            })
        });
        let source_counts = Memo::new(move |_| {
            let engine = pools.engine()?;
            ranking.with(|r| {
                let hits = &r.as_ref()?.ranking.hits;
                Some(search_pipeline::facet_counts(hits, |d| {
                    Some(engine.source(d))
                }))
            })
        });
        let area_counts = Memo::new(move |_| {
            let engine = pools.engine()?;
            ranking.with(|r| {
                let hits = &r.as_ref()?.ranking.hits;
                Some(search_pipeline::facet_counts(hits, |d| engine.area(d)))
            })
        });
        SearchStore {
            committed,
            ranking,
            filtered,
            source_counts,
            area_counts,
        }
    }
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
        if !state.method.get().needs_dense() || !ready || query.trim().is_empty() {
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
