//! The loop and the reformulations against a scripted model: every reply
//! is written by the test from the request it sees.

use std::cell::RefCell;
use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

use super::react::{react_bm25, ReactParams, ReactRun, Round, Stage};
use super::reform::{reformulate, Reform};
use super::*;
use crate::hits::Hit;

/// Runs a future whose every await is ready (the scripted model's are).
pub(super) fn block_on<F: Future>(future: F) -> F::Output {
    let mut future = pin!(future);
    let mut cx = Context::from_waker(Waker::noop());
    match future.as_mut().poll(&mut cx) {
        Poll::Ready(out) => out,
        Poll::Pending => panic!("a scripted future never waits"),
    }
}

/// Replies with `script(request, n)` for the n-th request (0-based), and
/// keeps every request.
pub(super) struct Scripted<F> {
    script: F,
    pub(super) seen: RefCell<Vec<ChatRequest>>,
}

impl<F: Fn(&ChatRequest, usize) -> String> Scripted<F> {
    pub(super) fn new(script: F) -> Self {
        Scripted {
            script,
            seen: RefCell::new(Vec::new()),
        }
    }
}

impl<F: Fn(&ChatRequest, usize) -> String> Chat for Scripted<F> {
    async fn chat(&self, request: &ChatRequest) -> Result<ChatReply, LlmError> {
        let n = self.seen.borrow().len();
        self.seen.borrow_mut().push(request.clone());
        Ok(ChatReply {
            content: (self.script)(request, n),
            reasoning: None,
            model: "scripted".into(),
            usage: Usage {
                prompt_tokens: 10,
                completion_tokens: 2,
            },
            millis: 1.5,
            retried: Retried::default(),
        })
    }
}

/// Answers as the chat it wraps, each reply having cost the transport
/// the attempts given.
struct Retrying<C>(C, Retried);

impl<C: Chat> Chat for Retrying<C> {
    async fn chat(&self, request: &ChatRequest) -> Result<ChatReply, LlmError> {
        let reply = self.0.chat(request).await?;
        Ok(ChatReply {
            retried: self.1,
            ..reply
        })
    }
}

/// Documents `D::i` whose text is their words; BM25 stands in as "number
/// of query words the text has", ties by id.
struct Words(Vec<&'static str>);

impl Corpus for Words {
    fn search(&self, text: &str, k: usize) -> Vec<Hit> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let mut hits: Vec<Hit> = self
            .0
            .iter()
            .zip(0u32..)
            .map(|(t, doc)| Hit {
                doc,
                score: t.split_whitespace().filter(|w| words.contains(w)).count() as f64,
            })
            .filter(|h| h.score > 0.0)
            .collect();
        hits.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.doc.cmp(&b.doc)));
        hits.truncate(k);
        hits
    }
    fn id(&self, doc: u32) -> String {
        format!("D::{doc}")
    }
    fn text(&self, doc: u32) -> String {
        self.0[doc as usize].to_owned()
    }
}

fn corpus() -> Words {
    Words(vec![
        "lease rent",        // 0
        "rent deposit",      // 1
        "tax income",        // 2
        "lease termination", // 3
        "income deposit",    // 4
    ])
}

fn settings() -> Settings {
    Settings {
        model: "m".into(),
        ..Settings::default()
    }
}

fn last_user(request: &ChatRequest) -> &str {
    &request.messages.last().unwrap().content
}

fn run(
    params: ReactParams,
    script: impl Fn(&ChatRequest, usize) -> String,
) -> (ReactRun, Vec<ChatRequest>) {
    let llm = Scripted::new(script);
    let out = block_on(react_bm25(
        &llm,
        &settings(),
        prompts::OTHER,
        &corpus(),
        params,
        "a tenant's lease",
        &|_| {},
    ))
    .unwrap();
    (out, llm.seen.into_inner())
}

