//! Getting blobs into memory: the manifest of the demo pools, fetching a
//! blob with a progress report, or reading one the user picked from disk.
//! Both paths end in [`Engine::load`], which validates every byte; every
//! failure becomes a sentence for the status line, never a panic.

use js_sys::{Reflect, Uint8Array};
use leptos::prelude::*;
use leptos::task::spawn_local;
use serde::Deserialize;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{ReadableStreamDefaultReader, Response};

use nomos_core::blob::DenseModel;
use nomos_core::search::methods::Method;

use crate::engine::Engine;
use crate::semantic::ModelSource;
use crate::state::{AppState, PoolChoice};

/// Where the blobs and their manifest are served, relative to the page.
const INDEX_DIR: &str = "indexes/";

/// `indexes/manifest.json`, as `nomos manifest` writes it (fields the app
/// does not use are ignored).
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Manifest {
    pub indexes: Vec<ManifestEntry>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct ManifestEntry {
    pub file: String,
    pub title: String,
    pub analyzer: String,
    pub docs: u64,
    pub queries: u64,
    pub bytes: u64,
    /// The document vectors' model, when the blob has them.
    #[serde(default)]
    pub dense: Option<DenseEntry>,
    #[serde(default)]
    pub notes: Vec<String>,
}

/// A blob's vectors: their model, and where the site serves it (`path`
/// relative to the manifest; none when the site lacks it).
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct DenseEntry {
    pub model: String,
    pub manifest_sha256: String,
    pub path: Option<String>,
    pub bytes: Option<u64>,
}

/// Where loading the current pool stands.
#[derive(Debug, Clone, PartialEq)]
pub enum LoadStatus {
    Idle,
    /// Downloading or reading `name`; `total` is the expected size.
    Reading {
        name: String,
        received: u64,
        total: Option<u64>,
    },
    /// Checking and indexing `name` (checksum, archives, postings).
    Validating {
        name: String,
    },
    Ready,
    Failed {
        message: String,
    },
}

/// The manifest, the loaded pool and the load status, shared by the views.
#[derive(Clone, Copy)]
pub struct Pools {
    pub manifest: RwSignal<Option<Result<Manifest, String>>>,
    pub engine: RwSignal<Option<Engine>>,
    pub status: RwSignal<LoadStatus>,
    /// Bumped by every load; a load that finds it changed was superseded
    /// and drops its result.
    generation: StoredValue<u64>,
    state: AppState,
}

impl Pools {
    pub fn new(state: AppState) -> Self {
        Pools {
            manifest: RwSignal::new(None),
            engine: RwSignal::new(None),
            status: RwSignal::new(LoadStatus::Idle),
            generation: StoredValue::new(0),
            state,
        }
    }

    /// Fetches the manifest, then loads the chosen pool (the first listed
    /// when none is chosen yet).
    pub fn start(self) {
        spawn_local(async move {
            let manifest = fetch_manifest().await;
            crate::timings::mark("manifest");
            match &manifest {
                Ok(m) if self.state.pool.get_untracked().is_none() => {
                    if let Some(first) = m.indexes.first() {
                        let choice = PoolChoice::Listed(first.file.clone());
                        self.state.pool.set(Some(choice));
                    }
                }
                Ok(_) => {}
                Err(message) => self.status.set(LoadStatus::Failed {
                    message: message.clone(),
                }),
            }
            self.manifest.set(Some(manifest));
        });
    }

    /// The manifest entry named `file`.
    pub fn entry(&self, file: &str) -> Option<ManifestEntry> {
        self.manifest.with(|m| {
            m.as_ref()?
                .as_ref()
                .ok()?
                .indexes
                .iter()
                .find(|e| e.file == file)
                .cloned()
        })
    }

    /// Where the site serves `model` (any manifest entry with vectors from
    /// it will do, so a blob opened from disk finds it too), or the
    /// model's id when it does not.
    pub fn model_source(&self, model: &DenseModel) -> Result<ModelSource, String> {
        self.manifest
            .with(|m| {
                let m = m.as_ref()?.as_ref().ok()?;
                m.indexes.iter().find_map(|e| {
                    let dense = e.dense.as_ref()?;
                    let dir = relative_dir(dense.path.as_deref()?)?;
                    (dense.manifest_sha256 == model.manifest_hash).then(|| ModelSource {
                        model: dense.model.clone(),
                        dir: format!("{INDEX_DIR}{dir}"),
                        manifest_sha256: dense.manifest_sha256.clone(),
                        bytes: dense.bytes.unwrap_or(0),
                    })
                })
            })
            .ok_or_else(|| model.id.clone())
    }

    /// Downloads and opens a manifest entry.
    pub fn load_listed(self, entry: ManifestEntry) {
        let generation = self.next_generation();
        spawn_local(async move {
            let url = format!("{INDEX_DIR}{}", entry.file);
            let progress = |received, total| {
                if self.is_current(generation) {
                    self.status.set(LoadStatus::Reading {
                        name: entry.title.clone(),
                        received,
                        total,
                    });
                }
            };
            let bytes = fetch_bytes(&url, Some(entry.bytes), progress).await;
            self.finish(generation, &entry.title, bytes).await;
        });
    }

    /// Reads and opens a blob the user picked.
    pub fn load_file(self, file: web_sys::File) {
        let generation = self.next_generation();
        let name = file.name();
        self.state.pool.set(Some(PoolChoice::Local(name.clone())));
        self.status.set(LoadStatus::Reading {
            name: name.clone(),
            received: 0,
            total: Some(file.size() as u64),
        });
        spawn_local(async move {
            let bytes = read_file(&file).await;
            self.finish(generation, &name, bytes).await;
        });
    }

    fn next_generation(&self) -> u64 {
        self.generation.update_value(|g| *g += 1);
        self.generation.get_value()
    }

    fn is_current(&self, generation: u64) -> bool {
        self.generation.get_value() == generation
    }

    /// Validates `bytes` into an engine and installs it, unless a newer
    /// load started meanwhile.
    async fn finish(self, generation: u64, name: &str, bytes: Result<Vec<u8>, String>) {
        if !self.is_current(generation) {
            return;
        }
        let bytes = match bytes {
            Ok(b) => b,
            Err(message) => {
                self.status.set(LoadStatus::Failed { message });
                return;
            }
        };
        self.status.set(LoadStatus::Validating {
            name: name.to_owned(),
        });
        // Let the browser paint the status before the CPU-bound check.
        next_paint().await;
        if !self.is_current(generation) {
            return;
        }
        match Engine::load(&bytes, name) {
            Ok(engine) => {
                crate::timings::mark("pool");
                let hybrid = engine
                    .dense_model()
                    .is_some_and(|m| self.model_source(m).is_ok());
                let method = match hybrid {
                    true => Method::by_name("rrf").unwrap_or(Method::Bm25),
                    false => Method::Bm25,
                };
                self.state
                    .reset_for_new_pool(method, engine.default_params());
                self.engine.set(Some(engine));
                self.status.set(LoadStatus::Ready);
            }
            Err(message) => {
                self.engine.set(None);
                self.status.set(LoadStatus::Failed { message });
            }
        }
    }
}

pub fn use_pools() -> Pools {
    expect_context::<Pools>()
}

async fn fetch_manifest() -> Result<Manifest, String> {
    let url = format!("{INDEX_DIR}manifest.json");
    let bytes = fetch_bytes(&url, None, |_, _| {}).await?;
    serde_json::from_slice(&bytes).map_err(|e| format!("{url} is not a valid index manifest: {e}"))
}

/// GETs `url`, reporting `(bytes received, expected total)` after every
/// chunk. `expected` (from the manifest) beats Content-Length, which is
/// the compressed size when the server compresses.
pub async fn fetch_bytes(
    url: &str,
    expected: Option<u64>,
    progress: impl Fn(u64, Option<u64>),
) -> Result<Vec<u8>, String> {
    let network = |e: JsValue| format!("could not download {url}: {}", js_message(&e));
    let response: Response = JsFuture::from(window().fetch_with_str(url))
        .await
        .and_then(|r| r.dyn_into())
        .map_err(network)?;
    if !response.ok() {
        return Err(format!(
            "could not download {url}: the server answered {} {}",
            response.status(),
            response.status_text()
        ));
    }
    let total = expected.or_else(|| {
        response
            .headers()
            .get("content-length")
            .ok()
            .flatten()
            .and_then(|v| v.parse().ok())
    });
    let Some(body) = response.body() else {
        return Ok(Vec::new());
    };
    let reader: ReadableStreamDefaultReader = body.get_reader().unchecked_into();
    let mut bytes = Vec::with_capacity(total.unwrap_or(0).min(1 << 30) as usize);
    progress(0, total);
    loop {
        let chunk = JsFuture::from(reader.read()).await.map_err(network)?;
        let done = Reflect::get(&chunk, &"done".into()).map_err(network)?;
        if done.as_bool().unwrap_or(true) {
            break;
        }
        let value = Reflect::get(&chunk, &"value".into()).map_err(network)?;
        let data: Uint8Array = value.dyn_into().map_err(network)?;
        let at = bytes.len();
        bytes.resize(at + data.length() as usize, 0);
        data.copy_to(&mut bytes[at..]);
        progress(bytes.len() as u64, total);
    }
    Ok(bytes)
}

async fn read_file(file: &web_sys::File) -> Result<Vec<u8>, String> {
    let buffer = JsFuture::from(file.array_buffer())
        .await
        .map_err(|e| format!("could not read {}: {}", file.name(), js_message(&e)))?;
    Ok(Uint8Array::new(&buffer).to_vec())
}

/// `path` if it is a relative directory path on this site (the manifest
/// is data, and a model is code to run: no scheme, host or absolute path),
/// ending in `/`.
fn relative_dir(path: &str) -> Option<String> {
    let ok =
        !path.is_empty() && !path.starts_with('/') && !path.contains(['\\', ':', '?', '#', '%']);
    ok.then(|| match path.ends_with('/') {
        true => path.to_owned(),
        false => format!("{path}/"),
    })
}

/// Resolves after the browser has had a chance to paint.
async fn next_paint() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let _ = window().set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 30);
    });
    let _ = JsFuture::from(promise).await;
}

/// A JS error's message (`TypeError: Failed to fetch` → `Failed to fetch`).
pub fn js_message(e: &JsValue) -> String {
    Reflect::get(e, &"message".into())
        .ok()
        .and_then(|m| m.as_string())
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "unknown error".into())
}
