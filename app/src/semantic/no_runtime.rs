//! The app's native build (its unit tests) has no ONNX Runtime: `runtime`
//! is browser-only, and these say so if ever reached.

use super::download::ModelFiles;

/// The native build has no ONNX Runtime.
#[derive(Debug, Clone, PartialEq)]
pub struct RuntimeError;

impl std::fmt::Display for RuntimeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ONNX Runtime runs only in the browser build")
    }
}

impl std::error::Error for RuntimeError {}

pub struct Model;

impl Model {
    pub async fn start(_: ModelFiles) -> Result<Model, RuntimeError> {
        Err(RuntimeError)
    }

    pub async fn embed_query(&self, _: &str) -> Result<Vec<f32>, RuntimeError> {
        Err(RuntimeError)
    }
}
