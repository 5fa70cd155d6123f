//! The in-page LLM: llama.cpp compiled to WebAssembly (@wllama/wllama
//! 3.13.0 from npm, self-hosted under `wllama/3.13.0/`) answering OpenAI
//! chat-completion requests inside the page, with no server. The app's
//! LLM methods use it like an endpoint: [`InPageModel`] implements
//! [`nomos_core::llm::Chat`].
//!
//! - [`load`]: a model the site serves (scripts/build-demo.sh
//!   `--in-page-llm` puts SmolLM2-135M-Instruct in
//!   `models/smollm2-135m-instruct/` and Qwen2.5-Coder-0.5B-Instruct in
//!   `models/qwen2.5-coder-0.5b-instruct/`), downloaded with progress and
//!   checked against its `gguf-manifest.json` ([`served_manifest`]); [`load_file`]: a GGUF the
//!   user picked. Either fetches wllama's module and wasm on first use
//!   (never on a first visit), checked against the SHA-256s in
//!   `runtime_files`.
//! - [`InPageModel::complete`]: an OpenAI body in, an OpenAI reply body
//!   out (`openai` maps them); `chat` is the same for a
//!   [`ChatRequest`].
//! - [`expose`]: `window.__nomosInPageLlm`, for the end-to-end test and
//!   the console.
//!
//! Everything here compiles natively (the `runtime` bindings are
//! wasm-bindgen declarations), so the app's unit tests need no stand-in;
//! only the browser can run it.
//!
//! The service worker keeps what a load fetched through it (the model
//! under `models/`, the runtime under `wllama/`); a caller that loaded
//! before the worker controlled the page hands [`InPageModel::urls`] to it
//! as the semantic model's are.

mod error;
mod manifest;
mod openai;
mod runtime;
mod runtime_files;

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use js_sys::{Array, Object, Promise, Reflect, Uint8Array};
use leptos::prelude::window;
use nomos_core::digest::sha256_hex;
use nomos_core::llm::{Chat, ChatReply, ChatRequest, LlmError, ResponseFormat, TokenLimitField};
use serde_json::Value;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::{future_to_promise, JsFuture};

pub use error::WllamaError;
pub use manifest::GgufManifest;

use crate::size_caps::MODEL_MANIFEST;
use crate::web::{
    ask_service_worker, fetch_blob, fetch_bytes, js_message, now, pinned, FetchError, Limit,
};
use runtime::Wllama;

/// The model manifest's name in a served model's directory.
pub const MANIFEST: &str = "gguf-manifest.json";

/// Context window, prompt and reply together: the methods' longest
/// prompts (a ReAct step with its observations) fit with room to spare,
/// and its KV cache stays under 100 MB for SmolLM2-135M.
pub const N_CTX: u32 = 4096;

/// A model loaded in the page, answering one request at a time (wllama
/// queues them). Dropping it ends its worker.
pub struct InPageModel {
    wllama: Wllama,
    name: String,
    licence: Option<String>,
    urls: Vec<String>,
}

/// Loads the model served at `base_url` (a directory URL ending in `/`,
/// relative to the page or absolute): its [`MANIFEST`], then the GGUF it
/// lists, checked byte for byte, then wllama. `progress(received, total)`
/// counts the model's and (on a page's first load) the runtime's bytes.
pub async fn load(
    base_url: &str,
    progress: impl Fn(u64, u64) + 'static,
) -> Result<InPageModel, WllamaError> {
    let (manifest, manifest_url) = served_manifest(base_url).await?;
    let gguf = manifest.gguf();
    let runtime_bytes = if runtime::pending() {
        runtime_files::BYTES
    } else {
        0
    };
    let total = gguf.bytes + runtime_bytes;
    // Content-addressed: a cache can never answer with another version.
    let url = format!("{base_url}{}?sha256={}", gguf.name, gguf.sha256);
    let fetched = fetch_blob(
        &url,
        "application/octet-stream",
        Limit::Listed(gguf.bytes),
        |r, _| progress(r, total),
    )
    .await?;
    if fetched.bytes != gguf.bytes || fetched.sha256 != gguf.sha256 {
        return Err(WllamaError::Damaged {
            url,
            bytes: fetched.bytes,
            listed_bytes: gguf.bytes,
            listed_sha256: gguf.sha256.clone(),
        });
    }
    let from = gguf.bytes;
    let wllama = runtime::start(
        &fetched.blob,
        N_CTX,
        Rc::new(move |r| progress(from + r.min(runtime_bytes), total)),
    )
    .await?;
    let mut urls = vec![manifest_url, url];
    urls.extend(runtime::urls());
    Ok(InPageModel {
        wllama,
        name: manifest.model,
        licence: Some(manifest.licence),
        urls,
    })
}

