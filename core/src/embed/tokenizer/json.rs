//! The parts of a HuggingFace `tokenizer.json` that encoding reads, for the
//! configuration `nomos model prepare` writes (SentencePiece Unigram with
//! Replace / Precompiled normalizers and Metaspace). Anything else, such as
//! another model type, a regex we do not implement or truncation, is
//! refused rather than silently tokenized differently.

use serde::Deserialize;

use super::charsmap::Charsmap;
use super::normalize::Step;
use crate::embed::EmbedError;

/// What [`super::Tokenizer`] is built from.
pub(super) struct Config {
    /// Tokens matched in the raw text before normalisation, with their ids.
    pub added: Vec<(String, u32)>,
    pub steps: Vec<Step>,
    /// Metaspace's stand-in for a space, also prefixed to every text.
    pub metaspace: char,
    pub vocab: Vec<(String, f64)>,
    pub unk_id: usize,
}

#[derive(Deserialize)]
struct TokenizerJson {
    #[serde(default)]
    added_tokens: Vec<AddedToken>,
    normalizer: Option<NormalizerJson>,
    pre_tokenizer: Option<PreTokenizerJson>,
    model: ModelJson,
    truncation: Option<serde_json::Value>,
    padding: Option<serde_json::Value>,
}

#[derive(Deserialize)]
struct AddedToken {
    id: u32,
    content: String,
    single_word: bool,
    lstrip: bool,
    rstrip: bool,
    normalized: bool,
}

#[derive(Deserialize)]
#[serde(tag = "type")]
enum NormalizerJson {
    Sequence { normalizers: Vec<NormalizerJson> },
    Replace { pattern: Pattern, content: String },
    Precompiled { precompiled_charsmap: String },
}

#[derive(Deserialize)]
enum Pattern {
    String(String),
    Regex(String),
}

#[derive(Deserialize)]
#[serde(tag = "type")]
enum PreTokenizerJson {
    Metaspace {
        replacement: char,
        prepend_scheme: Option<String>,
        split: Option<bool>,
        add_prefix_space: Option<bool>,
    },
}

/// A plain struct, not a tagged enum: serde would buffer the whole
/// vocabulary to read the tag first.
#[derive(Deserialize)]
struct ModelJson {
    #[serde(rename = "type")]
    kind: String,
    unk_id: Option<usize>,
    vocab: Vec<(String, f64)>,
    #[serde(default)]
    byte_fallback: bool,
}

fn unsupported(what: impl std::fmt::Display) -> EmbedError {
    EmbedError::Tokenizer(format!("unsupported tokenizer.json: {what}"))
}

pub(super) fn parse(bytes: &[u8]) -> Result<Config, EmbedError> {
    let json: TokenizerJson =
        serde_json::from_slice(bytes).map_err(|e| EmbedError::Tokenizer(e.to_string()))?;
    if json.truncation.is_some() || json.padding.is_some() {
        return Err(unsupported("truncation or padding"));
    }
    let mut added = Vec::with_capacity(json.added_tokens.len());
    for t in json.added_tokens {
        if t.normalized || t.single_word || t.lstrip || t.rstrip || t.content.is_empty() {
            return Err(unsupported(format!(
                "added token {:?} is not a plain special token",
                t.content
            )));
        }
        added.push((t.content, t.id));
    }
    let mut steps = Vec::new();
    if let Some(normalizer) = json.normalizer {
        flatten(normalizer, &mut steps)?;
    }
    let metaspace = match json.pre_tokenizer {
        Some(PreTokenizerJson::Metaspace {
            replacement,
            prepend_scheme,
            split,
            add_prefix_space,
        }) => {
            let always = prepend_scheme.as_deref().is_none_or(|s| s == "always");
            if !always || split == Some(false) || add_prefix_space == Some(false) {
                return Err(unsupported("Metaspace without a prefix on every text"));
            }
            replacement
        }
        None => return Err(unsupported("no pre_tokenizer")),
    };
    let model = json.model;
    if model.kind != "Unigram" || model.byte_fallback {
        return Err(unsupported(format!(
            "model {} (byte_fallback {})",
            model.kind, model.byte_fallback
        )));
    }
    let unk_id = model
        .unk_id
        .ok_or_else(|| unsupported("Unigram without unk_id"))?;
    Ok(Config {
        added,
        steps,
        metaspace,
        vocab: model.vocab,
        unk_id,
    })
}

fn flatten(normalizer: NormalizerJson, steps: &mut Vec<Step>) -> Result<(), EmbedError> {
    match normalizer {
        NormalizerJson::Sequence { normalizers } => {
            for n in normalizers {
                flatten(n, steps)?;
            }
        }
        NormalizerJson::Replace {
            pattern: Pattern::String(from),
            content,
        } if !from.is_empty() => steps.push(Step::Replace { from, to: content }),
        NormalizerJson::Replace {
            pattern: Pattern::Regex(regex),
            content,
        } if regex == " {2,}" => steps.push(Step::SpaceRuns { to: content }),
        NormalizerJson::Replace { .. } => {
            return Err(unsupported(
                "Replace pattern other than a string or ` {2,}`",
            ))
        }
        NormalizerJson::Precompiled {
            precompiled_charsmap,
        } => steps.push(Step::Charsmap(Charsmap::from_base64(
            &precompiled_charsmap,
        )?)),
    }
    Ok(())
}
