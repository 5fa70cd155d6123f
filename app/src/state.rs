//! Everything a user chose, in one struct of signals, so that sharing a
//! link (URL state) and restoring it can read and write a single place.
//! Derived and transient state (loaded engine, load progress, debounced
//! query, result paging) lives with the code that owns it.

use leptos::prelude::*;
use nomos_core::blob::Field;
use nomos_core::methods::Method;
use nomos_core::search::Bm25Params;

use crate::eval_config::{Config, RunLink};
use crate::transcript_files::LlmSource;
pub use crate::views::{EvalSort, View};
use nomos_core::facets::Narrowing;

/// Benchmark queries an LLM method is evaluated on by default (the first
/// ten): a small local model takes minutes per query.
pub const DEFAULT_LLM_QUERIES: usize = 10;

/// Which blob is searched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PoolChoice {
    /// A manifest entry, by its file name (e.g. `da-acts.blob`).
    Listed(String),
    /// A blob the user opened from disk, by its file name. It cannot be
    /// reloaded from a link.
    Local(String),
}

/// The user's choices. `Copy`: every field is a signal handle.
#[derive(Clone, Copy)]
pub struct AppState {
    pub view: RwSignal<View>,
    pub pool: RwSignal<Option<PoolChoice>>,
    /// The text in the search box.
    pub query: RwSignal<String>,
    /// The ranking method; reset when a pool loads (hybrid where the pool
    /// has vectors and the site serves their model, BM25 elsewhere).
    pub method: RwSignal<Method>,
    /// BM25's settings, for every method that uses BM25; reset to the
    /// blob's defaults when a pool loads.
    pub params: RwSignal<Bm25Params>,
    /// The field ranked (the text, or the augmented text where the pool
    /// has it); reset to the text when a pool loads.
    pub field: RwSignal<Field>,
    /// The ranking method a followed link asks of the pool it waits for.
    /// The pool starts with it rather than its own default, so that a
    /// BM25 link to a pool with vectors never starts the model's
    /// download; taken when the pool loads.
    pub linked_method: RwSignal<Option<Method>>,
    /// Show only results from this source (law, code).
    pub source: RwSignal<Option<String>>,
    /// Show only results in this legal area.
    pub area: RwSignal<Option<String>>,
    /// Show only results of this document type (`LBK`).
    pub kind: RwSignal<Option<String>>,
    /// Show only results of this year.
    pub year: RwSignal<Option<String>>,
    /// The id of the article being read.
    pub article: RwSignal<Option<String>>,
    /// The citation that opened it (a "Go to" row or a link's `cite=`),
    /// whose paragraph the article marks.
    pub cite: RwSignal<Option<String>>,
    /// Evaluate view: the benchmark query whose ranking is open, by id.
    pub eval_query: RwSignal<Option<String>>,
    /// Evaluate view: the configuration compared with `method` and
    /// `params` (none: no comparison).
    pub compare: RwSignal<Option<Config>>,
    /// Evaluate view: the per-query table's order.
    pub eval_sort: RwSignal<EvalSort>,
    /// Evaluate view: the measure whose per-query B − A differences the
    /// comparison charts and the tables list.
    pub delta_measure: RwSignal<String>,
    /// Where the LLM methods get their replies: the endpoint, or a
    /// transcript replayed (a link names one).
    pub llm: RwSignal<LlmSource>,
    /// Evaluate view: how many of the benchmark's queries (the first N)
    /// a job with an LLM method ranks.
    pub llm_queries: RwSignal<usize>,
    /// Evaluate view: evaluate with the user's own judgments rather than
    /// the pool's benchmark (pools without one always do).
    pub my_judgments: RwSignal<bool>,
    /// Search view: whether each result carries Relevant / Not relevant /
    /// Clear (and R, N, X mark the focused one). Off until the user turns
    /// it on, or evaluates with their judgments: the buttons matter to a
    /// researcher building judgments and clutter everyone else's list.
    pub judging: RwSignal<bool>,
    /// Evaluate view: the run file imported as A or B (a link names it by
    /// hash; the pool's run store keeps it).
    pub run: RwSignal<Option<RunLink>>,
}

impl AppState {
    pub fn new() -> Self {
        AppState {
            view: RwSignal::new(View::Search),
            pool: RwSignal::new(None),
            query: RwSignal::new(String::new()),
            method: RwSignal::new(Method::Bm25),
            params: RwSignal::new(Bm25Params::default()),
            field: RwSignal::new(Field::Text),
            source: RwSignal::new(None),
            area: RwSignal::new(None),
            linked_method: RwSignal::new(None),
            kind: RwSignal::new(None),
            year: RwSignal::new(None),
            article: RwSignal::new(None),
            cite: RwSignal::new(None),
            eval_query: RwSignal::new(None),
            compare: RwSignal::new(None),
            eval_sort: RwSignal::new(EvalSort::default()),
            delta_measure: RwSignal::new("ndcg@10".to_owned()),
            llm: RwSignal::new(LlmSource::Endpoint),
            llm_queries: RwSignal::new(DEFAULT_LLM_QUERIES),
            my_judgments: RwSignal::new(false),
            judging: RwSignal::new(false),
            run: RwSignal::new(None),
        }
    }

    /// Whether results carry the judging buttons and keys.
    pub fn judging(&self) -> bool {
        self.judging.get() || self.my_judgments.get()
    }

    /// [`AppState::judging`], read outside a reactive context (a key press).
    pub fn judging_untracked(&self) -> bool {
        self.judging.get_untracked() || self.my_judgments.get_untracked()
    }

    /// A's configuration: the current method, BM25 settings and field.
    pub fn config(&self) -> Config {
        Config {
            method: self.method.get(),
            params: self.params.get(),
            field: self.field.get(),
        }
    }

    /// [`Self::config`], untracked.
    pub fn config_untracked(&self) -> Config {
        Config {
            method: self.method.get_untracked(),
            params: self.params.get_untracked(),
            field: self.field.get_untracked(),
        }
    }

    /// The filters chosen (tracked).
    pub fn narrowing(&self) -> Narrowing {
        Narrowing {
            source: self.source.get(),
            area: self.area.get(),
            kind: self.kind.get(),
            year: self.year.get(),
        }
    }

    /// Clears what only makes sense within one pool.
    pub fn reset_for_new_pool(&self, method: Method, params: Bm25Params) {
        self.method.set(method);
        self.params.set(params);
        self.field.set(Field::Text);
        self.source.set(None);
        self.area.set(None);
        self.kind.set(None);
        self.year.set(None);
        self.article.set(None);
        self.cite.set(None);
        self.eval_query.set(None);
        self.run.set(None);
    }
}

/// The state of the component tree's root.
pub fn use_app_state() -> AppState {
    expect_context::<AppState>()
}
