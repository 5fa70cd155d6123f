//! Asking for one JSON answer: build the request from the run's
//! [`Settings`], send it, read the field asked for, and retry once with a
//! reminder when the reply is not that JSON. A second bad reply is a
//! recorded [`Failure`], never a crash and never silent; only the
//! transport's errors end a run.

use serde::{Deserialize, Serialize};
use serde_json::json;

use super::backend::{Chat, LlmError};
use super::chat::{ChatRequest, Message, Role, Schema};

/// Every request's model settings (the endpoint and key are the
/// transport's).
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    /// The model name the endpoint knows.
    pub model: String,
    /// Sampling temperature (default 0).
    pub temperature: f64,
    /// Sampling seed, if any.
    pub seed: Option<u64>,
    /// Longest reply in tokens (default 1024: an observer keeping 100
    /// article ids needs several hundred).
    pub max_tokens: Option<u32>,
    /// The endpoint's context window in tokens, which ReAct's observer
    /// prompt is fitted to ([`super::fit`]): a live run's is the
    /// endpoint's own, or [`super::fit::DEFAULT_CONTEXT`]; `None` fits
    /// nothing (a replay of a transcript recorded before runs fitted).
    pub context: Option<u32>,
    /// The prompt set a replay must use ([`super::Prompts::for_run`]): the
    /// one its transcript was recorded with; `None` in a live run, which
    /// uses the current set.
    pub prompts: Option<String>,
}

impl Settings {
    /// What a run tag adds to an LLM method: the prompt set (`en/v1`),
    /// the model (spaces made `_`, as a tag is one word) and the seed,
    /// e.g. `+prompts=en/v1+model=smollm2+seed=0+context=8192`. The CLI and the
    /// browser tag their runs alike.
    pub fn tag_suffix(&self, prompts: &str) -> String {
        let model: String = self
            .model
            .chars()
            .map(|c| if c.is_whitespace() { '_' } else { c })
            .collect();
        let seed = match self.seed {
            Some(seed) => seed.to_string(),
            None => "none".into(),
        };
        let context = match self.context {
            Some(tokens) => format!("+context={tokens}"),
            None => String::new(),
        };
        format!("+prompts={prompts}+model={model}+seed={seed}{context}")
    }
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            model: String::new(),
            temperature: 0.0,
            seed: Some(0),
            max_tokens: Some(1024),
            context: None,
            prompts: None,
        }
    }
}

/// What a query's LLM work cost (GreekBarRetrieval's Table 17): calls,
/// tokens and the LLM's wall time as the transport measured it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Cost {
    /// Chat completions made (retries included).
    pub calls: u32,
    /// Prompt tokens, as the endpoint reported them.
    pub prompt_tokens: u64,
    /// Completion tokens.
    pub completion_tokens: u64,
    /// Wall time of the calls, in milliseconds.
    pub millis: f64,
    /// Replies that were not the JSON asked for and were retried.
    pub retries: u32,
    /// Steps that failed after their retry.
    pub failures: u32,
    /// Attempts the transport repeated after no answer, a timeout, 429
    /// or 5xx (not in `calls`).
    #[serde(default)]
    pub http_retries: u32,
    /// Attempts the transport repeated in a less strict response format
    /// after the endpoint refused one (not in `calls`).
    #[serde(default)]
    pub fallbacks: u32,
}

impl Cost {
    /// Adds `other` to this.
    pub fn add(&mut self, other: &Cost) {
        self.calls += other.calls;
        self.prompt_tokens += other.prompt_tokens;
        self.completion_tokens += other.completion_tokens;
        self.millis += other.millis;
        self.retries += other.retries;
        self.failures += other.failures;
        self.http_retries += other.http_retries;
        self.fallbacks += other.fallbacks;
    }
}

/// A step whose reply was unusable twice.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Failure {
    /// The start of the last reply, for the report.
    pub reply: String,
}

/// Sends requests for one query and adds up what they cost.
pub(crate) struct Asker<'a, C> {
    pub llm: &'a C,
    pub settings: &'a Settings,
    /// Asks once more after a reply that was not the JSON asked for.
    pub retry: &'static str,
    /// The prompt set's version every request records.
    pub version: &'static str,
    pub cost: Cost,
}

impl<'a, C: Chat> Asker<'a, C> {
    /// An asker whose requests carry the prompt set `version`, and which
    /// asks again with `retry` after a reply that was not the JSON asked
    /// for (a retrieval [`super::Prompts`] set's, or a query set's).
    pub fn new(
        llm: &'a C,
        settings: &'a Settings,
        retry: &'static str,
        version: &'static str,
    ) -> Self {
        Asker {
            llm,
            settings,
            retry,
            version,
            cost: Cost::default(),
        }
    }

    /// Asks `user` (after `system`) for JSON following `schema`; `parse`
    /// reads the answer from the reply's text.
    pub async fn ask<T>(
        &mut self,
        system: &str,
        user: String,
        schema: Schema,
        parse: impl Fn(&str) -> Option<T>,
    ) -> Result<Result<T, Failure>, LlmError> {
        let mut messages = vec![
            Message {
                role: Role::System,
                content: system.trim().to_owned(),
            },
            Message {
                role: Role::User,
                content: user,
            },
        ];
        let mut last = String::new();
        for attempt in 0..2 {
            if attempt == 1 {
                self.cost.retries += 1;
                messages.push(Message {
                    role: Role::Assistant,
                    content: last.clone(),
                });
                messages.push(Message {
                    role: Role::User,
                    content: self.retry.trim().to_owned(),
                });
            }
            let request = ChatRequest {
                model: self.settings.model.clone(),
                messages: messages.clone(),
                temperature: self.settings.temperature,
                seed: self.settings.seed,
                max_tokens: self.settings.max_tokens,
                context: self.settings.context,
                schema: Some(schema.clone()),
                prompt_version: self.version.to_owned(),
            };
            let reply = self.llm.chat(&request).await?;
            self.cost.calls += 1;
            self.cost.prompt_tokens += reply.usage.prompt_tokens;
            self.cost.completion_tokens += reply.usage.completion_tokens;
            self.cost.millis += reply.millis;
            self.cost.http_retries += reply.retried.http;
            self.cost.fallbacks += reply.retried.fallbacks;
            if let Some(answer) = parse(&reply.content) {
                return Ok(Ok(answer));
            }
            last = reply.content;
        }
        self.cost.failures += 1;
        Ok(Err(Failure {
            reply: last.chars().take(200).collect(),
        }))
    }
}

/// `{"FIELD": string}`.
pub(crate) fn string_schema(field: &str) -> Schema {
    Schema {
        name: field.to_owned(),
        schema: json!({
            "type": "object",
            "properties": {field: {"type": "string"}},
            "required": [field],
            "additionalProperties": false,
        }),
    }
}

/// `{"FIELD": [string, …]}` with at most `max` items, each one of
/// `choices` when given (an endpoint that enforces the schema then cannot
/// name an article that is not a candidate).
pub(crate) fn list_schema(field: &str, max: usize, choices: Option<&[String]>) -> Schema {
    let items = match choices {
        Some(choices) => json!({"type": "string", "enum": choices}),
        None => json!({"type": "string"}),
    };
    Schema {
        name: field.to_owned(),
        schema: json!({
            "type": "object",
            "properties": {field: {"type": "array", "items": items, "maxItems": max}},
            "required": [field],
            "additionalProperties": false,
        }),
    }
}
