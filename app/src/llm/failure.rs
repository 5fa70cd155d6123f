//! A failed exchange with an LLM endpoint as the page sees it, and what
//! the page says about it. Whether to try again is core's policy
//! ([`nomos_core::llm::retry`], the CLI's too); this says what to change:
//! the page's Content-Security-Policy, the endpoint's CORS setting, the
//! key, the address.

use nomos_core::llm::retry::{endpoint_message, Failure, GiveUp};

/// How a request failed, as the browser tells it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Failed<'a> {
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
        /// The `Retry-After` header as sent.
        retry_after: Option<&'a str>,
    },
}

impl<'a> Failed<'a> {
    /// As core's policy reads it: the page's own refusal is final, and
    /// the browser cannot tell a closed port from a CORS refusal, so any
    /// other failure without an answer may pass.
    pub fn failure(self) -> Failure<'a> {
        match self {
            Failed::Network(_) | Failed::Timeout => Failure::NoAnswer,
            Failed::Blocked { .. } => Failure::Unreachable,
            Failed::Status {
                status,
                body,
                retry_after,
            } => Failure::Status {
                status,
                body,
                retry_after,
            },
        }
    }
}

/// Where the request went.
#[derive(Debug, Clone, Copy)]
pub struct Sent<'a> {
    /// The completions URL.
    pub url: &'a str,
    pub origin: &'a str,
    /// This page's origin, which the endpoint's CORS setting must allow.
    pub page_origin: &'a str,
    pub timeout_ms: u32,
}

/// What the page says when the exchange gives up on `failed` for `why`.
pub fn message(failed: Failed<'_>, why: GiveUp, to: Sent<'_>) -> String {
    let times = match why {
        GiveUp::Exhausted { attempts } => format!(", {attempts} times"),
        _ => String::new(),
    };
    match failed {
        Failed::Blocked { directive } => format!(
            "this page's Content-Security-Policy ({directive}) does not allow {}: the site's \
             host must add it to connect-src (see docs/llm.md, “In the browser”)",
            to.origin
        ),
        Failed::Network(message) => format!(
            "could not reach {} ({message}{times}). Either nothing answers there (is the server \
             running?), or it does not allow requests from this page's origin {} (CORS): \
             llama.cpp's server allows any origin; Ollama needs OLLAMA_ORIGINS={}",
            to.url, to.page_origin, to.page_origin
        ),
        Failed::Timeout => format!(
            "{} gave no answer within {} s{times}; raise the timeout or lower max tokens",
            to.origin,
            to.timeout_ms / 1000
        ),
        Failed::Status { status, body, .. } => {
            let said = endpoint_message(body);
            match (status, why) {
                (_, GiveUp::WaitTooLong { ms }) => format!(
                    "{} asks to wait {} s before the next request ({status}): {said}. Try again \
                     later",
                    to.origin,
                    ms.div_ceil(1000)
                ),
                (401 | 403, _) => format!(
                    "{} refused the request ({status}): {said}. Check the API key",
                    to.origin
                ),
                (404, _) => format!(
                    "{} was not found (404): {said}. The base URL usually ends in /v1",
                    to.url
                ),
                (429, _) => format!("{} is limiting requests (429){times}: {said}", to.origin),
                (500.., _) => format!("{} failed ({status}){times}: {said}", to.origin),
                _ => format!("{} answered {status}: {said}", to.origin),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SENT: Sent<'static> = Sent {
        url: "http://127.0.0.1:8089/v1/chat/completions",
        origin: "http://127.0.0.1:8089",
        page_origin: "http://127.0.0.1:8080",
        timeout_ms: 120_000,
    };

    const TRIED: GiveUp = GiveUp::Exhausted { attempts: 4 };

    fn status(status: u16, body: &str) -> Failed<'_> {
        Failed::Status {
            status,
            body: body.as_bytes(),
            retry_after: None,
        }
    }

    #[test]
    fn only_the_pages_own_refusal_is_final() {
        assert_eq!(
            Failed::Blocked {
                directive: "connect-src"
            }
            .failure(),
            Failure::Unreachable
        );
        for failed in [Failed::Network("Failed to fetch"), Failed::Timeout] {
            assert_eq!(failed.failure(), Failure::NoAnswer);
        }
    }

    #[test]
    fn messages_say_what_to_change() {
        let unreachable = message(Failed::Network("Failed to fetch"), TRIED, SENT);
        assert!(
            unreachable.contains("OLLAMA_ORIGINS=http://127.0.0.1:8080"),
            "{unreachable}"
        );
        assert!(unreachable.contains("CORS") && unreachable.contains("4 times"));
        let key = message(
            status(401, r#"{"error":{"message":"Invalid API Key"}}"#),
            GiveUp::Final,
            SENT,
        );
        assert!(
            key.contains("(401): Invalid API Key") && key.contains("API key"),
            "{key}"
        );
        assert!(message(status(404, ""), GiveUp::Final, SENT).contains("/v1"));
        let csp = message(
            Failed::Blocked {
                directive: "connect-src",
            },
            GiveUp::Final,
            SENT,
        );
        assert!(
            csp.contains("Content-Security-Policy (connect-src)") && csp.contains("127.0.0.1:8089")
        );
        assert!(message(Failed::Timeout, TRIED, SENT).contains("120 s, 4 times"));
        let other = message(status(400, "bad temperature"), GiveUp::Final, SENT);
        assert!(other.contains("answered 400: bad temperature"), "{other}");
        let wait = message(
            status(429, "slow down"),
            GiveUp::WaitTooLong { ms: 3_600_000 },
            SENT,
        );
        assert!(wait.contains("asks to wait 3600 s"), "{wait}");
    }
}
