//! Why an LLM run cannot start: what the chosen source lacks.

use std::fmt;

use super::endpoint::EndpointError;
use super::transcripts::TranscriptError;
use crate::transcript_files::{short_hash, TranscriptFileError};
use crate::web::CancelUnsupported;

/// What keeps [`super::Llm::run`] from starting a run.
#[derive(Debug, Clone, PartialEq)]
pub enum RunError {
    /// The browser cannot cancel requests.
    Cancel(CancelUnsupported),
    /// The replayed transcript cannot be had.
    Transcript(TranscriptError),
    /// The replayed transcript `sha256` cannot be replayed as it is.
    Replay {
        sha256: String,
        error: TranscriptFileError,
    },
    /// The in-page model is chosen but not loaded.
    NoInPageModel,
    /// The endpoint's settings are missing or wrong.
    Endpoint(EndpointError),
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::Cancel(e) => e.fmt(f),
            RunError::Transcript(e) => e.fmt(f),
            RunError::Replay { sha256, error } => {
                write!(f, "transcript {}…: {error}", short_hash(sha256))
            }
            RunError::NoInPageModel => {
                f.write_str("the in-page model is not loaded (LLM settings)")
            }
            RunError::Endpoint(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for RunError {}
