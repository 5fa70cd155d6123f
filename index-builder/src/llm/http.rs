//! [`Chat`] over any OpenAI-compatible `/v1/chat/completions` endpoint
//! (llama.cpp's server, vLLM, Ollama, LM Studio, OpenAI), with blocking
//! HTTP: each query's loop runs on its own worker thread, so a call simply
//! waits for its reply.
//!
//! What the endpoints disagree on is handled here, not in the methods:
//! some refuse a JSON schema (`response_format: json_schema`), so a 400
//! that names the response format or the schema makes the run ask for a
//! plain JSON object instead, and if that is refused too, for nothing; the
//! choice is kept for the rest of the run. Connection failures, timeouts,
//! 429 and 5xx answers are retried with exponential backoff; anything else
//! ends the run with the endpoint's own words.

use std::io;
use std::sync::atomic::{AtomicU32, AtomicU8, Ordering};
use std::time::{Duration, Instant};

use nomos_core::llm::{Chat, ChatReply, ChatRequest, LlmError, ReplyError, TokenLimitField};
use serde_json::Value;
use ureq::Agent;

/// The path every OpenAI-compatible server answers chat completions on.
const COMPLETIONS: &str = "/chat/completions";

/// The longest wait a `Retry-After` header may ask for.
const MAX_RETRY_AFTER: Duration = Duration::from_secs(60);

/// How much of an unreadable body an error message quotes.
const QUOTED: usize = 300;

/// How to reach the endpoint and how patient to be.
#[derive(Clone)]
pub struct HttpConfig {
    /// The base URL (`http://127.0.0.1:8089/v1`) or the full
    /// `…/chat/completions` URL.
    pub url: String,
    /// Sent as `Authorization: Bearer`; never printed.
    pub api_key: Option<String>,
    /// How the reply length limit is named.
    pub limit: TokenLimitField,
    /// One attempt's limit, connection to last byte.
    pub timeout: Duration,
    /// Attempts after the first, for errors worth retrying.
    pub retries: u32,
    /// The first wait before a retry; each later one doubles it.
    pub backoff: Duration,
}

/// What the request asks the reply to be, from most to least strict; an
/// endpoint that refuses one is asked the next (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum ResponseFormat {
    /// `response_format: {type: json_schema, …}`.
    JsonSchema = 0,
    /// `response_format: {type: json_object}`.
    JsonObject = 1,
    /// No `response_format`: the prompt alone asks for JSON.
    Unconstrained = 2,
}

impl ResponseFormat {
    fn from_u8(v: u8) -> ResponseFormat {
        match v {
            0 => ResponseFormat::JsonSchema,
            1 => ResponseFormat::JsonObject,
            _ => ResponseFormat::Unconstrained,
        }
    }

    fn next(self) -> Option<ResponseFormat> {
        match self {
            ResponseFormat::JsonSchema => Some(ResponseFormat::JsonObject),
            ResponseFormat::JsonObject => Some(ResponseFormat::Unconstrained),
            ResponseFormat::Unconstrained => None,
        }
    }

    /// The name reports use.
    pub fn name(self) -> &'static str {
        match self {
            ResponseFormat::JsonSchema => "json_schema",
            ResponseFormat::JsonObject => "json_object",
            ResponseFormat::Unconstrained => "none",
        }
    }
}

/// An OpenAI-compatible endpoint. Shared by every worker thread.
pub struct HttpChat {
    url: String,
    agent: Agent,
    config: HttpConfig,
    format: AtomicU8,
    transport_retries: AtomicU32,
}

/// One attempt's result, before deciding whether to retry.
enum Attempt {
    /// A 2xx answer's body.
    Answered(Vec<u8>),
    /// A non-2xx answer: status, body text, `Retry-After`.
    Status(u16, String, Option<Duration>),
    /// No answer: why, and whether trying again may help.
    Failed(String, bool),
}

