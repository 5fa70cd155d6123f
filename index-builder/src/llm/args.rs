//! The LLM flags `search` and `eval` share, and the model settings they
//! make. With `--replay`, settings not given on the command line are the
//! transcript's own (when all its requests agree), so a recorded run
//! replays with `--replay FILE` alone.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::Result;
use clap::{Args, ValueEnum};
use nomos_core::llm::{Settings, TokenLimitField, Transcript};

use crate::error::bad_input;

/// The environment variable holding the endpoint's API key.
pub const API_KEY_VAR: &str = "NOMOS_LLM_API_KEY";

#[derive(Args, Debug, Clone, Default)]
#[command(
    next_help_heading = "LLM methods (reform-sparse, reform-dense, reform-hybrid, react-bm25)"
)]
pub struct LlmArgs {
    /// OpenAI-compatible endpoint: its base URL (e.g. http://127.0.0.1:8089/v1,
    /// scripts/llm-server.sh's) or its /chat/completions URL. An API key, if
    /// the endpoint wants one, is read from $NOMOS_LLM_API_KEY.
    #[arg(long, value_name = "URL")]
    pub llm_url: Option<String>,
    /// The model name the endpoint serves (recorded in run tags) [default
    /// with --replay: the transcript's].
    #[arg(long, value_name = "NAME")]
    pub llm_model: Option<String>,
    /// Sampling temperature [default: 0, or the transcript's with --replay].
    #[arg(long, value_name = "T")]
    pub llm_temperature: Option<f64>,
    /// Sampling seed [default: 0, or the transcript's with --replay].
    #[arg(long, value_name = "N")]
    pub llm_seed: Option<u64>,
    /// Longest reply in tokens [default: 1024, or the transcript's with --replay].
    #[arg(long, value_name = "N")]
    pub llm_max_tokens: Option<u32>,
    /// The endpoint's context window in tokens, which ReAct's observer
    /// prompt is fitted to by cutting the candidates' text [default: what
    /// the endpoint reports at /props (llama.cpp), else 4096; with
    /// --replay, the transcript's].
    #[arg(long, value_name = "TOKENS", value_parser = clap::value_parser!(u32).range(256..))]
    pub llm_context: Option<u32>,
    /// How the request names the reply length limit: OpenAI's newer models
    /// want max_completion_tokens.
    #[arg(long, value_enum, default_value_t = TokenField::MaxTokens)]
    pub llm_token_field: TokenField,
    /// Queries whose loops run at once, each on its own thread.
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..=256))]
    pub llm_concurrency: u32,
    /// Seconds one request may take before it is retried (3 retries, with
    /// backoff, on timeouts, connection errors, 429 and 5xx).
    #[arg(long, value_name = "SECONDS", default_value_t = 300,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub llm_timeout: u64,
    /// Record every exchange with the LLM to FILE (JSON Lines), replayable
    /// with --replay.
    #[arg(long, value_name = "FILE", conflicts_with = "replay")]
    pub transcript: Option<PathBuf>,
    /// Answer every request from a transcript instead of an LLM: the run
    /// repeats the recorded one exactly, with no endpoint.
    #[arg(long, value_name = "FILE", conflicts_with = "llm_url")]
    pub replay: Option<PathBuf>,
}

/// `--llm-token-field`.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TokenField {
    #[default]
    #[value(name = "max_tokens")]
    MaxTokens,
    #[value(name = "max_completion_tokens")]
    MaxCompletionTokens,
}

impl From<TokenField> for TokenLimitField {
    fn from(field: TokenField) -> TokenLimitField {
        match field {
            TokenField::MaxTokens => TokenLimitField::MaxTokens,
            TokenField::MaxCompletionTokens => TokenLimitField::MaxCompletionTokens,
        }
    }
}

impl LlmArgs {
    /// Whether any flag that only an LLM method uses was given.
    pub fn any_given(&self) -> bool {
        self.llm_url.is_some() || self.replay.is_some() || self.transcript.is_some()
    }

    /// One request's time limit.
    pub fn timeout(&self) -> Duration {
        Duration::from_secs(self.llm_timeout)
    }

