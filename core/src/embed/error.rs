use std::fmt;

/// Why a tokenizer, manifest or model output was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EmbedError {
    /// `tokenizer.json` could not be loaded or lacks what e5 needs.
    Tokenizer(String),
    /// `manifest.json` is malformed or describes something unsupported.
    Manifest(String),
    /// The model output does not match the batch it was computed for.
    Output(String),
}

impl fmt::Display for EmbedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EmbedError::Tokenizer(m) => write!(f, "tokenizer: {m}"),
            EmbedError::Manifest(m) => write!(f, "model manifest: {m}"),
            EmbedError::Output(m) => write!(f, "model output: {m}"),
        }
    }
}

impl std::error::Error for EmbedError {}