const TWO: ReactParams = ReactParams {
    rounds: 2,
    candidates: 10,
    chars: 0,
};

#[test]
fn the_loop_plans_searches_observes_and_ranks_by_its_keys() {
    // Round 1 searches "lease rent" (docs 0, 1, 3) and keeps 3 then 1;
    // round 2 searches "rent deposit" (1, 0, 4) and keeps 1 and 4.
    let (run, seen) = run(TWO, |req, n| {
        let planner = req.messages[0].content.contains("planner");
        match (n, planner) {
            (0, true) => r#"{"query": "lease rent"}"#.into(),
            (1, false) => {
                assert!(last_user(req).contains("[D::3]\nlease termination"));
                r#"{"keep": ["D::3", "D::1"]}"#.into()
            }
            (2, true) => {
                let user = last_user(req);
                assert!(user.contains("1. lease rent"), "{user}");
                assert!(user.contains("- [D::3] lease termination"), "{user}");
                r#"{"query": "rent deposit"}"#.into()
            }
            (3, false) => r#"Kept: {"keep": ["D::1", "D::4"]}"#.into(),
            _ => panic!("unexpected request {n}"),
        }
    });
    assert_eq!(seen.len(), 4);
    assert_eq!(run.rounds[0].candidates, [0, 1, 3]);
    assert_eq!(run.rounds[0].kept, [3, 1]);
    assert_eq!(run.rounds[1].candidates, [1, 0, 4]);
    // 1 was kept twice; 3 (round 1) before 4 (round 2).
    let docs = |hits: Vec<Hit>| hits.iter().map(|h| h.doc).collect::<Vec<_>>();
    assert_eq!(docs(run.ranking()), [1, 3, 4]);
    // After round 1 only: both kept once in round 1, best BM25 rank
    // decides (1 was 2nd, 3 was 3rd), not the observer's order.
    assert_eq!(docs(run.ranking_after(1)), [1, 3]);
    assert_eq!(docs(run.ranking_after(0)), Vec::<u32>::new());
    // Scores fall with rank, for a score sort.
    let scores: Vec<f64> = run.ranking().iter().map(|h| h.score).collect();
    assert_eq!(scores, [100.0, 99.0, 98.0]);
    assert_eq!(run.cost.calls, 4);
    assert_eq!(run.cost.prompt_tokens, 40);
    assert_eq!(run.cost.millis, 6.0);
    assert_eq!(run.candidate_pool().len(), 4);
}

#[test]
fn the_best_bm25_rank_breaks_ties_across_rounds() {
    // Round 1 keeps 4 and 1 for "deposit", round 2 keeps 2 for "income".
    let (run, _) = run(TWO, |req, n| {
        let planner = req.messages[0].content.contains("planner");
        match (n, planner) {
            (0, true) => r#"{"query": "deposit"}"#.into(),
            (1, false) => r#"{"keep": ["D::4", "D::1"]}"#.into(),
            (2, true) => r#"{"query": "income"}"#.into(),
            (3, false) => r#"{"keep": ["D::2"]}"#.into(),
            _ => unreachable!(),
        }
    });
    let docs: Vec<u32> = run.ranking().iter().map(|h| h.doc).collect();
    // 1 (rank 0 for "deposit") before 4 (rank 1), both round 1; then 2.
    assert_eq!(docs, [1, 4, 2]);
}

#[test]
fn stops_after_the_rounds_asked_for() {
    let ten = ReactParams { rounds: 10, ..TWO };
    let (run, seen) = run(ten, |req, _| {
        match req.messages[0].content.contains("planner") {
            true => r#"{"query": "lease"}"#.into(),
            false => r#"{"keep": ["D::0"]}"#.into(),
        }
    });
    assert_eq!(run.rounds.len(), 10);
    assert_eq!(seen.len(), 20);
    assert_eq!(run.ranking().len(), 1);
}

