//! Where one run's replies come from, and the run itself: every run is
//! recorded (core's [`Recorder`]), so that what it did can be downloaded
//! and replayed, and has a Cancel that reaches the request in flight.
//!
//! Two backends today: an endpoint over `fetch`, and a transcript being
//! replayed. An in-page model (llama.cpp compiled to wasm) would be a
//! third variant of [`Backend`], implementing [`Chat`] the same way;
//! nothing above this module would change.

use std::sync::Arc;

use nomos_core::llm::{Chat, ChatReply, ChatRequest, LlmError, Recorder, Settings, Transcript};

use super::fetch_chat::FetchChat;
use crate::transcript_files::TranscriptLink;
use crate::web::Canceller;

/// Answers a run's requests.
pub enum Backend {
    /// An OpenAI-compatible endpoint.
    Endpoint(FetchChat),
    /// A transcript: only what it recorded, nothing sent anywhere.
    Replay(Arc<Transcript>),
}

impl Chat for Backend {
    async fn chat(&self, request: &ChatRequest) -> Result<ChatReply, LlmError> {
        match self {
            Backend::Endpoint(endpoint) => endpoint.chat(request).await,
            Backend::Replay(transcript) => transcript.chat(request).await,
        }
    }
}

/// What a run is answered by, for what it says about itself.
#[derive(Debug, Clone, PartialEq)]
pub enum RunSource {
    /// The endpoint at `origin`, running `model`.
    Endpoint { origin: String, model: String },
    /// The transcript `link`.
    Replay(TranscriptLink),
}

/// One run (a Search query, an evaluation): its recorded backend, the
/// model settings every request carries, and its Cancel.
pub struct Run {
    pub chat: Recorder<Backend>,
    pub settings: Settings,
    pub source: RunSource,
    pub canceller: Canceller,
}

impl Run {
    /// What the run recorded so far.
    pub fn transcript(&self) -> Transcript {
        self.chat.transcript()
    }
}
