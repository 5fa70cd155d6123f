//! What to do when an exchange with an LLM endpoint fails, and how to say
//! so. One retry, after a pause, for what may pass (the network, a
//! timeout, 429, 5xx); a 400 that names the JSON schema gets the request
//! again with only `json_object` asked for (some endpoints refuse
//! schemas); everything else ends the run with a message that says what
//! to change.

/// How a request failed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Failure<'a> {
    /// No answer (the browser's message).
    Network(&'a str),
    /// The page's Content-Security-Policy refused the address.
    Blocked { directive: &'a str },
    /// No whole answer in time.
    Timeout,
    /// An answer that is not a success.
    Status {
        status: u16,
        body: &'a [u8],
        retry_after: Option<f64>,
    },
}

/// What the transport does next.
#[derive(Debug, Clone, PartialEq)]
pub enum Next {
    /// Send the same request again after this many milliseconds.
    Retry { after_ms: u32 },
    /// Send it again asking for `json_object` instead of the schema.
    WithoutSchema,
    /// Give up with this message.
    Fail(String),
}

/// Where the request went, and what has been tried.
#[derive(Debug, Clone, Copy)]
pub struct Attempt<'a> {
    /// The completions URL.
    pub url: &'a str,
    pub origin: &'a str,
    /// This page's origin, which the endpoint's CORS setting must allow.
    pub page_origin: &'a str,
    pub timeout_ms: u32,
    /// Whether the one retry was used.
    pub retried: bool,
    /// Whether the request asked for a JSON schema.
    pub schema: bool,
}

/// The pause before the retry, unless the server asks for another
/// (capped: a server asking for minutes is better reported than awaited).
const BACKOFF_MS: u32 = 1000;
const MAX_RETRY_AFTER_MS: f64 = 30_000.0;

/// Decides what follows `failure`.
pub fn next(failure: Failure<'_>, at: Attempt<'_>) -> Next {
    let retry = |after_ms: u32| match at.retried {
        false => Some(Next::Retry { after_ms }),
        true => None,
    };
    match failure {
        Failure::Blocked { directive } => Next::Fail(format!(
            "this page's Content-Security-Policy ({directive}) does not allow {}: the site's \
             host must add it to connect-src (see the README's “LLM methods in the browser”)",
            at.origin
        )),
        Failure::Network(message) => retry(BACKOFF_MS).unwrap_or_else(|| {
            Next::Fail(format!(
                "could not reach {} ({message}). Either nothing answers there (is the server \
                 running?), or it does not allow requests from this page's origin {} (CORS): \
                 llama.cpp's server allows any origin; Ollama needs OLLAMA_ORIGINS={}",
                at.url, at.page_origin, at.page_origin
            ))
        }),
        Failure::Timeout => retry(BACKOFF_MS).unwrap_or_else(|| {
            Next::Fail(format!(
                "{} gave no answer within {} s, twice; raise the timeout or lower max tokens",
                at.origin,
                at.timeout_ms / 1000
            ))
        }),
        Failure::Status {
            status,
            body,
            retry_after,
        } => {
            let said = endpoint_message(body);
            let transient = status == 429 || status >= 500;
            if transient {
                let after = retry_after
                    .map(|s| (s * 1000.0).min(MAX_RETRY_AFTER_MS) as u32)
                    .unwrap_or(BACKOFF_MS);
                if let Some(next) = retry(after) {
                    return next;
                }
            }
            let lower = said.to_lowercase();
            if status == 400
                && at.schema
                && ["json_schema", "response_format", "schema"]
                    .iter()
                    .any(|w| lower.contains(w))
            {
                return Next::WithoutSchema;
            }
            Next::Fail(match status {
                401 | 403 => format!(
                    "{} refused the request ({status}): {said}. Check the API key",
                    at.origin
                ),
                404 => format!(
                    "{} was not found (404): {said}. The base URL usually ends in /v1",
                    at.url
                ),
                429 => format!("{} is limiting requests (429), twice: {said}", at.origin),
                _ if status >= 500 => {
                    format!("{} failed ({status}), twice: {said}", at.origin)
                }
                _ => format!("{} answered {status}: {said}", at.origin),
            })
        }
    }
}

