//! Keeps the address bar and the app state in step, so that a copied
//! link reopens the same view, pool, method, query, filters and article
//! (the link's form is [`crate::url_state`]), and likewise the Evaluate
//! view's compared method, table order and open query.
//!
//! An LLM method's results carry the transcript that reproduces them (the
//! one replayed, or the one the run recorded here); a link to a
//! transcript this browser lacks says so, with how to load it.
//!
//! The link is read on load and on Back/Forward (`popstate`), and written
//! as the state changes: `replaceState` while typing or moving a slider,
//! `pushState` when an article or benchmark query opens or the view or
//! pool changes, so Back returns there. A link's pool-specific parts
//! (methods, filters, article, benchmark query) wait until its pool has
//! loaded, because loading a pool resets them; nothing is written
//! meanwhile, so a reload during loading keeps them.

use leptos::prelude::*;
use nomos_core::blob::Field;
use wasm_bindgen::JsValue;

use crate::eval_config::Config;
use crate::format::{quoted_short, thousands};
use crate::llm::search::RunStatus;
use crate::llm::Llm;
use crate::pools::frag_store::FragStore;
use crate::pools::store::{LoadStatus, Pools};
use crate::state::{AppState, PoolChoice, View};
use crate::transcript_files::{short_hash, LlmSource, TranscriptLink};
use crate::url_state::{Bm25Link, LinkState, QUERY_MAX};

/// Hex digits of a content hash shown in messages.
const HASH_SHOWN: usize = 12;

#[derive(Clone, Copy)]
pub struct LinkSync {
    /// What the user should know about the link they opened (its pool is
    /// not here, or was a different version), shown as a banner.
    pub notice: RwSignal<Option<String>>,
    /// The page's address as last written or followed: the link a printed
    /// article carries.
    pub address: RwSignal<String>,
    /// A link whose pool-specific parts wait for its pool to load.
    pending: StoredValue<Option<LinkState>>,
    /// The link last written or followed: a change of view, pool or
    /// article from it is a new history entry.
    written: StoredValue<LinkState>,
    /// The missing transcript the user was told about.
    told: StoredValue<Option<String>>,
    state: AppState,
    pools: Pools,
    llm: Llm,
}

impl LinkSync {
    /// Applies the page's link and keeps the two in step from now on.
    /// Call before [`Pools::start`], so that the link's pool is the one
    /// loaded first.
    pub fn start(state: AppState, pools: Pools, llm: Llm) -> LinkSync {
        let link = LinkState::decode(&fragment());
        let sync = LinkSync {
            notice: RwSignal::new(None),
            address: RwSignal::new(window().location().href().unwrap_or_default()),
            pending: StoredValue::new(None),
            written: StoredValue::new(link.clone()),
            told: StoredValue::new(None),
            state,
            pools,
            llm,
        };
        sync.follow(link);
        Effect::new(move |_| sync.on_session());
        Effect::new(move |_| sync.on_manifest());
        Effect::new(move |_| {
            // A pool that failed to load cannot take the link's parts.
            if matches!(pools.status.get(), LoadStatus::Failed { .. }) {
                sync.pending.set_value(None);
            }
        });
        Effect::new(move |_| sync.write());
        Effect::new(move |_| sync.on_transcripts());
        // The app lives as long as the page: the listener is never removed.
        let _ = window_event_listener(leptos::ev::popstate, move |_| {
            let link = LinkState::decode(&fragment());
            sync.address
                .set(window().location().href().unwrap_or_default());
            sync.written.set_value(link.clone());
            sync.follow(link);
        });
        sync
    }