/// The [`MANIFEST`] of the model served at `base_url`, and its URL pinned
/// to the bytes read: what the settings show of a model (its size) before
/// anyone asks for its weights.
pub async fn served_manifest(base_url: &str) -> Result<(GgufManifest, String), WllamaError> {
    let url = format!("{base_url}{MANIFEST}");
    let bytes = fetch_bytes(&url, Limit::Cap(MODEL_MANIFEST), |_, _| ()).await?;
    // Its URL names no hash (a rebuilt site's model must be seen): the
    // service worker is told the one of the bytes read here.
    let pinned_url = pinned(&url, "sha256", &sha256_hex(&bytes));
    let manifest =
        GgufManifest::from_json(&bytes).map_err(|error| WllamaError::BadManifest { url, error })?;
    Ok((manifest, pinned_url))
}

/// Loads a GGUF the user picked (read by wllama straight from the file;
/// a model over 2 GB must be split first, which this does not take).
/// `progress` counts the runtime's bytes on a page's first load.
pub async fn load_file(
    file: &web_sys::File,
    progress: impl Fn(u64, u64) + 'static,
) -> Result<InPageModel, WllamaError> {
    let name = file.name();
    let head = file
        .slice_with_i32_and_i32(0, 4)
        .map_err(|e| read_error(&name, &e))?;
    let head = JsFuture::from(head.array_buffer())
        .await
        .map_err(|e| read_error(&name, &e))?;
    if Uint8Array::new(&head).to_vec() != b"GGUF" {
        return Err(WllamaError::NotGguf { name });
    }
    let total = runtime_files::BYTES;
    let wllama = runtime::start(file, N_CTX, Rc::new(move |r| progress(r, total))).await?;
    Ok(InPageModel {
        wllama,
        name,
        licence: None,
        urls: runtime::urls(),
    })
}

fn read_error(name: &str, e: &JsValue) -> WllamaError {
    WllamaError::Fetch(FetchError::File {
        name: name.to_owned(),
        message: js_message(e),
    })
}

impl InPageModel {
    /// The model's name (as its manifest publishes it, or the file's
    /// name), which replies carry as `model`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The served model's licence (a picked file has none on record).
    pub fn licence(&self) -> Option<&str> {
        self.licence.as_deref()
    }

    /// The URLs this model and the runtime were loaded from.
    pub fn urls(&self) -> &[String] {
        &self.urls
    }

    /// Answers the OpenAI chat-completion `body` (as
    /// [`ChatRequest::body`] writes it): the reply body, OpenAI's shape
    /// with usage and llama.cpp's `timings`, and the time it took in ms.
    pub async fn complete(&self, body: &Value) -> Result<(Vec<u8>, f64), WllamaError> {
        let options = openai::options(body)?.to_string();
        let started = now();
        let answer = runtime::complete(&self.wllama, &options).await.map_err(
            |(kind, message)| match kind.as_str() {
                "kv_cache_full" => WllamaError::ContextFull { n_ctx: N_CTX },
                _ => WllamaError::Inference(message),
            },
        )?;
        let millis = now() - started;
        let answer: Value = serde_json::from_str(&answer)
            .map_err(|e| WllamaError::Inference(format!("wllama's answer is not JSON: {e}")))?;
        Ok((openai::reply(answer, &self.name)?, millis))
    }
}

impl Chat for InPageModel {
    async fn chat(&self, request: &ChatRequest) -> Result<ChatReply, LlmError> {
        // llama.cpp enforces a schema with a grammar, so always ask for it.
        let body = request.body(TokenLimitField::MaxTokens, ResponseFormat::JsonSchema);
        let (reply, millis) = self
            .complete(&body)
            .await
            .map_err(|e| LlmError::Transport(e.to_string()))?;
        ChatReply::from_body(&reply, millis).map_err(|e| LlmError::Transport(e.to_string()))
    }
}

impl Drop for InPageModel {
    fn drop(&mut self) {
        runtime::stop(&self.wllama);
    }
}

thread_local! {
    /// The model `__nomosInPageLlm.load` loaded last.
    static EXPOSED: RefCell<Option<Rc<InPageModel>>> = const { RefCell::new(None) };
}

