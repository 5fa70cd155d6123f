//! One exchange with an OpenAI-compatible `/v1/chat/completions`
//! endpoint, as data: the request we send and the reply we keep. The CLI
//! and the browser bring the transport; both send the same body, so a
//! transcript recorded by one replays in the other.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::digest::sha256_hex;

/// Who speaks a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// Instructions.
    System,
    /// The prompt.
    User,
    /// A reply, fed back.
    Assistant,
}

/// A chat message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Message {
    /// Who speaks.
    pub role: Role,
    /// What is said.
    pub content: String,
}

/// A JSON schema the reply must follow, where the endpoint enforces one
/// (llama.cpp turns it into a grammar; OpenAI's structured outputs).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Schema {
    /// The schema's name (OpenAI requires one).
    pub name: String,
    /// The JSON schema itself.
    pub schema: Value,
}

/// A chat completion request. Everything that decides the reply is here,
/// and nothing else (no endpoint, no key): its [`key`](Self::key) names the
/// exchange in a transcript.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChatRequest {
    /// The model name the endpoint knows.
    pub model: String,
    /// The conversation.
    pub messages: Vec<Message>,
    /// Sampling temperature; 0 for the most repeatable replies.
    pub temperature: f64,
    /// Sampling seed, where the endpoint honours one.
    pub seed: Option<u64>,
    /// Longest reply, in tokens.
    pub max_tokens: Option<u32>,
    /// The context window the prompt was fitted to (see [`super::fit`]):
    /// not sent, but recorded, so that a replay fits alike. Absent from
    /// requests recorded before runs fitted, whose keys stay as they were.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<u32>,
    /// The JSON the reply must be, if the endpoint can enforce it.
    pub schema: Option<Schema>,
    /// The prompt templates' version (see [`super::prompts`]), so that a
    /// changed prompt can never replay an old reply.
    pub prompt_version: String,
}

/// How an endpoint wants the reply length limit named: OpenAI's newer
/// models refuse `max_tokens` and want `max_completion_tokens`; llama.cpp,
/// vLLM and Ollama read `max_tokens`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum TokenLimitField {
    /// `max_tokens`.
    #[default]
    MaxTokens,
    /// `max_completion_tokens`.
    MaxCompletionTokens,
}

impl ChatRequest {
    /// The model settings the request was made with: a replay makes its
    /// requests with these to find the recorded ones.
    pub fn settings(&self) -> super::Settings {
        super::Settings {
            model: self.model.clone(),
            temperature: self.temperature,
            seed: self.seed,
            max_tokens: self.max_tokens,
            context: self.context,
            prompts: Some(self.prompt_version.clone()),
        }
    }

    /// SHA-256 (hex) of the request's canonical JSON: the same request
    /// always has the same key, in the CLI and in the browser.
    pub fn key(&self) -> String {
        let canonical = serde_json::to_vec(self).expect("a request serialises");
        sha256_hex(&canonical)
    }

    /// The JSON body to POST to `/v1/chat/completions`, asking for a
    /// reply in `format` when the request has a schema (less strict
    /// formats are for endpoints that refuse the stricter ones, see
    /// [`super::retry`]).
    pub fn body(&self, limit: TokenLimitField, format: ResponseFormat) -> Value {
        let mut body = json!({
            "model": self.model,
            "messages": self.messages,
            "temperature": self.temperature,
            "stream": false,
        });
        let object = body.as_object_mut().expect("built as an object");
        if let Some(seed) = self.seed {
            object.insert("seed".into(), json!(seed));
        }
        if let Some(max) = self.max_tokens {
            let field = match limit {
                TokenLimitField::MaxTokens => "max_tokens",
                TokenLimitField::MaxCompletionTokens => "max_completion_tokens",
            };
            object.insert(field.into(), json!(max));
        }
        match (&self.schema, format) {
            (Some(s), ResponseFormat::JsonSchema) => {
                object.insert(
                    "response_format".into(),
                    json!({"type": "json_schema", "json_schema": {"name": s.name, "strict": true, "schema": s.schema}}),
                );
            }
            (Some(_), ResponseFormat::JsonObject) => {
                object.insert("response_format".into(), json!({"type": "json_object"}));
            }
            (Some(_), ResponseFormat::Unconstrained) | (None, _) => {}
        }
        body
    }
}

