//! One loaded pool and everything that belongs to it: the engine, where
//! its model is served, its evaluation results and running job, the
//! Search view's query embedding and LLM run, and the user's judgments.
//! The pools store replaces the session as a whole when another pool
//! loads, so nothing downstream has to detect a pool change: what
//! subscribes to the session re-runs exactly then, and a BM25 slider (a
//! signal of its own) never touches it.

use std::sync::Arc;

use leptos::prelude::*;

use crate::evaluate::judgment_store::JudgmentStore;
use crate::evaluate::store::EvalStore;
use crate::latest::Latest;
use crate::llm::search::LlmSearch;
use crate::llm::Llm;
use crate::manifest::{ModelSource, Unserved};
use crate::pool::engine::Engine;
use crate::pool::scope::PoolScope;
use crate::pool::siblings::{PoolText, Siblings};
use crate::semantic::{ModelError, Semantic};
use crate::state::PoolChoice;

/// A query's embedding (or why there is none) and how long it took.
#[derive(Debug, Clone, PartialEq)]
pub struct QueryEmbedding {
    pub query: String,
    pub vector: Result<Vec<f32>, ModelError>,
    pub millis: f64,
}

/// A loaded pool. `Clone` is cheap: an `Arc` and signal handles.
#[derive(Clone)]
pub struct Session {
    /// The pool the user chose, which this session was loaded for.
    pub choice: Option<PoolChoice>,
    pub engine: Arc<Engine>,
    /// Where the site serves the model of the pool's vectors: `None`
    /// without vectors, `Err` when the site does not serve it.
    pub model: Option<Result<ModelSource, Unserved>>,
    pub eval: EvalStore,
    /// The Search view's latest query embedding.
    pub embedded: RwSignal<Option<QueryEmbedding>>,
    /// Query embeddings in flight: only the latest may publish.
    pub embeds: Latest,
    /// The Search view's LLM run.
    pub llm_search: LlmSearch,
    /// The user's own judgments on this pool.
    pub judgments: JudgmentStore,
    /// Where the text and vectors of a light blob stand.
    pub siblings: Siblings,
}

impl Session {
    pub fn new(
        scope: PoolScope,
        choice: Option<PoolChoice>,
        engine: Arc<Engine>,
        model: Option<Result<ModelSource, Unserved>>,
        semantic: Semantic,
        llm: Llm,
    ) -> Self {
        let siblings = Siblings::new(scope, &engine);
        let text = PoolText {
            siblings,
            from_site: matches!(choice, Some(PoolChoice::Listed(_))),
        };
        Session {
            choice,
            eval: EvalStore::new(scope, engine.clone(), semantic, llm, text),
            judgments: JudgmentStore::new(scope, engine.content_hash()),
            siblings,
            engine,
            model,
            embedded: RwSignal::new(None),
            embeds: Latest::new(),
            llm_search: LlmSearch::new(scope),
        }
    }

    /// Fetches from the site the text parts a light blob's documents `docs`
    /// need (every part: `None`); a pool opened from disk has its parts
    /// from the file picker.
    pub fn fetch_text(&self, docs: Option<&[usize]>) {
        self.eval.text.fetch(&self.engine, docs);
    }

    /// The pool is being replaced: stop its work and let go of results.
    pub fn close(&self) {
        self.eval.close();
        self.llm_search.cancel();
        self.embeds.cancel();
        self.embedded.set(None);
    }
}

impl PartialEq for Session {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.engine, &other.engine)
    }
}
