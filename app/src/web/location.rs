//! The page's own address: its origin (what an endpoint's CORS setting
//! must allow) and the directory the app is served from (what a
//! same-site URL must be under).

use std::fmt;

use leptos::prelude::{document, window};

use super::js_message;

/// Text that the browser does not take as a URL.
#[derive(Debug, Clone, PartialEq)]
pub struct UrlError {
    pub input: String,
    /// The browser's message.
    pub message: String,
}

impl fmt::Display for UrlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "“{}” is not a URL: {}", self.input, self.message)
    }
}

impl std::error::Error for UrlError {}

/// The page's origin, e.g. `http://127.0.0.1:8080`.
pub fn page_origin() -> String {
    window().location().origin().unwrap_or_default()
}

/// The path of the directory the app is served from, e.g. `/` or
/// `/nomos/`.
pub fn site_dir() -> String {
    let path = window().location().pathname().unwrap_or_default();
    match path.rfind('/') {
        Some(i) => path[..=i].to_owned(),
        None => "/".to_owned(),
    }
}

/// `input` (absolute, or relative to the page) resolved as the browser
/// would: its origin and its path.
pub fn resolve_url(input: &str) -> Result<(String, String), UrlError> {
    let base = document().base_uri().ok().flatten().unwrap_or_default();
    let url = web_sys::Url::new_with_base(input, &base).map_err(|e| UrlError {
        input: input.to_owned(),
        message: js_message(&e),
    })?;
    Ok((url.origin(), url.pathname()))
}