#[test]
fn ids_outside_the_candidates_are_dropped_and_counted() {
    let (run, seen) = run(TWO, |req, _| {
        match req.messages[0].content.contains("planner") {
            true => r#"{"query": "tax"}"#.into(),
            false => r#"{"keep": ["D::2", "D::0", "nonsense", "D::2"]}"#.into(),
        }
    });
    assert_eq!(run.rounds[0].kept, [2]);
    assert_eq!(run.rounds[0].unknown_ids, ["D::0", "nonsense"]);
    // The schema offered the endpoint only the candidates' ids.
    let schema = &seen[1].schema.as_ref().unwrap().schema;
    assert_eq!(
        schema["properties"]["keep"]["items"]["enum"],
        serde_json::json!(["D::2"])
    );
}

/// The observer's schema lets an endpoint that enforces it (llama.cpp
/// does) name only the ids shown, and no more ids than were shown: a
/// small model otherwise invents ids or repeats one until the token limit.
#[test]
fn the_observer_schema_allows_only_the_ids_shown_and_no_more_of_them() {
    let params = ReactParams {
        rounds: 1,
        candidates: 2,
        chars: 0,
    };
    for (limit, query, ids) in [
        (TWO, "lease rent", vec!["D::0", "D::1", "D::3"]),
        (params, "income deposit", vec!["D::4", "D::1"]),
    ] {
        let (_, seen) = run(limit, |req, _| {
            match req.messages[0].content.contains("planner") {
                true => format!(r#"{{"query": "{query}"}}"#),
                false => r#"{"keep": []}"#.into(),
            }
        });
        let schema = seen[1]
            .schema
            .as_ref()
            .expect("the observer asks for a schema");
        assert_eq!(schema.name, "keep");
        assert_eq!(
            schema.schema,
            serde_json::json!({
                "type": "object",
                "properties": {"keep": {
                    "type": "array",
                    "items": {"type": "string", "enum": ids},
                    "maxItems": ids.len(),
                }},
                "required": ["keep"],
                "additionalProperties": false,
            }),
            "{query}"
        );
    }
}

#[test]
fn a_malformed_reply_is_retried_once_then_recorded_as_a_failure() {
    // The planner's first reply is prose, its retry is good; the
    // observer fails twice in round 1. Round 2's planner fails twice.
    let (run, seen) = run(TWO, |req, n| match n {
        0 => "I think you should search for leases.".into(),
        1 => {
            assert_eq!(req.messages.len(), 4, "the retry carries the bad reply");
            assert_eq!(req.messages[2].role, Role::Assistant);
            r#"{"query": "lease"}"#.into()
        }
        2 | 3 => r#"{"keep": "D::0"}"#.into(),
        4 | 5 => String::new(),
        _ => unreachable!("{n}"),
    });
    assert_eq!(seen.len(), 6);
    assert_eq!(run.rounds[0].query.as_deref(), Some("lease"));
    assert!(run.rounds[0].kept.is_empty());
    assert!(matches!(run.rounds[0].failure, Some((Stage::Observe, _))));
    assert_eq!(
        run.rounds[1],
        Round {
            failure: Some((
                Stage::Plan,
                Failure {
                    reply: String::new()
                }
            )),
            ..Round::default()
        }
    );
    assert_eq!(run.cost.retries, 3);
    assert_eq!(run.cost.failures, 2);
    assert!(run.ranking().is_empty());
}

#[test]
fn candidate_text_is_cut_to_chars() {
    let params = ReactParams { chars: 3, ..TWO };
    let (_, seen) = run(params, |req, _| {
        match req.messages[0].content.contains("planner") {
            true => r#"{"query": "termination"}"#.into(),
            false => r#"{"keep": []}"#.into(),
        }
    });
    assert!(last_user(&seen[1]).contains("[D::3]\nlea…"));
}

#[test]
fn whole_candidates_are_cut_to_fit_the_context_and_the_round_says_so() {
    let long: &'static str = Box::leak("lease ".repeat(2_000).into_boxed_str());
    let corpus = Words(vec![long, "lease rent"]);
    let ask = |context| {
        let llm = Scripted::new(|req: &ChatRequest, _| {
            match req.messages[0].content.contains("planner") {
                true => r#"{"query": "lease"}"#.into(),
                false => r#"{"keep": ["D::1"]}"#.into(),
            }
        });
        let settings = Settings {
            context,
            ..settings()
        };
        let params = ReactParams { rounds: 1, ..TWO };
        let run = block_on(react_bm25(
            &llm,
            &settings,
            prompts::OTHER,
            &corpus,
            params,
            "a lease",
            &|_| {},
        ))
        .unwrap();
        (run, llm.seen.into_inner())
    };
    // No context known (a replay of an older transcript): nothing is cut.
    let (whole, seen) = ask(None);
    assert_eq!(whole.rounds[0].cut, None);
    assert!(last_user(&seen[1]).contains(long.trim()));
    assert_eq!(seen[1].context, None);
    // A 2,048-token window: the long article is cut, the short one kept
    // whole, and the prompt fits at the rate fit assumes (1.5 bytes a
    // token) with the reply's 1,024 tokens and the template's 64.
    let (fitted, seen) = ask(Some(2048));
    let cap = fitted.rounds[0].cut.expect("the round records the cut");
    let observer = &seen[1];
    assert_eq!(
        observer.context,
        Some(2048),
        "the request records the window"
    );
    let bytes: usize = observer.messages.iter().map(|m| m.content.len()).sum();
    assert!(
        bytes * 2 / 3 + 1024 + 64 <= 2048,
        "{bytes} bytes, cap {cap}"
    );
    assert!(last_user(observer).contains("[D::1]\nlease rent"));
    assert!(last_user(observer).contains('…'));
    assert_eq!(fitted.ranking(), whole.ranking());
}

#[test]
fn reformulations_parse_their_field_and_fall_back_when_unusable() {
    let llm = Scripted::new(|_, _| r#"{"keywords": ["μίσθωση", "άρθρο 574 ΑΚ"]}"#.into());
    let out = block_on(reformulate(
        &llm,
        &settings(),
        prompts::GREEK,
        Reform::Sparse,
        "q",
    ))
    .unwrap();
    assert_eq!(out.text, "μίσθωση; άρθρο 574 ΑΚ");
    assert_eq!(llm.seen.borrow()[0].prompt_version, "el/v2");

    let llm = Scripted::new(|_, _| r#"{"statement": ""}"#.into());
    let out = block_on(reformulate(
        &llm,
        &settings(),
        prompts::DANISH,
        Reform::Dense,
        "the question",
    ))
    .unwrap();
    assert_eq!(out.text, "the question");
    assert!(out.failure.is_some());
    assert_eq!(out.cost.calls, 2);
}

#[test]
fn the_transports_repeated_attempts_are_counted_per_call_apart_from_reply_retries() {
    let retried = Retried {
        http: 2,
        fallbacks: 1,
    };
    // Not JSON, then the keywords: two calls, one reply retry.
    let llm = Retrying(
        Scripted::new(|_, n| match n {
            0 => "keywords: rent".into(),
            _ => r#"{"keywords": ["rent"]}"#.into(),
        }),
        retried,
    );
    let out = block_on(reformulate(
        &llm,
        &settings(),
        prompts::OTHER,
        Reform::Sparse,
        "q",
    ))
    .unwrap();
    let cost = out.cost;
    assert_eq!((cost.calls, cost.retries, cost.failures), (2, 1, 0));
    assert_eq!((cost.http_retries, cost.fallbacks), (4, 2));
    let mut total = cost;
    total.add(&cost);
    assert_eq!((total.http_retries, total.fallbacks), (8, 4));

    // Kept in a transcript only when there were any.
    let json = |retried| {
        serde_json::to_string(&ChatReply {
            content: String::new(),
            reasoning: None,
            model: String::new(),
            usage: Usage::default(),
            millis: 0.0,
            retried,
        })
        .unwrap()
    };
    assert!(!json(Retried::default()).contains("retried"));
    let kept: ChatReply = serde_json::from_str(&json(retried)).unwrap();
    assert_eq!(kept.retried, retried);
}

#[test]
fn a_recorded_run_replays_identically_and_refuses_new_requests() {
    let script = |req: &ChatRequest, _: usize| match req.messages[0].content.contains("planner") {
        true => r#"{"query": "rent"}"#.into(),
        false => r#"{"keep": ["D::1"]}"#.into(),
    };
    let recorder = Recorder::new(Scripted::new(script));
    let recorded = block_on(react_bm25(
        &recorder,
        &settings(),
        prompts::OTHER,
        &corpus(),
        TWO,
        "q",
        &|_| {},
    ))
    .unwrap();
    let text = recorder.transcript().to_jsonl();
    let transcript = Transcript::parse(&text).unwrap();
    assert_eq!(transcript.to_jsonl(), text, "the file is canonical");
    let replayed = block_on(react_bm25(
        &transcript,
        &settings(),
        prompts::OTHER,
        &corpus(),
        TWO,
        "q",
        &|_| {},
    ))
    .unwrap();
    assert_eq!(replayed, recorded);
    // Another query was never recorded.
    let missing = block_on(react_bm25(
        &transcript,
        &settings(),
        prompts::OTHER,
        &corpus(),
        TWO,
        "another query",
        &|_| {},
    ));
    assert!(matches!(missing, Err(LlmError::NotInTranscript { .. })));
    // Another seed is another request.
    let other = Settings {
        seed: Some(7),
        ..settings()
    };
    let missing = block_on(react_bm25(
        &transcript,
        &other,
        prompts::OTHER,
        &corpus(),
        TWO,
        "q",
        &|_| {},
    ));
    assert!(missing.is_err());
}

#[test]
fn a_tampered_transcript_names_its_line() {
    let mut transcript = Transcript::new();
    let request = ChatRequest {
        model: "m".into(),
        messages: vec![],
        temperature: 0.0,
        seed: None,
        max_tokens: None,
        context: None,
        schema: None,
        prompt_version: "en/v1".into(),
    };
    let reply = ChatReply {
        content: "{}".into(),
        reasoning: None,
        model: "m".into(),
        usage: Usage::default(),
        millis: 0.0,
        retried: Retried::default(),
    };
    transcript.insert(request, reply);
    let text = transcript
        .to_jsonl()
        .replace("\"temperature\":0.0", "\"temperature\":0.5");
    let err = Transcript::parse(&text).unwrap_err();
    assert_eq!(err.line, 2);
    assert!(err.message.contains("is not its request's"), "{err}");
    let err = Transcript::parse("{\"format\":\"other\",\"version\":1}\n").unwrap_err();
    assert_eq!(err.line, 1);
    assert!(Transcript::parse("").is_err());
}

/// Replies in the shapes llama.cpp, Ollama and OpenAI send.
#[test]
fn replies_of_every_endpoint_shape_are_read() {
    let llama = br#"{"choices":[{"finish_reason":"stop","index":0,"message":{"role":"assistant","content":"{\"query\":\"x\"}","reasoning_content":"Let me think."}}],"model":"smol","usage":{"completion_tokens":5,"prompt_tokens":40,"total_tokens":45}}"#;
    let reply = ChatReply::from_body(llama, 3.0).unwrap();
    assert_eq!(reply.content, "{\"query\":\"x\"}");
    assert_eq!(reply.reasoning.as_deref(), Some("Let me think."));
    assert_eq!(reply.usage.prompt_tokens, 40);
    // A reasoning model that put everything in reasoning_content.
    let empty = br#"{"choices":[{"message":{"role":"assistant","content":"","reasoning_content":"{\"query\":\"x\"}"}}]}"#;
    let reply = ChatReply::from_body(empty, 0.0).unwrap();
    assert_eq!(reply.content, "");
    assert_eq!(reply::string_field(&reply.content, "query"), None);
    let null = br#"{"choices":[{"message":{"role":"assistant","content":null}}],"usage":{}}"#;
    assert_eq!(ChatReply::from_body(null, 0.0).unwrap().content, "");
    let error = br#"{"error":{"message":"model not found","type":"invalid_request_error"}}"#;
    assert_eq!(
        ChatReply::from_body(error, 0.0).unwrap_err(),
        ReplyError::Endpoint("model not found".into())
    );
    assert!(matches!(
        ChatReply::from_body(b"<html>", 0.0),
        Err(ReplyError::NotJson(_))
    ));
    assert_eq!(
        ChatReply::from_body(br#"{"choices":[]}"#, 0.0).unwrap_err(),
        ReplyError::NoChoice
    );
}

/// A request's key and a transcript's bytes keep objects' keys in the
/// order they were written (serde_json's `preserve_order`, which core
/// asks for): the CLI and the browser must name a request alike.
#[test]
fn canonical_json_keeps_keys_in_written_order() {
    let request = ChatRequest {
        model: "m".into(),
        messages: vec![],
        temperature: 0.0,
        seed: Some(0),
        max_tokens: None,
        context: None,
        schema: Some(Schema {
            name: "query".into(),
            schema: serde_json::json!({"type": "object", "properties": {}}),
        }),
        prompt_version: "en/v1".into(),
    };
    let text = serde_json::to_string(&request).unwrap();
    assert!(
        text.contains(r#""schema":{"type":"object","properties":{}}"#),
        "{text}"
    );
    let parsed: ChatRequest = serde_json::from_str(&text).unwrap();
    assert_eq!(parsed.key(), request.key());
}

#[test]
fn the_body_names_the_token_limit_as_the_endpoint_wants() {
    let request = ChatRequest {
        model: "m".into(),
        messages: vec![],
        temperature: 0.0,
        seed: Some(1),
        max_tokens: Some(64),
        context: None,
        schema: Some(Schema {
            name: "query".into(),
            schema: serde_json::json!({"type": "object"}),
        }),
        prompt_version: "en/v1".into(),
    };
    let body = request.body(
        TokenLimitField::MaxCompletionTokens,
        ResponseFormat::JsonSchema,
    );
    assert_eq!(body["max_completion_tokens"], 64);
    assert!(body.get("max_tokens").is_none());
    assert_eq!(body["response_format"]["type"], "json_schema");
    assert_eq!(body["seed"], 1);
    assert!(body.get("prompt_version").is_none());
    let body = request.body(TokenLimitField::MaxTokens, ResponseFormat::JsonObject);
    assert_eq!(body["max_tokens"], 64);
    assert_eq!(body["response_format"]["type"], "json_object");
    let body = request.body(TokenLimitField::MaxTokens, ResponseFormat::Unconstrained);
    assert!(body.get("response_format").is_none());
}

#[test]
fn run_tags_name_the_prompts_model_and_seed() {
    let mut settings = Settings {
        model: "Qwen3 8B".into(),
        ..Settings::default()
    };
    assert_eq!(
        settings.tag_suffix("el/v1"),
        "+prompts=el/v1+model=Qwen3_8B+seed=0"
    );
    settings.seed = None;
    assert_eq!(
        settings.tag_suffix("da/v1"),
        "+prompts=da/v1+model=Qwen3_8B+seed=none"
    );
    settings.context = Some(8192);
    assert_eq!(
        settings.tag_suffix("da/v1"),
        "+prompts=da/v1+model=Qwen3_8B+seed=none+context=8192"
    );
}
