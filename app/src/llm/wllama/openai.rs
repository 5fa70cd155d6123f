//! OpenAI chat-completion bodies in and out of wllama, whose
//! `createChatCompletion` is llama-server's own request parser run in the
//! page: the fields [`nomos_core::llm::ChatRequest::body`] writes pass
//! through (a `json_schema` response format becomes a grammar there, as it
//! does in llama-server), and anything else is refused rather than
//! silently dropped.

use serde_json::{Map, Value};

use super::WllamaError;

/// wllama's options for the OpenAI chat body `body`.
pub fn options(body: &Value) -> Result<Value, WllamaError> {
    let bad = |m: String| WllamaError::Request(m);
    let body = body
        .as_object()
        .ok_or_else(|| bad("the body is not a JSON object".into()))?;
    let mut options = Map::new();
    let mut limit = None;
    for (key, value) in body {
        match key.as_str() {
            // The page runs one model, whatever the request names.
            "model" => {}
            "messages" => {
                check_messages(value)?;
                options.insert(key.clone(), value.clone());
            }
            "temperature" | "top_p" => {
                if !value.is_number() {
                    return Err(bad(format!("{key} {value} is not a number")));
                }
                options.insert(key.clone(), value.clone());
            }
            // llama.cpp's seed is 32 bits.
            "seed" => match value.as_u64() {
                Some(seed) if u32::try_from(seed).is_ok() => {
                    options.insert(key.clone(), value.clone());
                }
                _ => {
                    return Err(bad(format!(
                        "seed {value} is not a whole number below 2^32 (llama.cpp's seed)"
                    )))
                }
            },
            "max_tokens" | "max_completion_tokens" => {
                if value.as_u64().is_none_or(|n| n == 0) {
                    return Err(bad(format!("{key} {value} is not a positive whole number")));
                }
                if limit.replace(value.clone()).is_some() {
                    return Err(bad(
                        "both max_tokens and max_completion_tokens are set".into()
                    ));
                }
            }
            "stream" => {
                if value != &Value::Bool(false) {
                    return Err(bad("it answers whole replies only, not streams".into()));
                }
            }
            "response_format" => {
                check_format(value)?;
                options.insert(key.clone(), value.clone());
            }
            _ => return Err(bad(format!("it does not support {key:?}"))),
        }
    }
    if !options.contains_key("messages") {
        return Err(bad("the body has no messages".into()));
    }
    if let Some(limit) = limit {
        options.insert("max_tokens".into(), limit);
    }
    options.insert("stream".into(), Value::Bool(false));
    // A prompt evaluated afresh every time: reusing the cached prefix of
    // the last one changes the arithmetic, so a greedy reply could differ
    // from the same request's before.
    options.insert("cache_prompt".into(), Value::Bool(false));
    Ok(Value::Object(options))
}

/// Text messages from the system, the user or the assistant.
fn check_messages(messages: &Value) -> Result<(), WllamaError> {
    let bad = |m: String| Err(WllamaError::Request(m));
    let Some(messages) = messages.as_array() else {
        return bad("messages is not an array".into());
    };
    if messages.is_empty() {
        return bad("messages is empty".into());
    }
    for (i, message) in messages.iter().enumerate() {
        let role = message.get("role").and_then(Value::as_str);
        if !matches!(role, Some("system" | "user" | "assistant")) {
            return bad(format!("message {i} has no system, user or assistant role"));
        }
        if !message.get("content").is_some_and(Value::is_string) {
            return bad(format!("message {i}'s content is not text"));
        }
    }
    Ok(())
}

/// `text`, `json_object`, or `json_schema` with a schema.
fn check_format(format: &Value) -> Result<(), WllamaError> {
    match format.get("type").and_then(Value::as_str) {
        Some("text" | "json_object") => Ok(()),
        Some("json_schema") => match format.get("json_schema").and_then(|s| s.get("schema")) {
            Some(Value::Object(_)) => Ok(()),
            _ => Err(WllamaError::Request(
                "response_format json_schema has no schema object".into(),
            )),
        },
        _ => Err(WllamaError::Request(format!(
            "response_format {format} is not text, json_object or json_schema"
        ))),
    }
}

