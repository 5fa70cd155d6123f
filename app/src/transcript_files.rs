//! What the app knows about LLM transcripts without holding them: their
//! name in links (the SHA-256 of the canonical file), where on the site
//! one lives, the site's list of shipped transcripts
//! (`transcripts/index.json`), and the settings a replay must use.
//!
//! A transcript is named by the SHA-256 of its canonical text
//! ([`Transcript::to_jsonl`]: a header, then exchanges sorted by key), so
//! the same exchanges always have the same name, whoever recorded them
//! (`nomos … --transcript` writes the same text). Paths come from links
//! and typed URLs, so they are untrusted: only paths under the site are
//! accepted, with no way up (`..`), no scheme and no host.

use std::fmt;

use nomos_core::digest::sha256_hex;
use nomos_core::llm::{Settings, Transcript};
use serde::{Deserialize, Serialize};

/// The site's list of shipped transcripts, beside the app.
pub const SITE_INDEX: &str = "transcripts/index.json";
/// Longest site path accepted.
const PATH_MAX: usize = 300;

/// A transcript as a link names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TranscriptLink {
    /// SHA-256 of the canonical text, 64 lowercase hex digits.
    pub sha256: String,
    /// Where the site serves it (relative to the app), when it came from
    /// the site.
    pub path: Option<String>,
}

/// Where the LLM methods get their replies.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum LlmSource {
    /// The endpoint set up in the LLM settings.
    #[default]
    Endpoint,
    /// A transcript: replies are replayed from it, nothing is sent.
    Replay(TranscriptLink),
}

/// Why a transcript's path, the site's transcript list or a transcript
/// to replay was refused.
#[derive(Debug, Clone, PartialEq)]
pub enum TranscriptFileError {
    /// Empty or too long (`path`: its first 80 characters).
    NotAPath { path: String },
    /// A segment that is empty, `.`, `..` or has other characters.
    NotPlain { path: String },
    /// A URL on another origin than the page's.
    OtherOrigin { origin: String, page_origin: String },
    /// A URL outside the app's directory.
    NotUnderApp { path: String, site_dir: String },
    /// [`SITE_INDEX`] does not parse, with serde's message.
    NotAList(String),
    /// [`SITE_INDEX`] is of a format this build does not read.
    FormatVersion(u32),
    /// An entry of [`SITE_INDEX`] whose hash is not a SHA-256.
    BadHash { file: String },
    /// An entry of [`SITE_INDEX`] whose path is refused.
    BadEntry(Box<TranscriptFileError>),
    /// An entry of [`SITE_INDEX`] with an empty search.
    EmptySearch { file: String },
    /// A transcript with no replies.
    Empty,
    /// A transcript made with two models or temperatures.
    MixedSettings {
        model: String,
        temperature: f64,
        other_model: String,
        other_temperature: f64,
    },
}

impl fmt::Display for TranscriptFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TranscriptFileError::NotAPath { path } => {
                write!(f, "“{path}” is not a path on this site")
            }
            TranscriptFileError::NotPlain { path } => write!(
                f,
                "“{path}” is not a plain path under this site (letters, digits, - . _ ~ @ + and /)"
            ),
            TranscriptFileError::OtherOrigin {
                origin,
                page_origin,
            } => write!(
                f,
                "transcripts are loaded from this site only ({page_origin}), not from {origin}; \
                 download the file and open it instead"
            ),
            TranscriptFileError::NotUnderApp { path, site_dir } => {
                write!(f, "{path} is not under this app ({site_dir})")
            }
            TranscriptFileError::NotAList(message) => {
                write!(f, "{SITE_INDEX} is not a transcript list: {message}")
            }
            TranscriptFileError::FormatVersion(version) => write!(
                f,
                "{SITE_INDEX} has format version {version}; this build reads version 1"
            ),
            TranscriptFileError::BadHash { file } => {
                write!(f, "{SITE_INDEX}: {file} has no valid sha256")
            }
            TranscriptFileError::BadEntry(e) => write!(f, "{SITE_INDEX}: {e}"),
            TranscriptFileError::EmptySearch { file } => {
                write!(f, "{SITE_INDEX}: {file} lists an empty search")
            }
            TranscriptFileError::Empty => {
                f.write_str("the transcript is empty: it has no replies to replay")
            }
            TranscriptFileError::MixedSettings {
                model,
                temperature,
                other_model,
                other_temperature,
            } => write!(
                f,
                "the transcript mixes model settings ({model} at temperature {temperature} and \
                 {other_model} at temperature {other_temperature}); a replay can use one"
            ),
        }
    }
}

