//! An OpenAI-compatible chat endpoint as the user sets it up: where it
//! is, which model, and the sampling settings every request carries. The
//! address is checked before anything is sent (http or https, a host, no
//! credentials or fragment in it), because it is typed by hand and the
//! key goes wherever it points.
//!
//! The API key is not part of the settings: it stays in memory, and in
//! `localStorage` only when the user asks (the LLM store's business), and
//! it never reaches a link, a transcript or an export. It is bound to the
//! origin of the endpoint it was given for ([`BoundKey`]) and sent only
//! there. What the settings hold is kept in `localStorage` as JSON
//! ([`EndpointConfig::to_json`]).

use nomos_core::llm::fit::DEFAULT_CONTEXT;
use nomos_core::llm::{Settings, TokenLimitField};
use serde::{Deserialize, Serialize};

/// Requests wait this long by default: a small local model on two cores
/// needs about half a minute for a long observer prompt, and a server
/// with one slot queues concurrent requests.
pub const DEFAULT_TIMEOUT_SECS: u32 = 120;
/// Queries evaluated at once, at most.
pub const MAX_CONCURRENCY: usize = 8;
/// Longest reply allowed, in tokens.
const MAX_TOKENS: u32 = 1 << 20;
/// The smallest context window the form takes: below it no prompt fits.
const MIN_CONTEXT: u32 = 256;

/// How the reply length limit is named in requests.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LimitField {
    /// `max_tokens` (llama.cpp, vLLM, Ollama, LM Studio).
    #[default]
    MaxTokens,
    /// `max_completion_tokens` (OpenAI's newer models refuse the other).
    MaxCompletionTokens,
}

impl LimitField {
    pub fn name(self) -> &'static str {
        match self {
            LimitField::MaxTokens => "max_tokens",
            LimitField::MaxCompletionTokens => "max_completion_tokens",
        }
    }

    pub fn from_name(name: &str) -> Option<LimitField> {
        match name {
            "max_tokens" => Some(LimitField::MaxTokens),
            "max_completion_tokens" => Some(LimitField::MaxCompletionTokens),
            _ => None,
        }
    }

    fn core(self) -> TokenLimitField {
        match self {
            LimitField::MaxTokens => TokenLimitField::MaxTokens,
            LimitField::MaxCompletionTokens => TokenLimitField::MaxCompletionTokens,
        }
    }
}

/// The settings form's values (the key apart). Every number is kept in
/// range by [`EndpointConfig::clamped`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct EndpointConfig {
    /// As typed, e.g. `http://127.0.0.1:8080/v1`.
    pub base_url: String,
    /// The model name the endpoint knows.
    pub model: String,
    /// 0 (the default) for the most repeatable replies.
    pub temperature: f64,
    /// Sent where the endpoint honours one; none when empty.
    pub seed: Option<u64>,
    pub max_tokens: u32,
    pub limit_field: LimitField,
    pub timeout_secs: u32,
    /// The endpoint's context window in tokens, which ReAct's observer
    /// prompt is fitted to (`nomos_core::llm::fit`); llama.cpp's server
    /// reports its own at `/props` (`default_generation_settings.n_ctx`).
    pub context: u32,
    /// Benchmark queries evaluated at once.
    pub concurrency: usize,
    /// Runs ask the model loaded in the page (wllama) instead of the
    /// endpoint; the sampling settings above apply to either.
    pub in_page: bool,
}

impl Default for EndpointConfig {
    fn default() -> Self {
        let core = Settings::default();
        EndpointConfig {
            base_url: String::new(),
            model: String::new(),
            temperature: core.temperature,
            seed: core.seed,
            max_tokens: core.max_tokens.unwrap_or(1024),
            limit_field: LimitField::default(),
            timeout_secs: DEFAULT_TIMEOUT_SECS,
            context: DEFAULT_CONTEXT,
            concurrency: 1,
            in_page: false,
        }
    }
}

/// A usable endpoint: where to POST and what every request carries.
#[derive(Debug, Clone, PartialEq)]
pub struct Endpoint {
    /// `…/chat/completions`.
    pub url: String,
    /// `scheme://host:port`, for messages about CORS and CSP.
    pub origin: String,
    pub settings: Settings,
    pub limit: TokenLimitField,
    pub timeout_ms: u32,
}

