//! multilingual-e5-small as `nomos model prepare` writes it
//! (`manifest.json`, `model.onnx`, `tokenizer.json`), run with ONNX
//! Runtime. Tokenising and pooling are `nomos_core::embed`'s, shared with
//! the browser, so only the forward pass happens here.

use std::fmt::Display;
use std::path::Path;

use anyhow::{anyhow, Context, Result};
use nomos_core::digest::sha256_hex;
use nomos_core::embed::{Batch, ModelManifest, Role, TextEncoder, Windows};
use ort::ep::CUDA;
use ort::session::Session;
use ort::value::TensorRef;

use super::runtime::{self, Provider, Runtime};
use super::{batches, Embedder};
use crate::error::bad_input;

const MANIFEST: &str = "manifest.json";
const MODEL: &str = "model.onnx";
const TOKENIZER: &str = "tokenizer.json";

pub struct OnnxEmbedder {
    session: Session,
    encoder: TextEncoder,
    model_id: String,
    manifest_hash: String,
    dim: usize,
    /// The graph's input names (`input_ids`, `attention_mask`) and output.
    inputs: [String; 2],
    output: String,
}

impl OnnxEmbedder {
    /// Loads the model directory, refusing files whose size or SHA-256
    /// differs from the manifest's: the manifest hash is what blobs record,
    /// so it must vouch for the bytes actually run. Each file is read once
    /// and the checked bytes are the ones used.
    pub fn open(dir: &Path, runtime: Runtime<'_>) -> Result<OnnxEmbedder> {
        let manifest_path = dir.join(MANIFEST);
        let manifest_bytes = std::fs::read(&manifest_path).map_err(|e| {
            bad_input(format!(
                "{}: cannot read ({e}); make the model with `nomos model prepare --out {}`",
                manifest_path.display(),
                dir.display()
            ))
        })?;
        let manifest = ModelManifest::from_json(&manifest_bytes)
            .map_err(|e| bad_input(format!("{}: {e}", manifest_path.display())))?;
        let model = verified_file(dir, &manifest, MODEL)?;
        let tokenizer = verified_file(dir, &manifest, TOKENIZER)?;
        let encoder = TextEncoder::new(&tokenizer, manifest.encoder_config())
            .map_err(|e| bad_input(format!("{}: {e}", dir.join(TOKENIZER).display())))?;

        let lib = runtime::locate(runtime.lib, dir)?;
        let env = runtime::environment(&lib)?;
        // Every core for one text at a time, without spin-waiting between
        // operators: on a busy machine (CI, a build beside other jobs)
        // spinning threads steal the cores the work needs; measured on 2
        // loaded cores, a 64-token query's median went from 142 ms to 92 ms
        // and its worst case from 1.3 s to 0.14 s.
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let model_error =
            |e: &dyn Display| bad_input(format!("{}: {e}", dir.join(MODEL).display()));
        let builder = Session::builder(&env)
            .and_then(|b| Ok(b.with_intra_threads(threads)?))
            .and_then(|b| Ok(b.with_intra_op_spinning(false)?))
            .map_err(|e| model_error(&e))?;
        let mut builder = match runtime.provider {
            Provider::Cpu => builder,
            Provider::Cuda => builder
                .with_execution_providers([CUDA::default().build().error_on_failure()])
                .map_err(|e| {
                    bad_input(format!(
                        "{}: no CUDA execution provider ({e}); a GPU needs the \
                         onnxruntime-gpu wheel's library (--ort-lib), CUDA 13 and cuDNN 9",
                        lib.display()
                    ))
                })?,
        };
        let session = builder
            .commit_from_memory(&model)
            .map_err(|e| model_error(&e))?;

        let inputs = manifest
            .onnx
            .check(
                session.inputs().iter().map(|i| i.name()),
                session.outputs().iter().map(|o| o.name()),
            )
            .map_err(|e| model_error(&e))?;
        Ok(OnnxEmbedder {
            inputs,
            output: manifest.onnx.output.clone(),
            session,
            encoder,
            model_id: manifest.model.clone(),
            manifest_hash: sha256_hex(&manifest_bytes),
            dim: manifest.dimension,
        })
    }