/// What an error body says: the OpenAI-style `error.message` (or
/// `error` as text), else the start of the body.
pub fn endpoint_message(body: &[u8]) -> String {
    const SHOWN: usize = 300;
    let text = String::from_utf8_lossy(body);
    let from_json = serde_json::from_str::<serde_json::Value>(&text)
        .ok()
        .and_then(|v| {
            let error = v.get("error")?;
            error
                .get("message")
                .and_then(|m| m.as_str())
                .or_else(|| error.as_str())
                .map(str::to_owned)
        });
    let said = from_json.unwrap_or_else(|| text.trim().to_owned());
    match said.is_empty() {
        true => "no message".to_owned(),
        false => said.chars().take(SHOWN).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn attempt(retried: bool, schema: bool) -> Attempt<'static> {
        Attempt {
            url: "http://127.0.0.1:8089/v1/chat/completions",
            origin: "http://127.0.0.1:8089",
            page_origin: "http://127.0.0.1:8080",
            timeout_ms: 120_000,
            retried,
            schema,
        }
    }

    fn status(status: u16, body: &str, retry_after: Option<f64>) -> Failure<'_> {
        Failure::Status {
            status,
            body: body.as_bytes(),
            retry_after,
        }
    }

    #[test]
    fn transient_failures_are_retried_once() {
        for failure in [
            Failure::Network("Failed to fetch"),
            Failure::Timeout,
            status(500, "oops", None),
            status(503, "", None),
        ] {
            assert_eq!(
                next(failure, attempt(false, true)),
                Next::Retry { after_ms: 1000 },
                "{failure:?}"
            );
            assert!(matches!(next(failure, attempt(true, true)), Next::Fail(_)));
        }
        assert_eq!(
            next(status(429, "", Some(2.5)), attempt(false, true)),
            Next::Retry { after_ms: 2500 }
        );
        assert_eq!(
            next(status(429, "", Some(3600.0)), attempt(false, true)),
            Next::Retry { after_ms: 30_000 }
        );
    }

    #[test]
    fn a_refused_schema_falls_back_to_json_object() {
        let refusal = r#"{"error": {"message": "response_format json_schema is not supported"}}"#;
        assert_eq!(
            next(status(400, refusal, None), attempt(false, true)),
            Next::WithoutSchema
        );
        // Already without a schema, or another complaint: a failure.
        assert!(matches!(
            next(status(400, refusal, None), attempt(false, false)),
            Next::Fail(_)
        ));
        let Next::Fail(m) = next(status(400, "bad temperature", None), attempt(false, true)) else {
            panic!()
        };
        assert!(m.contains("answered 400: bad temperature"), "{m}");
    }

    #[test]
    fn messages_say_what_to_change() {
        let fail = |f: Failure<'_>| match next(f, attempt(true, true)) {
            Next::Fail(m) => m,
            other => panic!("{other:?}"),
        };
        let unreachable = fail(Failure::Network("Failed to fetch"));
        assert!(
            unreachable.contains("OLLAMA_ORIGINS=http://127.0.0.1:8080"),
            "{unreachable}"
        );
        assert!(unreachable.contains("CORS"));
        let key = fail(status(
            401,
            r#"{"error":{"message":"Invalid API Key"}}"#,
            None,
        ));
        assert!(
            key.contains("(401): Invalid API Key") && key.contains("API key"),
            "{key}"
        );
        assert!(fail(status(404, "", None)).contains("/v1"));
        let csp = fail(Failure::Blocked {
            directive: "connect-src",
        });
        assert!(
            csp.contains("Content-Security-Policy (connect-src)") && csp.contains("127.0.0.1:8089")
        );
        assert!(fail(Failure::Timeout).contains("120 s"));
    }

    #[test]
    fn error_bodies_are_read_briefly() {
        assert_eq!(
            endpoint_message(br#"{"error": "model not found"}"#),
            "model not found"
        );
        assert_eq!(endpoint_message(b"  "), "no message");
        assert_eq!(endpoint_message(&[b'x'; 1000]).len(), 300);
    }
}