impl EndpointConfig {
    /// This configuration with every number in its range: temperature in
    /// [0, 2], at least one token and at most 2^20, a timeout of 5 s to an
    /// hour, 1 to [`MAX_CONCURRENCY`] queries at once.
    pub fn clamped(mut self) -> Self {
        if !self.temperature.is_finite() {
            self.temperature = 0.0;
        }
        self.temperature = self.temperature.clamp(0.0, 2.0);
        self.max_tokens = self.max_tokens.clamp(1, MAX_TOKENS);
        self.timeout_secs = self.timeout_secs.clamp(5, 3600);
        self.context = self.context.clamp(MIN_CONTEXT, MAX_TOKENS);
        self.concurrency = self.concurrency.clamp(1, MAX_CONCURRENCY);
        self.base_url = self.base_url.trim().to_owned();
        self.model = self.model.trim().to_owned();
        self
    }

    /// The endpoint, or what is missing or wrong, in words for the form.
    pub fn endpoint(&self) -> Result<Endpoint, EndpointError> {
        let (base, origin) = base_url(&self.base_url)?;
        let model = self.model.trim();
        if model.is_empty() {
            return Err(EndpointError::NoModel);
        }
        Ok(Endpoint {
            url: format!("{base}/chat/completions"),
            origin,
            settings: self.settings(model),
            limit: self.limit_field.core(),
            timeout_ms: self.timeout_secs.saturating_mul(1000),
        })
    }

    /// What every request to `model` carries; the in-page model's
    /// context is the one it is loaded with.
    pub fn settings(&self, model: &str) -> Settings {
        Settings {
            model: model.to_owned(),
            temperature: self.temperature,
            seed: self.seed,
            max_tokens: Some(self.max_tokens),
            context: Some(match self.in_page {
                true => crate::llm::wllama::N_CTX,
                false => self.context,
            }),
            prompts: None,
        }
    }

    /// As kept in `localStorage` (never with a key: there is no field for
    /// one).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads [`EndpointConfig::to_json`]'s text leniently: what cannot be
    /// read is the default, numbers are clamped.
    pub fn from_json(text: &str) -> EndpointConfig {
        serde_json::from_str::<EndpointConfig>(text)
            .unwrap_or_default()
            .clamped()
    }
}

/// An API key and the origin of the endpoint it was given for. Requests
/// carry it to that origin only, so a changed address, typed or written
/// into `localStorage` by another page of a shared origin (a GitHub Pages
/// project site), never receives it. Kept as JSON ([`BoundKey::to_json`]).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoundKey {
    /// `scheme://host:port`; empty while no valid address was set.
    pub origin: String,
    pub key: String,
}

impl BoundKey {
    /// `key`, given for the endpoint `config` names.
    pub fn new(key: String, config: &EndpointConfig) -> BoundKey {
        BoundKey {
            origin: origin_of(config),
            key,
        }
    }

    /// The key, for a request to `origin`: only the one it is bound to.
    pub fn for_origin(&self, origin: &str) -> Option<&str> {
        let usable = !self.origin.is_empty() && self.origin == origin && !self.key.is_empty();
        usable.then_some(self.key.as_str())
    }

    /// After the address changed to `config`'s: a key given before any
    /// valid address is bound to this one; a bound key stays bound.
    pub fn rebound(self, config: &EndpointConfig) -> BoundKey {
        match self.origin.is_empty() {
            true => BoundKey::new(self.key, config),
            false => self,
        }
    }

    /// What the settings show for `config`'s endpoint: the key if it is
    /// its own (or not yet bound), else nothing.
    pub fn shown(&self, config: &EndpointConfig) -> &str {
        match self.origin.is_empty() || self.origin == origin_of(config) {
            true => &self.key,
            false => "",
        }
    }

    /// As kept in `localStorage`.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads [`BoundKey::to_json`]'s text; a bare key kept before keys
    /// were bound is none, since where it belongs is unknown.
    pub fn from_json(text: &str) -> Option<BoundKey> {
        serde_json::from_str(text).ok()
    }
}

