//! Why the in-page LLM cannot load or answer, typed until a view turns it
//! into words.

use std::fmt;

use super::manifest::GgufManifestError;
use crate::web::{damaged_message, FetchError};

/// What went wrong with the in-page LLM.
#[derive(Debug, Clone, PartialEq)]
pub enum WllamaError {
    /// A file could not be downloaded or read.
    Fetch(FetchError),
    /// The model's `gguf-manifest.json` does not parse or lists no GGUF.
    BadManifest {
        url: String,
        error: GgufManifestError,
    },
    /// The model differs from what its manifest lists.
    Damaged {
        url: String,
        bytes: u64,
        listed_bytes: u64,
        listed_sha256: String,
    },
    /// A wllama file is not @wllama/wllama 3.13.0's.
    WrongRuntime { url: String },
    /// A file the user picked is not a GGUF model.
    NotGguf { name: String },
    /// This browser cannot run llama.cpp's wasm build.
    Unsupported { missing: String },
    /// The chat request asks for something the in-page model cannot do.
    Request(String),
    /// wllama did not start or did not load the model.
    Load(String),
    /// The request does not fit the model's context window.
    ContextFull { n_ctx: u32 },
    /// A completion failed.
    Inference(String),
}

impl fmt::Display for WllamaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WllamaError::Fetch(e) => e.fmt(f),
            WllamaError::BadManifest { url, error } => {
                write!(f, "{url} is not an in-page model manifest: {error}")
            }
            WllamaError::Damaged {
                url,
                bytes,
                listed_bytes,
                listed_sha256,
            } => f.write_str(&damaged_message(url, *bytes, *listed_bytes, listed_sha256)),
            WllamaError::WrongRuntime { url } => write!(
                f,
                "{url} is not @wllama/wllama 3.13.0's file (its size or SHA-256 differs); \
                 the site needs rebuilding"
            ),
            WllamaError::NotGguf { name } => {
                write!(
                    f,
                    "{name} is not a GGUF model (it does not start with GGUF)"
                )
            }
            WllamaError::Unsupported { missing } => write!(
                f,
                "this browser cannot run the in-page LLM: it lacks WebAssembly {missing} \
                 (Chrome and Edge have it since version 137)"
            ),
            WllamaError::Request(message) => {
                write!(f, "the in-page LLM cannot answer this request: {message}")
            }
            WllamaError::Load(message) => write!(f, "the in-page LLM did not load: {message}"),
            WllamaError::ContextFull { n_ctx } => write!(
                f,
                "the request and its reply do not fit the in-page LLM's context of \
                 {n_ctx} tokens"
            ),
            WllamaError::Inference(message) => write!(f, "the in-page LLM failed: {message}"),
        }
    }
}

impl std::error::Error for WllamaError {}

impl From<FetchError> for WllamaError {
    fn from(e: FetchError) -> Self {
        WllamaError::Fetch(e)
    }
}
