//! Semantic search in the browser: the embedding model a pool's vectors
//! were made with, downloaded once with progress (the service worker then
//! keeps it), checked against the hashes the index manifest and the model
//! manifest list, and run on each query. Until it is ready, and whenever
//! it fails, the Search view ranks with BM25 (lexical first).
//!
//! - [`download`]: fetching and checking the model's and runtime's files.
//! - `runtime`: ONNX Runtime (onnxruntime-web through ort-web) and the
//!   forward pass. Browser-only: the app's native build, which exists for
//!   its unit tests, has `no_runtime.rs` in its place.

mod download;
#[cfg_attr(not(target_arch = "wasm32"), path = "no_runtime.rs")]
mod runtime;

use std::rc::Rc;

use js_sys::{Array, Promise, Reflect};
use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsValue;

pub use download::RUNTIME_WASM_BYTES;

/// Where a pool's model is served, from the index manifest.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelSource {
    pub model: String,
    /// The directory's URL relative to the page, ending in `/`.
    pub dir: String,
    /// SHA-256 of its `manifest.json`, as the pool's vectors record it.
    pub manifest_sha256: String,
    /// The manifest and the files it lists.
    pub bytes: u64,
}

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
    Failed(String),
}

use runtime::Model;

/// The app's one embedding model. `Copy`: signals and stored handles.
#[derive(Clone, Copy)]
pub struct Semantic {
    pub status: RwSignal<ModelStatus>,
    source: StoredValue<Option<ModelSource>>,
    /// The model started, by the manifest hash it was started for: a pool
    /// with vectors from the same model reuses it.
    model: StoredValue<Option<(String, Rc<Model>)>, LocalStorage>,
    /// The manifest hash of the model being downloaded or started, if any:
    /// a pool switch away and back during a load joins it rather than
    /// starting a second one, and a load reports only while its model is
    /// the current pool's.
    loading: StoredValue<Option<String>>,
    /// The URLs the model and runtime were loaded from.
    pub urls: RwSignal<Vec<String>>,
}

impl Semantic {
    pub fn new() -> Self {
        let semantic = Semantic {
            status: RwSignal::new(ModelStatus::NoVectors),
            source: StoredValue::new(None),
            model: StoredValue::new_local(None),
            loading: StoredValue::new(None),
            urls: RwSignal::new(Vec::new()),
        };
        semantic.expose();
        semantic
    }

    /// `window.__nomosEmbed(text)`: a promise of the query's embedding (an
    /// array of numbers) with the loaded model, rejected with the reason
    /// when there is none. For the end-to-end tests, which compare it
    /// with the CLI's, and for checking the model from the console.
    fn expose(self) {
        let embed = Closure::<dyn Fn(String) -> Promise>::new(move |text: String| {
            wasm_bindgen_futures::future_to_promise(async move {
                let vector = self
                    .embed_query(text)
                    .await
                    .map_err(|e| JsValue::from_str(&e))?;
                let array: Array = vector.iter().map(|&x| JsValue::from(x)).collect();
                Ok(array.into())
            })
        });
        let _ = Reflect::set(&window(), &"__nomosEmbed".into(), embed.as_ref());
        // The page's lifetime.
        embed.forget();
    }

    /// The newly loaded pool's model: `None` when it has no vectors,
    /// `Some(Err(model id))` when the site does not serve its model.
    pub fn set_source(&self, source: Option<Result<ModelSource, String>>) {
        let status = match &source {
            None => ModelStatus::NoVectors,
            Some(Err(model)) => ModelStatus::NotServed {
                model: model.clone(),
            },
            Some(Ok(s)) if self.has_model(&s.manifest_sha256) => ModelStatus::Ready,
            Some(Ok(s)) if self.is_loading(&s.manifest_sha256) => ModelStatus::Starting,
            Some(Ok(s)) => ModelStatus::Idle {
                bytes: s.bytes + RUNTIME_WASM_BYTES,
            },
        };
        self.source.set_value(source.and_then(Result::ok));
        self.status.set(status);
    }

    /// Downloads and starts the model if the pool has one and it is not
    /// loaded or loading yet (a failed load is tried again).
    pub fn ensure_loaded(self) {
        let startable = matches!(
            self.status.get_untracked(),
            ModelStatus::Idle { .. } | ModelStatus::Failed(_)
        );
        let Some(source) = self.source.get_value().filter(|_| startable) else {
            return;
        };
        if self.is_loading(&source.manifest_sha256) {
            return;
        }
        let hash = source.manifest_sha256.clone();
        self.loading.set_value(Some(hash.clone()));
        let current = move || {
            self.source
                .with_value(|s| s.as_ref().is_some_and(|s| s.manifest_sha256 == hash))
        };
        self.status.set(ModelStatus::Downloading {
            received: 0,
            total: source.bytes + RUNTIME_WASM_BYTES,
        });
        spawn_local(async move {
            let progress = |received, total| {
                if current() {
                    self.status
                        .set(ModelStatus::Downloading { received, total });
                }
            };
            let outcome = match download::download(&source, &progress).await {
                Ok(files) => {
                    if current() {
                        self.status.set(ModelStatus::Starting);
                    }
                    self.start(&source, files).await
                }
                Err(e) => Err(e),
            };
            self.loading.set_value(None);
            if current() {
                self.status.set(match outcome {
                    Ok(()) => ModelStatus::Ready,
                    Err(e) => ModelStatus::Failed(e),
                });
            }
        });
    }

    /// The query's embedding with the current pool's model.
    pub async fn embed_query(self, text: String) -> Result<Vec<f32>, String> {
        let model = self
            .current_model()
            .ok_or("the semantic model is not loaded")?;
        model.embed_query(&text).await
    }

    fn current_model(&self) -> Option<Rc<Model>> {
        let hash = self
            .source
            .with_value(|s| s.as_ref().map(|s| s.manifest_sha256.clone()))?;
        self.model.with_value(|m| {
            m.as_ref()
                .filter(|(h, _)| *h == hash)
                .map(|(_, m)| m.clone())
        })
    }

    fn is_loading(&self, hash: &str) -> bool {
        self.loading.with_value(|l| l.as_deref() == Some(hash))
    }

    fn has_model(&self, hash: &str) -> bool {
        self.model
            .with_value(|m| m.as_ref().is_some_and(|(h, _)| h == hash))
    }

    async fn start(
        self,
        source: &ModelSource,
        mut files: download::ModelFiles,
    ) -> Result<(), String> {
        let urls = std::mem::take(&mut files.urls);
        let model = Model::start(files).await?;
        self.urls.set(urls);
        self.model
            .set_value(Some((source.manifest_sha256.clone(), Rc::new(model))));
        Ok(())
    }
}

pub fn use_semantic() -> Semantic {
    expect_context::<Semantic>()
}