/// The OpenAI reply body for wllama's answer `answer` (already OpenAI's
/// shape, with llama-server's `timings`), naming `model` as its model.
pub fn reply(mut answer: Value, model: &str) -> Result<Vec<u8>, WllamaError> {
    if !answer
        .pointer("/choices/0/message")
        .is_some_and(Value::is_object)
    {
        return Err(WllamaError::Inference(format!(
            "wllama's answer has no choices[0].message: {answer}"
        )));
    }
    answer["model"] = Value::String(model.to_owned());
    Ok(serde_json::to_vec(&answer).expect("JSON values serialise"))
}

#[cfg(test)]
mod tests {
    use nomos_core::llm::{
        ChatReply, ChatRequest, Message, ResponseFormat, Role, Schema, TokenLimitField, Usage,
    };
    use serde_json::json;

    use super::*;

    fn request() -> ChatRequest {
        ChatRequest {
            model: "smollm2".into(),
            messages: vec![
                Message {
                    role: Role::System,
                    content: "Answer in JSON.".into(),
                },
                Message {
                    role: Role::User,
                    content: "Rewrite: lease termination".into(),
                },
            ],
            temperature: 0.0,
            seed: Some(7),
            max_tokens: Some(64),
            context: None,
            schema: Some(Schema {
                name: "queries".into(),
                schema: json!({"type": "object", "properties": {"q": {"type": "string"}}}),
            }),
            prompt_version: "v1".into(),
        }
    }

    #[test]
    fn passes_what_a_chat_request_sets() {
        for limit in [
            TokenLimitField::MaxTokens,
            TokenLimitField::MaxCompletionTokens,
        ] {
            let body = request().body(limit, ResponseFormat::JsonSchema);
            let options = options(&body).unwrap();
            assert_eq!(options["messages"], body["messages"]);
            assert_eq!(options["temperature"], json!(0.0));
            assert_eq!(options["seed"], json!(7));
            assert_eq!(options["max_tokens"], json!(64));
            assert_eq!(options["stream"], json!(false));
            assert_eq!(options["cache_prompt"], json!(false));
            assert_eq!(options["response_format"], body["response_format"]);
            assert!(
                options.get("model").is_none() && options.get("max_completion_tokens").is_none()
            );
        }
        let plain = request().body(TokenLimitField::MaxTokens, ResponseFormat::JsonObject);
        assert_eq!(
            options(&plain).unwrap()["response_format"],
            json!({"type": "json_object"})
        );
    }

    #[test]
    fn refuses_what_it_cannot_honour() {
        let body = request().body(TokenLimitField::MaxTokens, ResponseFormat::JsonSchema);
        let with = |key: &str, value: Value| {
            let mut b = body.clone();
            b[key] = value;
            options(&b).unwrap_err().to_string()
        };
        assert!(with("stream", json!(true)).contains("not streams"));
        assert!(with("tools", json!([])).contains("\"tools\""));
        assert!(with("seed", json!(1u64 << 32)).contains("2^32"));
        assert!(with("max_tokens", json!(0)).contains("positive"));
        assert!(with("max_completion_tokens", json!(5)).contains("both"));
        assert!(with("messages", json!([])).contains("empty"));
        assert!(with("messages", json!([{"role": "tool", "content": "x"}])).contains("role"));
        assert!(with("response_format", json!({"type": "json_schema"})).contains("schema"));
        assert!(options(&json!({"temperature": 0}))
            .unwrap_err()
            .to_string()
            .contains("no messages"));
    }

    #[test]
    fn replies_read_as_the_methods_read_an_endpoint() {
        let answer = json!({
            "id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "gguf",
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": "{\"q\": \"x\"}"}}],
            "usage": {"prompt_tokens": 30, "completion_tokens": 8, "total_tokens": 38},
            "timings": {"predicted_n": 8, "predicted_ms": 80.0},
        });
        let body = reply(answer, "HuggingFaceTB/SmolLM2-135M-Instruct").unwrap();
        let parsed = ChatReply::from_body(&body, 12.5).unwrap();
        assert_eq!(parsed.content, "{\"q\": \"x\"}");
        assert_eq!(parsed.model, "HuggingFaceTB/SmolLM2-135M-Instruct");
        assert_eq!(
            parsed.usage,
            Usage {
                prompt_tokens: 30,
                completion_tokens: 8
            }
        );
        assert!(reply(json!({"choices": []}), "m").is_err());
    }
}