/// The origin of `config`'s address, or nothing while it is not valid.
fn origin_of(config: &EndpointConfig) -> String {
    base_url(&config.base_url)
        .map(|(_, origin)| origin)
        .unwrap_or_default()
}

/// What is missing or wrong in the endpoint's settings, in words for the
/// form.
#[derive(Debug, Clone, PartialEq)]
pub enum EndpointError {
    NoUrl,
    /// Not `http://` or `https://` (`text`: the trimmed input).
    NotHttp {
        text: String,
    },
    Spaces,
    QueryOrFragment,
    /// `user:password@` in the URL.
    Credentials,
    BadPort {
        port: String,
    },
    BadHost {
        host: String,
    },
    NoModel,
}

impl std::fmt::Display for EndpointError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EndpointError::NoUrl => {
                f.write_str("Give the endpoint's base URL, e.g. http://127.0.0.1:8080/v1.")
            }
            EndpointError::NotHttp { text } => {
                write!(f, "“{text}” is not an http:// or https:// address.")
            }
            EndpointError::Spaces => f.write_str("The base URL has spaces in it."),
            EndpointError::QueryOrFragment => {
                f.write_str("The base URL cannot have a query (?) or fragment (#).")
            }
            EndpointError::Credentials => f.write_str(
                "Put the API key in its own field, not in the URL (user:password@ is refused).",
            ),
            EndpointError::BadPort { port } => write!(f, "“{port}” is not a port number."),
            EndpointError::BadHost { host } => write!(f, "“{host}” is not a host name."),
            EndpointError::NoModel => f.write_str("Name the model the endpoint should run."),
        }
    }
}

impl std::error::Error for EndpointError {}

