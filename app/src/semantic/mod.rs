//! Semantic search in the browser: the embedding model a pool's vectors
//! were made with, downloaded once with progress (the service worker then
//! keeps it), checked against the hashes the index manifest and the model
//! manifest list, and run on each query. Until it is ready, and whenever
//! it fails, the Search view ranks with BM25 (lexical first).
//!
//! A model load is a shared future keyed by the model's manifest hash:
//! whoever needs the model (the Search view's query embedding, an
//! evaluation) awaits the same load, a pool switch away and back joins
//! it, and nothing polls. The status the views show is derived from the
//! current pool's model and that load's progress.
//!
//! - [`download`]: fetching and checking the model's and runtime's files.
//! - `runtime`: tokenising, pooling, and the forward pass, which ONNX
//!   Runtime (onnxruntime-web) runs in the model's dedicated worker
//!   (`worker`, `embed_worker.js`), so that embedding never blocks the
//!   page. Browser-only: the app's native build, which exists for its
//!   unit tests, has `no_runtime.rs` in their place.

mod download;
mod error;
#[cfg_attr(not(target_arch = "wasm32"), path = "no_runtime.rs")]
mod runtime;
#[cfg(target_arch = "wasm32")]
mod worker;

use std::collections::{HashMap, VecDeque};
use std::rc::Rc;

use futures::future::{FutureExt, LocalBoxFuture, Shared};
use js_sys::{Array, Promise, Reflect};
use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsValue;

pub use download::RUNTIME_BYTES;
pub use error::ModelError;

use crate::manifest::{ModelSource, Unserved};
use crate::web::forget_cached;
use runtime::Model;

/// Where the current pool's semantic search stands.
#[derive(Debug, Clone, PartialEq)]
pub enum ModelStatus {
    /// The pool has no document vectors: BM25 and PRF only.
    NoVectors,
    /// The pool has vectors, but this site does not serve their model.
    NotServed {
        model: String,
    },
    /// Served and not needed yet (no dense method chosen); a download of
    /// `bytes`, the runtime included.
    Idle {
        bytes: u64,
    },
    Downloading {
        received: u64,
        total: u64,
    },
    /// Checking the files and starting ONNX Runtime.
    Starting,
    Ready,
    Failed(ModelError),
}

impl ModelStatus {
    /// Why a dense method cannot run yet, for the Search view's status.
    pub fn waiting_reason(&self) -> String {
        match self {
            ModelStatus::NoVectors => ModelError::NoVectors.to_string(),
            ModelStatus::NotServed { model } => ModelError::NotServed(Unserved {
                model: model.clone(),
            })
            .to_string(),
            ModelStatus::Idle { .. } | ModelStatus::Downloading { .. } => {
                "the semantic model is downloading".to_owned()
            }
            ModelStatus::Starting => "the semantic model is starting".to_owned(),
            ModelStatus::Ready => "the query is being embedded".to_owned(),
            ModelStatus::Failed(e) => format!("the semantic model failed: {e}"),
        }
    }
}

/// Queries embedded last, kept with their vectors (1.5 KB each): a query
/// typed again, opened again from history or ranked by another dense
/// method is not embedded again (docs/app.md, "Semantic search").
const KEPT_QUERIES: usize = 64;

/// The embeddings kept, newest last: (the model's manifest hash, the
/// query's text, its vector).
type Kept = VecDeque<(String, String, Vec<f32>)>;

/// A model's load, awaited by everyone who needs the model.
type Load = Shared<LocalBoxFuture<'static, Result<Rc<Model>, ModelError>>>;

/// The app's embedding models. `Copy`: signals and stored handles.
#[derive(Clone, Copy)]
pub struct Semantic {
    /// The current pool's model: `None` when it has no vectors,
    /// `Some(Err)` when the site does not serve it.
    source: RwSignal<Option<Result<ModelSource, Unserved>>>,
    /// Each load started, by manifest hash; a failed load is removed so
    /// that it can be tried again.
    loads: StoredValue<HashMap<String, Load>, LocalStorage>,
    /// Each load's progress, by manifest hash (`Idle` never appears).
    progress: RwSignal<HashMap<String, ModelStatus>>,
    /// The last [`KEPT_QUERIES`] query embeddings.
    kept: StoredValue<Kept, LocalStorage>,
    /// The current pool's semantic search, for the views.
    pub status: Memo<ModelStatus>,
    /// The URLs the model and runtime were loaded from.
    pub urls: RwSignal<Vec<String>>,
}

impl Semantic {
    pub fn new() -> Self {
        let source = RwSignal::new(None::<Result<ModelSource, Unserved>>);
        let progress = RwSignal::new(HashMap::<String, ModelStatus>::new());
        let status = Memo::new(move |_| {
            source.with(|source| match source {
                None => ModelStatus::NoVectors,
                Some(Err(Unserved { model })) => ModelStatus::NotServed {
                    model: model.clone(),
                },
                Some(Ok(s)) => progress
                    .with(|p| p.get(&s.manifest_sha256).cloned())
                    .unwrap_or(ModelStatus::Idle {
                        bytes: s.bytes + RUNTIME_BYTES,
                    }),
            })
        });
        let semantic = Semantic {
            source,
            loads: StoredValue::new_local(HashMap::new()),
            progress,
            kept: StoredValue::new_local(VecDeque::new()),
            status,
            urls: RwSignal::new(Vec::new()),
        };
        semantic.expose();
        semantic
    }

