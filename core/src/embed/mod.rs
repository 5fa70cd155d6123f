//! Text to model input, and model output to embeddings, for
//! multilingual-e5-small as `nomos model prepare` ships it. The ONNX model
//! itself runs outside core (`ort` natively, onnxruntime-web in the
//! browser); both sides share this code so a text gets the same tokens and
//! the same pooling everywhere.
//!
//! - [`TextEncoder`]: the shipped `tokenizer.json` (XLM-R SentencePiece
//!   Unigram, run by our own `tokenizer` module) plus e5's conventions: a role
//!   prefix (`query: ` / `passage: `), `<s> … </s>`, and long texts split
//!   into windows that fit the model.
//! - [`Batch`]: the `input_ids` / `attention_mask` tensors for a list of
//!   texts, and [`Batch::pool`], which turns the model's
//!   `last_hidden_state` into one L2-normalised vector per text.
//! - [`ModelManifest`]: the `manifest.json` written beside the model.
//! - [`Pooling`]: how a long document's windows become its stored vectors.

mod batch;
mod error;
mod manifest;
mod pooling;
mod tokenize;
mod tokenizer;

pub use batch::Batch;
pub use error::EmbedError;
pub use manifest::{
    ManifestFile, ModelManifest, ModelSource, OnnxInterface, Prefixes, VocabFacts,
    FORMAT_VERSION as MANIFEST_VERSION,
};
pub use pooling::{Pooling, UnknownPooling, Windows};
pub use tokenize::{EncoderConfig, Role, TextEncoder};

#[cfg(test)]
mod tests;