    /// `batch`'s vectors, one list per text.
    fn run(&mut self, batch: Batch) -> Result<Vec<Vec<f32>>> {
        let shape = batch.shape();
        let ids = TensorRef::from_array_view((shape, batch.input_ids()))?;
        let mask = TensorRef::from_array_view((shape, batch.attention_mask()))?;
        let [ids_name, mask_name] = &self.inputs;
        let outputs = self.session.run(ort::inputs![
            ids_name.as_str() => ids,
            mask_name.as_str() => mask,
        ])?;
        let hidden = outputs
            .get(&self.output)
            .ok_or_else(|| anyhow!("the model gave no {}", self.output))?;
        let (dims, values) = hidden.try_extract_tensor::<f32>()?;
        let expected = [shape[0], shape[1], self.dim].map(|d| d as i64);
        if **dims != expected {
            return Err(anyhow!(
                "the model's {} has shape {dims:?}, not {expected:?}",
                self.output
            ));
        }
        Ok(batch.vectors(values, self.dim)?)
    }
}

impl Embedder for OnnxEmbedder {
    fn model_id(&self) -> &str {
        &self.model_id
    }

    /// SHA-256 (lower-case hex) of `manifest.json`'s bytes, which list
    /// every file's digest: the browser computes the same over the file it
    /// downloads.
    fn manifest_hash(&self) -> &str {
        &self.manifest_hash
    }

    fn dim(&self) -> usize {
        self.dim
    }

    /// A query is one window: a long one is truncated ([`TextEncoder::query`]).
    fn embed_query(&mut self, text: &str) -> Result<Vec<f32>> {
        Ok(self.run(self.encoder.query(text)?)?.concat())
    }

    fn embed_passages(
        &mut self,
        texts: &[&str],
        windows: Windows,
        max_rows: usize,
    ) -> Result<Vec<Vec<f32>>> {
        let width = self.encoder.config().max_tokens - 2;
        let sizes = texts
            .iter()
            .map(|t| {
                let tokens = self.encoder.content_ids(Role::Passage, t)?.len();
                let rows = match windows {
                    Windows::First => 1,
                    _ => tokens.div_ceil(width).max(1),
                };
                Ok((tokens, rows))
            })
            .collect::<Result<Vec<_>>>()?;
        let mut out = vec![Vec::new(); texts.len()];
        for run in batches::plan(&sizes, max_rows) {
            let group: Vec<&str> = run.iter().map(|&i| texts[i]).collect();
            let batch = self.encoder.batch_windows(Role::Passage, &group, windows)?;
            for (i, v) in run.into_iter().zip(self.run(batch)?) {
                out[i] = v;
            }
        }
        Ok(out)
    }

    fn window_starts(&self, text: &str) -> Vec<usize> {
        // The encoder embeds the trimmed text; offsets are into `text`.
        let lead = text.len() - text.trim_start().len();
        let starts = self.encoder.window_starts(Role::Passage, text.trim());
        starts.into_iter().map(|s| s + lead).collect()
    }
}

/// The bytes of `name` in `dir`, if the manifest lists it with their size
/// and SHA-256.
fn verified_file(dir: &Path, manifest: &ModelManifest, name: &str) -> Result<Vec<u8>> {
    let path = dir.join(name);
    let listed = manifest
        .file(name)
        .ok_or_else(|| bad_input(format!("{}: lists no {name}", dir.join(MANIFEST).display())))?;
    let bytes = std::fs::read(&path)
        .with_context(|| format!("reading {}", path.display()))
        .map_err(|e| bad_input(format!("{e:#}")))?;
    let digest = sha256_hex(&bytes);
    if bytes.len() as u64 != listed.bytes || digest != listed.sha256 {
        return Err(bad_input(format!(
            "{}: {} bytes with SHA-256 {digest}, but the manifest lists {} bytes with {}; \
             rebuild the model with `nomos model prepare`",
            path.display(),
            bytes.len(),
            listed.bytes,
            listed.sha256
        )));
    }
    Ok(bytes)
}