impl HttpChat {
    /// Checks the URL; nothing is sent until the first request.
    pub fn new(config: HttpConfig) -> Result<HttpChat, String> {
        let url = completions_url(&config.url)?;
        let agent: Agent = Agent::config_builder()
            .timeout_global(Some(config.timeout))
            // Error statuses carry the endpoint's explanation in the body.
            .http_status_as_error(false)
            .build()
            .into();
        Ok(HttpChat {
            url,
            agent,
            config,
            format: AtomicU8::new(ResponseFormat::JsonSchema as u8),
            transport_retries: AtomicU32::new(0),
        })
    }

    /// The URL requests are posted to.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// What replies are asked to be now (after any fallback).
    pub fn response_format(&self) -> ResponseFormat {
        ResponseFormat::from_u8(self.format.load(Ordering::Relaxed))
    }

    /// Attempts repeated after a connection failure, a timeout, 429 or
    /// 5xx, over the whole run.
    pub fn transport_retries(&self) -> u32 {
        self.transport_retries.load(Ordering::Relaxed)
    }

    /// Sends `request`, retrying and falling back as the module docs say.
    /// `millis` is the wall time of the whole call, retries and their
    /// waits included: the time the query's loop waited for its reply.
    pub fn send(&self, request: &ChatRequest) -> Result<ChatReply, LlmError> {
        let start = Instant::now();
        let mut failures = 0u32;
        loop {
            let format = self.response_format();
            let (why, retry_after) = match self.attempt(&body(request, self.config.limit, format)) {
                Attempt::Answered(bytes) => {
                    let millis = start.elapsed().as_secs_f64() * 1000.0;
                    return ChatReply::from_body(&bytes, millis).map_err(|e| {
                        let quoted = match e {
                            ReplyError::Endpoint(_) => String::new(),
                            _ => quote_body(&bytes),
                        };
                        LlmError::Transport(format!("{}: {e}{quoted}", self.url))
                    });
                }
                Attempt::Status(400, text, _) if refuses_format(&text) => match format.next() {
                    Some(next) => {
                        // Threads that saw the refusal at once move on once.
                        let _ = self.format.compare_exchange(
                            format as u8,
                            next as u8,
                            Ordering::Relaxed,
                            Ordering::Relaxed,
                        );
                        continue;
                    }
                    None => return Err(LlmError::Transport(self.status_error(400, &text))),
                },
                Attempt::Status(status, text, retry_after) if status == 429 || status >= 500 => {
                    (self.status_error(status, &text), retry_after)
                }
                Attempt::Status(status, text, _) => {
                    return Err(LlmError::Transport(self.status_error(status, &text)))
                }
                Attempt::Failed(why, true) => (why, None),
                Attempt::Failed(why, false) => return Err(LlmError::Transport(why)),
            };
            if failures == self.config.retries {
                return Err(LlmError::Transport(format!(
                    "{why} (after {} attempts)",
                    failures + 1
                )));
            }
            let backoff = self.config.backoff * 2u32.saturating_pow(failures);
            std::thread::sleep(retry_after.unwrap_or(backoff));
            failures += 1;
            self.transport_retries.fetch_add(1, Ordering::Relaxed);
        }
    }

