//! The LLM methods end to end: `nomos eval` and `nomos search` against a
//! scripted OpenAI-compatible server on 127.0.0.1, recording a transcript
//! that `--replay` turns back into the identical run with no server at
//! all; a request the transcript lacks fails clearly.

#[path = "support/cli.rs"]
mod cli;
#[path = "support/loopback.rs"]
mod loopback;

use std::path::{Path, PathBuf};
use std::process::Output;

use cli::{command, output, stderr, stdout};
use loopback::{Loopback, Reply, Request};
use nomos_core::digest::sha256_hex;
use serde_json::{json, Value};

fn corpus() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/beir-syntagma")
}

/// Runs `nomos` with `env` set and without the developer's API key, so
/// only the test's endpoint and key are used.
fn nomos(args: &[&str], env: &[(&str, &str)]) -> Output {
    output(
        command()
            .env_remove("NOMOS_LLM_API_KEY")
            .envs(env.iter().copied()),
        args,
    )
}

/// A stand-in model that answers like one at temperature 0: each reply is
/// a function of the request alone. The planner writes one of a few
/// words of the Constitution, chosen by the prompt; the observer keeps
/// the first and third candidates and names one id that is not one. Like
/// llama.cpp's server, it reports its context window at `/props`.
fn model(request: &Request, _: usize) -> Reply {
    if request.path == "/props" {
        return Reply::new(200, r#"{"default_generation_settings": {"n_ctx": 8192}}"#);
    }
    let schema = &request.body["response_format"]["json_schema"];
    let content = match schema["name"].as_str() {
        Some("query") => {
            let words = [
                "πολίτευμα",
                "Λαό εξουσίες",
                "θρησκεία",
                "ελευθερία",
                "Βουλή",
            ];
            let pick = fnv(request.last_message()) as usize % words.len();
            json!({ "query": words[pick] })
        }
        Some("keep") => {
            let ids = schema["schema"]["properties"]["keep"]["items"]["enum"]
                .as_array()
                .cloned()
                .unwrap_or_default();
            let mut keep: Vec<Value> = ids.into_iter().step_by(2).take(2).collect();
            keep.push(json!("Nope::0"));
            json!({ "keep": keep })
        }
        Some("keywords") => json!({ "keywords": ["πολίτευμα", "Δημοκρατία"] }),
        Some("statement") => json!({ "statement": "Η μορφή του πολιτεύματος" }),
        _ => return Reply::new(400, r#"{"error":{"message":"unexpected request"}}"#),
    };
    Reply::completion(&content.to_string())
}

fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf29ce484222325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100000001b3)
    })
}

/// The first `n` queries of the fixture, as a BEIR queries file.
fn queries(dir: &Path, n: usize) -> PathBuf {
    let text = std::fs::read_to_string(corpus().join("queries.jsonl")).unwrap();
    let path = dir.join(format!("queries-{n}.jsonl"));
    let lines: Vec<&str> = text.lines().take(n).collect();
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    path
}

/// `nomos eval` of `method` on the fixture with `extra` flags; returns
/// the output, the run file and the metrics JSON.
fn eval(
    dir: &Path,
    name: &str,
    pool: &[&str],
    method: &str,
    queries: &Path,
    extra: &[&str],
    env: &[(&str, &str)],
) -> (Output, String, Value) {
    let run = dir.join(format!("{name}.trec"));
    let metrics = dir.join(format!("{name}.json"));
    let mut args = vec!["eval"];
    args.extend_from_slice(pool);
    args.extend_from_slice(&[
        "--method",
        method,
        "--queries",
        queries.to_str().unwrap(),
        "--run",
        run.to_str().unwrap(),
        "--metrics",
        metrics.to_str().unwrap(),
    ]);
    args.extend_from_slice(extra);
    let out = nomos(&args, env);
    let run = std::fs::read_to_string(run).unwrap_or_default();
    let metrics = std::fs::read_to_string(metrics)
        .map(|m| serde_json::from_str(&m).unwrap())
        .unwrap_or_default();
    (out, run, metrics)
}

const METHOD: &str = "react-bm25:rounds=2,candidates=5,chars=200";

