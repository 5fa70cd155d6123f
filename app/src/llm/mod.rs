//! The LLM methods' store: the endpoint the user set up, where a run gets
//! its replies (that endpoint, or a transcript replayed with nothing
//! sent), and the transcripts this browser has.
//!
//! The endpoint's settings are kept in `localStorage`; its API key is
//! held in memory, and kept in `localStorage` only when the user ticks
//! "remember on this device", bound to the origin of the endpoint it was
//! given for ([`BoundKey`]). The key goes in the `Authorization` header
//! of requests to that origin and nowhere else: not to another address,
//! not in links, not in transcripts (requests are recorded without it),
//! not in exports.
//!
//! - [`fetch_chat`]: core's `Chat` over `fetch`, following core's retry
//!   policy; [`failure`]: what the page says when an exchange fails.
//! - [`backend`]: a run's backend (endpoint, in-page model or replay),
//!   recorded, with its Cancel.
//! - [`in_page`]: the model loaded in the page, on request.
//! - [`transcripts`]: transcripts by SHA-256, in IndexedDB.
//! - [`endpoint`]: an endpoint's settings, checked.
//! - [`search`]: the Search view's LLM run.
//! - [`wllama`]: the in-page LLM (llama.cpp in wasm).

mod backend;
pub mod endpoint;
mod failure;
mod fetch_chat;
mod in_page;
mod run_error;
pub mod search;
mod transcripts;
pub mod wllama;

use leptos::prelude::*;
use leptos::task::spawn_local;
use nomos_core::llm::{Chat, ChatRequest, Message, Recorder, Role, Schema, Transcript};
use serde_json::json;

pub use backend::{Backend, Run, RunSource};
pub use in_page::{InPage, InPageStatus, Offer, ServedModel, SERVED_MODELS};
pub use run_error::RunError;
pub use transcripts::Transcripts;

use crate::llm::endpoint::{BoundKey, EndpointConfig};
use crate::state::AppState;
use crate::transcript_files::{replay_settings, LlmSource, Origin, TranscriptLink};
use crate::web::{
    local_get, local_remove, local_set, now, page_origin, watch_csp_violations, Canceller,
};
use fetch_chat::FetchChat;

/// `localStorage` keys.
const CONFIG_KEY: &str = "nomos-llm-endpoint";
const API_KEY_KEY: &str = "nomos-llm-key";

/// The settings' "Test connection".
#[derive(Debug, Clone, PartialEq)]
pub enum TestStatus {
    Idle,
    Testing,
    /// What the model answered, and how.
    Answered(String),
    Failed(String),
}

/// Whether the LLM methods can run, for the method pickers.
#[derive(Debug, Clone, PartialEq)]
pub enum Readiness {
    /// Calling the endpoint at this origin.
    Endpoint(String),
    /// Asking the model loaded in the page, named so.
    InPage(String),
    /// Replaying this transcript; `known`: this browser has it or the
    /// site serves it.
    Replay { sha256: String, known: bool },
    /// Neither: why, in words.
    Unset(String),
}

impl Readiness {
    pub fn can_run(&self) -> bool {
        !matches!(self, Readiness::Unset(_))
    }
}

/// The LLM store. `Copy`: signals and handles.
#[derive(Clone, Copy)]
pub struct Llm {
    /// The endpoint's settings (no key).
    pub config: RwSignal<EndpointConfig>,
    /// The API key, in memory, bound to its endpoint's origin.
    pub key: RwSignal<BoundKey>,
    /// Whether the key is kept in `localStorage`.
    pub remember: RwSignal<bool>,
    pub test: RwSignal<TestStatus>,
    /// Why the settings could not be kept, if they could not.
    pub save_error: RwSignal<Option<String>>,
    /// Asks the settings dialog to open (any view may).
    pub open: RwSignal<bool>,
    pub transcripts: Transcripts,
    pub in_page: InPage,
    state: AppState,
}

