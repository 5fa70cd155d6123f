//! [`Chat`] over any OpenAI-compatible `/v1/chat/completions` endpoint
//! (llama.cpp's server, vLLM, Ollama, LM Studio, OpenAI), with blocking
//! HTTP: each query's loop runs on its own worker thread, so a call simply
//! waits for its reply.
//!
//! What to do when an attempt fails is core's policy
//! ([`nomos_core::llm::retry`], the browser's too): retries with backoff
//! for what may pass, and a less strict response format, kept for the rest
//! of the run, when the endpoint refuses one. This module sends, sleeps
//! and says what failed in the endpoint's own words.

use std::io;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime};

use nomos_core::llm::fit;
use nomos_core::llm::retry::{cut, endpoint_message, Failure, GiveUp, Next, Policy, Retry};
use nomos_core::llm::{
    Chat, ChatReply, ChatRequest, LlmError, ReplyError, ResponseFormat, TokenLimitField,
};
use ureq::Agent;

/// The path every OpenAI-compatible server answers chat completions on.
const COMPLETIONS: &str = "/chat/completions";

/// How long the endpoint may take to say its context window, and how much
/// of its `/props` page is read (llama.cpp's, chat template included, is
/// about 10 kB).
const PROPS_TIMEOUT: Duration = Duration::from_secs(5);
const PROPS_LIMIT: u64 = 1 << 20;

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
    /// Retries and their backoff.
    pub policy: Policy,
}

/// An OpenAI-compatible endpoint. Shared by every worker thread.
pub struct HttpChat {
    url: String,
    agent: Agent,
    config: HttpConfig,
    /// What replies are asked to be: the strictest format the endpoint
    /// has not refused.
    format: Mutex<ResponseFormat>,
    transport_retries: AtomicU32,
}

/// One attempt's result, before deciding whether to retry.
enum Attempt {
    /// A 2xx answer's body.
    Answered(Vec<u8>),
    /// A non-2xx answer: status, body, `Retry-After`.
    Status(u16, Vec<u8>, Option<String>),
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
            format: Mutex::new(ResponseFormat::JsonSchema),
            transport_retries: AtomicU32::new(0),
        })
    }

    /// The context window the endpoint reports (llama.cpp's `/props`), if
    /// it reports one within a few seconds; other endpoints have no such
    /// page.
    pub fn reported_context(&self) -> Option<u32> {
        let agent: Agent = Agent::config_builder()
            .timeout_global(Some(PROPS_TIMEOUT))
            .build()
            .into();
        let mut request = agent.get(fit::props_url(&self.url));
        if let Some(key) = &self.config.api_key {
            request = request.header("Authorization", format!("Bearer {key}"));
        }
        let mut answer = request.call().ok()?;
        let body = answer
            .body_mut()
            .with_config()
            .limit(PROPS_LIMIT)
            .read_to_vec()
            .ok()?;
        fit::context_from_props(&body)
    }

    /// The URL requests are posted to.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// What replies are asked to be now (after any fallback).
    pub fn response_format(&self) -> ResponseFormat {
        *self.format.lock().unwrap_or_else(|e| e.into_inner())
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
        let mut retry = Retry::new(self.config.policy);
        loop {
            let format = self.response_format();
            let attempt = self.attempt(&body(request, self.config.limit, format));
            let failure = match &attempt {
                Attempt::Answered(bytes) => {
                    let millis = start.elapsed().as_secs_f64() * 1000.0;
                    let reply = ChatReply::from_body(bytes, millis).map_err(|e| {
                        let quoted = match e {
                            ReplyError::Endpoint(_) => String::new(),
                            _ => quote_body(bytes),
                        };
                        LlmError::Transport(format!("{}: {e}{quoted}", self.url))
                    })?;
                    return Ok(ChatReply {
                        retried: retry.retried(),
                        ..reply
                    });
                }
                Attempt::Status(status, body, retry_after) => Failure::Status {
                    status: *status,
                    body,
                    retry_after: retry_after.as_deref(),
                },
                Attempt::Failed(_, true) => Failure::NoAnswer,
                Attempt::Failed(_, false) => Failure::Unreachable,
            };
            match retry.next(failure, format, unix_ms()) {
                Next::Wait { ms } => {
                    std::thread::sleep(Duration::from_millis(ms));
                    self.transport_retries.fetch_add(1, Ordering::Relaxed);
                }
                Next::Fallback(next) => {
                    // Threads that saw the refusal at once move on once.
                    let mut shared = self.format.lock().unwrap_or_else(|e| e.into_inner());
                    *shared = next.max(*shared);
                }
                Next::GiveUp(why) => {
                    return Err(LlmError::Transport(self.failed_for_good(&attempt, why)))
                }
            }
        }
    }

    /// The message of an exchange that ended with `attempt`.
    fn failed_for_good(&self, attempt: &Attempt, why: GiveUp) -> String {
        let said = match attempt {
            Attempt::Status(status, body, _) => self.status_error(*status, body),
            Attempt::Failed(said, _) => said.clone(),
            Attempt::Answered(_) => String::new(),
        };
        match why {
            GiveUp::Final => said,
            GiveUp::Exhausted { attempts } => format!("{said} (after {attempts} attempts)"),
            GiveUp::WaitTooLong { ms } => format!(
                "{said} (it asks to wait {} s: try again later)",
                ms.div_ceil(1000)
            ),
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
            .map(str::to_owned);
        let bytes = match response.body_mut().read_to_vec() {
            Ok(bytes) => bytes,
            Err(e) => return self.failed(e),
        };
        match status {
            200..=299 => Attempt::Answered(bytes),
            _ => Attempt::Status(status, bytes, retry_after),
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
    fn status_error(&self, status: u16, body: &[u8]) -> String {
        let hint = match (status, &self.config.api_key) {
            (401 | 403, None) => "; set NOMOS_LLM_API_KEY",
            (401 | 403, Some(_)) => "; check NOMOS_LLM_API_KEY",
            _ => "",
        };
        format!(
            "{}: the endpoint says: {} (HTTP {status}){hint}",
            self.url,
            endpoint_message(body)
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
    serde_json::to_vec(&request.body(limit, format)).unwrap_or_default()
}

/// `: "…"` quoting the start of a body that could not be read as a reply.
fn quote_body(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    match text.trim() {
        "" => " (an empty body)".to_owned(),
        t => format!(" (the body begins {:?})", cut(t)),
    }
}

/// Milliseconds since the Unix epoch, for a `Retry-After` date.
fn unix_ms() -> u64 {
    SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}
