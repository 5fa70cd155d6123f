//! The seam between the dense ranking methods and a model that embeds text
//! natively: `nomos build --embed` embeds every document through it, and
//! `search`/`eval` with a dense `--method` embed each query. Vectors must
//! be L2-normalised, with the model's query or passage prefix applied by
//! the implementation, so that callers never deal with model specifics.
//!
//! - [`runtime`]: finding and loading libonnxruntime (`load-dynamic`).
//! - [`batches`]: which passages run through the model together.
//! - [`cache`]: vectors of texts embedded before, for resumable builds
//!   and for queries embedded by an earlier evaluation.
//! - [`onnx`]: the model directory `nomos model prepare` writes, checked
//!   against its manifest and run with ONNX Runtime.

mod batches;
mod cache;
mod onnx;
pub mod runtime;

pub use cache::{EmbedCache, CHECKED_HITS};
pub use runtime::{Provider, Runtime};

use std::path::Path;

use anyhow::Result;
use nomos_core::embed::Windows;

/// One model, ready to embed.
pub trait Embedder {
    /// The model id recorded in blobs built with it.
    fn model_id(&self) -> &str;
    /// Hash of the model's manifest; a blob's vectors and a query's
    /// embedding must come from the same one.
    fn manifest_hash(&self) -> &str;
    fn dim(&self) -> usize;
    fn embed_query(&mut self, text: &str) -> Result<Vec<f32>>;
    /// Each passage's vectors as `windows` asks: one, or one per window
    /// (`dim` values each, concatenated), in `texts` order. Up to
    /// `max_rows` windows run through the model at once, texts of similar
    /// length together; the vectors are the same for any `max_rows`.
    fn embed_passages(
        &mut self,
        texts: &[&str],
        windows: Windows,
        max_rows: usize,
    ) -> Result<Vec<Vec<f32>>>;
    /// Where each window of the passage `text` begins (byte offsets, the
    /// first 0), one per vector [`Windows::Max`] gives.
    fn window_starts(&self, text: &str) -> Vec<usize>;
}

/// Opens the model in `dir`, as written by `nomos model prepare`, on
/// `runtime` (its library, or the one [`runtime::locate`] finds).
pub fn open(dir: &Path, runtime: Runtime<'_>) -> Result<Box<dyn Embedder>> {
    Ok(Box::new(onnx::OnnxEmbedder::open(dir, runtime)?))
}
