//! One JSON POST to another origin (an LLM endpoint), with a time limit
//! and a Cancel that reaches the request in flight: a cancelled run must
//! not leave the endpoint generating for nobody. No cookies and no
//! referrer go with it: the endpoint gets the body and, when given, the
//! key, nothing about the page.

use std::convert::Infallible;

use js_sys::Array;
use leptos::prelude::window;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{
    AbortSignal, Headers, ReferrerPolicy, RequestCache, RequestCredentials, RequestInit,
    RequestMode, Response,
};

use super::fetch::{read_response, FetchError, StreamError};
use super::js_message;
use super::limit::{Cap, Limit};

/// What came back: any HTTP status (the caller decides what each means).
#[derive(Debug, Clone, PartialEq)]
pub struct HttpReply {
    pub status: u16,
    pub body: Vec<u8>,
    /// The `Retry-After` header, as sent.
    pub retry_after: Option<String>,
}

/// Why nothing came back.
#[derive(Debug, Clone, PartialEq)]
pub enum HttpError {
    /// The request failed before an answer: nothing listens there, the
    /// answer lacked CORS headers for this origin, or the page's
    /// Content-Security-Policy refused the address (browsers do not say
    /// which; see [`super::csp`]).
    Network(String),
    /// No whole answer within the time limit.
    Timeout,
    /// `cancel` fired.
    Cancelled,
    /// The answer went past its cap, and was not read further.
    TooLarge(String),
}

/// POSTs `body` (JSON text) to `url` with `bearer` as the
/// `Authorization` when given, and reads the whole answer, up to `cap`.
/// `cancel` aborts it, as does `timeout_ms`.
pub async fn post_json(
    url: &str,
    bearer: Option<&str>,
    body: &str,
    timeout_ms: u32,
    cancel: &AbortSignal,
    cap: Cap,
) -> Result<HttpReply, HttpError> {
    let timeout = AbortSignal::timeout_with_u32(timeout_ms);
    let signal = AbortSignal::any(&Array::of2(cancel, &timeout));
    let why = |e: JsValue| match (cancel.aborted(), timeout.aborted()) {
        (true, _) => HttpError::Cancelled,
        (false, true) => HttpError::Timeout,
        (false, false) => HttpError::Network(js_message(&e)),
    };
    let headers = Headers::new().map_err(why)?;
    headers
        .set("Content-Type", "application/json")
        .map_err(why)?;
    if let Some(key) = bearer {
        headers
            .set("Authorization", &format!("Bearer {key}"))
            .map_err(why)?;
    }
    let init = RequestInit::new();
    init.set_method("POST");
    init.set_mode(RequestMode::Cors);
    init.set_credentials(RequestCredentials::Omit);
    init.set_referrer_policy(ReferrerPolicy::NoReferrer);
    init.set_cache(RequestCache::NoStore);
    init.set_headers(&headers);
    init.set_body(&JsValue::from_str(body));
    init.set_signal(Some(&signal));
    let response: Response = JsFuture::from(window().fetch_with_str_and_init(url, &init))
        .await
        .and_then(|r| r.dyn_into())
        .map_err(why)?;
    let mut body = Vec::new();
    let read = read_response(
        url,
        &response,
        Limit::Cap(cap),
        |_, _| {},
        |data| {
            body.extend_from_slice(&data.to_vec());
            Ok::<(), Infallible>(())
        },
    )
    .await;
    match read {
        Ok(()) => {}
        Err(StreamError::Read(FetchError::TooLarge(e))) => {
            return Err(HttpError::TooLarge(e.to_string()))
        }
        // A stream that fails mid-answer says so the way the request does.
        Err(StreamError::Read(e)) => return Err(why(JsValue::from_str(&e.to_string()))),
        Err(StreamError::Refused(never)) => match never {},
    }
    let retry_after = response.headers().get("retry-after").ok().flatten();
    Ok(HttpReply {
        status: response.status(),
        body,
        retry_after,
    })
}

/// The browser lacks AbortController, so requests cannot be cancelled.
#[derive(Debug, Clone, PartialEq)]
pub struct CancelUnsupported(pub String);

impl std::fmt::Display for CancelUnsupported {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "this browser cannot cancel requests: {}", self.0)
    }
}

impl std::error::Error for CancelUnsupported {}

/// A Cancel for a group of requests: every request given its
/// [`signal`](Canceller::signal) is aborted by one [`cancel`](Canceller::cancel).
#[derive(Clone)]
pub struct Canceller(web_sys::AbortController);

impl Canceller {
    /// A new group; `Err` only where the browser lacks AbortController.
    pub fn new() -> Result<Canceller, CancelUnsupported> {
        web_sys::AbortController::new()
            .map(Canceller)
            .map_err(|e| CancelUnsupported(js_message(&e)))
    }

    pub fn signal(&self) -> AbortSignal {
        self.0.signal()
    }

    pub fn cancel(&self) {
        self.0.abort();
    }
}