    /// Shows `link`: view and query at once, the rest once its pool is
    /// loaded.
    fn follow(self, link: LinkState) {
        let state = self.state;
        self.notice.set(link.query_cut.then(|| {
            format!(
                "This link's query was longer than the {} characters a query may have; \
                 it was cut to them.",
                thousands(QUERY_MAX)
            )
        }));
        state.view.set(link.view);
        state.query.set(link.query.clone());
        state.eval_sort.set(link.sort.clone());
        state.llm.set(match &link.transcript {
            Some(t) => LlmSource::Replay(t.clone()),
            None => LlmSource::Endpoint,
        });
        if let Some(n) = link.llm_queries {
            state.llm_queries.set(n);
        }
        state.my_judgments.set(link.my_judgments);
        if let Some(file) = &link.pool {
            let choice = Some(PoolChoice::Listed(file.clone()));
            if state.pool.get_untracked() != choice {
                state.linked_method.set(link.rank);
                state.pool.set(choice);
            }
        }
        let pool = state.pool.get_untracked();
        let ready = self
            .pools
            .session
            .with_untracked(|s| s.as_ref().is_some_and(|s| s.choice == pool));
        if ready {
            self.apply_to_pool(link);
        } else {
            self.pending.set_value(Some(link));
        }
    }

    /// Sets the link's method, filters and article on the loaded pool, and
    /// says so when the pool differs from the one the link was made with.
    fn apply_to_pool(self, link: LinkState) {
        let state = self.state;
        let Some(session) = self.pools.session.get_untracked() else {
            return;
        };
        let defaults = session.engine.default_params();
        state
            .params
            .set(link.bm25.map_or(defaults, |m| m.apply_to(defaults)));
        // What the link's query already said (it was cut) stays.
        let mut notices: Vec<String> = self.notice.get_untracked().into_iter().collect();
        let said = notices.len();
        if let Some(method) = link.rank {
            let has_vectors = matches!(session.model, Some(Ok(_)));
            if method.needs_dense() && !has_vectors {
                notices.push(format!(
                    "This link ranks with {method}, which needs document vectors this pool \
                     does not have here; showing {} instead.",
                    state.method.get_untracked()
                ));
            } else {
                state.method.set(method);
            }
        }
        let has = |field| session.engine.field_for(field) == field;
        if has(link.field) {
            state.field.set(link.field);
        } else {
            notices.push(
                "This link ranks the augmented field, which this pool does not have; \
                 ranking the text instead."
                    .to_owned(),
            );
        }
        state.source.set(link.source);
        state.area.set(link.area);
        state.kind.set(link.kind);
        state.year.set(link.year);
        // A citation opens what it names, unless the link names the
        // article too (the one opened from the citation's list).
        let cited = link.cite.as_deref().and_then(|c| {
            let rows = crate::article::go_to::go_to(&session.engine, c, None).rows;
            rows.into_iter().next()
        });
        if link.cite.is_some() && cited.is_none() {
            notices.push(unknown_citation(
                link.cite.as_deref().unwrap_or_default(),
                &session.engine.name,
            ));
        }
        state.article.set(link.article.or(cited.map(|r| r.id)));
        state.cite.set(link.cite);
        state.eval_query.set(link.eval_query);
        // B: the link's BM25 settings and method, each defaulting to A's.
        let compare = (link.compare.is_some() || link.compare_rank.is_some()).then(|| Config {
            method: link
                .compare_rank
                .unwrap_or_else(|| state.method.get_untracked()),
            params: link
                .compare
                .map_or(state.params.get_untracked(), |m| m.apply_to(defaults)),
            field: session.engine.field_for(link.compare_field),
        });
        state.compare.set(compare);
        state.run.set(link.run);
        if let Some(wanted) = link.hash {
            if wanted != session.engine.content_hash() {
                let shown: String = wanted.chars().take(HASH_SHOWN).collect();
                notices.push(format!(
                    "This link was made with a different version of {} (hash {shown}); \
                     results may differ.",
                    session.engine.name
                ));
            }
        }
        if notices.len() > said {
            self.notice.set(Some(notices.join(" ")));
        }
    }

