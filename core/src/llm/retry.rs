//! What a transport does when an exchange with an LLM endpoint fails: one
//! policy for the browser and the CLI, kept as a state machine with no I/O
//! and no clock of its own. The transport makes an attempt, tells
//! [`Retry::next`] how it failed and what time it is, and is told to wait
//! and send the request again, to send it at once in a less strict
//! [`ResponseFormat`], or to give up; it words the message itself (a page
//! and a terminal say different things about what to change).
//!
//! The policy (docs/llm-failures.md says why this one):
//! - what may pass (no answer, a timeout, 429, 5xx) is tried again up to
//!   [`Policy::retries`] times, after 1 s, 2 s, 4 s…, or after as long as
//!   the server's `Retry-After` asks (seconds or an HTTP date); a server
//!   asking for more than [`MAX_RETRY_AFTER_MS`] is reported, not awaited;
//! - a 400 that names the response format or the schema moves to the next
//!   format (a JSON schema, then a JSON object, then none) at once and
//!   without spending a retry; the transport keeps it for the rest of
//!   the run, since the endpoint will refuse it again;
//! - anything else ends the exchange at once.

use serde_json::Value;

use super::chat::{ResponseFormat, Retried};

/// The longest wait a `Retry-After` may ask for; beyond it the exchange
/// gives up with [`GiveUp::WaitTooLong`].
pub const MAX_RETRY_AFTER_MS: u64 = 60_000;

/// How persistent a transport is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Policy {
    /// Attempts after the first, for failures that may pass.
    pub retries: u32,
    /// The first wait before a retry; each later one doubles it.
    pub backoff_ms: u64,
}

impl Default for Policy {
    /// Three retries, after 1 s, 2 s and 4 s.
    fn default() -> Self {
        Policy {
            retries: 3,
            backoff_ms: 1000,
        }
    }
}

/// How an attempt failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Failure<'a> {
    /// No answer, and another attempt may get one: nothing answered, the
    /// connection broke, or no whole answer came in time.
    NoAnswer,
    /// No answer, and none will come by asking again (an address the page
    /// may not reach, a malformed URL, TLS).
    Unreachable,
    /// An answer that is not a success.
    Status {
        /// The HTTP status.
        status: u16,
        /// The answer's body.
        body: &'a [u8],
        /// The `Retry-After` header as sent, if any.
        retry_after: Option<&'a str>,
    },
}

/// What the transport does next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Next {
    /// Send the request again, as before, after `ms` milliseconds.
    Wait {
        /// How long to wait.
        ms: u64,
    },
    /// Send it again at once in this format, and keep to it.
    Fallback(ResponseFormat),
    /// Stop: the failure is the exchange's error.
    GiveUp(GiveUp),
}

/// Why the exchange ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GiveUp {
    /// Asking again would not help.
    Final,
    /// It failed every time, in this many attempts.
    Exhausted {
        /// Attempts made.
        attempts: u32,
    },
    /// The server asked to wait this many milliseconds, more than
    /// [`MAX_RETRY_AFTER_MS`].
    WaitTooLong {
        /// What the server asked for.
        ms: u64,
    },
}

/// One request's attempts so far.
#[derive(Debug, Clone)]
pub struct Retry {
    policy: Policy,
    /// What was retried so far.
    retried: Retried,
}

impl Retry {
    /// A request's first attempt is under way.
    pub fn new(policy: Policy) -> Retry {
        Retry {
            policy,
            retried: Retried::default(),
        }
    }

    /// The attempts repeated so far.
    pub fn retried(&self) -> Retried {
        self.retried
    }

    /// What follows `failure` of an attempt that asked for `format`, at
    /// `now_ms` (milliseconds since the Unix epoch; it dates a
    /// `Retry-After` given as an HTTP date).
    pub fn next(&mut self, failure: Failure<'_>, format: ResponseFormat, now_ms: u64) -> Next {
        let asked_ms = match failure {
            Failure::Unreachable => return Next::GiveUp(GiveUp::Final),
            Failure::NoAnswer => None,
            Failure::Status {
                status: 400, body, ..
            } if refuses_format(body) => {
                return match format.next() {
                    Some(next) => {
                        self.retried.fallbacks += 1;
                        Next::Fallback(next)
                    }
                    None => Next::GiveUp(GiveUp::Final),
                }
            }
            Failure::Status {
                status,
                retry_after,
                ..
            } if status == 429 || status >= 500 => {
                retry_after.and_then(|v| retry_after_ms(v, now_ms))
            }
            Failure::Status { .. } => return Next::GiveUp(GiveUp::Final),
        };
        if self.retried.http == self.policy.retries {
            return Next::GiveUp(GiveUp::Exhausted {
                attempts: self.retried.http + 1,
            });
        }
        let ms = match asked_ms {
            Some(ms) if ms > MAX_RETRY_AFTER_MS => return Next::GiveUp(GiveUp::WaitTooLong { ms }),
            Some(ms) => ms,
            None => self
                .policy
                .backoff_ms
                .saturating_mul(1 << self.retried.http.min(32)),
        };
        self.retried.http += 1;
        Next::Wait { ms }
    }
}