#[test]
fn react_bm25_records_then_replays_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let server = Loopback::start(model);
    let url = format!("{}/v1", server.base);
    let transcript = dir.path().join("transcript.jsonl");
    let three = queries(dir.path(), 3);
    let fixture = corpus();
    let on_the_fly = [
        "--corpus",
        fixture.to_str().unwrap(),
        "--analyzer",
        "gbr-greek",
    ];
    let key = [("NOMOS_LLM_API_KEY", "sk-secret-4711")];

    let (out, recorded, metrics) = eval(
        dir.path(),
        "recorded",
        &on_the_fly,
        METHOD,
        &three,
        &[
            "--llm-url",
            &url,
            "--llm-model",
            "stand-in",
            "--llm-concurrency",
            "2",
            "--transcript",
            transcript.to_str().unwrap(),
        ],
        &key,
    );
    assert!(out.status.success(), "{}", stderr(&out));

    // The window asked for once, then two rounds of planner and observer
    // for each of three queries.
    let mut requests = server.requests();
    assert_eq!(requests.remove(0).path, "/props");
    assert!(
        stderr(&out).contains("context window: 8192 tokens, as the endpoint reports"),
        "{}",
        stderr(&out)
    );
    assert_eq!(requests.len(), 12);
    assert!(requests
        .iter()
        .all(|r| r.header("authorization") == Some("Bearer sk-secret-4711")));

    // The transcript: every exchange, its SHA-256 printed, no key in it.
    let bytes = std::fs::read(&transcript).unwrap();
    let sha = sha256_hex(&bytes);
    assert!(
        stderr(&out).contains(&format!("12 exchanges, sha256 {sha}")),
        "{}",
        stderr(&out)
    );
    for text in [
        String::from_utf8_lossy(&bytes).into_owned(),
        recorded.clone(),
        metrics.to_string(),
        stdout(&out),
        stderr(&out),
    ] {
        assert!(!text.contains("sk-secret"), "the key leaked: {text}");
    }

    // The run: tagged with method, prompts, model and seed; kept articles.
    let tag = "nomos-react-bm25:rounds=2,candidates=5,chars=200+okapi:k1=1.5,b=0.75\
               +prompts=el/v2+model=stand-in+seed=0+context=8192";
    assert!(!recorded.is_empty());
    assert!(recorded.lines().all(|l| l.ends_with(tag)), "{recorded}");

    // The report: cost, rounds 0..2, observer, traces.
    let llm = &metrics["llm"];
    assert_eq!(llm["method"], METHOD);
    assert_eq!(llm["prompts"], "el/v2");
    assert_eq!(llm["model"], "stand-in");
    assert_eq!(llm["response_format"], "json_schema");
    assert_eq!(llm["transcript"]["sha256"], sha);
    assert_eq!(llm["cost"]["total"]["calls"], 12);
    assert_eq!(llm["cost"]["total"]["prompt_tokens"], 1200);
    assert_eq!(llm["cost"]["per_query"]["q1"]["calls"], 4);
    let rounds: Vec<u64> = llm["rounds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["round"].as_u64().unwrap())
        .collect();
    assert_eq!(rounds, [0, 1, 2]);
    assert_eq!(llm["rounds"][2]["ndcg@10"], metrics["ndcg@10"]);
    assert_eq!(llm["observer"]["unknown_ids"], 6, "one per observer call");
    assert_eq!(
        llm["observer"]["kept_recall@100"], metrics["recall@100"],
        "kept R@100 is the final ranking's"
    );
    let q1 = &llm["per_query"]["q1"]["rounds"];
    assert_eq!(q1.as_array().unwrap().len(), 2);
    assert_eq!(q1[0]["candidates"], 5);
    assert_eq!(q1[0]["kept"].as_array().unwrap().len(), 2);
    let table = stdout(&out);
    for heading in ["LLM cost per query", "after each round", "observer"] {
        assert!(table.contains(heading), "{table}");
    }

    // Replayed with no server (and one worker): the same bytes.
    drop(server);
    let replay = ["--replay", transcript.to_str().unwrap()];
    let (out, replayed, metrics) = eval(
        dir.path(),
        "replayed",
        &on_the_fly,
        METHOD,
        &three,
        &replay,
        &[],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(replayed, recorded);
    let total = &metrics["llm"]["cost"]["total"];
    assert_eq!(total["calls"], 12);
    assert_eq!(
        total["llm_ms"], llm["cost"]["total"]["llm_ms"],
        "as recorded"
    );
    assert_eq!(
        total["overhead_ms"], total["wall_ms"],
        "a replay waits for no LLM"
    );
    assert_eq!(metrics["llm"]["replay"], transcript.display().to_string());

    // The same pool as a blob shows the model the same text: same run.
    let blob = dir.path().join("syntagma.blob");
    let built = nomos(
        &[
            "build",
            "--format",
            "beir",
            fixture.to_str().unwrap(),
            "-o",
            blob.to_str().unwrap(),
            "--analyzer",
            "gbr-greek",
        ],
        &[],
    );
    assert!(built.status.success(), "{}", stderr(&built));
    let (out, from_blob, _) = eval(
        dir.path(),
        "blob",
        &["--index", blob.to_str().unwrap()],
        METHOD,
        &three,
        &replay,
        &[],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(from_blob, recorded);

    // A fourth query was never asked: a clear failure, exit 2.
    let four = queries(dir.path(), 4);
    let (out, _, _) = eval(
        dir.path(),
        "missing",
        &on_the_fly,
        METHOD,
        &four,
        &replay,
        &[],
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let message = stderr(&out);
    assert!(message.contains("error: request "), "{message}");
    assert!(
        message.contains(&format!(
            "is not in {}: it was recorded with other queries, prompts, parameters or model \
             settings",
            transcript.display()
        )),
        "{message}"
    );
    // So is a changed setting.
    let (out, _, _) = eval(
        dir.path(),
        "seed",
        &on_the_fly,
        METHOD,
        &three,
        &[&replay[..], &["--llm-seed", "1"]].concat(),
        &[],
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

/// A server that answers the same request differently when asked again,
/// as llama.cpp did at temperature 0 (its prompt cache changes the
/// arithmetic): the planner always writes one query, so every round shows
/// the observer the same candidates, and the observer keeps one more of
/// them each time it is asked. The run asks a repeated request no more:
/// it takes the reply recorded first, as its replay will, so the
/// transcript replays to the same run.
#[test]
fn a_request_asked_again_gets_its_first_reply_so_the_run_replays() {
    let dir = tempfile::tempdir().unwrap();
    let observed = std::sync::atomic::AtomicUsize::new(0);
    let server = Loopback::start(move |request, n| {
        let schema = &request.body["response_format"]["json_schema"];
        match schema["name"].as_str() {
            Some("keep") => {
                let ids = schema["schema"]["properties"]["keep"]["items"]["enum"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default();
                let asked = observed.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let keep: Vec<Value> = ids.into_iter().take(asked + 1).collect();
                Reply::completion(&json!({ "keep": keep }).to_string())
            }
            Some("query") => Reply::completion(r#"{"query": "πολίτευμα"}"#),
            _ => model(request, n),
        }
    });
    let url = format!("{}/v1", server.base);
    let transcript = dir.path().join("transcript.jsonl");
    let one = queries(dir.path(), 1);
    let fixture = corpus();
    let pool = [
        "--corpus",
        fixture.to_str().unwrap(),
        "--analyzer",
        "gbr-greek",
    ];
    let method = "react-bm25:rounds=3,candidates=5,chars=200";
    let (out, recorded, metrics) = eval(
        dir.path(),
        "recorded",
        &pool,
        method,
        &one,
        &[
            "--llm-url",
            &url,
            "--llm-model",
            "stand-in",
            "--transcript",
            transcript.to_str().unwrap(),
        ],
        &[],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let rounds = &metrics["llm"]["per_query"]["q1"]["rounds"];
    let kept: Vec<usize> = (0..3)
        .map(|r| rounds[r]["kept"].as_array().unwrap().len())
        .collect();
    assert_eq!(
        kept,
        [1, 1, 1],
        "the repeated observer request's first reply"
    );
    let observer_requests = server
        .requests()
        .iter()
        .filter(|r| r.body["response_format"]["json_schema"]["name"] == "keep")
        .count();
    assert_eq!(observer_requests, 1, "asked once");

    drop(server);
    let (out, replayed, _) = eval(
        dir.path(),
        "replayed",
        &pool,
        method,
        &one,
        &["--replay", transcript.to_str().unwrap()],
        &[],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(replayed, recorded);
}

#[test]
fn reform_sparse_search_ranks_the_keywords_with_bm25() {
    let server = Loopback::start(model);
    let url = format!("{}/v1", server.base);
    let fixture = corpus();
    let pool = [
        "--corpus",
        fixture.to_str().unwrap(),
        "--analyzer",
        "gbr-greek",
    ];
    let out = nomos(
        &[
            &["search"][..],
            &pool,
            &[
                "--method",
                "reform-sparse",
                "--llm-url",
                &url,
                "--llm-model",
                "stand-in",
                "Ποια είναι η μορφή του πολιτεύματος;",
            ],
        ]
        .concat(),
        &[],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("keywords: πολίτευμα; Δημοκρατία"),
        "{}",
        stderr(&out)
    );
    assert!(stderr(&out).contains("LLM: 1 call, 100 prompt + 10 completion tokens"));
    let plain = nomos(
        &[
            &["search"][..],
            &pool,
            &["--method", "bm25", "πολίτευμα; Δημοκρατία"],
        ]
        .concat(),
        &[],
    );
    assert!(!stdout(&out).is_empty());
    assert_eq!(stdout(&out), stdout(&plain));
    let request = &server.requests()[1];
    assert_eq!(request.body["model"], "stand-in");
    assert_eq!(request.body["temperature"], 0.0);
    assert_eq!(request.body["seed"], 0);
    assert_eq!(request.body["max_tokens"], 1024);
}

#[test]
fn llm_flags_and_llm_methods_go_together() {
    let dir = tempfile::tempdir().unwrap();
    let three = queries(dir.path(), 3);
    let fixture = corpus();
    let pool = [
        "--corpus",
        fixture.to_str().unwrap(),
        "--analyzer",
        "gbr-greek",
    ];
    let (out, _, _) = eval(dir.path(), "no-url", &pool, "react-bm25", &three, &[], &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("--method react-bm25 asks an LLM: give --llm-url URL"),
        "{}",
        stderr(&out)
    );
    let (out, _, _) = eval(
        dir.path(),
        "plain",
        &pool,
        "bm25",
        &three,
        &["--llm-url", "http://127.0.0.1:9/v1"],
        &[],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("--method bm25 asks no LLM"),
        "{}",
        stderr(&out)
    );
    // A bad transcript names its file and line.
    let bad = dir.path().join("bad.jsonl");
    std::fs::write(
        &bad,
        "{\"format\":\"nomos-transcript\",\"version\":1}\nnot json\n",
    )
    .unwrap();
    let (out, _, _) = eval(
        dir.path(),
        "bad",
        &pool,
        "react-bm25",
        &three,
        &["--replay", bad.to_str().unwrap()],
        &[],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains(&format!("{}:2: not an exchange", bad.display())),
        "{}",
        stderr(&out)
    );
}

#[test]
fn an_unreachable_endpoint_ends_the_run_and_keeps_the_transcript() {
    let dir = tempfile::tempdir().unwrap();
    let three = queries(dir.path(), 3);
    let fixture = corpus();
    let pool = [
        "--corpus",
        fixture.to_str().unwrap(),
        "--analyzer",
        "gbr-greek",
    ];
    // The window and the first query's exchanges succeed, then the
    // endpoint answers 404.
    let server = Loopback::start(|request, n| match n {
        0..=4 => model(request, n),
        _ => Reply::new(404, r#"{"error":{"message":"model 'stand-in' not found"}}"#),
    });
    let transcript = dir.path().join("partial.jsonl");
    let (out, _, _) = eval(
        dir.path(),
        "partial",
        &pool,
        METHOD,
        &three,
        &[
            "--llm-url",
            &format!("{}/v1", server.base),
            "--llm-model",
            "stand-in",
            "--transcript",
            transcript.to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("the endpoint says: model 'stand-in' not found (HTTP 404)"),
        "{}",
        stderr(&out)
    );
    assert!(
        stderr(&out).contains("4 exchanges, sha256"),
        "{}",
        stderr(&out)
    );
    let kept = std::fs::read_to_string(&transcript).unwrap();
    assert_eq!(kept.lines().count(), 5, "header and four exchanges");
}

#[test]
fn react_bm25_search_says_what_each_round_did() {
    let server = Loopback::start(model);
    let fixture = corpus();
    let out = nomos(
        &[
            "search",
            "--corpus",
            fixture.to_str().unwrap(),
            "--analyzer",
            "gbr-greek",
            "--method",
            "react-bm25:rounds=1,candidates=3",
            "--llm-url",
            &format!("{}/v1", server.base),
            "--llm-model",
            "stand-in",
            "-k",
            "5",
            "Ποια είναι η μορφή του πολιτεύματος;",
        ],
        &[],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let said = stderr(&out);
    let planned = server.requests()[1].clone();
    let observed = &server.requests()[2];
    let ids = observed.body["response_format"]["json_schema"]["schema"]["properties"]["keep"]
        ["items"]["enum"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(ids.len(), 3);
    let query = model(&planned, 0).body;
    let query: Value = serde_json::from_str(&query).unwrap();
    let query =
        serde_json::from_str::<Value>(query["choices"][0]["message"]["content"].as_str().unwrap())
            .unwrap()["query"]
            .as_str()
            .unwrap()
            .to_owned();
    let (first, third) = (ids[0].as_str().unwrap(), ids[2].as_str().unwrap());
    assert!(
        said.contains(&format!(
            "round 1: {query:?} → 3 candidates, kept {first} {third}; unknown ids named: Nope::0"
        )),
        "{said}"
    );
    assert!(
        said.contains("LLM: 2 calls, 200 prompt + 20 completion tokens"),
        "{said}"
    );
    // The ranking: the kept articles, after one round in their BM25 order.
    let ranked: Vec<String> = stdout(&out)
        .lines()
        .map(|l| l.split('\t').nth(1).unwrap().to_owned())
        .collect();
    assert_eq!(ranked, [first, third]);
}

/// `make-queries --kind llm`'s stand-in model, a function of the request
/// alone: asked for a question, it asks about the start of the first
/// stykke shown as cited (which pulls BM25 away from the target), except
/// for targets whose text holds "Stk. 2", about which it asks in their own
/// words (which BM25 finds: the filter drops those); asked for a verdict, it
/// says "No" to about half the questions (by a hash of their text), else
/// "Yes".
fn query_writer(request: &Request, _: usize) -> Reply {
    let body = &request.body;
    let schema = body["response_format"]["json_schema"]["name"].as_str();
    let prompt = request.last_message();
    let between = |open: &str, close: &str| -> String {
        let start = prompt.find(open).map_or(0, |i| i + open.len());
        let end = prompt[start..]
            .find(close)
            .map_or(prompt.len(), |i| start + i);
        prompt[start..end].trim().to_owned()
    };
    let words = |text: &str| {
        text.split_whitespace()
            .take(12)
            .collect::<Vec<_>>()
            .join(" ")
    };
    let context = between("<context>", "</context>");
    let (id, cited) = context
        .strip_prefix('[')
        .and_then(|c| c.split_once("] "))
        .unwrap_or_default();
    match schema {
        Some("contextual_query") => {
            let target = between("<target>", "</target>");
            let query = match target.contains("Stk. 2") {
                true => format!("Hvad gælder om {target}?"),
                false => format!("Hvad gælder om {}?", words(cited)),
            };
            Reply::completion(
                &json!({"utilized_context_chunk_ids": [id], "query": query}).to_string(),
            )
        }
        Some("assurance") => {
            let verdict = match fnv(&between("<query>", "</query>")).is_multiple_of(2) {
                true => "No",
                false => "Yes",
            };
            Reply::completion(&json!({"reason": "r", "verdict": verdict}).to_string())
        }
        _ => Reply::new(404, "not found"),
    }
}

/// `make-queries --kind llm` against the stand-in model, then again from
/// its transcript with no endpoint.
#[test]
fn an_llm_query_set_is_written_filtered_judged_and_replayed() {
    let server = Loopback::start(query_writer);
    let tmp = tempfile::tempdir().unwrap();
    let (first, second) = (tmp.path().join("first"), tmp.path().join("second"));
    let transcript = tmp.path().join("queries.jsonl");
    let src = cli::data().join("da-law-sample");
    let make = |out: &Path, llm: &[&str]| {
        let mut args = vec![
            "make-queries",
            "--kind",
            "llm",
            "--format",
            "da-law",
            src.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
            "--targets",
            "16",
        ];
        args.extend(llm);
        let out = nomos(&args, &[]);
        assert!(out.status.success(), "{}", stderr(&out));
        stderr(&out)
    };
    let url = format!("{}/v1", server.base);
    let log = make(
        &first,
        &[
            "--llm-url",
            &url,
            "--llm-model",
            "stand-in",
            "--transcript",
            transcript.to_str().unwrap(),
        ],
    );
    let meta: Value =
        serde_json::from_str(&std::fs::read_to_string(first.join("metadata.json")).unwrap())
            .unwrap();
    let n = |path: &str| meta.pointer(path).and_then(Value::as_u64).unwrap();
    assert_eq!(n("/drawn"), 16, "{meta}");
    assert_eq!(n("/made") + n("/left_out/no_usable_question"), 16);
    assert_eq!(
        n("/made"),
        n("/left_out/gold_in_bm25_top_10")
            + n("/left_out/judged_no")
            + n("/left_out/no_usable_verdict")
            + n("/kept"),
        "{meta}"
    );
    assert!(n("/left_out/gold_in_bm25_top_10") > 0, "{meta}");
    assert!(n("/left_out/judged_no") > 0, "{meta}");
    assert!(
        n("/kept") > 0 && n("/kept") == n("/dev") + n("/test"),
        "{meta}"
    );
    assert_eq!(meta["prompts"], "da/queries-v1");
    assert!(log.contains("kept:"), "{log}");

    // Each question request offers exactly the cited stykker shown.
    let asked = server.requests();
    let first_write = asked
        .iter()
        .find(|r| r.body["response_format"]["json_schema"]["name"] == "contextual_query")
        .unwrap();
    let ids = &first_write.body["response_format"]["json_schema"]["schema"]["properties"]
        ["utilized_context_chunk_ids"]["items"]["enum"];
    assert!(
        ids.as_array().is_some_and(|ids| !ids.is_empty()
            && ids.iter().all(|id| first_write
                .last_message()
                .contains(&format!("[{}]", id.as_str().unwrap())))),
        "{ids}"
    );

    // Rows carry CRAwLeR-DK's fields, and the set reads back as its format.
    let rows = std::fs::read_to_string(first.join("dev/contextual_queries.jsonl")).unwrap();
    let row: Value = serde_json::from_str(rows.lines().next().unwrap()).unwrap();
    for field in [
        "chunk_id",
        "query",
        "chunk",
        "context_chunks",
        "utilized_context_chunk_ids",
    ] {
        assert!(!row[field].is_null(), "{field}: {row}");
    }
    let blob = tmp.path().join("dev.blob");
    let built = nomos(
        &[
            "build",
            "--format",
            "crawler-dk",
            first.join("dev").to_str().unwrap(),
            "-o",
            blob.to_str().unwrap(),
        ],
        &[],
    );
    assert!(built.status.success(), "{}", stderr(&built));

    // The transcript makes the same set with no endpoint.
    drop(server);
    make(&second, &["--replay", transcript.to_str().unwrap()]);
    for file in [
        "metadata.json",
        "dev/contextual_queries.jsonl",
        "test/contextual_queries.jsonl",
        "unfiltered/contextual_queries.jsonl",
    ] {
        assert_eq!(
            std::fs::read(first.join(file)).unwrap(),
            std::fs::read(second.join(file)).unwrap(),
            "{file}"
        );
    }
}
