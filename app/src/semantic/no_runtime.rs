//! The app's native build (its unit tests) has no ONNX Runtime: `runtime`
//! is browser-only, and these say so if ever reached.

use super::download::ModelFiles;

const NATIVE: &str = "ONNX Runtime runs only in the browser build";

pub struct Model;

impl Model {
    pub async fn start(_: ModelFiles) -> Result<Model, String> {
        Err(NATIVE.into())
    }

    pub async fn embed_query(&self, _: &str) -> Result<Vec<f32>, String> {
        Err(NATIVE.into())
    }
}