impl std::error::Error for TranscriptFileError {}

/// `s` as a SHA-256 (64 hex digits, lowercased), or `None`.
pub fn sha256_of(s: &str) -> Option<String> {
    (s.len() == 64 && s.bytes().all(|b| b.is_ascii_hexdigit())).then(|| s.to_ascii_lowercase())
}

/// A transcript's canonical text and its SHA-256.
pub fn canonical(transcript: &Transcript) -> (String, String) {
    let text = transcript.to_jsonl();
    let sha = sha256_hex(text.as_bytes());
    (text, sha)
}

/// Checks a path relative to the app (`transcripts/x.jsonl`): non-empty
/// segments of letters, digits and `-._~@+`, no `.` or `..` segment, no
/// scheme, host, query or fragment.
pub fn site_path(path: &str) -> Result<String, TranscriptFileError> {
    let shown = || path.chars().take(80).collect::<String>();
    if path.is_empty() || path.len() > PATH_MAX {
        return Err(TranscriptFileError::NotAPath { path: shown() });
    }
    for segment in path.split('/') {
        let ok = !segment.is_empty()
            && segment != "."
            && segment != ".."
            && segment
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-._~@+".contains(&b));
        if !ok {
            return Err(TranscriptFileError::NotPlain { path: shown() });
        }
    }
    Ok(path.to_owned())
}

/// The app-relative path of a URL the browser resolved to `origin` and
/// `path`, if it is on this page's origin and under the app's directory
/// `site_dir` (`/` or `/nomos/`).
pub fn under_site(
    origin: &str,
    path: &str,
    page_origin: &str,
    site_dir: &str,
) -> Result<String, TranscriptFileError> {
    if origin != page_origin {
        return Err(TranscriptFileError::OtherOrigin {
            origin: origin.to_owned(),
            page_origin: page_origin.to_owned(),
        });
    }
    let relative = path
        .strip_prefix(site_dir)
        .ok_or_else(|| TranscriptFileError::NotUnderApp {
            path: path.to_owned(),
            site_dir: site_dir.to_owned(),
        })?;
    site_path(relative)
}

/// The site's `transcripts/index.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SiteIndex {
    pub format_version: u32,
    pub transcripts: Vec<SiteEntry>,
}

/// One shipped transcript.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SiteEntry {
    /// Relative to `transcripts/`.
    pub file: String,
    /// What it is, for people.
    pub name: String,
    /// The pool's blob it was made on (`stard.blob`).
    pub pool: String,
    /// The method with every parameter (`react-bm25:rounds=2,…`).
    pub method: String,
    /// Of the canonical text.
    pub sha256: String,
    /// The model that answered, as the endpoint named it.
    pub model: String,
    /// How many of the pool's queries it covers (Evaluate's first N).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub queries: Option<usize>,
    /// The questions it answers, each replayed in Search: for a pool
    /// without benchmark queries (its queries came from a query set
    /// beside the pool, so Evaluate cannot replay it).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub searches: Vec<String>,
}

impl SiteEntry {
    /// Where the site serves it, relative to the app.
    pub fn path(&self) -> String {
        format!("transcripts/{}", self.file)
    }
}

impl SiteIndex {
    /// Reads the index; entries with a bad hash or path are errors (the
    /// file is the site's own, so a mistake there should be loud).
    pub fn from_json(bytes: &[u8]) -> Result<SiteIndex, TranscriptFileError> {
        let index: SiteIndex = serde_json::from_slice(bytes)
            .map_err(|e| TranscriptFileError::NotAList(e.to_string()))?;
        if index.format_version != 1 {
            return Err(TranscriptFileError::FormatVersion(index.format_version));
        }
        for entry in &index.transcripts {
            if sha256_of(&entry.sha256).is_none() {
                return Err(TranscriptFileError::BadHash {
                    file: entry.file.clone(),
                });
            }
            site_path(&entry.path()).map_err(|e| TranscriptFileError::BadEntry(Box::new(e)))?;
            if entry.searches.iter().any(|q| q.trim().is_empty()) {
                return Err(TranscriptFileError::EmptySearch {
                    file: entry.file.clone(),
                });
            }
        }
        Ok(index)
    }

    /// The entry for a transcript, by hash.
    pub fn find(&self, sha256: &str) -> Option<&SiteEntry> {
        self.transcripts
            .iter()
            .find(|e| e.sha256.eq_ignore_ascii_case(sha256))
    }
}

/// How a transcript came to this browser.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Origin {
    /// Recorded by a run in this browser.
    Recorded,
    /// Opened from a file.
    File,
    /// Fetched from this site.
    Site,
}

