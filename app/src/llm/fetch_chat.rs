//! Core's [`Chat`] over `fetch`, to any OpenAI-compatible
//! `/chat/completions`: the body is core's ([`ChatRequest::body`]), so a
//! transcript recorded here replays in the CLI and back. Failures follow
//! [`crate::retry`]: one retry after a pause for what may pass, the JSON
//! schema dropped for `json_object` when the endpoint refuses schemas
//! (remembered for the rest of the run), a precise message otherwise.

use std::cell::Cell;

use nomos_core::llm::{Chat, ChatReply, ChatRequest, LlmError};
use web_sys::AbortSignal;

use crate::endpoint::Endpoint;
use crate::retry::{self, Attempt, Failure, Next};
use crate::web::{csp_blocked, next_task, now, post_json, sleep, HttpError};

/// An endpoint, its key, and the Cancel of the run it serves.
pub struct FetchChat {
    endpoint: Endpoint,
    /// Sent as `Authorization: Bearer …` when set.
    key: Option<String>,
    /// Whether requests still ask for a JSON schema.
    schema: Cell<bool>,
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
            schema: Cell::new(true),
            cancel,
            page_origin,
        }
    }
}

impl Chat for FetchChat {
    async fn chat(&self, request: &ChatRequest) -> Result<ChatReply, LlmError> {
        let e = &self.endpoint;
        let mut retried = false;
        loop {
            let body = request.body(e.limit, self.schema.get()).to_string();
            let started = now();
            let outcome = post_json(
                &e.url,
                self.key.as_deref(),
                &body,
                e.timeout_ms,
                &self.cancel,
            )
            .await;
            let millis = now() - started;
            let reply = match &outcome {
                Ok(r) if (200..300).contains(&r.status) => {
                    return ChatReply::from_body(&r.body, millis)
                        .map_err(|err| LlmError::Transport(format!("{}: {err}", e.origin)));
                }
                Ok(r) => Failure::Status {
                    status: r.status,
                    body: &r.body,
                    retry_after: r.retry_after,
                },
                Err(HttpError::Cancelled) => return Err(LlmError::Cancelled),
                Err(HttpError::Timeout) => Failure::Timeout,
                Err(HttpError::Network(message)) => {
                    // The policy's violation event comes in a task of its own.
                    next_task().await;
                    match csp_blocked(&e.origin) {
                        Some(_) => Failure::Blocked {
                            directive: "connect-src",
                        },
                        None => Failure::Network(message),
                    }
                }
            };
            let attempt = Attempt {
                url: &e.url,
                origin: &e.origin,
                page_origin: &self.page_origin,
                timeout_ms: e.timeout_ms,
                retried,
                schema: self.schema.get(),
            };
            match retry::next(reply, attempt) {
                Next::Retry { after_ms } => {
                    retried = true;
                    sleep(after_ms.min(i32::MAX as u32) as i32).await;
                    if self.cancel.aborted() {
                        return Err(LlmError::Cancelled);
                    }
                }
                Next::WithoutSchema => self.schema.set(false),
                Next::Fail(message) => return Err(LlmError::Transport(message)),
            }
        }
    }
}
