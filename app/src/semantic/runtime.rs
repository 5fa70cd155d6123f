//! The forward pass in the browser, off the page's thread: ONNX Runtime's
//! wasm build (onnxruntime-web 1.30.0, self-hosted) runs in the model's
//! dedicated worker ([`EmbedWorker`]); the page tokenises and pools with
//! the CLI's own code (`nomos_core::embed`), so only token ids go out and
//! the hidden states come back. onnxruntime-web sends no telemetry.

use std::fmt;

use futures::lock::Mutex;
use js_sys::{Array, BigInt64Array, Float32Array, Object, Reflect, Uint8Array};
use nomos_core::embed::TextEncoder;
use wasm_bindgen::{JsCast, JsValue};

use super::download::ModelFiles;
use super::worker::{field, EmbedWorker, WorkerError};
use crate::web::{js_message, object_url, DomError};

/// Why the model's runtime did not start or a query did not embed.
#[derive(Debug, Clone, PartialEq)]
pub enum RuntimeError {
    /// The model's `tokenizer.json` does not parse.
    Tokenizer(String),
    /// The worker's or ONNX Runtime's script could not be made runnable.
    Script(DomError),
    /// The model's worker failed or did not answer.
    Worker(WorkerError),
    /// A request to the worker could not be built, with the JS message.
    Js(String),
    /// ONNX Runtime or the session on the model did not start.
    Start(WorkerError),
    /// The model's inputs or outputs are not those its manifest names.
    Unfit(String),
    /// The query cannot be tokenised.
    Tokenise(String),
    /// The forward pass on the query failed.
    Embed(WorkerError),
    /// The model's `output` came back with the wrong shape.
    Shape {
        output: String,
        got: Vec<f64>,
        expected: [f64; 3],
    },
    /// The model's reply lacks its `output`.
    NoOutput { output: String },
    /// Pooling the hidden states failed.
    Pool(String),
}

impl fmt::Display for RuntimeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuntimeError::Tokenizer(message) => {
                write!(f, "the model's tokenizer.json cannot be read: {message}")
            }
            RuntimeError::Script(e) => e.fmt(f),
            RuntimeError::Worker(e) => e.fmt(f),
            RuntimeError::Js(message) => f.write_str(message),
            RuntimeError::Start(e) => write!(f, "the model did not start: {e}"),
            RuntimeError::Unfit(message) => {
                write!(f, "the model does not fit its manifest: {message}")
            }
            RuntimeError::Tokenise(message) => {
                write!(f, "the query cannot be tokenised: {message}")
            }
            RuntimeError::Embed(e) => write!(f, "embedding the query failed: {e}"),
            RuntimeError::Shape {
                output,
                got,
                expected,
            } => write!(
                f,
                "the model's {output} has shape {got:?}, not {expected:?}"
            ),
            RuntimeError::NoOutput { output } => write!(f, "the model gave no {output}"),
            RuntimeError::Pool(message) => write!(f, "pooling the query failed: {message}"),
        }
    }
}

impl std::error::Error for RuntimeError {}

impl From<WorkerError> for RuntimeError {
    fn from(e: WorkerError) -> Self {
        RuntimeError::Worker(e)
    }
}

impl From<DomError> for RuntimeError {
    fn from(e: DomError) -> Self {
        RuntimeError::Script(e)
    }
}

/// A model ready to embed queries.
pub struct Model {
    /// One run at a time: runs are awaited across turns of the event loop.
    worker: Mutex<EmbedWorker>,
    encoder: TextEncoder,
    dim: usize,
    inputs: [String; 2],
    output: String,
}