impl Llm {
    /// Reads the kept settings and key, and starts the transcripts store.
    pub fn new(state: AppState) -> Llm {
        watch_csp_violations();
        let key = local_get(API_KEY_KEY).and_then(|text| BoundKey::from_json(&text));
        let llm = Llm {
            config: RwSignal::new(
                local_get(CONFIG_KEY)
                    .map(|t| EndpointConfig::from_json(&t))
                    .unwrap_or_default(),
            ),
            remember: RwSignal::new(key.is_some()),
            key: RwSignal::new(key.unwrap_or_default()),
            test: RwSignal::new(TestStatus::Idle),
            save_error: RwSignal::new(None),
            open: RwSignal::new(false),
            transcripts: Transcripts::new(),
            in_page: InPage::new(),
            state,
        };
        llm.transcripts.start();
        llm
    }

    /// Sets and keeps the endpoint's settings (clamped).
    pub fn set_config(&self, config: EndpointConfig) {
        let config = config.clamped();
        self.save_error.set(
            local_set(CONFIG_KEY, &config.to_json())
                .err()
                .map(|e| e.to_string()),
        );
        let key = self.key.get_untracked();
        let rebound = key.clone().rebound(&config);
        if rebound != key {
            self.key.set(rebound);
            self.keep_key();
        }
        self.config.set(config);
        self.test.set(TestStatus::Idle);
    }

    /// Sets the key for the endpoint set up now, kept only if the user
    /// asked.
    pub fn set_key(&self, key: String) {
        let key = self.config.with_untracked(|c| BoundKey::new(key, c));
        self.key.set(key);
        self.keep_key();
    }

    /// The key for a request to `origin`, if it was given for it.
    fn key_for(&self, origin: &str) -> Option<String> {
        self.key
            .with_untracked(|k| k.for_origin(origin).map(str::to_owned))
    }

    /// "Remember on this device": keeps or forgets the key.
    pub fn set_remember(&self, remember: bool) {
        self.remember.set(remember);
        self.keep_key();
    }

    fn keep_key(&self) {
        let key = self.key.get_untracked();
        if self.remember.get_untracked() && !key.key.is_empty() {
            self.save_error.set(
                local_set(API_KEY_KEY, &key.to_json())
                    .err()
                    .map(|e| e.to_string()),
            );
        } else {
            local_remove(API_KEY_KEY);
        }
    }

    /// Whether the LLM methods can run, and with what (tracked).
    pub fn readiness(&self) -> Readiness {
        match self.state.llm.get() {
            LlmSource::Replay(link) => Readiness::Replay {
                known: self.transcripts.knows(&link),
                sha256: link.sha256,
            },
            LlmSource::Endpoint if self.config.with(|c| c.in_page) => {
                match self.in_page.status.get() {
                    InPageStatus::Ready { name, .. } => Readiness::InPage(name),
                    InPageStatus::Loading { .. } => {
                        Readiness::Unset("The in-page model is loading (LLM settings).".to_owned())
                    }
                    InPageStatus::Unloaded | InPageStatus::Failed(_) => Readiness::Unset(
                        "Load the in-page model, or set up an endpoint (LLM settings).".to_owned(),
                    ),
                }
            }
            LlmSource::Endpoint => match self.config.with(|c| c.endpoint()) {
                Ok(e) => Readiness::Endpoint(e.origin),
                Err(why) => Readiness::Unset(format!(
                    "Set up an LLM endpoint or load a transcript (LLM settings): {why}"
                )),
            },
        }
    }

    /// A new run with the current source: the endpoint, the in-page model,
    /// or the replayed transcript (fetched if need be). `Err` says what is
    /// missing.
    pub async fn run(self) -> Result<Run, RunError> {
        let canceller = Canceller::new().map_err(RunError::Cancel)?;
        let (backend, settings, source) = match self.state.llm.get_untracked() {
            LlmSource::Replay(link) => {
                let transcript = self
                    .transcripts
                    .get(&link)
                    .await
                    .map_err(RunError::Transcript)?;
                let settings = replay_settings(&transcript).map_err(|error| RunError::Replay {
                    sha256: link.sha256.clone(),
                    error,
                })?;
                (
                    Backend::Replay(transcript),
                    settings,
                    RunSource::Replay(link),
                )
            }
            LlmSource::Endpoint if self.config.with_untracked(|c| c.in_page) => {
                let model = self.in_page.model().ok_or(RunError::NoInPageModel)?;
                let settings = self.config.with_untracked(|c| c.settings(model.name()));
                let source = RunSource::InPage {
                    model: model.name().to_owned(),
                };
                (Backend::InPage(model, canceller.signal()), settings, source)
            }
            LlmSource::Endpoint => {
                let endpoint = self
                    .config
                    .with_untracked(|c| c.endpoint())
                    .map_err(RunError::Endpoint)?;
                let source = RunSource::Endpoint {
                    origin: endpoint.origin.clone(),
                    model: endpoint.settings.model.clone(),
                };
                let settings = endpoint.settings.clone();
                let key = self.key_for(&endpoint.origin);
                let chat = FetchChat::new(endpoint, key, canceller.signal(), page_origin());
                (Backend::Endpoint(chat), settings, source)
            }
        };
        Ok(Run {
            chat: Recorder::new(backend),
            settings,
            source,
            canceller,
        })
    }

