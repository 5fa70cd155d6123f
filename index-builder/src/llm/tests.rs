//! The HTTP transport against a scripted server on 127.0.0.1: replies in
//! the shapes llama.cpp, Ollama and OpenAI send, the request body and
//! headers each endpoint gets, retries, the response-format fallback,
//! timeouts and the errors a user reads.

use std::time::Duration;

use nomos_core::llm::retry::Policy;
use nomos_core::llm::{
    ChatRequest, LlmError, Message, ResponseFormat, Retried, Role, Schema, TokenLimitField,
};
use serde_json::json;

use super::block_on::block_on;
use super::http::{completions_url, HttpChat, HttpConfig};
use nomos_core::llm::Chat;

#[path = "../../tests/support/loopback.rs"]
mod loopback;

use loopback::{Loopback, Reply};

fn request(question: &str) -> ChatRequest {
    ChatRequest {
        model: "test-model".into(),
        messages: vec![
            Message {
                role: Role::System,
                content: "Answer in JSON.".into(),
            },
            Message {
                role: Role::User,
                content: question.into(),
            },
        ],
        temperature: 0.0,
        seed: Some(0),
        max_tokens: Some(256),
        context: Some(8192),
        schema: Some(Schema {
            name: "query".into(),
            schema: json!({"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}),
        }),
        prompt_version: "en/v1".into(),
    }
}

fn config(url: String) -> HttpConfig {
    HttpConfig {
        url,
        api_key: None,
        limit: TokenLimitField::MaxTokens,
        timeout: Duration::from_secs(10),
        policy: Policy {
            retries: 3,
            backoff_ms: 5,
        },
    }
}

fn client(server: &Loopback) -> HttpChat {
    HttpChat::new(config(format!("{}/v1", server.base))).unwrap()
}

fn ask(http: &HttpChat, question: &str) -> Result<nomos_core::llm::ChatReply, LlmError> {
    block_on(http.chat(&request(question)))
}

fn transport_error(result: Result<nomos_core::llm::ChatReply, LlmError>) -> String {
    match result {
        Err(LlmError::Transport(message)) => message,
        other => panic!("expected a transport error, got {other:?}"),
    }
}

const LLAMA_CPP: &str = r#"{"choices":[{"finish_reason":"stop","index":0,"message":{"role":"assistant","content":"{\"query\": \"καταγγελία μίσθωσης\"}","reasoning_content":"The question is about ending a lease."}}],"created":1796159619,"model":"qwen3-0.6b","system_fingerprint":"b5950-1a2b3c","object":"chat.completion","usage":{"completion_tokens":41,"prompt_tokens":212,"total_tokens":253,"prompt_tokens_details":{"cached_tokens":0}},"id":"chatcmpl-OLaZD","timings":{"cache_n":0,"prompt_n":212,"prompt_ms":95.1,"predicted_n":41,"predicted_ms":650.2,"predicted_per_second":63.1}}"#;

const OLLAMA: &str = r#"{"id":"chatcmpl-640","object":"chat.completion","created":1730000000,"model":"qwen2.5:7b","system_fingerprint":"fp_ollama","choices":[{"index":0,"message":{"role":"assistant","content":"```json\n{\"query\": \"lejeaftale opsigelse\"}\n```"},"finish_reason":"stop"}],"usage":{"prompt_tokens":57,"completion_tokens":12,"total_tokens":69}}"#;

const OPENAI: &str = r#"{"id":"chatcmpl-Ab12","object":"chat.completion","created":1730000000,"model":"gpt-4o-mini-2024-07-18","choices":[{"index":0,"message":{"role":"assistant","content":"{\"query\":\"tenancy termination notice\"}","refusal":null,"annotations":[]},"logprobs":null,"finish_reason":"stop"}],"usage":{"prompt_tokens":120,"completion_tokens":8,"total_tokens":128,"completion_tokens_details":{"reasoning_tokens":0}},"service_tier":"default","system_fingerprint":"fp_0123456789"}"#;

#[test]
fn llama_cpp_reply_with_reasoning_and_timings() {
    let server = Loopback::start(|_, _| Reply::new(200, LLAMA_CPP));
    let http = client(&server);
    let reply = ask(&http, "q").unwrap();
    assert_eq!(reply.content, "{\"query\": \"καταγγελία μίσθωσης\"}");
    assert_eq!(
        reply.reasoning.as_deref(),
        Some("The question is about ending a lease.")
    );
    assert_eq!(reply.model, "qwen3-0.6b");
    assert_eq!(
        (reply.usage.prompt_tokens, reply.usage.completion_tokens),
        (212, 41)
    );
    assert!(reply.millis > 0.0);

    // The body is core's, posted to the base URL's /chat/completions.
    let seen = server.requests();
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0].path, "/v1/chat/completions");
    assert_eq!(seen[0].header("content-type"), Some("application/json"));
    assert_eq!(seen[0].header("authorization"), None);
    let body = &seen[0].body;
    assert_eq!(
        body,
        &request("q").body(TokenLimitField::MaxTokens, ResponseFormat::JsonSchema),
        "{body}"
    );
    assert_eq!(body["max_tokens"], 256);
    assert!(
        body.get("context").is_none(),
        "the window is recorded, not sent"
    );
    assert_eq!(body["response_format"]["type"], "json_schema");
    assert_eq!(body["response_format"]["json_schema"]["name"], "query");
}