/// What the request asks the reply to be, from most to least strict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ResponseFormat {
    /// `response_format: {type: json_schema, …}`.
    JsonSchema,
    /// `response_format: {type: json_object}`.
    JsonObject,
    /// No `response_format`: the prompt alone asks for JSON.
    Unconstrained,
}

impl ResponseFormat {
    /// The next, less strict format, if any.
    pub fn next(self) -> Option<ResponseFormat> {
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

/// Tokens an exchange cost, as the endpoint reports them (0 when it does
/// not).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    /// Prompt tokens.
    pub prompt_tokens: u64,
    /// Completion tokens.
    pub completion_tokens: u64,
}

/// What is kept of a reply.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChatReply {
    /// The message text (may be empty: some servers put everything in
    /// `reasoning_content`, which is never parsed for answers).
    pub content: String,
    /// A reasoning model's thinking, kept for the transcript only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reasoning: Option<String>,
    /// The model that answered, as the endpoint names it.
    #[serde(default)]
    pub model: String,
    /// Tokens used.
    #[serde(default)]
    pub usage: Usage,
    /// Wall time of the exchange, measured by the transport.
    #[serde(default)]
    pub millis: f64,
    /// The attempts the transport repeated to get it (recorded only when
    /// there were some, so that a transcript replays the run's cost).
    #[serde(default, skip_serializing_if = "Retried::is_none")]
    pub retried: Retried,
}

impl ChatReply {
    /// Reads a `/v1/chat/completions` response body (llama.cpp, vLLM,
    /// Ollama, LM Studio, OpenAI); `millis` is the transport's timing.
    pub fn from_body(body: &[u8], millis: f64) -> Result<ChatReply, ReplyError> {
        let value: Value =
            serde_json::from_slice(body).map_err(|e| ReplyError::NotJson(e.to_string()))?;
        if let Some(error) = value.get("error") {
            let message = error
                .get("message")
                .and_then(Value::as_str)
                .map(str::to_owned)
                .unwrap_or_else(|| error.to_string());
            return Err(ReplyError::Endpoint(message));
        }
        let message = value
            .get("choices")
            .and_then(|c| c.get(0))
            .and_then(|c| c.get("message"))
            .ok_or(ReplyError::NoChoice)?;
        let text = |field: &str| {
            message
                .get(field)
                .and_then(Value::as_str)
                .map(str::to_owned)
        };
        let count = |field: &str| {
            value
                .get("usage")
                .and_then(|u| u.get(field))
                .and_then(Value::as_u64)
                .unwrap_or(0)
        };
        Ok(ChatReply {
            content: text("content").unwrap_or_default(),
            reasoning: text("reasoning_content")
                .or_else(|| text("reasoning"))
                .filter(|r| !r.is_empty()),
            model: value
                .get("model")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned(),
            usage: Usage {
                prompt_tokens: count("prompt_tokens"),
                completion_tokens: count("completion_tokens"),
            },
            millis,
            retried: Retried::default(),
        })
    }
}

/// What one request went through before its answer, for the cost
/// tables: its extra attempts, whatever their reply said.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Retried {
    /// Attempts repeated after a failure that may pass ([`super::retry::Next::Wait`]).
    pub http: u32,
    /// Attempts repeated in a less strict format ([`super::retry::Next::Fallback`]).
    pub fallbacks: u32,
}

impl Retried {
    /// The first attempt was answered.
    pub fn is_none(&self) -> bool {
        *self == Retried::default()
    }
}

/// A response body that is not a usable chat completion.
#[derive(Debug, Clone, PartialEq)]
pub enum ReplyError {
    /// Not JSON at all.
    NotJson(String),
    /// The endpoint answered with an error object.
    Endpoint(String),
    /// No `choices[0].message`.
    NoChoice,
}

impl fmt::Display for ReplyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplyError::NotJson(e) => write!(f, "the endpoint's reply is not JSON: {e}"),
            ReplyError::Endpoint(e) => write!(f, "the endpoint says: {e}"),
            ReplyError::NoChoice => f.write_str("the endpoint's reply has no choices[0].message"),
        }
    }
}

impl std::error::Error for ReplyError {}
