//! Where one run's replies come from, and the run itself: every run is
//! recorded (core's [`Recorder`]), so that what it did can be downloaded
//! and replayed, and has a Cancel that reaches the request in flight.
//!
//! Three backends: an endpoint over `fetch`, the model loaded in the page
//! (llama.cpp compiled to wasm), and a transcript being replayed. All
//! implement [`Chat`], so nothing above this module tells them apart.

use std::rc::Rc;
use std::sync::Arc;

use nomos_core::llm::{Chat, ChatReply, ChatRequest, LlmError, Recorder, Settings, Transcript};
use web_sys::AbortSignal;

use super::fetch_chat::FetchChat;
use crate::llm::wllama::InPageModel;
use crate::transcript_files::TranscriptLink;
use crate::web::Canceller;

/// Answers a run's requests.
pub enum Backend {
    /// An OpenAI-compatible endpoint.
    Endpoint(FetchChat),
    /// The model loaded in the page, with the run's Cancel. wllama cannot
    /// stop a reply half-way, so a Cancel ends the run at the next reply.
    InPage(Rc<InPageModel>, AbortSignal),
    /// A transcript: only what it recorded, nothing sent anywhere.
    Replay(Arc<Transcript>),
}

impl Chat for Backend {
    async fn chat(&self, request: &ChatRequest) -> Result<ChatReply, LlmError> {
        match self {
            Backend::Endpoint(endpoint) => endpoint.chat(request).await,
            Backend::InPage(model, cancelled) => {
                if cancelled.aborted() {
                    return Err(LlmError::Cancelled);
                }
                let reply = model.chat(request).await;
                if cancelled.aborted() {
                    return Err(LlmError::Cancelled);
                }
                reply
            }
            Backend::Replay(transcript) => transcript.chat(request).await,
        }
    }
}

/// What a run is answered by, for what it says about itself.
#[derive(Debug, Clone, PartialEq)]
pub enum RunSource {
    /// The endpoint at `origin`, running `model`.
    Endpoint { origin: String, model: String },
    /// The in-page model `model`.
    InPage { model: String },
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