#[test]
fn the_context_window_is_what_llama_cpps_props_reports_or_nothing() {
    let server = Loopback::start(|req, _| match req.path.as_str() {
        "/props" => Reply::new(
            200,
            r#"{"default_generation_settings": {"n_ctx": 8192}, "total_slots": 1}"#,
        ),
        _ => Reply::new(404, "{}"),
    });
    let http = HttpChat::new(config(format!("{}/v1", server.base))).unwrap();
    assert_eq!(http.reported_context(), Some(8192));
    assert_eq!(server.requests()[0].path, "/props");
    // OpenAI and Ollama have no /props: the run assumes a window instead.
    let other = Loopback::start(|_, _| Reply::new(404, r#"{"error": "not found"}"#));
    let http = HttpChat::new(config(format!("{}/v1", other.base))).unwrap();
    assert_eq!(http.reported_context(), None);
}

#[test]
fn ollama_reply_at_a_full_completions_url() {
    let server = Loopback::start(|_, _| Reply::new(200, OLLAMA));
    let url = format!("{}/v1/chat/completions/", server.base);
    let http = HttpChat::new(config(url)).unwrap();
    let reply = ask(&http, "q").unwrap();
    assert!(reply.content.contains("lejeaftale opsigelse"));
    assert_eq!(reply.reasoning, None);
    assert_eq!(reply.usage.prompt_tokens, 57);
    assert_eq!(server.requests()[0].path, "/v1/chat/completions");
}

#[test]
fn openai_gets_max_completion_tokens_and_the_bearer_key() {
    let server = Loopback::start(|_, _| Reply::new(200, OPENAI));
    let http = HttpChat::new(HttpConfig {
        api_key: Some("sk-test-123".into()),
        limit: TokenLimitField::MaxCompletionTokens,
        ..config(format!("{}/v1", server.base))
    })
    .unwrap();
    let reply = ask(&http, "q").unwrap();
    assert_eq!(reply.content, "{\"query\":\"tenancy termination notice\"}");
    assert_eq!(reply.model, "gpt-4o-mini-2024-07-18");
    let seen = &server.requests()[0];
    assert_eq!(seen.header("authorization"), Some("Bearer sk-test-123"));
    assert_eq!(seen.body["max_completion_tokens"], 256);
    assert!(seen.body.get("max_tokens").is_none(), "{}", seen.body);
    // The key is sent, never kept in what a transcript records.
    let recorded = serde_json::to_string(&reply).unwrap();
    assert!(!recorded.contains("sk-test"));
}

#[test]
fn empty_and_null_content_are_empty_replies_not_errors() {
    let server = Loopback::start(|_, n| {
        let content = match n {
            0 => json!(""),
            _ => json!(null),
        };
        let body = json!({"choices": [{"message": {"role": "assistant", "content": content, "reasoning_content": "thinking only"}}], "usage": {}});
        Reply::new(200, body.to_string())
    });
    let http = client(&server);
    for _ in 0..2 {
        let reply = ask(&http, "q").unwrap();
        assert_eq!(reply.content, "");
        assert_eq!(reply.reasoning.as_deref(), Some("thinking only"));
        assert_eq!(reply.usage.prompt_tokens, 0);
    }
}

#[test]
fn a_500_is_retried_then_the_reply_is_kept() {
    let server = Loopback::start(|_, n| match n {
        0 => Reply::new(500, r#"{"error":{"message":"slot unavailable"}}"#),
        _ => Reply::new(200, OPENAI),
    });
    let http = client(&server);
    let reply = ask(&http, "q").unwrap();
    assert!(reply.content.contains("tenancy"));
    let seen = server.requests();
    assert_eq!(seen.len(), 2);
    assert_eq!(seen[0].body, seen[1].body, "the same request again");
    assert_eq!(http.transport_retries(), 1);
    let once = Retried {
        http: 1,
        fallbacks: 0,
    };
    assert_eq!(reply.retried, once, "the reply says what it cost");
    assert!(ask(&http, "again").unwrap().retried.is_none());
}

#[test]
fn a_429_waits_as_told_then_succeeds_and_one_that_persists_ends_the_run() {
    let server = Loopback::start(|_, n| match n {
        0 => Reply::new(429, r#"{"error":{"message":"rate limited"}}"#).header("Retry-After", "0"),
        1 => Reply::new(200, OLLAMA),
        _ => Reply::new(429, r#"{"error":{"message":"rate limited"}}"#),
    });
    let http = client(&server);
    assert!(ask(&http, "q").is_ok());
    let message = transport_error(ask(&http, "q"));
    assert!(
        message.ends_with(
            "/v1/chat/completions: the endpoint says: rate limited (HTTP 429) (after 4 attempts)"
        ),
        "{message}"
    );
    assert_eq!(server.requests().len(), 6);
}

#[test]
fn a_429_asking_for_more_than_a_minute_ends_the_run_at_once() {
    // An HTTP date an hour after the epoch's first second: long past, so
    // no wait; then seconds beyond the cap, reported rather than awaited.
    let server = Loopback::start(|_, n| match n {
        0 => Reply::new(429, r#"{"error":{"message":"busy"}}"#)
            .header("Retry-After", "Thu, 01 Jan 1970 01:00:00 GMT"),
        1 => Reply::new(200, OLLAMA),
        _ => {
            Reply::new(429, r#"{"error":{"message":"rate limited"}}"#).header("Retry-After", "3600")
        }
    });
    let http = client(&server);
    assert!(ask(&http, "q").is_ok());
    let message = transport_error(ask(&http, "q"));
    assert!(
        message.ends_with(
            "the endpoint says: rate limited (HTTP 429) (it asks to wait 3600 s: try again later)"
        ),
        "{message}"
    );
    assert_eq!(server.requests().len(), 3, "not retried");
}

#[test]
fn a_refused_schema_falls_back_to_a_json_object_then_to_nothing_and_is_remembered() {
    let server = Loopback::start(|request, _| {
        match request.body["response_format"]["type"].as_str() {
            Some("json_schema") => Reply::new(
                400,
                r#"{"error":{"message":"Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.","type":"invalid_request_error","param":"response_format"}}"#,
            ),
            Some("json_object") if request.last_message() == "strict" => Reply::new(
                400,
                r#"{"error":{"message":"json_object is not supported"}}"#,
            ),
            _ => Reply::new(200, OPENAI),
        }
    });
    let http = client(&server);
    assert_eq!(http.response_format(), ResponseFormat::JsonSchema);
    let fallbacks = |n| Retried {
        http: 0,
        fallbacks: n,
    };
    assert_eq!(ask(&http, "q").unwrap().retried, fallbacks(1));
    assert_eq!(http.response_format(), ResponseFormat::JsonObject);
    assert_eq!(ask(&http, "again").unwrap().retried, fallbacks(0));
    assert_eq!(ask(&http, "strict").unwrap().retried, fallbacks(1));
    assert_eq!(http.response_format(), ResponseFormat::Unconstrained);
    let formats: Vec<String> = server
        .requests()
        .iter()
        .map(|r| r.body["response_format"]["type"].to_string())
        .collect();
    assert_eq!(
        formats,
        [
            "\"json_schema\"",
            "\"json_object\"",
            "\"json_object\"",
            "\"json_object\"",
            "null"
        ]
    );
    // Fallbacks are not transport retries.
    assert_eq!(http.transport_retries(), 0);
}

#[test]
fn other_400s_end_the_run_with_the_endpoints_words() {
    let server = Loopback::start(|_, _| {
        Reply::new(400, r#"{"error":{"message":"messages: too many tokens"}}"#)
    });
    let message = transport_error(ask(&client(&server), "q"));
    assert!(
        message.ends_with("the endpoint says: messages: too many tokens (HTTP 400)"),
        "{message}"
    );
    assert_eq!(server.requests().len(), 1, "not retried");
}

#[test]
fn a_missing_model_is_reported_as_the_endpoint_says_it() {
    // Ollama's error shape: `error` is a string.
    let server = Loopback::start(|_, _| {
        Reply::new(
            404,
            r#"{"error":"model \"llama9\" not found, try pulling it first"}"#,
        )
    });
    let message = transport_error(ask(&client(&server), "q"));
    assert_eq!(
        message,
        format!(
            "{}/v1/chat/completions: the endpoint says: model \"llama9\" not found, try \
             pulling it first (HTTP 404)",
            server.base
        )
    );
}

#[test]
fn a_401_says_which_variable_holds_the_key() {
    let server = Loopback::start(|_, _| {
        Reply::new(401, r#"{"error":{"message":"Incorrect API key provided"}}"#)
    });
    let message = transport_error(ask(&client(&server), "q"));
    assert!(
        message.ends_with("Incorrect API key provided (HTTP 401); set NOMOS_LLM_API_KEY"),
        "{message}"
    );
}

#[test]
fn a_slow_endpoint_times_out_and_is_retried() {
    let server = Loopback::start(|_, n| match n {
        0 => Reply::new(200, OPENAI).after(Duration::from_millis(1500)),
        _ => Reply::new(200, OLLAMA),
    });
    let http = HttpChat::new(HttpConfig {
        timeout: Duration::from_millis(300),
        ..config(format!("{}/v1", server.base))
    })
    .unwrap();
    let reply = ask(&http, "q").unwrap();
    assert!(reply.content.contains("lejeaftale"), "the second answer");
    assert_eq!(http.transport_retries(), 1);

    let server = Loopback::start(|_, _| Reply::new(200, OPENAI).after(Duration::from_millis(1500)));
    let http = HttpChat::new(HttpConfig {
        timeout: Duration::from_millis(300),
        policy: Policy {
            retries: 1,
            backoff_ms: 5,
        },
        ..config(format!("{}/v1", server.base))
    })
    .unwrap();
    let message = transport_error(ask(&http, "q"));
    assert_eq!(
        message,
        format!(
            "no reply from {}/v1/chat/completions within 0.3 s (--llm-timeout) (after 2 attempts)",
            server.base
        )
    );
}

#[test]
fn a_body_that_is_not_json_is_an_error_quoting_it() {
    let server = Loopback::start(|_, _| Reply::new(200, "<html>Bad Gateway</html>"));
    let message = transport_error(ask(&client(&server), "q"));
    assert!(
        message.contains("the endpoint's reply is not JSON"),
        "{message}"
    );
    assert!(
        message.ends_with("(the body begins \"<html>Bad Gateway</html>\")"),
        "{message}"
    );
}

#[test]
fn an_unreachable_endpoint_is_retried_then_named() {
    // A port nothing listens on: bound, then released.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let http = HttpChat::new(HttpConfig {
        policy: Policy {
            retries: 1,
            backoff_ms: 5,
        },
        ..config(format!("http://127.0.0.1:{port}/v1"))
    })
    .unwrap();
    let message = transport_error(ask(&http, "q"));
    assert_eq!(
        message,
        format!(
            "cannot reach http://127.0.0.1:{port}/v1/chat/completions: connection refused \
             (after 2 attempts)"
        )
    );
}

#[test]
fn urls_become_the_completions_url() {
    for (given, expected) in [
        (
            "http://127.0.0.1:8089/v1",
            "http://127.0.0.1:8089/v1/chat/completions",
        ),
        (
            "http://127.0.0.1:8089/v1/",
            "http://127.0.0.1:8089/v1/chat/completions",
        ),
        (
            " https://api.openai.com/v1/chat/completions ",
            "https://api.openai.com/v1/chat/completions",
        ),
        (
            "http://localhost:11434/v1/chat/completions/",
            "http://localhost:11434/v1/chat/completions",
        ),
    ] {
        assert_eq!(completions_url(given).unwrap(), expected);
    }
    let error = completions_url("127.0.0.1:8089/v1").unwrap_err();
    assert!(
        error.contains("must start with http:// or https://"),
        "{error}"
    );
}
