//! Why semantic search cannot run, typed until a view or message turns it
//! into words.

use std::fmt;

use super::runtime::RuntimeError;
use crate::manifest::Unserved;
use crate::web::{damaged_message, FetchError};

/// What went wrong with the current pool's model.
#[derive(Debug, Clone, PartialEq)]
pub enum ModelError {
    /// The pool has no document vectors.
    NoVectors,
    /// The pool has vectors, but this site does not serve their model.
    NotServed(Unserved),
    /// A file could not be downloaded.
    Fetch(FetchError),
    /// The model manifest is not the one the pool's vectors record.
    WrongManifest { url: String },
    /// The model manifest does not parse.
    BadManifest { url: String, message: String },
    /// The model manifest lacks a file the runtime needs.
    Unlisted { name: String },
    /// A file differs from what the model manifest lists.
    Damaged {
        url: String,
        bytes: usize,
        listed_bytes: u64,
        listed_sha256: String,
    },
    /// ONNX Runtime's wasm or its wrapper is not the pinned build.
    WrongRuntime { url: String },
    /// A query came before the model was loaded.
    NotLoaded,
    /// The runtime or the model did not start, or a query did not embed.
    Runtime(RuntimeError),
}

impl fmt::Display for ModelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ModelError::NoVectors => f.write_str("this pool has no document vectors"),
            ModelError::NotServed(e) => e.fmt(f),
            ModelError::Fetch(e) => e.fmt(f),
            ModelError::WrongManifest { url } => write!(
                f,
                "{url} is not the model this pool's vectors were made with \
                 (its SHA-256 differs); the site needs rebuilding"
            ),
            ModelError::BadManifest { url, message } => {
                write!(f, "{url} is not a model manifest: {message}")
            }
            ModelError::Unlisted { name } => write!(f, "the model manifest lists no {name}"),
            ModelError::Damaged {
                url,
                bytes,
                listed_bytes,
                listed_sha256,
            } => f.write_str(&damaged_message(
                url,
                *bytes as u64,
                *listed_bytes,
                listed_sha256,
            )),
            ModelError::WrongRuntime { url } => write!(
                f,
                "{url} is not onnxruntime-web 1.30.0's file (its SHA-384 differs)"
            ),
            ModelError::NotLoaded => f.write_str("the semantic model is not loaded"),
            ModelError::Runtime(e) => e.fmt(f),
        }
    }
}

impl ModelError {
    /// The file that failed a check, if one did: a cache must not keep
    /// it.
    pub fn failed_file(&self) -> Option<&str> {
        match self {
            ModelError::WrongManifest { url }
            | ModelError::BadManifest { url, .. }
            | ModelError::Damaged { url, .. }
            | ModelError::WrongRuntime { url } => Some(url),
            _ => None,
        }
    }
}

impl std::error::Error for ModelError {}

impl From<FetchError> for ModelError {
    fn from(e: FetchError) -> Self {
        ModelError::Fetch(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_read_as_the_messages_users_saw() {
        let unserved = ModelError::NotServed(Unserved { model: "e5".into() });
        assert_eq!(
            unserved.to_string(),
            "this site does not serve the model of the pool's vectors (e5)"
        );
        assert_eq!(
            ModelError::NotLoaded.to_string(),
            "the semantic model is not loaded"
        );
    }
}