    /// `window.__nomosEmbed(text)`: a promise of the query's embedding (an
    /// array of numbers) by the loaded model, run afresh (never the kept
    /// one), rejected with the reason when there is none. For the
    /// end-to-end tests, which compare it with the CLI's and time the
    /// model, and for checking the model from the console.
    fn expose(self) {
        let embed = Closure::<dyn Fn(String) -> Promise>::new(move |text: String| {
            wasm_bindgen_futures::future_to_promise(async move {
                let model = self
                    .loaded()
                    .ok_or_else(|| JsValue::from_str(&ModelError::NotLoaded.to_string()))?;
                let vector = model
                    .embed_query(&text)
                    .await
                    .map_err(|e| JsValue::from_str(&ModelError::Runtime(e).to_string()))?;
                let array: Array = vector.iter().map(|&x| JsValue::from(x)).collect();
                Ok(array.into())
            })
        });
        let _ = Reflect::set(&window(), &"__nomosEmbed".into(), embed.as_ref());
        // The page's lifetime.
        embed.forget();
    }

    /// The newly loaded pool's model (see [`Semantic::source`]).
    pub fn set_source(&self, source: Option<Result<ModelSource, Unserved>>) {
        self.source.set(source);
    }

    /// Starts downloading and starting the current pool's model unless it
    /// is loaded or loading (a failed load is tried again).
    pub fn ensure_loaded(self) {
        let _ = self.load();
    }

    /// The current pool's model, once loaded (starting the load if need
    /// be).
    pub async fn ready(self) -> Result<Rc<Model>, ModelError> {
        self.load()?.await
    }

    /// The query's embedding with the current pool's model, which must be
    /// loaded: kept from an earlier embedding of the same text by the same
    /// model, at once, or embedded now and kept.
    pub async fn embed_query(self, text: String) -> Result<Vec<f32>, ModelError> {
        let model = self.loaded().ok_or(ModelError::NotLoaded)?;
        let hash = self
            .current()
            .and_then(Result::ok)
            .map(|s| s.manifest_sha256)
            .unwrap_or_default();
        let kept = self.kept.with_value(|k| {
            k.iter()
                .find(|(h, t, _)| *h == hash && *t == text)
                .map(|(_, _, v)| v.clone())
        });
        if let Some(vector) = kept {
            return Ok(vector);
        }
        let vector = model
            .embed_query(&text)
            .await
            .map_err(ModelError::Runtime)?;
        self.kept.update_value(|k| {
            if k.len() == KEPT_QUERIES {
                k.pop_front();
            }
            k.push_back((hash, text, vector.clone()));
        });
        Ok(vector)
    }

    /// The current pool's model if its load finished well.
    fn loaded(&self) -> Option<Rc<Model>> {
        let hash = self.current()?.ok()?.manifest_sha256;
        self.loads.with_value(|loads| {
            let done = loads.get(&hash)?.peek()?;
            done.as_ref().ok().cloned()
        })
    }

    fn current(&self) -> Option<Result<ModelSource, ModelError>> {
        self.source
            .with_untracked(|s| s.as_ref().map(|s| s.clone().map_err(ModelError::NotServed)))
    }

    /// The current pool's model load, started if need be.
    fn load(self) -> Result<Load, ModelError> {
        let source = self.current().unwrap_or(Err(ModelError::NoVectors))?;
        let hash = source.manifest_sha256.clone();
        if let Some(load) = self.loads.with_value(|l| l.get(&hash).cloned()) {
            return Ok(load);
        }
        let load: Load = self.download_and_start(source).boxed_local().shared();
        self.loads
            .update_value(|l| drop(l.insert(hash, load.clone())));
        // Runs to the end even if nobody awaits it (the view only shows
        // its progress).
        spawn_local(load.clone().map(drop));
        Ok(load)
    }

    async fn download_and_start(self, source: ModelSource) -> Result<Rc<Model>, ModelError> {
        let hash = source.manifest_sha256.clone();
        let report = move |status: ModelStatus| {
            self.progress
                .update(|p| drop(p.insert(hash.clone(), status)));
        };
        let total = source.bytes + RUNTIME_BYTES;
        report(ModelStatus::Downloading { received: 0, total });
        let outcome: Result<Rc<Model>, ModelError> = async {
            let mut files = download::download(&source, &|received, total| {
                report(ModelStatus::Downloading { received, total })
            })
            .await?;
            report(ModelStatus::Starting);
            let urls = std::mem::take(&mut files.urls);
            let model = Model::start(files).await.map_err(ModelError::Runtime)?;
            self.urls.set(urls);
            Ok(Rc::new(model))
        }
        .await;
        match &outcome {
            Ok(_) => report(ModelStatus::Ready),
            Err(e) => {
                if let Some(url) = e.failed_file() {
                    forget_cached(vec![url.to_owned()]);
                }
                report(ModelStatus::Failed(e.clone()));
                self.loads
                    .update_value(|l| drop(l.remove(&source.manifest_sha256)));
            }
        }
        outcome
    }
}

pub fn use_semantic() -> Semantic {
    expect_context::<Semantic>()
}

/// The threads query embedding runs on: every core (up to 4) when the page
/// is cross-origin isolated (the service worker makes it so from the second
/// visit, whatever the host; `scripts/serve.py` from the first), else one,
/// as threads need `SharedArrayBuffer`.
pub fn query_threads() -> u32 {
    match crate::web::cross_origin_isolated() {
        true => crate::web::hardware_threads().min(4),
        false => 1,
    }
}