    /// [`Self::write`] for a fragmented pool: its pool, version, query,
    /// method, BM25 settings, filters and article.
    fn write_fragmented(self, store: FragStore) {
        let state = self.state;
        let pool = state.pool.get();
        if store.choice.get_value() != pool {
            return;
        }
        if let Some(link) = self.pending.try_update_value(Option::take).flatten() {
            // The link's method, settings, filters and article, once its
            // pool is here.
            if let Some(method) = link.rank {
                state.method.set(method);
            }
            let defaults = store.pool.with_value(|p| p.meta().bm25_params());
            state
                .params
                .set(link.bm25.map_or(defaults, |m| m.apply_to(defaults)));
            state.source.set(link.source);
            state.area.set(link.area);
            state.kind.set(link.kind);
            state.year.set(link.year);
            state.article.set(link.article);
        }
        let Some(PoolChoice::Listed(file)) = pool else {
            return;
        };
        let link = LinkState {
            view: state.view.get(),
            hash: Some(store.pool.with_value(|p| p.content_hash())),
            pool: Some(file),
            rank: Some(state.method.get()),
            bm25: Some(Bm25Link::from_params(&state.params.get())),
            query: state.query.get(),
            source: state.source.get(),
            area: state.area.get(),
            kind: state.kind.get(),
            year: state.year.get(),
            article: state.article.get(),
            ..LinkState::default()
        };
        let before = self.written.get_value();
        if link == before {
            return;
        }
        let new_place =
            link.view != before.view || link.pool != before.pool || link.article != before.article;
        set_fragment(&link.encode(), new_place);
        self.address
            .set(window().location().href().unwrap_or_default());
        self.written.set_value(link);
    }

    /// A newly loaded pool takes the waiting link's parts. The session
    /// changes only when a pool loads, never with the method.
    fn on_session(self) {
        if self.pools.session.with(Option::is_none) {
            return;
        }
        if let Some(link) = self.pending.try_update_value(Option::take).flatten() {
            self.apply_to_pool(link);
        }
    }

    /// Says so when the transcript a link replays is not in this browser
    /// and the site does not serve it (once the kept list and the site's
    /// are read).
    fn on_transcripts(self) {
        let transcripts = self.llm.transcripts;
        let LlmSource::Replay(link) = self.state.llm.get() else {
            return;
        };
        let read = transcripts.ready.get() && transcripts.site.with(Option::is_some);
        if !read || transcripts.knows(&link) {
            return;
        }
        if self
            .told
            .with_value(|t| t.as_deref() == Some(link.sha256.as_str()))
        {
            return;
        }
        self.told.set_value(Some(link.sha256.clone()));
        self.notice.set(Some(format!(
            "This link's results come from the LLM transcript {}… (SHA-256 {}), which this \
             browser does not have. Load its .jsonl file in LLM settings → Transcripts (ask \
             whoever shared the link for it) to see them; nothing is sent to any LLM meanwhile.",
            short_hash(&link.sha256),
            link.sha256
        )));
    }

    /// The transcript that reproduces what the view shows: the one
    /// replayed, else the one the shown LLM results recorded.
    fn shown_transcript(&self, view: View) -> Option<TranscriptLink> {
        let state = self.state;
        if let LlmSource::Replay(link) = state.llm.get() {
            return Some(link);
        }
        let session = self.pools.session.get()?;
        match view {
            View::Search => session.llm_search.run.with(|r| {
                let r = r.as_ref()?;
                let shown = r.key.method == state.method.get()
                    && state.query.with(|q| q.trim() == r.key.query.trim());
                match &r.status {
                    RunStatus::Done(f) if shown => Some(f.transcript.clone()),
                    _ => None,
                }
            }),
            View::Evaluate => session.eval.transcript.get(),
        }
    }

    /// A link naming a pool the manifest lacks opens the first listed.
    fn on_manifest(self) {
        let state = self.state;
        let Some(PoolChoice::Listed(file)) = state.pool.get() else {
            return;
        };
        let first = self.pools.manifest.with(|m| match m {
            Some(Ok(m)) if !m.indexes.iter().any(|e| e.file == file) => m.indexes.first().cloned(),
            _ => None,
        });
        if let Some(first) = first {
            let named: String = file.chars().take(80).collect();
            self.notice.set(Some(format!(
                "This link names a pool that is not available here ({named}); \
                 showing {} instead.",
                first.title
            )));
            self.pending.set_value(None);
            state.pool.set(Some(PoolChoice::Listed(first.file)));
        }
    }