/// What is shown about a transcript and kept with it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TranscriptMeta {
    pub sha256: String,
    /// For people: the file's name, or what was run.
    pub name: String,
    pub origin: Origin,
    /// The site path, for one fetched from the site.
    #[serde(default)]
    pub path: Option<String>,
    pub exchanges: usize,
    /// The model asked for, as requests name it.
    pub model: String,
    /// The model that answered, as the endpoint named it.
    pub answered_by: String,
    /// The prompt templates' version(s).
    pub prompts: String,
    pub bytes: usize,
    /// When it was kept, milliseconds since 1970.
    pub added: f64,
}

impl TranscriptMeta {
    /// The facts of `transcript` (canonical text `text`, hash `sha256`).
    pub fn describe(
        transcript: &Transcript,
        text: &str,
        sha256: &str,
        name: String,
        origin: Origin,
        path: Option<String>,
        added: f64,
    ) -> TranscriptMeta {
        let mut models: Vec<&str> = Vec::new();
        let mut answered: Vec<&str> = Vec::new();
        let mut prompts: Vec<&str> = Vec::new();
        for e in transcript.exchanges() {
            for (list, value) in [
                (&mut models, e.request.model.as_str()),
                (&mut answered, e.reply.model.as_str()),
                (&mut prompts, e.request.prompt_version.as_str()),
            ] {
                if !value.is_empty() && !list.contains(&value) {
                    list.push(value);
                }
            }
        }
        TranscriptMeta {
            sha256: sha256.to_owned(),
            name,
            origin,
            path,
            exchanges: transcript.len(),
            model: models.join(", "),
            answered_by: answered.join(", "),
            prompts: prompts.join(", "),
            bytes: text.len(),
            added,
        }
    }

    /// The twelve first hex digits, as messages show a hash.
    pub fn short(&self) -> &str {
        short_hash(&self.sha256)
    }
}

/// The twelve first hex digits of a hash.
pub fn short_hash(sha256: &str) -> &str {
    &sha256[..sha256.len().min(12)]
}

/// The model settings a replay must use: the ones every request of the
/// transcript was made with (a request's key covers them, so any other
/// settings would find no reply).
pub fn replay_settings(transcript: &Transcript) -> Result<Settings, TranscriptFileError> {
    let mut exchanges = transcript.exchanges();
    let first = exchanges.next().ok_or(TranscriptFileError::Empty)?;
    let wanted = first.request.settings();
    if let Some(other) = exchanges.find(|e| e.request.settings() != wanted) {
        return Err(TranscriptFileError::MixedSettings {
            model: wanted.model,
            temperature: wanted.temperature,
            other_model: other.request.model.clone(),
            other_temperature: other.request.temperature,
        });
    }
    Ok(wanted)
}

#[cfg(test)]
mod tests {
    use super::*;
    use nomos_core::llm::{ChatReply, ChatRequest, Message, Role, Usage};

    fn request(model: &str, text: &str) -> ChatRequest {
        ChatRequest {
            model: model.into(),
            messages: vec![Message {
                role: Role::User,
                content: text.into(),
            }],
            temperature: 0.0,
            seed: Some(0),
            max_tokens: Some(1024),
            context: None,
            schema: None,
            prompt_version: "en/v1".into(),
        }
    }

    fn reply(text: &str, millis: f64) -> ChatReply {
        ChatReply {
            content: text.into(),
            reasoning: None,
            model: "answering-model".into(),
            usage: Usage {
                prompt_tokens: 3,
                completion_tokens: 1,
            },
            millis,
            retried: Default::default(),
        }
    }

    fn transcript() -> Transcript {
        let mut t = Transcript::new();
        t.insert(request("m", "a"), reply("{}", 1_234.567_890_123_4));
        t.insert(request("m", "b"), reply("{\"query\": \"x\"}", 0.1 + 0.2));
        t
    }

    #[test]
    fn the_canonical_text_survives_a_parse_byte_for_byte() {
        let (text, sha) = canonical(&transcript());
        let again = Transcript::parse(&text).unwrap();
        assert_eq!(canonical(&again), (text.clone(), sha.clone()));
        assert_eq!(sha256_of(&sha).as_deref(), Some(sha.as_str()));
    }

    #[test]
    fn replays_use_the_recorded_settings() {
        let t = transcript();
        assert_eq!(
            replay_settings(&t).unwrap(),
            Settings {
                model: "m".into(),
                prompts: Some("en/v1".into()),
                ..Settings::default()
            }
        );
        let mut mixed = t.clone();
        mixed.insert(request("other", "c"), reply("{}", 1.0));
        assert_eq!(
            replay_settings(&mixed).unwrap_err().to_string(),
            "the transcript mixes model settings (m at temperature 0 and other at temperature 0); \
             a replay can use one"
        );
        assert_eq!(
            replay_settings(&Transcript::new()).unwrap_err().to_string(),
            "the transcript is empty: it has no replies to replay"
        );
    }

