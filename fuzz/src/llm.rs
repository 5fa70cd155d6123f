//! What LLM runs read: transcript files (a shared or served run, JSON
//! Lines) and the endpoint's replies, with the model's text in them.

use nomos_app::transcript_files::{canonical, replay_settings};
use nomos_core::llm::reply::{first_json_value, list_field, string_field};
use nomos_core::llm::{ChatReply, Transcript};

/// A transcript file: what parses writes, and its text parses back to the
/// same transcript, which replays or says why not.
pub fn transcript(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(transcript) = Transcript::parse(text) {
        let (written, _) = canonical(&transcript);
        let read = Transcript::parse(&written).ok();
        assert!(read.as_ref() == Some(&transcript), "{written}");
        let _ = replay_settings(&transcript);
    }
}

/// A `/chat/completions` body, and its bytes as the model's text for
/// every field the prompts ask for: what the parsers give is trimmed
/// and not empty.
pub fn llm_reply(data: &[u8]) {
    let mut texts = vec![String::from_utf8_lossy(data).into_owned()];
    if let Ok(reply) = ChatReply::from_body(data, 0.0) {
        texts.push(reply.content);
    }
    for text in &texts {
        let _ = first_json_value(text);
        for field in ["query", "statement"] {
            if let Some(s) = string_field(text, field) {
                assert!(!s.is_empty() && s.trim() == s, "{s:?}");
            }
        }
        for field in ["keep", "keywords"] {
            for item in list_field(text, field).unwrap_or_default() {
                assert!(!item.is_empty() && item.trim() == item, "{item:?}");
            }
        }
    }
}
