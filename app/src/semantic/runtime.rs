//! The forward pass in the browser: ONNX Runtime's wasm build
//! (onnxruntime-web 1.30.0, self-hosted) through ort-web, so the model
//! runs under the same `ort` API as the CLI's native embedder, with the
//! same tokenising and pooling (`nomos_core::embed`). Telemetry is off.

use std::cell::Cell;

use futures::lock::Mutex;
use js_sys::{Reflect, Uint8Array};
use nomos_core::embed::TextEncoder;
use ort::environment::Environment;
use ort::session::{RunOptions, Session};
use ort::value::Tensor;
use wasm_bindgen::JsValue;

use super::download::{ModelFiles, RUNTIME_DIR, RUNTIME_SCRIPT, RUNTIME_SCRIPT_SHA384};
use crate::web::js_message;

thread_local! {
    /// ort's API table is set once per page.
    static API_SET: Cell<bool> = const { Cell::new(false) };
}

/// A model ready to embed queries.
pub struct Model {
    /// One run at a time: the session is `&mut` while it runs, and runs
    /// are awaited across turns of the event loop.
    session: Mutex<Session>,
    /// Kept for the session's lifetime.
    _env: Environment,
    encoder: TextEncoder,
    dim: usize,
    inputs: [String; 2],
    output: String,
}

impl Model {
    /// Starts ONNX Runtime (once per page) with `files.runtime_wasm` and
    /// `files.runtime_wrapper`, then a session on the model.
    pub async fn start(files: ModelFiles) -> Result<Model, String> {
        let manifest = files.manifest;
        let encoder = TextEncoder::new(&files.tokenizer, manifest.encoder_config())
            .map_err(|e| format!("the model's tokenizer.json cannot be read: {e}"))?;
        if !API_SET.get() {
            let mut dist = ort_web::Dist::new(base_url()?).with_script_name(RUNTIME_SCRIPT);
            dist.integrities().set_main(RUNTIME_SCRIPT_SHA384);
            let api = ort_web::api(dist)
                .await
                .map_err(|e| format!("ONNX Runtime did not load: {e}"))?;
            ort::set_api(api);
            // Once: ONNX Runtime's wasm starts with the first session.
            configure_wasm(&files.runtime_wasm, &files.runtime_wrapper)?;
            API_SET.set(true);
        }
        let fail = |e: ort::Error| format!("the model did not start: {e}");
        let env = ort::init().with_telemetry(false).build().map_err(fail)?;
        // From a blob: URL over a copy in JS memory, not from a view into
        // ours (`commit_from_memory`): the session is created
        // asynchronously, and a view is detached if our memory grows
        // meanwhile, as it does while the app works.
        let url = object_url(&files.model, "application/octet-stream")?;
        let session = Session::builder(&env)
            .map_err(fail)?
            .commit_from_url(&url)
            .await
            .map_err(fail);
        let _ = web_sys::Url::revoke_object_url(&url);
        let session = session?;
        let inputs = manifest
            .onnx
            .check(
                session.inputs().iter().map(|i| i.name()),
                session.outputs().iter().map(|o| o.name()),
            )
            .map_err(|e| format!("the model does not fit its manifest: {e}"))?;
        Ok(Model {
            inputs,
            output: manifest.onnx.output.clone(),
            session: Mutex::new(session),
            _env: env,
            encoder,
            dim: manifest.dimension,
        })
    }

    /// The query's L2-normalised embedding, as the CLI computes it: one
    /// window, a long query truncated ([`TextEncoder::query`]).
    pub async fn embed_query(&self, text: &str) -> Result<Vec<f32>, String> {
        let fail = |e: ort::Error| format!("embedding the query failed: {e}");
        let batch = self
            .encoder
            .query(text)
            .map_err(|e| format!("the query cannot be tokenised: {e}"))?;
        let shape = batch.shape();
        let ids = Tensor::from_array((shape, batch.input_ids().to_vec())).map_err(fail)?;
        let mask = Tensor::from_array((shape, batch.attention_mask().to_vec())).map_err(fail)?;
        let [ids_name, mask_name] = &self.inputs;
        let options = RunOptions::new().map_err(fail)?;
        let mut session = self.session.lock().await;
        let mut outputs = session
            .run_async(
                ort::inputs![ids_name.as_str() => ids, mask_name.as_str() => mask],
                &options,
            )
            .await
            .map_err(fail)?;
        ort_web::sync_outputs(&mut outputs)
            .await
            .map_err(|e| format!("embedding the query failed: {e}"))?;
        let hidden = outputs
            .get(&self.output)
            .ok_or_else(|| format!("the model gave no {}", self.output))?;
        let (dims, values) = hidden.try_extract_tensor::<f32>().map_err(fail)?;
        let expected = [shape[0], shape[1], self.dim].map(|d| d as i64);
        if **dims != expected {
            return Err(format!(
                "the model's {} has shape {dims:?}, not {expected:?}",
                self.output
            ));
        }
        batch
            .pool(values, self.dim)
            .map_err(|e| format!("pooling the query failed: {e}"))
    }
}

/// A `blob:` URL for a copy of `bytes` (already checked), of type `mime`.
fn object_url(bytes: &[u8], mime: &str) -> Result<String, String> {
    let parts = js_sys::Array::of1(&Uint8Array::from(bytes));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let blob = web_sys::Blob::new_with_u8_array_sequence_and_options(&parts, &options)
        .map_err(|e| js_message(&e))?;
    web_sys::Url::create_object_url_with_blob(&blob).map_err(|e| js_message(&e))
}

/// The runtime's directory as an absolute URL (ort-web resolves file
/// names against it).
fn base_url() -> Result<String, String> {
    let page = leptos::prelude::window()
        .location()
        .href()
        .map_err(|e| js_message(&e))?;
    web_sys::Url::new_with_base(RUNTIME_DIR, &page)
        .map(|u| u.href())
        .map_err(|e| js_message(&e))
}

/// Hands onnxruntime-web the wasm and the Emscripten module we downloaded
/// and checked, so that it fetches neither (the module from a `blob:` URL
/// over our bytes, which each thread's worker runs too, so the URL lives
/// as long as the page), and sets its threads ([`super::query_threads`]).
fn configure_wasm(binary: &[u8], wrapper: &[u8]) -> Result<(), String> {
    let set = |target: &JsValue, key: &str, value: &JsValue| {
        Reflect::set(target, &key.into(), value)
            .map(drop)
            .map_err(|e| js_message(&e))
    };
    let ort =
        Reflect::get(&leptos::prelude::window(), &"ort".into()).map_err(|e| js_message(&e))?;
    let env = Reflect::get(&ort, &"env".into()).map_err(|e| js_message(&e))?;
    let wasm = Reflect::get(&env, &"wasm".into()).map_err(|e| js_message(&e))?;
    if wasm.is_undefined() {
        return Err("onnxruntime-web loaded without its wasm settings".into());
    }
    set(
        &wasm,
        "wasmBinary",
        &Uint8Array::from(binary).buffer().into(),
    )?;
    let paths = js_sys::Object::new();
    set(
        &paths,
        "mjs",
        &object_url(wrapper, "text/javascript")?.into(),
    )?;
    set(&wasm, "wasmPaths", &paths.into())?;
    set(&wasm, "numThreads", &super::query_threads().into())?;
    set(&wasm, "proxy", &false.into())
}
