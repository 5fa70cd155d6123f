//! Core's [`Chat`] over `fetch`, to any OpenAI-compatible
//! `/chat/completions`: the body is core's ([`ChatRequest::body`]), so a
//! transcript recorded here replays in the CLI and back. Failures follow
//! core's policy ([`nomos_core::llm::retry`]): retries after a pause for
//! what may pass, a less strict response format when the endpoint refuses
//! one (remembered for the rest of the run), and a message that says what
//! to change ([`super::failure`]) otherwise.

use std::cell::Cell;

use nomos_core::llm::retry::{Next, Policy, Retry};
use nomos_core::llm::{Chat, ChatReply, ChatRequest, LlmError, ResponseFormat};
use web_sys::AbortSignal;

use super::failure::{message, Failed, Sent};
use crate::llm::endpoint::Endpoint;
use crate::size_caps::ENDPOINT_REPLY;
use crate::web::{csp_blocked, next_task, now, post_json, sleep, unix_ms, HttpError};

/// An endpoint, its key, and the Cancel of the run it serves.
pub struct FetchChat {
    endpoint: Endpoint,
    /// Sent as `Authorization: Bearer …` when set.
    key: Option<String>,
    /// What replies are asked to be: the strictest format the endpoint
    /// has not refused.
    format: Cell<ResponseFormat>,
    cancel: AbortSignal,
    page_origin: String,
}

impl FetchChat {
    pub fn new(
        endpoint: Endpoint,
        key: Option<String>,
        cancel: AbortSignal,
        page_origin: String,
    ) -> FetchChat {
        FetchChat {
            endpoint,
            key: key.filter(|k| !k.trim().is_empty()),
            format: Cell::new(ResponseFormat::JsonSchema),
            cancel,
            page_origin,
        }
    }
}

impl Chat for FetchChat {
    async fn chat(&self, request: &ChatRequest) -> Result<ChatReply, LlmError> {
        let e = &self.endpoint;
        let mut retry = Retry::new(Policy::default());
        // The exchange's wall time, its retries and their waits included
        // (as the CLI's transport measures it).
        let started = now();
        loop {
            let format = self.format.get();
            let body = request.body(e.limit, format).to_string();
            let outcome = post_json(
                &e.url,
                self.key.as_deref(),
                &body,
                e.timeout_ms,
                &self.cancel,
                ENDPOINT_REPLY,
            )
            .await;
            let millis = now() - started;
            let failed = match &outcome {
                Ok(r) if (200..300).contains(&r.status) => {
                    let reply = ChatReply::from_body(&r.body, millis)
                        .map_err(|err| LlmError::Transport(format!("{}: {err}", e.origin)))?;
                    // Recorded in the transcript, so a replay shows the
                    // same cost table.
                    return Ok(ChatReply {
                        retried: retry.retried(),
                        ..reply
                    });
                }
                Ok(r) => Failed::Status {
                    status: r.status,
                    body: &r.body,
                    retry_after: r.retry_after.as_deref(),
                },
                Err(HttpError::Cancelled) => return Err(LlmError::Cancelled),
                // An endpoint that answers too much would do so again.
                Err(HttpError::TooLarge(why)) => return Err(LlmError::Transport(why.clone())),
                Err(HttpError::Timeout) => Failed::Timeout,
                Err(HttpError::Network(message)) => {
                    // The policy's violation event comes in a task of its own.
                    next_task().await;
                    match csp_blocked(&e.origin) {
                        Some(_) => Failed::Blocked {
                            directive: "connect-src",
                        },
                        None => Failed::Network(message),
                    }
                }
            };
            match retry.next(failed.failure(), format, unix_ms()) {
                Next::Wait { ms } => {
                    sleep(ms.min(i32::MAX as u64) as i32).await;
                    if self.cancel.aborted() {
                        return Err(LlmError::Cancelled);
                    }
                }
                Next::Fallback(next) => self.format.set(next),
                Next::GiveUp(why) => {
                    let sent = Sent {
                        url: &e.url,
                        origin: &e.origin,
                        page_origin: &self.page_origin,
                        timeout_ms: e.timeout_ms,
                    };
                    return Err(LlmError::Transport(message(failed, why, sent)));
                }
            }
        }
    }
}