    /// Queries an evaluation asks about at once: the in-page model
    /// answers one request at a time, so it gets one.
    pub fn concurrency(&self) -> usize {
        self.config
            .with_untracked(|c| if c.in_page { 1 } else { c.concurrency })
    }

    /// Replays `link` from now on (or calls the endpoint, with `None`).
    pub fn use_source(&self, source: LlmSource) {
        self.state.llm.set(source);
    }

    /// Sends one short request with the form's settings and reports the
    /// model's answer, or exactly why there is none.
    pub fn test_connection(self) {
        let endpoint = match self.config.with_untracked(|c| c.endpoint()) {
            Ok(e) => e,
            Err(why) => return self.test.set(TestStatus::Failed(why.to_string())),
        };
        let canceller = match Canceller::new() {
            Ok(c) => c,
            Err(why) => return self.test.set(TestStatus::Failed(why.to_string())),
        };
        self.test.set(TestStatus::Testing);
        let request = ChatRequest {
            model: endpoint.settings.model.clone(),
            messages: vec![Message {
                role: Role::User,
                content: "Reply with the JSON object {\"answer\": \"ok\"} and nothing else."
                    .to_owned(),
            }],
            temperature: endpoint.settings.temperature,
            seed: endpoint.settings.seed,
            max_tokens: Some(32),
            context: None,
            schema: Some(Schema {
                name: "answer".to_owned(),
                schema: json!({
                    "type": "object",
                    "properties": {"answer": {"type": "string"}},
                    "required": ["answer"],
                    "additionalProperties": false,
                }),
            }),
            prompt_version: "connection-test".to_owned(),
        };
        let chat = FetchChat::new(
            endpoint.clone(),
            self.key_for(&endpoint.origin),
            canceller.signal(),
            page_origin(),
        );
        spawn_local(async move {
            let started = now();
            let status = match chat.chat(&request).await {
                Ok(reply) => {
                    let said: String = reply.content.trim().chars().take(200).collect();
                    let tokens = reply.usage.prompt_tokens + reply.usage.completion_tokens;
                    TestStatus::Answered(format!(
                        "{} answered in {:.1} s{}: {}",
                        endpoint.settings.model,
                        (now() - started) / 1000.0,
                        match tokens {
                            0 => String::new(),
                            n => format!(" ({n} tokens)"),
                        },
                        if said.is_empty() {
                            "(an empty reply)"
                        } else {
                            &said
                        }
                    ))
                }
                Err(e) => TestStatus::Failed(e.to_string()),
            };
            self.test.set(status);
        });
    }

    /// Opens the settings dialog.
    pub fn open_settings(&self) {
        self.open.set(true);
    }

    /// The transcript a finished run is shared by: the one it replayed,
    /// or what it recorded from the endpoint (with the exchanges of
    /// `with`, results shown beside it), kept here under `name`.
    pub fn share(&self, run: &Run, name: String, with: Option<&Transcript>) -> TranscriptLink {
        match &run.source {
            RunSource::Replay(link) => link.clone(),
            RunSource::Endpoint { .. } | RunSource::InPage { .. } => {
                let mut recorded = run.transcript();
                for e in with.into_iter().flat_map(Transcript::exchanges) {
                    if recorded.reply(&e.request).is_none() {
                        recorded.insert(e.request.clone(), e.reply.clone());
                    }
                }
                let meta = self
                    .transcripts
                    .keep(recorded, name, Origin::Recorded, None);
                TranscriptLink {
                    sha256: meta.sha256,
                    path: None,
                }
            }
        }
    }
}

pub fn use_llm() -> Llm {
    expect_context::<Llm>()
}