/// Whether a 400's body is about the response format or the schema.
fn refuses_format(body: &[u8]) -> bool {
    let text = String::from_utf8_lossy(body).to_lowercase();
    ["response_format", "json_schema", "schema", "json_object"]
        .iter()
        .any(|w| text.contains(w))
}

/// How long a `Retry-After` value asks to wait: whole seconds, or an
/// HTTP date (`Sun, 06 Nov 1994 08:49:37 GMT`) after `now_ms`. `None`
/// for anything else.
fn retry_after_ms(value: &str, now_ms: u64) -> Option<u64> {
    let value = value.trim();
    if let Ok(seconds) = value.parse::<u64>() {
        return Some(seconds.saturating_mul(1000));
    }
    http_date_ms(value).map(|at| at.saturating_sub(now_ms))
}

/// An IMF-fixdate (RFC 9110's preferred HTTP date) in milliseconds since
/// the Unix epoch.
fn http_date_ms(text: &str) -> Option<u64> {
    let (_, rest) = text.split_once(", ")?;
    let parts: Vec<&str> = rest.split(' ').collect();
    let [day, month, year, time, "GMT"] = parts[..] else {
        return None;
    };
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let month = MONTHS.iter().position(|m| *m == month)? as u64 + 1;
    let (day, year): (u64, u64) = (day.parse().ok()?, year.parse().ok()?);
    let hms: Vec<u64> = time
        .split(':')
        .map(|p| p.parse().ok())
        .collect::<Option<_>>()?;
    let [h, m, s] = hms[..] else {
        return None;
    };
    if !(1..=31).contains(&day) || year < 1970 || h > 23 || m > 59 || s > 60 {
        return None;
    }
    // Days since 1970-01-01 of a proleptic Gregorian date, counting years
    // from March so that the leap day comes last.
    let (y, mp) = match month > 2 {
        true => (year, month - 3),
        false => (year - 1, month + 9),
    };
    let era_days = y / 400 * 146_097;
    let yoe = y % 400;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = (era_days + doe).checked_sub(719_468)?;
    Some(((days * 24 + h) * 60 + m) * 60_000 + s * 1000)
}

/// What an endpoint's error body says: `error.message` (OpenAI,
/// llama.cpp), `error` as text (Ollama), `message` (vLLM) or `detail`,
/// else the start of the body.
pub fn endpoint_message(body: &[u8]) -> String {
    let text = String::from_utf8_lossy(body);
    let from_json = serde_json::from_str::<Value>(&text).ok().and_then(|v| {
        let error = v.get("error");
        error
            .and_then(|e| e.get("message"))
            .or(error)
            .or_else(|| v.get("message"))
            .or_else(|| v.get("detail"))
            .and_then(Value::as_str)
            .map(str::to_owned)
    });
    match from_json {
        Some(message) => message,
        None if text.trim().is_empty() => "(an empty body)".to_owned(),
        None => cut(text.trim()),
    }
}

/// How much of an unreadable body a message quotes, in characters.
const QUOTED: usize = 300;

