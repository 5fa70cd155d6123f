//! The forward pass in the browser, off the page's thread: ONNX Runtime's
//! wasm build (onnxruntime-web 1.30.0, self-hosted) runs in the model's
//! dedicated worker ([`EmbedWorker`]); the page tokenises and pools with
//! the CLI's own code (`nomos_core::embed`), so only token ids go out and
//! the hidden states come back. onnxruntime-web sends no telemetry.

use futures::lock::Mutex;
use js_sys::{Array, BigInt64Array, Float32Array, Object, Reflect, Uint8Array};
use nomos_core::embed::TextEncoder;
use wasm_bindgen::{JsCast, JsValue};

use super::download::ModelFiles;
use super::worker::{field, EmbedWorker};
use crate::web::{js_message, object_url};

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
    pub async fn start(files: ModelFiles) -> Result<Model, String> {
        let manifest = files.manifest;
        let encoder = TextEncoder::new(&files.tokenizer, manifest.encoder_config())
            .map_err(|e| format!("the model's tokenizer.json cannot be read: {e}"))?;
        let worker = EmbedWorker::spawn()?;
        // The scripts run from blob: URLs over the checked bytes (the
        // module also in each of ONNX Runtime's threads, so its URL lives
        // as long as the page).
        let script =
            object_url(&files.runtime_script, "text/javascript").map_err(|e| e.to_string())?;
        let module =
            object_url(&files.runtime_wrapper, "text/javascript").map_err(|e| e.to_string())?;
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
        let started = started.map_err(|e| format!("the model did not start: {e}"))?;
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
            .map_err(|e| format!("the model does not fit its manifest: {e}"))?;
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
    pub async fn embed_query(&self, text: &str) -> Result<Vec<f32>, String> {
        let batch = self
            .encoder
            .query(text)
            .map_err(|e| format!("the query cannot be tokenised: {e}"))?;
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
        .map_err(|e| format!("embedding the query failed: {e}"))?;
        let got: Vec<f64> = Array::from(&field(&reply, "dims"))
            .iter()
            .filter_map(|d| d.as_f64())
            .collect();
        let expected = [shape[0], shape[1], self.dim].map(|d| d as f64);
        if got != expected {
            return Err(format!(
                "the model's {} has shape {got:?}, not {expected:?}",
                self.output
            ));
        }
        let hidden = field(&reply, "data")
            .dyn_into::<Float32Array>()
            .map_err(|_| format!("the model gave no {}", self.output))?
            .to_vec();
        batch
            .pool(&hidden, self.dim)
            .map_err(|e| format!("pooling the query failed: {e}"))
    }
}

/// A plain object with `entries`.
fn object(entries: &[(&str, JsValue)]) -> Result<Object, String> {
    let object = Object::new();
    for (key, value) in entries {
        Reflect::set(&object, &(*key).into(), value).map_err(|e| js_message(&e))?;
    }
    Ok(object)
}