    #[test]
    fn metadata_lists_models_and_prompts_once() {
        let t = transcript();
        let (text, sha) = canonical(&t);
        let meta = TranscriptMeta::describe(&t, &text, &sha, "x".into(), Origin::File, None, 0.0);
        assert_eq!(meta.exchanges, 2);
        assert_eq!(
            (
                meta.model.as_str(),
                meta.answered_by.as_str(),
                meta.prompts.as_str()
            ),
            ("m", "answering-model", "en/v1")
        );
        assert_eq!(meta.short().len(), 12);
    }

    #[test]
    fn only_plain_paths_under_the_site_are_accepted() {
        assert_eq!(
            site_path("transcripts/stard-react.jsonl").unwrap(),
            "transcripts/stard-react.jsonl"
        );
        for bad in [
            "",
            "/transcripts/x.jsonl",
            "../x.jsonl",
            "transcripts/../../x",
            "transcripts//x",
            "http://evil.example/x.jsonl",
            "//evil.example/x.jsonl",
            "transcripts/x.jsonl?y",
            "transcripts/x.jsonl#y",
            "transcripts\\x.jsonl",
            "transcripts/%2e%2e/x",
            "./x",
        ] {
            assert!(site_path(bad).is_err(), "{bad:?} accepted");
        }
        let page = "http://127.0.0.1:8080";
        assert_eq!(
            under_site(page, "/nomos/transcripts/a.jsonl", page, "/nomos/").unwrap(),
            "transcripts/a.jsonl"
        );
        assert!(
            under_site("http://evil.example", "/transcripts/a.jsonl", page, "/")
                .unwrap_err()
                .to_string()
                .contains("this site only")
        );
        assert!(under_site(page, "/other/a.jsonl", page, "/nomos/").is_err());
    }

    #[test]
    fn the_site_index_is_checked() {
        let sha = "ab".repeat(32);
        let good = format!(
            r#"{{"format_version": 1, "transcripts": [{{"file": "stard.jsonl", "name": "n",
            "pool": "stard.blob", "method": "react-bm25", "sha256": "{}", "model": "m"}}]}}"#,
            sha.to_uppercase()
        );
        let index = SiteIndex::from_json(good.as_bytes()).unwrap();
        assert_eq!(index.find(&sha).unwrap().path(), "transcripts/stard.jsonl");
        let bad_hash = good.replace(&sha.to_uppercase(), "abc");
        assert!(SiteIndex::from_json(bad_hash.as_bytes()).is_err());
        let bad_path = good.replace("stard.jsonl", "../stard.jsonl");
        assert!(SiteIndex::from_json(bad_path.as_bytes()).is_err());
        let empty = br#"{"format_version": 1, "transcripts": []}"#;
        assert!(SiteIndex::from_json(empty).unwrap().transcripts.is_empty());
        assert!(SiteIndex::from_json(br#"{"format_version": 2, "transcripts": []}"#).is_err());
        let searches = good.replace(r#""model": "m""#, r#""model": "m", "searches": ["α β"]"#);
        let index = SiteIndex::from_json(searches.as_bytes()).unwrap();
        assert_eq!(index.transcripts[0].searches, ["α β"]);
        assert!(index.transcripts[0].queries.is_none());
        let empty_search = searches.replace("α β", " ");
        assert_eq!(
            SiteIndex::from_json(empty_search.as_bytes()),
            Err(TranscriptFileError::EmptySearch {
                file: "stard.jsonl".into()
            })
        );
    }

    /// Every transcript the site ships reads back to its own bytes, with
    /// the SHA-256 its list names (the app replays them by that name).
    #[test]
    fn shipped_transcripts_are_canonical_and_listed_by_their_hash() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../public/transcripts");
        let index = SiteIndex::from_json(&std::fs::read(dir.join("index.json")).unwrap()).unwrap();
        assert!(!index.transcripts.is_empty());
        for entry in &index.transcripts {
            let text = std::fs::read_to_string(dir.join(&entry.file)).unwrap();
            let transcript = Transcript::parse(&text).unwrap();
            let (again, sha) = canonical(&transcript);
            assert!(again == text, "{} is not canonical", entry.file);
            assert_eq!(sha, entry.sha256, "{}", entry.file);
        }
    }
}