/// The start of `text`, `…` marking a cut.
pub fn cut(text: &str) -> String {
    match text.char_indices().nth(QUOTED) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCHEMA: ResponseFormat = ResponseFormat::JsonSchema;

    fn status<'a>(status: u16, body: &'a str, retry_after: Option<&'a str>) -> Failure<'a> {
        Failure::Status {
            status,
            body: body.as_bytes(),
            retry_after,
        }
    }

    /// Every decision for `failure` repeated until the policy gives up.
    fn decisions(failure: Failure<'_>) -> Vec<Next> {
        let mut retry = Retry::new(Policy::default());
        let mut out = Vec::new();
        loop {
            let next = retry.next(failure, SCHEMA, 0);
            out.push(next);
            if matches!(next, Next::GiveUp(_)) {
                return out;
            }
        }
    }

    #[test]
    fn what_may_pass_is_retried_three_times_with_doubling_waits() {
        for failure in [
            Failure::NoAnswer,
            status(500, "oops", None),
            status(503, "", None),
        ] {
            assert_eq!(
                decisions(failure),
                [
                    Next::Wait { ms: 1000 },
                    Next::Wait { ms: 2000 },
                    Next::Wait { ms: 4000 },
                    Next::GiveUp(GiveUp::Exhausted { attempts: 4 }),
                ],
                "{failure:?}"
            );
        }
    }

    #[test]
    fn each_wait_and_each_fallback_is_counted_once() {
        let mut retry = Retry::new(Policy::default());
        assert!(retry.retried().is_none());
        let refusal = status(400, "json_schema is not supported", None);
        retry.next(Failure::NoAnswer, SCHEMA, 0);
        retry.next(refusal, SCHEMA, 0);
        retry.next(status(503, "", None), ResponseFormat::JsonObject, 0);
        retry.next(status(404, "", None), ResponseFormat::JsonObject, 0);
        let counted = Retried {
            http: 2,
            fallbacks: 1,
        };
        assert_eq!(retry.retried(), counted, "the 404 ends it, uncounted");
        // Running out of retries adds none.
        for _ in 0..3 {
            retry.next(Failure::NoAnswer, ResponseFormat::JsonObject, 0);
        }
        assert_eq!(retry.retried().http, 3);
    }

    #[test]
    fn retry_after_is_honoured_up_to_a_minute_in_seconds_or_as_a_date() {
        let mut retry = Retry::new(Policy::default());
        let wait = |retry: &mut Retry, value: &str, now_ms: u64| {
            retry.next(status(429, "", Some(value)), SCHEMA, now_ms)
        };
        assert_eq!(wait(&mut retry, "2", 0), Next::Wait { ms: 2000 });
        // 1994-11-06 08:49:37 UTC is 784111777 s after the epoch.
        let date = "Sun, 06 Nov 1994 08:49:37 GMT";
        assert_eq!(
            wait(&mut retry, date, 784_111_777_000 - 1500),
            Next::Wait { ms: 1500 }
        );
        assert_eq!(
            wait(&mut retry, date, 784_111_777_000 + 5000),
            Next::Wait { ms: 0 },
            "a date past is no wait"
        );
        // An unreadable value: the policy's own backoff.
        let mut fresh = Retry::new(Policy::default());
        assert_eq!(wait(&mut fresh, "soon", 0), Next::Wait { ms: 1000 });
        // Asking for an hour is reported, not awaited.
        assert_eq!(
            wait(&mut fresh, "3600", 0),
            Next::GiveUp(GiveUp::WaitTooLong { ms: 3_600_000 })
        );
    }

    #[test]
    fn a_refused_format_falls_back_step_by_step_without_spending_retries() {
        let refusal = r#"{"error": {"message": "response_format json_schema is not supported"}}"#;
        let mut retry = Retry::new(Policy {
            retries: 0,
            backoff_ms: 1000,
        });
        let refused = status(400, refusal, None);
        assert_eq!(
            retry.next(refused, ResponseFormat::JsonSchema, 0),
            Next::Fallback(ResponseFormat::JsonObject)
        );
        assert_eq!(
            retry.next(refused, ResponseFormat::JsonObject, 0),
            Next::Fallback(ResponseFormat::Unconstrained)
        );
        assert_eq!(
            retry.next(refused, ResponseFormat::Unconstrained, 0),
            Next::GiveUp(GiveUp::Final)
        );
        let counted = Retried {
            http: 0,
            fallbacks: 2,
        };
        assert_eq!(
            retry.retried(),
            counted,
            "a refusal given up on is no fallback"
        );
        // Another complaint, or no hope of an answer: at once.
        for failure in [
            status(400, "bad temperature", None),
            status(401, "Invalid API Key", None),
            status(404, "", None),
            Failure::Unreachable,
        ] {
            assert_eq!(decisions(failure), [Next::GiveUp(GiveUp::Final)]);
        }
    }

    #[test]
    fn http_dates_are_read_exactly_and_others_refused() {
        assert_eq!(http_date_ms("Thu, 01 Jan 1970 00:00:00 GMT"), Some(0));
        assert_eq!(
            http_date_ms("Tue, 29 Feb 2000 23:59:59 GMT"),
            Some(951_868_799_000)
        );
        for bad in [
            "",
            "Thu, 01 Jan 1970 00:00:00 UTC",
            "Thursday, 01-Jan-70 00:00:00 GMT",
            "Thu, 01 Foo 1970 00:00:00 GMT",
            "Thu, 01 Jan 1970 24:00:00 GMT",
            "Thu, 00 Jan 1970 00:00:00 GMT",
        ] {
            assert_eq!(http_date_ms(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn error_bodies_are_read_as_each_endpoint_writes_them() {
        let said = |body: &str| endpoint_message(body.as_bytes());
        assert_eq!(said(r#"{"error": {"message": "no slot"}}"#), "no slot");
        assert_eq!(said(r#"{"error": "model not found"}"#), "model not found");
        assert_eq!(said(r#"{"message": "vllm says"}"#), "vllm says");
        assert_eq!(said(r#"{"detail": "Not Found"}"#), "Not Found");
        assert_eq!(said("  "), "(an empty body)");
        let long = said(&"x".repeat(1000));
        assert_eq!(long.chars().count(), QUOTED + 1);
        assert!(long.ends_with('…'));
    }
}