    fn attempt(&self, body: &[u8]) -> Attempt {
        let mut post = self
            .agent
            .post(&self.url)
            .header("Content-Type", "application/json");
        if let Some(key) = &self.config.api_key {
            post = post.header("Authorization", format!("Bearer {key}"));
        }
        let mut response = match post.send(body) {
            Ok(response) => response,
            Err(e) => return self.failed(e),
        };
        let status = response.status().as_u16();
        let retry_after = response
            .headers()
            .get("retry-after")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<u64>().ok())
            .map(|s| Duration::from_secs(s).min(MAX_RETRY_AFTER));
        let bytes = match response.body_mut().read_to_vec() {
            Ok(bytes) => bytes,
            Err(e) => return self.failed(e),
        };
        match status {
            200..=299 => Attempt::Answered(bytes),
            _ => Attempt::Status(
                status,
                String::from_utf8_lossy(&bytes).into_owned(),
                retry_after,
            ),
        }
    }

    /// Explains a request that got no answer; connection failures and
    /// timeouts are worth retrying, the rest (a bad URL, TLS) is not.
    fn failed(&self, error: ureq::Error) -> Attempt {
        let url = &self.url;
        match error {
            ureq::Error::Timeout(_) => Attempt::Failed(
                format!(
                    "no reply from {url} within {} s (--llm-timeout)",
                    self.config.timeout.as_secs_f64()
                ),
                true,
            ),
            ureq::Error::Io(e) => {
                let why = match e.kind() {
                    io::ErrorKind::ConnectionRefused => "connection refused".to_owned(),
                    io::ErrorKind::ConnectionReset => "connection reset".to_owned(),
                    _ => e.to_string(),
                };
                Attempt::Failed(format!("cannot reach {url}: {why}"), true)
            }
            ureq::Error::HostNotFound => {
                Attempt::Failed(format!("cannot reach {url}: host not found"), true)
            }
            ureq::Error::ConnectionFailed => {
                Attempt::Failed(format!("cannot reach {url}: connection failed"), true)
            }
            other => Attempt::Failed(format!("request to {url} failed: {other}"), false),
        }
    }

    /// The endpoint's refusal in its own words, with the status.
    fn status_error(&self, status: u16, text: &str) -> String {
        let hint = match (status, &self.config.api_key) {
            (401 | 403, None) => "; set NOMOS_LLM_API_KEY",
            (401 | 403, Some(_)) => "; check NOMOS_LLM_API_KEY",
            _ => "",
        };
        format!(
            "{}: the endpoint says: {} (HTTP {status}){hint}",
            self.url,
            endpoint_message(text)
        )
    }
}

impl Chat for HttpChat {
    async fn chat(&self, request: &ChatRequest) -> Result<ChatReply, LlmError> {
        self.send(request)
    }
}

/// `url` as the chat completions URL: a base URL gets `/chat/completions`
/// added; one that already ends so is kept.
pub fn completions_url(url: &str) -> Result<String, String> {
    let url = url.trim().trim_end_matches('/');
    if !(url.starts_with("http://") || url.starts_with("https://")) {
        return Err(format!(
            "--llm-url {url:?} must start with http:// or https:// (e.g. http://127.0.0.1:8089/v1)"
        ));
    }
    Ok(match url.ends_with(COMPLETIONS) {
        true => url.to_owned(),
        false => format!("{url}{COMPLETIONS}"),
    })
}

/// The bytes to POST: core's body, with the response format this run has
/// fallen back to.
fn body(request: &ChatRequest, limit: TokenLimitField, format: ResponseFormat) -> Vec<u8> {
    let mut body = request.body(limit, format == ResponseFormat::JsonSchema);
    if format == ResponseFormat::Unconstrained {
        if let Some(object) = body.as_object_mut() {
            object.remove("response_format");
        }
    }
    serde_json::to_vec(&body).unwrap_or_default()
}

/// Whether a 400's body is about the response format or the schema.
fn refuses_format(text: &str) -> bool {
    let text = text.to_lowercase();
    ["response_format", "json_schema", "schema", "json_object"]
        .iter()
        .any(|w| text.contains(w))
}

/// What an error body says: `error.message` (OpenAI, llama.cpp),
/// `error` as a string (Ollama), `message` (vLLM) or `detail`, else the
/// start of the body.
fn endpoint_message(text: &str) -> String {
    let from_json = serde_json::from_str::<Value>(text).ok().and_then(|v| {
        let error = v.get("error");
        error
            .and_then(|e| e.get("message"))
            .or(error)
            .or_else(|| v.get("message"))
            .or_else(|| v.get("detail"))
            .and_then(Value::as_str)
            .map(str::to_owned)
    });
    match from_json {
        Some(message) => message,
        None if text.trim().is_empty() => "(an empty body)".to_owned(),
        None => cut(text.trim()),
    }
}

/// `: "…"` quoting the start of a body that could not be read as a reply.
fn quote_body(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    match text.trim() {
        "" => " (an empty body)".to_owned(),
        t => format!(" (the body begins {:?})", cut(t)),
    }
}

fn cut(text: &str) -> String {
    match text.char_indices().nth(QUOTED) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
}
