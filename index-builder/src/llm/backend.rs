//! What a run asks: an endpoint or a replayed transcript, optionally
//! recorded, and stoppable, so that when one query's loop fails the other
//! workers stop at their next request instead of spending more calls.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::Result;
use nomos_core::llm::fit::DEFAULT_CONTEXT;
use nomos_core::llm::retry::Policy;
use nomos_core::llm::{Chat, ChatReply, ChatRequest, LlmError, Settings, Transcript};

use super::args::{LlmArgs, API_KEY_VAR};
use super::http::{HttpChat, HttpConfig};
use super::journal::{Journal, Saved};
use crate::error::bad_input;
use crate::sources::text_file::read_required;

/// Where replies come from.
enum Source {
    Http(HttpChat),
    Replay {
        transcript: Transcript,
        path: PathBuf,
    },
}

/// The run's LLM.
pub struct Backend {
    source: Source,
    journal: Option<Journal>,
    stopped: AtomicBool,
}

impl Backend {
    /// Opens what the flags name and returns it with the model settings.
    /// Needs `--llm-url` or `--replay`.
    pub fn open(args: &LlmArgs, method: &str) -> Result<(Backend, Settings)> {
        let (source, settings) = match (&args.replay, &args.llm_url) {
            (Some(path), _) => {
                let file = read_required(path, "transcript")?;
                let transcript = Transcript::parse(file.text()?)
                    .map_err(|e| file.error_at(e.line, &e.message))?;
                let settings = args.settings(Some(&transcript))?;
                let source = Source::Replay {
                    transcript,
                    path: path.clone(),
                };
                (source, settings)
            }
            (None, Some(url)) => {
                let mut settings = args.settings(None)?;
                let api_key = std::env::var(API_KEY_VAR)
                    .ok()
                    .filter(|k| !k.trim().is_empty());
                let http = HttpChat::new(HttpConfig {
                    url: url.clone(),
                    api_key,
                    limit: args.llm_token_field.into(),
                    timeout: args.timeout(),
                    policy: Policy::default(),
                })
                .map_err(bad_input)?;
                if settings.context.is_none() {
                    settings.context = Some(match http.reported_context() {
                        Some(tokens) => {
                            eprintln!("context window: {tokens} tokens, as the endpoint reports");
                            tokens
                        }
                        None => {
                            eprintln!(
                                "context window: {DEFAULT_CONTEXT} tokens assumed (the endpoint \
                                 reports none at /props; give --llm-context TOKENS)"
                            );
                            DEFAULT_CONTEXT
                        }
                    });
                }
                (Source::Http(http), settings)
            }
            (None, None) => {
                return Err(bad_input(format!(
                    "--method {method} asks an LLM: give --llm-url URL (an OpenAI-compatible \
                     endpoint, e.g. http://127.0.0.1:8089/v1 from scripts/llm-server.sh) and \
                     --llm-model NAME, or --replay TRANSCRIPT"
                )))
            }
        };
        let journal = args
            .transcript
            .as_deref()
            .map(Journal::create)
            .transpose()?;
        let backend = Backend {
            source,
            journal,
            stopped: AtomicBool::new(false),
        };
        Ok((backend, settings))
    }

    /// Every later request answers [`LlmError::Cancelled`].
    pub fn stop(&self) {
        self.stopped.store(true, Ordering::Relaxed);
    }

    /// Where replies came from, for reports: the URL or the transcript.
    pub fn origin(&self) -> Origin {
        match &self.source {
            Source::Http(http) => Origin::Endpoint {
                url: http.url().to_owned(),
                format: http.response_format().name(),
                transport_retries: http.transport_retries(),
            },
            Source::Replay { path, .. } => Origin::Replay { path: path.clone() },
        }
    }

    /// A failed request as the user should read it: a request missing
    /// from the replayed transcript is a bad input naming the file.
    pub fn explain(&self, error: LlmError) -> anyhow::Error {
        match (&error, &self.source) {
            (LlmError::NotInTranscript { key }, Source::Replay { path, .. }) => bad_input(format!(
                "request {key} is not in {}: it was recorded with other queries, prompts, \
                     parameters or model settings",
                path.display()
            )),
            _ => anyhow::Error::new(error),
        }
    }

    /// Writes the transcript being recorded, if any, and prints its
    /// SHA-256 on stderr.
    pub fn finish(&self) -> Result<Option<Saved>> {
        let Some(journal) = &self.journal else {
            return Ok(None);
        };
        let saved = journal.finish()?;
        eprintln!(
            "transcript {}: {} exchanges, sha256 {}",
            saved.path.display(),
            saved.exchanges,
            saved.sha256
        );
        Ok(Some(saved))
    }
}

/// Where a run's replies came from.
#[derive(Debug, Clone, PartialEq)]
pub enum Origin {
    /// A live endpoint.
    Endpoint {
        url: String,
        /// What replies were last asked to be (`json_schema`, or what the
        /// endpoint made the run fall back to).
        format: &'static str,
        /// Repeated attempts over the run.
        transport_retries: u32,
    },
    /// A transcript.
    Replay { path: PathBuf },
}

impl Chat for Backend {
    async fn chat(&self, request: &ChatRequest) -> Result<ChatReply, LlmError> {
        if self.stopped.load(Ordering::Relaxed) {
            return Err(LlmError::Cancelled);
        }
        // A request asked again gets the reply recorded first, as the
        // transcript's replay will give it: llama.cpp at temperature 0 once
        // answered a repeated ReAct observer request differently, and the
        // transcript, which keeps one reply a request, no longer replayed.
        if let Some(reply) = self.journal.as_ref().and_then(|j| j.recorded(request)) {
            return Ok(reply);
        }
        let reply = match &self.source {
            Source::Http(http) => http.chat(request).await?,
            Source::Replay { transcript, .. } => transcript.chat(request).await?,
        };
        if let Some(journal) = &self.journal {
            journal.record(request, &reply);
        }
        Ok(reply)
    }
}
