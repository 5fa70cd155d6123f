//! Transcripts: every exchange of a run, keyed by its request's
//! [`key`](ChatRequest::key), so a run can be replayed with no LLM at all
//! and give the identical ranking. The file is JSON Lines: a header line,
//! then one exchange per line, sorted by key, so the same exchanges
//! always make the same bytes (and the same SHA-256, which links carry).

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Mutex;

use serde::{Deserialize, Serialize};

use super::backend::{Chat, LlmError};
use super::chat::{ChatReply, ChatRequest};

/// The header line's format name and version.
const FORMAT: &str = "nomos-transcript";
const VERSION: u32 = 1;

#[derive(Serialize, Deserialize)]
struct Header {
    format: String,
    version: u32,
}

/// One recorded exchange.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Exchange {
    /// The request's key.
    pub key: String,
    /// What was asked.
    pub request: ChatRequest,
    /// What came back.
    pub reply: ChatReply,
}

/// Recorded exchanges by request key.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Transcript {
    exchanges: BTreeMap<String, Exchange>,
}

impl Transcript {
    /// An empty transcript.
    pub fn new() -> Transcript {
        Transcript::default()
    }

    /// Reads a transcript file. Every line is checked: a line that is not
    /// an exchange, or whose key is not its request's, is an error naming
    /// the line (1-based).
    pub fn parse(text: &str) -> Result<Transcript, TranscriptError> {
        let mut lines = text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty());
        let bad = |line: usize, message: String| TranscriptError {
            line: line + 1,
            message,
        };
        let (n, first) = lines
            .next()
            .ok_or_else(|| bad(0, "the file is empty".into()))?;
        let header: Header = serde_json::from_str(first)
            .map_err(|e| bad(n, format!("not a transcript header: {e}")))?;
        if header.format != FORMAT || header.version != VERSION {
            return Err(bad(
                n,
                format!(
                    "this is {} version {}; this build reads {FORMAT} version {VERSION}",
                    header.format, header.version
                ),
            ));
        }
        let mut transcript = Transcript::new();
        for (n, line) in lines {
            let exchange: Exchange =
                serde_json::from_str(line).map_err(|e| bad(n, format!("not an exchange: {e}")))?;
            let key = exchange.request.key();
            if key != exchange.key {
                return Err(bad(
                    n,
                    format!("the key {} is not its request's ({key})", exchange.key),
                ));
            }
            transcript.exchanges.insert(key, exchange);
        }
        Ok(transcript)
    }

    /// The file's text (see the module docs).
    pub fn to_jsonl(&self) -> String {
        let header = Header {
            format: FORMAT.into(),
            version: VERSION,
        };
        let mut out = serde_json::to_string(&header).expect("serialises");
        out.push('\n');
        for exchange in self.exchanges.values() {
            out.push_str(&serde_json::to_string(exchange).expect("serialises"));
            out.push('\n');
        }
        out
    }

    /// The reply recorded for `request`.
    pub fn reply(&self, request: &ChatRequest) -> Option<&ChatReply> {
        self.exchanges.get(&request.key()).map(|e| &e.reply)
    }

    /// Records an exchange (a later one with the same request replaces
    /// the earlier).
    pub fn insert(&mut self, request: ChatRequest, reply: ChatReply) {
        let key = request.key();
        self.exchanges.insert(
            key.clone(),
            Exchange {
                key,
                request,
                reply,
            },
        );
    }

    /// Number of exchanges.
    pub fn len(&self) -> usize {
        self.exchanges.len()
    }

    /// Whether nothing was recorded.
    pub fn is_empty(&self) -> bool {
        self.exchanges.is_empty()
    }

    /// The exchanges, by key.
    pub fn exchanges(&self) -> impl Iterator<Item = &Exchange> {
        self.exchanges.values()
    }
}

/// Replays: answers only what was recorded, and nothing else.
impl Chat for Transcript {
    async fn chat(&self, request: &ChatRequest) -> Result<ChatReply, LlmError> {
        self.reply(request)
            .cloned()
            .ok_or_else(|| LlmError::NotInTranscript { key: request.key() })
    }
}

/// Wraps a backend and records every exchange it completes.
#[derive(Debug)]
pub struct Recorder<C> {
    inner: C,
    transcript: Mutex<Transcript>,
}

impl<C> Recorder<C> {
    /// Records what `inner` answers.
    pub fn new(inner: C) -> Recorder<C> {
        Recorder {
            inner,
            transcript: Mutex::new(Transcript::new()),
        }
    }

    /// What was recorded so far.
    pub fn transcript(&self) -> Transcript {
        self.transcript
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }
}

impl<C: Chat> Chat for Recorder<C> {
    async fn chat(&self, request: &ChatRequest) -> Result<ChatReply, LlmError> {
        // A request asked again gets the reply it got first, as a replay
        // would: a server need not answer the same request alike twice.
        let known = self
            .transcript
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .reply(request)
            .cloned();
        if let Some(reply) = known {
            return Ok(reply);
        }
        let reply = self.inner.chat(request).await?;
        self.transcript
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(request.clone(), reply.clone());
        Ok(reply)
    }
}

/// A transcript file that cannot be read.
#[derive(Debug, Clone, PartialEq)]
pub struct TranscriptError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for TranscriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for TranscriptError {}