impl Model {
    /// Starts the model's worker with `files` (all checked): ONNX Runtime
    /// from `files.runtime_script`, `runtime_wrapper` and `runtime_wasm`,
    /// then a session on the model.
    pub async fn start(files: ModelFiles) -> Result<Model, RuntimeError> {
        let manifest = files.manifest;
        let encoder = TextEncoder::new(&files.tokenizer, manifest.encoder_config())
            .map_err(|e| RuntimeError::Tokenizer(e.to_string()))?;
        let worker = EmbedWorker::spawn()?;
        // The scripts run from blob: URLs over the checked bytes (the
        // module also in each of ONNX Runtime's threads, so its URL lives
        // as long as the page).
        let script = object_url(&files.runtime_script, "text/javascript")?;
        let module = object_url(&files.runtime_wrapper, "text/javascript")?;
        let wasm = Uint8Array::from(files.runtime_wasm.as_slice()).buffer();
        let model = Uint8Array::from(files.model.as_slice()).buffer();
        let request = object(&[
            ("type", "start".into()),
            ("script", script.as_str().into()),
            ("module", module.into()),
            ("wasm", wasm.clone().into()),
            ("model", model.clone().into()),
            ("threads", super::query_threads().into()),
        ])?;
        let started = worker.ask(&request, &Array::of2(&wasm, &model)).await;
        let _ = web_sys::Url::revoke_object_url(&script);
        let started = started.map_err(RuntimeError::Start)?;
        let names = |key: &str| -> Vec<String> {
            Array::from(&field(&started, key))
                .iter()
                .filter_map(|n| n.as_string())
                .collect()
        };
        let (inputs, outputs) = (names("inputs"), names("outputs"));
        let inputs = manifest
            .onnx
            .check(
                inputs.iter().map(String::as_str),
                outputs.iter().map(String::as_str),
            )
            .map_err(|e| RuntimeError::Unfit(e.to_string()))?;
        Ok(Model {
            inputs,
            output: manifest.onnx.output.clone(),
            worker: Mutex::new(worker),
            encoder,
            dim: manifest.dimension,
        })
    }

    /// The query's L2-normalised embedding, as the CLI computes it: one
    /// window, a long query truncated ([`TextEncoder::query`]).
    pub async fn embed_query(&self, text: &str) -> Result<Vec<f32>, RuntimeError> {
        let batch = self
            .encoder
            .query(text)
            .map_err(|e| RuntimeError::Tokenise(e.to_string()))?;
        let shape = batch.shape();
        let [ids_name, mask_name] = &self.inputs;
        let ids = BigInt64Array::new_from_slice(batch.input_ids());
        let mask = BigInt64Array::new_from_slice(batch.attention_mask());
        let feeds = Array::of2(
            &Array::of2(&ids_name.as_str().into(), &ids),
            &Array::of2(&mask_name.as_str().into(), &mask),
        );
        let dims = Array::of2(&shape[0].into(), &shape[1].into());
        let request = object(&[
            ("type", "run".into()),
            ("feeds", feeds.into()),
            ("dims", dims.into()),
            ("output", self.output.as_str().into()),
        ])?;
        let transfer = Array::of2(&ids.buffer(), &mask.buffer());
        let reply = {
            let worker = self.worker.lock().await;
            worker.ask(&request, &transfer).await
        }
        .map_err(RuntimeError::Embed)?;
        let got: Vec<f64> = Array::from(&field(&reply, "dims"))
            .iter()
            .filter_map(|d| d.as_f64())
            .collect();
        let expected = [shape[0], shape[1], self.dim].map(|d| d as f64);
        if got != expected {
            return Err(RuntimeError::Shape {
                output: self.output.clone(),
                got,
                expected,
            });
        }
        let hidden = field(&reply, "data")
            .dyn_into::<Float32Array>()
            .map_err(|_| RuntimeError::NoOutput {
                output: self.output.clone(),
            })?
            .to_vec();
        batch
            .pool(&hidden, self.dim)
            .map_err(|e| RuntimeError::Pool(e.to_string()))
    }
}

/// A plain object with `entries`.
fn object(entries: &[(&str, JsValue)]) -> Result<Object, RuntimeError> {
    let object = Object::new();
    for (key, value) in entries {
        Reflect::set(&object, &(*key).into(), value)
            .map_err(|e| RuntimeError::Js(js_message(&e)))?;
    }
    Ok(object)
}