    /// The model settings: the flags, else (replaying) the transcript's,
    /// else the defaults. A model name is required unless the transcript
    /// has one.
    pub fn settings(&self, replayed: Option<&Transcript>) -> Result<Settings> {
        let recorded = replayed.and_then(recorded_settings);
        let defaults = recorded.clone().unwrap_or_default();
        let model = match (&self.llm_model, &recorded) {
            (Some(model), _) => model.clone(),
            (None, Some(recorded)) => recorded.model.clone(),
            (None, None) => {
                return Err(bad_input(
                    "give --llm-model NAME, the model the endpoint serves (any name for \
                     scripts/llm-server.sh)",
                ))
            }
        };
        if model.trim().is_empty() {
            return Err(bad_input("--llm-model is empty"));
        }
        let temperature = self.llm_temperature.unwrap_or(defaults.temperature);
        if !(temperature.is_finite() && temperature >= 0.0) {
            return Err(bad_input(format!(
                "--llm-temperature {temperature} must be a number ≥ 0"
            )));
        }
        Ok(Settings {
            model,
            temperature,
            seed: self.llm_seed.map(Some).unwrap_or(defaults.seed),
            max_tokens: self.llm_max_tokens.map(Some).unwrap_or(defaults.max_tokens),
            context: self.llm_context.or(defaults.context),
            prompts: defaults.prompts,
        })
    }
}

/// The settings every request of `transcript` was made with, if they are
/// the same for all (as in any one recorded run).
fn recorded_settings(transcript: &Transcript) -> Option<Settings> {
    let mut settings = transcript.exchanges().map(|e| e.request.settings());
    let first = settings.next()?;
    settings.all(|s| s == first).then_some(first)
}

#[cfg(test)]
mod tests {
    use super::*;
    use nomos_core::llm::{ChatReply, ChatRequest, Message, Role, Usage};

    fn transcript(models: &[&str], max_tokens: u32) -> Transcript {
        let mut t = Transcript::new();
        for (i, model) in models.iter().enumerate() {
            let request = ChatRequest {
                model: (*model).into(),
                messages: vec![Message {
                    role: Role::User,
                    content: format!("question {i}"),
                }],
                temperature: 0.5,
                seed: Some(7),
                max_tokens: Some(max_tokens),
                context: Some(4096),
                schema: None,
                prompt_version: "en/v1".into(),
            };
            let reply = ChatReply {
                content: String::new(),
                reasoning: None,
                model: String::new(),
                usage: Usage::default(),
                millis: 0.0,
                retried: Default::default(),
            };
            t.insert(request, reply);
        }
        t
    }

    #[test]
    fn replay_takes_the_transcripts_settings_unless_flags_say_otherwise() {
        let recorded = transcript(&["m", "m"], 64);
        let args = LlmArgs::default();
        let s = args.settings(Some(&recorded)).unwrap();
        assert_eq!(
            (s.model.as_str(), s.temperature, s.seed),
            ("m", 0.5, Some(7))
        );
        assert_eq!(s.max_tokens, Some(64));
        assert_eq!(
            s.context,
            Some(4096),
            "the window the prompts were fitted to"
        );
        let args = LlmArgs {
            llm_model: Some("other".into()),
            llm_seed: Some(1),
            ..LlmArgs::default()
        };
        let s = args.settings(Some(&recorded)).unwrap();
        assert_eq!(
            (s.model.as_str(), s.seed, s.temperature),
            ("other", Some(1), 0.5)
        );
    }

    #[test]
    fn mixed_transcripts_and_live_runs_fall_back_to_defaults() {
        let mixed = transcript(&["a", "b"], 64);
        let err = LlmArgs::default().settings(Some(&mixed)).unwrap_err();
        assert!(err.to_string().contains("--llm-model"), "{err}");
        let args = LlmArgs {
            llm_model: Some("m".into()),
            ..LlmArgs::default()
        };
        assert_eq!(
            args.settings(None).unwrap(),
            Settings {
                model: "m".into(),
                ..Settings::default()
            }
        );
        let args = LlmArgs {
            llm_model: Some("m".into()),
            llm_temperature: Some(f64::NAN),
            ..LlmArgs::default()
        };
        assert!(args.settings(None).is_err());
    }
}
