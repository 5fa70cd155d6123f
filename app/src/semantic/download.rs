//! Fetching the model's files and checking every byte before use: the
//! model manifest against the SHA-256 the pool's vectors record, each file
//! against the manifest's size and SHA-256, and ONNX Runtime's script,
//! module and wasm against the SHA-384s pinned here. A file that fails a
//! check is a sentence for the status line; nothing unchecked reaches the
//! runtime.

use nomos_core::digest::sha256_hex;
use nomos_core::embed::ModelManifest;

use super::ModelError;
use crate::manifest::ModelSource;
use crate::size_caps::MODEL_MANIFEST;
use crate::web::{fetch_bytes, pinned, sha384_base64, Limit};

/// Where the site serves onnxruntime-web's files (see app/index.html).
pub const RUNTIME_DIR: &str = "ort/1.30.0/";
/// onnxruntime-web 1.30.0's CPU build: the entry script (it defines `ort`
/// in the model's worker), and the wasm binary and the Emscripten module
/// that runs it (in the worker and in each of its threads). The hashes
/// are the npm package's files' (a test checks).
const RUNTIME_SCRIPT: RuntimeFile = RuntimeFile {
    name: "ort.wasm.min.js",
    bytes: 50_196,
    sha384: "Bw6URI+Gvoadw0do7/QrSHUC9D1vCYYK5OSqChFyhyV5mzPL4oe2rOAFljAnS8Sq",
};
const RUNTIME_WASM: RuntimeFile = RuntimeFile {
    name: "ort-wasm-simd-threaded.wasm",
    bytes: 14_239_897,
    sha384: "vjBJ1z7qrhkTyYsNqKeF6c7N+nOJSU94czEo+tvZcu8G75JparGq9kB+kTnEUNVM",
};
const RUNTIME_WRAPPER: RuntimeFile = RuntimeFile {
    name: "ort-wasm-simd-threaded.mjs",
    bytes: 24_381,
    sha384: "XcXA/MtAf0WpB8e023xQH9CM7RIjiugakT7x99DIwpFf7k56BIFFcAPerIF7FDad",
};
/// What the runtime adds to a model's download.
pub const RUNTIME_BYTES: u64 = RUNTIME_SCRIPT.bytes + RUNTIME_WASM.bytes + RUNTIME_WRAPPER.bytes;

/// A file of the runtime as the app accepts it.
struct RuntimeFile {
    name: &'static str,
    bytes: u64,
    /// Base64, as Subresource Integrity writes it.
    sha384: &'static str,
}

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
    /// `ort.wasm.min.js`, run from a `blob:` URL over these bytes.
    pub runtime_script: Vec<u8>,
    pub runtime_wasm: Vec<u8>,
    /// The Emscripten module, run from a `blob:` URL over these bytes.
    pub runtime_wrapper: Vec<u8>,
    /// Every URL semantic search loads (the runtime's scripts included),
    /// for the service worker to keep.
    pub urls: Vec<String>,
}

/// Downloads and checks the model in `source` and the runtime's files,
/// reporting `(bytes received, bytes in all)` as data arrives.
pub async fn download(
    source: &ModelSource,
    progress: &dyn Fn(u64, u64),
) -> Result<ModelFiles, ModelError> {
    let total = source.bytes + RUNTIME_BYTES;
    let mut done = 0u64;
    let mut urls = Vec::new();

    // Content-addressed URLs: a cache (HTTP or the service worker's) can
    // never answer with another version's bytes.
    let url = format!("{}{MANIFEST}?sha256={}", source.dir, source.manifest_sha256);
    let bytes = fetch_bytes(&url, Limit::Cap(MODEL_MANIFEST), |r, _| {
        progress(done + r, total)
    })
    .await?;
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
        let bytes = fetch_bytes(&url, Limit::Listed(listed.bytes), |r, _| {
            progress(done + r, total)
        })
        .await?;
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

    let mut runtime = Vec::new();
    for file in [RUNTIME_SCRIPT, RUNTIME_WASM, RUNTIME_WRAPPER] {
        let url = format!("{RUNTIME_DIR}{}", file.name);
        let bytes = fetch_bytes(&url, Limit::Listed(file.bytes), |r, _| {
            progress(done + r, total)
        })
        .await?;
        if sha384_base64(&bytes) != file.sha384 {
            return Err(ModelError::WrongRuntime { url });
        }
        done += bytes.len() as u64;
        runtime.push(bytes);
        urls.push(pinned(&url, "sha384", file.sha384));
    }
    progress(total, total);
    let runtime_wrapper = runtime.pop().unwrap_or_default();
    let runtime_wasm = runtime.pop().unwrap_or_default();
    let runtime_script = runtime.pop().unwrap_or_default();
    let model = files.pop().unwrap_or_default();
    let tokenizer = files.pop().unwrap_or_default();
    Ok(ModelFiles {
        manifest,
        tokenizer,
        model,
        runtime_script,
        runtime_wasm,
        runtime_wrapper,
        urls,
    })
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    /// The pins are the installed package's files (`npm ci` by
    /// scripts/setup.sh), which the page copies to [`RUNTIME_DIR`].
    #[test]
    fn pins_match_the_installed_package() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let dist = root.join("node_modules/onnxruntime-web/dist");
        let html = std::fs::read_to_string(root.join("app/index.html")).unwrap();
        for file in [RUNTIME_SCRIPT, RUNTIME_WASM, RUNTIME_WRAPPER] {
            let path = dist.join(file.name);
            let bytes = std::fs::read(&path).unwrap_or_else(|e| {
                panic!(
                    "{}: {e}; run scripts/setup.sh (npm ci) first",
                    path.display()
                )
            });
            assert_eq!(bytes.len() as u64, file.bytes, "{}", file.name);
            assert_eq!(sha384_base64(&bytes), file.sha384, "{}", file.name);
            let copy = format!(
                "href=\"../node_modules/onnxruntime-web/dist/{}\" data-target-path=\"{}\"",
                file.name,
                RUNTIME_DIR.trim_end_matches('/')
            );
            assert!(
                html.contains(&copy),
                "app/index.html does not copy {}",
                file.name
            );
        }
    }
}
