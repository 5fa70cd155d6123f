//! `--transcript FILE`: every exchange is appended to FILE the moment it
//! completes, so an interrupted or failed run loses nothing it paid for
//! (the file is then a valid transcript in arrival order). At the end the
//! file is rewritten in core's canonical form (sorted by request key), so
//! the same exchanges always give the same bytes and the same SHA-256.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use anyhow::{Context, Result};
use nomos_core::digest::sha256_hex;
use nomos_core::llm::{ChatReply, ChatRequest, Exchange, Transcript};

/// A transcript being recorded.
pub struct Journal {
    path: PathBuf,
    state: Mutex<State>,
}

struct State {
    /// Where lines are appended; `None` once appending failed (the final
    /// write still has every exchange).
    file: Option<File>,
    transcript: Transcript,
}

/// A transcript written to its file.
#[derive(Debug, Clone, PartialEq)]
pub struct Saved {
    /// Where.
    pub path: PathBuf,
    /// Exchanges in it.
    pub exchanges: usize,
    /// SHA-256 (hex) of the file's bytes.
    pub sha256: String,
}

impl Journal {
    /// Creates (or truncates) `path` and writes the transcript header.
    pub fn create(path: &Path) -> Result<Journal> {
        let mut file =
            File::create(path).with_context(|| format!("cannot create {}", path.display()))?;
        file.write_all(Transcript::new().to_jsonl().as_bytes())
            .with_context(|| format!("cannot write {}", path.display()))?;
        Ok(Journal {
            path: path.to_owned(),
            state: Mutex::new(State {
                file: Some(file),
                transcript: Transcript::new(),
            }),
        })
    }

    /// The reply recorded for `request`, if it was asked before.
    pub fn recorded(&self, request: &ChatRequest) -> Option<ChatReply> {
        let state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        state.transcript.reply(request).cloned()
    }

    /// Keeps one exchange and appends it to the file.
    pub fn record(&self, request: &ChatRequest, reply: &ChatReply) {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let exchange = Exchange {
            key: request.key(),
            request: request.clone(),
            reply: reply.clone(),
        };
        if let Some(file) = &mut state.file {
            let mut line = serde_json::to_string(&exchange).unwrap_or_default();
            line.push('\n');
            if let Err(e) = file.write_all(line.as_bytes()) {
                eprintln!(
                    "warning: cannot append to {} ({e}); the exchanges are kept in memory and \
                     written at the end",
                    self.path.display()
                );
                state.file = None;
            }
        }
        state.transcript.insert(exchange.request, exchange.reply);
    }

    /// Rewrites the file in canonical form (through a temporary file
    /// beside it, renamed over it) and says what it holds.
    pub fn finish(&self) -> Result<Saved> {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        state.file = None;
        let text = state.transcript.to_jsonl();
        let mut temporary = self.path.clone().into_os_string();
        temporary.push(".partial");
        let temporary = PathBuf::from(temporary);
        std::fs::write(&temporary, text.as_bytes())
            .and_then(|()| std::fs::rename(&temporary, &self.path))
            .with_context(|| format!("cannot write the transcript {}", self.path.display()))?;
        Ok(Saved {
            path: self.path.clone(),
            exchanges: state.transcript.len(),
            sha256: sha256_hex(text.as_bytes()),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nomos_core::llm::{Message, Role, Usage};

    fn exchange(n: u32) -> (ChatRequest, ChatReply) {
        let request = ChatRequest {
            model: "m".into(),
            messages: vec![Message {
                role: Role::User,
                content: format!("question {n}"),
            }],
            temperature: 0.0,
            seed: Some(0),
            max_tokens: Some(16),
            context: None,
            schema: None,
            prompt_version: "en/v1".into(),
        };
        let reply = ChatReply {
            content: format!("answer {n}"),
            reasoning: None,
            model: "m".into(),
            usage: Usage::default(),
            millis: f64::from(n),
            retried: Default::default(),
        };
        (request, reply)
    }

    #[test]
    fn appends_as_it_goes_and_ends_canonical() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.jsonl");
        let journal = Journal::create(&path).unwrap();
        let exchanges: Vec<_> = (0..3).map(exchange).collect();
        for (request, reply) in exchanges.iter().rev() {
            journal.record(request, reply);
        }
        // Before the end the file already replays every exchange.
        let midway = Transcript::parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(midway.len(), 3);
        let saved = journal.finish().unwrap();
        let bytes = std::fs::read(&path).unwrap();
        assert_eq!(saved.exchanges, 3);
        assert_eq!(saved.sha256, sha256_hex(&bytes));
        // Canonical: the same as recording in any other order.
        let mut expected = Transcript::new();
        for (request, reply) in exchanges {
            expected.insert(request, reply);
        }
        assert_eq!(String::from_utf8(bytes).unwrap(), expected.to_jsonl());
        assert!(!dir.path().join("t.jsonl.partial").exists());
    }
}
