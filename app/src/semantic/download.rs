//! Fetching the model's files and checking every byte before use: the
//! model manifest against the SHA-256 the pool's vectors record, each file
//! against the manifest's size and SHA-256, and ONNX Runtime's wasm against
//! the SHA-384 ort-web pins for it. A file that fails a check is a
//! sentence for the status line; nothing unchecked reaches the runtime.

use nomos_core::digest::sha256_hex;
use nomos_core::embed::ModelManifest;

use super::ModelError;
use crate::manifest::ModelSource;
use crate::web::{fetch_bytes, sha384_base64};

/// Where the site serves onnxruntime-web's files (see app/index.html).
pub const RUNTIME_DIR: &str = "ort/1.30.0/";
/// onnxruntime-web 1.30.0's CPU build: the entry script (which ort-web
/// loads, see `runtime`) and the wasm binary, which we fetch ourselves
/// (with progress) and hand to it. The hash is ort-web 0.5.0's own for
/// this file (its `_loader.js`) and equals the npm package's.
pub const RUNTIME_SCRIPT: &str = "ort.wasm.min.js";
const RUNTIME_WASM: &str = "ort-wasm-simd-threaded.wasm";
/// The Emscripten module the entry script imports.
const RUNTIME_WRAPPER: &str = "ort-wasm-simd-threaded.mjs";
const RUNTIME_WASM_SHA384: &str =
    "vjBJ1z7qrhkTyYsNqKeF6c7N+nOJSU94czEo+tvZcu8G75JparGq9kB+kTnEUNVM";
pub const RUNTIME_WASM_BYTES: u64 = 14_239_897;

const MANIFEST: &str = "manifest.json";
const TOKENIZER: &str = "tokenizer.json";
const MODEL: &str = "model.onnx";

/// Everything the runtime needs, checked. (The app's native build, which
/// has no runtime, reads none of it.)
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub struct ModelFiles {
    pub manifest: ModelManifest,
    pub tokenizer: Vec<u8>,
    pub model: Vec<u8>,
    pub runtime_wasm: Vec<u8>,
    /// Every URL semantic search loads (the runtime's scripts included),
    /// for the service worker to keep.
    pub urls: Vec<String>,
}

/// Downloads and checks the model in `source` and the runtime's wasm,
/// reporting `(bytes received, bytes in all)` as data arrives.
pub async fn download(
    source: &ModelSource,
    progress: &dyn Fn(u64, u64),
) -> Result<ModelFiles, ModelError> {
    let total = source.bytes + RUNTIME_WASM_BYTES;
    let mut done = 0u64;
    let mut urls = Vec::new();

    // Content-addressed URLs: a cache (HTTP or the service worker's) can
    // never answer with another version's bytes.
    let url = format!("{}{MANIFEST}?sha256={}", source.dir, source.manifest_sha256);
    let bytes = fetch_bytes(&url, None, |r, _| progress(done + r, total)).await?;
    if sha256_hex(&bytes) != source.manifest_sha256 {
        return Err(ModelError::WrongManifest { url });
    }
    let manifest = ModelManifest::from_json(&bytes).map_err(|e| ModelError::BadManifest {
        url: url.clone(),
        message: e.to_string(),
    })?;
    done += bytes.len() as u64;
    urls.push(url);

    let mut files = Vec::new();
    for name in [TOKENIZER, MODEL] {
        let listed = manifest.file(name).ok_or_else(|| ModelError::Unlisted {
            name: name.to_owned(),
        })?;
        let url = format!("{}{name}?sha256={}", source.dir, listed.sha256);
        let bytes = fetch_bytes(&url, Some(listed.bytes), |r, _| progress(done + r, total)).await?;
        if bytes.len() as u64 != listed.bytes || sha256_hex(&bytes) != listed.sha256 {
            return Err(ModelError::Damaged {
                url,
                bytes: bytes.len(),
                listed_bytes: listed.bytes,
                listed_sha256: listed.sha256.clone(),
            });
        }
        done += bytes.len() as u64;
        files.push(bytes);
        urls.push(url);
    }

    let url = format!("{RUNTIME_DIR}{RUNTIME_WASM}");
    let runtime_wasm = fetch_bytes(&url, Some(RUNTIME_WASM_BYTES), |r, _| {
        progress(done + r, total)
    })
    .await?;
    if sha384_base64(&runtime_wasm) != RUNTIME_WASM_SHA384 {
        return Err(ModelError::WrongRuntime { url });
    }
    progress(total, total);
    urls.push(url);
    urls.push(format!("{RUNTIME_DIR}{RUNTIME_SCRIPT}"));
    urls.push(format!("{RUNTIME_DIR}{RUNTIME_WRAPPER}"));
    let model = files.pop().unwrap_or_default();
    let tokenizer = files.pop().unwrap_or_default();
    Ok(ModelFiles {
        manifest,
        tokenizer,
        model,
        runtime_wasm,
        urls,
    })
}