    /// Writes the state into the address bar once the chosen pool is
    /// loaded and no link waits for it.
    fn write(self) {
        let state = self.state;
        if let Some(store) = self.pools.fragmented.get() {
            return self.write_fragmented(store);
        }
        let Some(session) = self.pools.session.get() else {
            return;
        };
        let pool = state.pool.get();
        if session.choice != pool {
            return;
        }
        // A link waiting for this pool takes it here or in `on_session`,
        // whichever runs first: returning early instead would leave this
        // effect tracking none of the state below, and no later change
        // would be written.
        if let Some(link) = self.pending.try_update_value(Option::take).flatten() {
            self.apply_to_pool(link);
        }
        // A blob opened from disk cannot be fetched from a link.
        let listed = match pool {
            Some(PoolChoice::Listed(file)) => Some(file),
            _ => None,
        };
        let view = state.view.get();
        let compare = state.compare.get();
        let llm_evaluated = view == View::Evaluate
            && (state.method.get().needs_llm() || compare.is_some_and(|c| c.method.needs_llm()));
        let link = LinkState {
            transcript: self.shown_transcript(view),
            llm_queries: llm_evaluated.then(|| state.llm_queries.get()),
            my_judgments: view == View::Evaluate && state.my_judgments.get(),
            view,
            hash: listed.as_ref().map(|_| session.engine.content_hash()),
            pool: listed,
            rank: Some(state.method.get()),
            bm25: Some(Bm25Link::from_params(&state.params.get())),
            field: state.field.get(),
            query: state.query.get(),
            query_cut: false,
            source: state.source.get(),
            area: state.area.get(),
            kind: state.kind.get(),
            year: state.year.get(),
            article: state.article.get(),
            cite: state.cite.get(),
            eval_query: state.eval_query.get(),
            compare: state
                .compare
                .get()
                .map(|c| Bm25Link::from_params(&c.params)),
            compare_rank: state.compare.get().map(|c| c.method),
            compare_field: state.compare.get().map_or(Field::Text, |c| c.field),
            sort: state.eval_sort.get(),
            run: state.run.get().filter(|_| view == View::Evaluate),
        };
        let before = self.written.get_value();
        if link == before {
            return;
        }
        let new_place = link.view != before.view
            || link.pool != before.pool
            || link.article != before.article
            || link.eval_query != before.eval_query;
        set_fragment(&link.encode(), new_place);
        self.address
            .set(window().location().href().unwrap_or_default());
        self.written.set_value(link);
    }
}

pub fn use_link_sync() -> LinkSync {
    expect_context::<LinkSync>()
}

/// The page's fragment, without `#`.
fn fragment() -> String {
    window().location().hash().unwrap_or_default()
}

/// Replaces the fragment, as a new history entry when `push`.
fn set_fragment(encoded: &str, push: bool) {
    let location = window().location();
    let url = match encoded {
        // No fragment at all rather than a bare `#`.
        "" => location.pathname().unwrap_or_default() + &location.search().unwrap_or_default(),
        _ => format!("#{encoded}"),
    };
    let Ok(history) = window().history() else {
        return;
    };
    let _ = match push {
        true => history.push_state_with_url(&JsValue::NULL, "", Some(&url)),
        false => history.replace_state_with_url(&JsValue::NULL, "", Some(&url)),
    };
}

/// The notice for a link's citation that names no article in `pool`: the
/// citation, a link's text, isolated and shortened ([`quoted_short`]).
fn unknown_citation(cite: &str, pool: &str) -> String {
    format!(
        "This link's citation {} names no article in {pool}.",
        quoted_short(cite)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_citation_is_echoed_isolated_and_short() {
        let cite = format!("\u{202E}{}", "§ 1".repeat(60));
        assert!(LinkState::decode(&format!("cite={cite}")).cite.is_some());
        let notice = unknown_citation(&cite, "stard");
        assert!(notice.contains("“\u{2068}\u{202E}§ 1"), "{notice}");
        assert!(notice.contains("…\u{2069}” names no article in stard."));
        assert!(notice.chars().count() < 120, "{notice}");
    }
}