/// Checks a typed base URL: `http://` or `https://`, a host (with an
/// optional port), no user name or password (the key has its own field),
/// no query or fragment. A pasted `…/chat/completions` is taken back to
/// its base, and a trailing `/` dropped. Returns the base and its origin.
pub fn base_url(text: &str) -> Result<(String, String), EndpointError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(EndpointError::NoUrl);
    }
    let rest = if let Some(rest) = text.strip_prefix("http://") {
        rest
    } else if let Some(rest) = text.strip_prefix("https://") {
        rest
    } else {
        return Err(EndpointError::NotHttp {
            text: text.to_owned(),
        });
    };
    if text.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(EndpointError::Spaces);
    }
    if text.contains(['?', '#']) {
        return Err(EndpointError::QueryOrFragment);
    }
    let (authority, path) = match rest.find('/') {
        Some(i) => (&rest[..i], &rest[i..]),
        None => (rest, ""),
    };
    if authority.contains('@') {
        return Err(EndpointError::Credentials);
    }
    let host = match authority.rsplit_once(':') {
        // An IPv6 literal's colons are inside brackets.
        Some((host, port)) if !port.contains(']') => {
            if port.is_empty() || !port.bytes().all(|b| b.is_ascii_digit()) || port.len() > 5 {
                return Err(EndpointError::BadPort {
                    port: port.to_owned(),
                });
            }
            host
        }
        _ => authority,
    };
    let host_ok = !host.is_empty()
        && host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-._[]:".contains(&b));
    if !host_ok {
        return Err(EndpointError::BadHost {
            host: host.to_owned(),
        });
    }
    let mut path = path.trim_end_matches('/');
    if let Some(base) = path.strip_suffix("/chat/completions") {
        path = base;
    }
    let scheme = &text[..text.len() - rest.len()];
    let origin = format!("{scheme}{}", authority.to_ascii_lowercase());
    Ok((format!("{origin}{path}"), origin))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_goes_only_to_the_origin_it_was_given_for() {
        let at = |url: &str| EndpointConfig {
            base_url: url.into(),
            model: "m".into(),
            ..EndpointConfig::default()
        };
        let (ours, other) = (
            at("https://api.example.org/v1"),
            at("http://evil.example:8080/v1"),
        );
        let origin = |c: &EndpointConfig| c.endpoint().unwrap().origin;
        let key = BoundKey::new("sk-1".into(), &ours);
        assert_eq!(key.for_origin(&origin(&ours)), Some("sk-1"));
        // The address changed (typed, or by another page of the origin).
        let moved = key.clone().rebound(&other);
        assert_eq!(moved.for_origin(&origin(&other)), None);
        assert_eq!((moved.shown(&other), moved.shown(&ours)), ("", "sk-1"));
        // Kept and read back bound; a bare key from before is not read.
        assert_eq!(BoundKey::from_json(&key.to_json()), Some(key));
        assert_eq!(BoundKey::from_json("sk-1"), None);
        // Typed before any address: bound to the first one set.
        let early = BoundKey::new("sk-2".into(), &EndpointConfig::default());
        assert_eq!(early.for_origin(""), None);
        let bound = early.rebound(&ours);
        assert_eq!(bound.for_origin(&origin(&ours)), Some("sk-2"));
        assert_eq!(bound.rebound(&other).for_origin(&origin(&other)), None);
    }

    #[test]
    fn base_urls_are_checked_and_normalised() {
        let ok = |s: &str| base_url(s).unwrap();
        assert_eq!(
            ok(" http://127.0.0.1:8089/v1/ "),
            (
                "http://127.0.0.1:8089/v1".to_owned(),
                "http://127.0.0.1:8089".to_owned()
            )
        );
        assert_eq!(
            ok("https://API.example.com/v1/chat/completions").0,
            "https://api.example.com/v1"
        );
        assert_eq!(ok("http://localhost:11434").0, "http://localhost:11434");
        assert_eq!(ok("http://[::1]:8080/v1").1, "http://[::1]:8080");
        for bad in [
            "",
            "127.0.0.1:8080/v1",
            "ftp://host/v1",
            "javascript:alert(1)",
            "http://user:secret@host/v1",
            "http://host/v1?key=x",
            "http://host/v1#x",
            "http://ho st/v1",
            "http://host:80a/v1",
            "http://host:/v1",
            "http:///v1",
            "http://<script>/",
        ] {
            assert!(base_url(bad).is_err(), "{bad:?} accepted");
        }
    }

    #[test]
    fn an_endpoint_needs_a_model_and_carries_the_settings() {
        let mut config = EndpointConfig {
            base_url: "http://127.0.0.1:8089/v1".into(),
            ..EndpointConfig::default()
        };
        assert_eq!(
            config.endpoint().unwrap_err().to_string(),
            "Name the model the endpoint should run."
        );
        config.model = "smollm2".into();
        config.limit_field = LimitField::MaxCompletionTokens;
        let e = config.endpoint().unwrap();
        assert_eq!(e.url, "http://127.0.0.1:8089/v1/chat/completions");
        assert_eq!(e.origin, "http://127.0.0.1:8089");
        assert_eq!(e.limit, TokenLimitField::MaxCompletionTokens);
        assert_eq!(e.timeout_ms, DEFAULT_TIMEOUT_SECS * 1000);
        // The defaults are core's (temperature 0, seed 0, 1024 tokens), and
        // the context window assumed for an endpoint that does not say.
        assert_eq!(
            e.settings,
            Settings {
                model: "smollm2".into(),
                context: Some(DEFAULT_CONTEXT),
                ..Settings::default()
            }
        );
    }

    #[test]
    fn stored_settings_read_back_clamped_and_hold_no_key() {
        let config = EndpointConfig {
            base_url: "http://localhost:11434/v1".into(),
            model: "llama3.1:8b".into(),
            seed: None,
            ..EndpointConfig::default()
        };
        let json = config.to_json();
        assert!(!json.to_lowercase().contains("key"), "{json}");
        assert_eq!(EndpointConfig::from_json(&json), config);
        let wild =
            r#"{"temperature": 9, "max_tokens": 0, "timeout_secs": 1, "concurrency": 99, "x": 1}"#;
        let read = EndpointConfig::from_json(wild);
        assert_eq!(
            (
                read.temperature,
                read.max_tokens,
                read.timeout_secs,
                read.concurrency
            ),
            (2.0, 1, 5, MAX_CONCURRENCY)
        );
        assert_eq!(
            EndpointConfig::from_json("not json"),
            EndpointConfig::default()
        );
    }
}