/// `window.__nomosInPageLlm`, for the end-to-end test and the console
/// (the app's LLM settings load their own model, `llm::InPage`); it
/// fetches nothing until called:
///
/// - `load(source)`: `source` is a model directory URL (`"models/
///   smollm2-135m-instruct/"`) or a `File`; a promise of `{ model,
///   licence, millis, reports, received, total }` (the progress reports'
///   count and last values);
/// - `chat(request)`: a [`ChatRequest`] as JSON in, a promise of the
///   [`ChatReply`] as JSON, through [`Chat`] as the app's methods call it;
/// - `complete(body)`: an OpenAI chat body in, a promise of the reply body
///   ([`InPageModel::complete`]; llama.cpp's `timings` included).
pub fn expose() {
    let load = Closure::<dyn Fn(JsValue) -> Promise>::new(|source: JsValue| {
        future_to_promise(async move {
            let started = now();
            let seen = Rc::new(Cell::new((0u32, 0u64, 0u64)));
            let report = {
                let seen = seen.clone();
                move |received, total| seen.set((seen.get().0 + 1, received, total))
            };
            EXPOSED.with_borrow_mut(|m| *m = None);
            let model = match source.as_string() {
                Some(url) => load(&url, report).await,
                None => match source.dyn_into::<web_sys::File>() {
                    Ok(file) => load_file(&file, report).await,
                    Err(_) => return Err("load takes a directory URL or a File".into()),
                },
            }
            .map_err(|e| JsValue::from_str(&e.to_string()))?;
            // Checked: the service worker may keep its files (as the
            // settings' load does, through `Offline`).
            let urls = model.urls().to_vec();
            leptos::task::spawn_local(async move {
                if let Err(e) = ask_service_worker("keepAssets", &urls).await {
                    leptos::logging::warn!("in-page LLM not kept offline: {e}");
                }
            });
            let (reports, received, total) = seen.get();
            let out = Object::new();
            for (key, value) in [
                ("model", JsValue::from_str(model.name())),
                (
                    "licence",
                    model.licence().map_or(JsValue::NULL, JsValue::from_str),
                ),
                ("millis", (now() - started).into()),
                ("reports", reports.into()),
                ("received", (received as f64).into()),
                ("total", (total as f64).into()),
                (
                    "urls",
                    model
                        .urls()
                        .iter()
                        .map(|u| JsValue::from_str(u))
                        .collect::<Array>()
                        .into(),
                ),
            ] {
                let _ = Reflect::set(&out, &key.into(), &value);
            }
            EXPOSED.with_borrow_mut(|m| *m = Some(Rc::new(model)));
            Ok(out.into())
        })
    });
    let chat = Closure::<dyn Fn(JsValue) -> Promise>::new(|request: JsValue| {
        future_to_promise(async move {
            let model = EXPOSED
                .with_borrow(Clone::clone)
                .ok_or("no in-page model is loaded: call load first")?;
            let text: String = js_sys::JSON::stringify(&request)?.into();
            let request: ChatRequest = serde_json::from_str(&text)
                .map_err(|e| JsValue::from_str(&format!("not a chat request: {e}")))?;
            let reply = model
                .chat(&request)
                .await
                .map_err(|e| JsValue::from_str(&e.to_string()))?;
            let text = serde_json::to_string(&reply).expect("a reply serialises");
            js_sys::JSON::parse(&text)
        })
    });
    let complete = Closure::<dyn Fn(JsValue) -> Promise>::new(|body: JsValue| {
        future_to_promise(async move {
            let model = EXPOSED
                .with_borrow(Clone::clone)
                .ok_or("no in-page model is loaded: call load first")?;
            let text: String = js_sys::JSON::stringify(&body)?.into();
            let body: Value = serde_json::from_str(&text)
                .map_err(|e| JsValue::from_str(&format!("not JSON: {e}")))?;
            let (reply, _) = model
                .complete(&body)
                .await
                .map_err(|e| JsValue::from_str(&e.to_string()))?;
            js_sys::JSON::parse(&String::from_utf8_lossy(&reply))
        })
    });
    let hook = Object::new();
    let _ = Reflect::set(&hook, &"load".into(), load.as_ref().unchecked_ref());
    let _ = Reflect::set(&hook, &"chat".into(), chat.as_ref().unchecked_ref());
    let _ = Reflect::set(&hook, &"complete".into(), complete.as_ref().unchecked_ref());
    let _ = Reflect::set(&window(), &"__nomosInPageLlm".into(), &hook);
    // The page's lifetime.
    load.forget();
    chat.forget();
    complete.forget();
}
