//! What the methods need from an LLM: one chat completion at a time. The
//! CLI implements it over blocking HTTP, the browser over `fetch` or an
//! in-page model, transcripts over a recorded file; tests script it.

use std::fmt;

use super::chat::{ChatReply, ChatRequest};

/// Answers chat requests.
///
/// Futures are not `Send`: the browser's are not, and the CLI runs each
/// query's loop on its own thread.
#[allow(async_fn_in_trait)]
pub trait Chat {
    /// One completion; transport errors, timeouts and retries are the
    /// implementation's business.
    async fn chat(&self, request: &ChatRequest) -> Result<ChatReply, LlmError>;
}

impl<T: Chat + ?Sized> Chat for &T {
    async fn chat(&self, request: &ChatRequest) -> Result<ChatReply, LlmError> {
        (**self).chat(request).await
    }
}

/// Why a chat completion could not be had. Any of these ends a run: a
/// reply that arrives but says nothing usable is not an error here but a
/// recorded failure of that step (see [`super::react`]).
#[derive(Debug, Clone, PartialEq)]
pub enum LlmError {
    /// The endpoint could not be reached or answered with an HTTP error,
    /// after the transport's retries.
    Transport(String),
    /// Replaying a transcript that lacks this request.
    NotInTranscript {
        /// The request's key.
        key: String,
    },
    /// The run was cancelled.
    Cancelled,
}

impl fmt::Display for LlmError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LlmError::Transport(e) => f.write_str(e),
            LlmError::NotInTranscript { key } => write!(
                f,
                "the transcript has no reply to request {key}: it was recorded with other \
                 queries, prompts, parameters or model settings"
            ),
            LlmError::Cancelled => f.write_str("cancelled"),
        }
    }
}

impl std::error::Error for LlmError {}
