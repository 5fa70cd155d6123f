//! Ctrl-C during `nomos eval`: a real SIGINT sent to the binary while an
//! LLM method waits on a slow loopback server. The run must start no new
//! query, finish the one in flight, write the run, the metrics and the
//! transcript over the queries done, say how many were left, and exit 130.

#[path = "support/cli.rs"]
mod cli;
#[path = "support/loopback.rs"]
mod loopback;

use std::io::Read;
use std::path::PathBuf;
use std::process::Stdio;
use std::time::{Duration, Instant};

use cli::{command, json};
use loopback::{Loopback, Reply};
use serde_json::{json, Value};

/// How long the stand-in model takes to answer: long enough for the
/// signal to arrive while the second query is in flight.
const SLOW: Duration = Duration::from_millis(1500);

#[test]
fn ctrl_c_writes_the_metrics_of_the_queries_done() {
    let dir = tempfile::tempdir().unwrap();
    let server = Loopback::start(|request, _| {
        // Asked once for its context window, which it does not report.
        if request.path == "/props" {
            return Reply::new(404, "{}");
        }
        let keywords = json!({ "keywords": ["πολίτευμα", "Δημοκρατία"] });
        Reply::completion(&keywords.to_string()).after(SLOW)
    });
    let fixture = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/beir-syntagma");
    let text = std::fs::read_to_string(fixture.join("queries.jsonl")).unwrap();
    let queries = dir.path().join("queries.jsonl");
    let five: Vec<&str> = text.lines().take(5).collect();
    std::fs::write(&queries, five.join("\n") + "\n").unwrap();
    let (run, metrics, transcript) = (
        dir.path().join("run.trec"),
        dir.path().join("metrics.json"),
        dir.path().join("transcript.jsonl"),
    );
    let url = format!("{}/v1", server.base);
    let path = |p: &PathBuf| p.to_str().unwrap().to_owned();
    let mut child = command()
        .args([
            "eval",
            "--corpus",
            &path(&fixture),
            "--analyzer",
            "gbr-greek",
        ])
        .args(["--method", "reform-sparse", "--llm-url", &url])
        .args(["--llm-model", "stand-in", "--llm-concurrency", "1"])
        .args(["--queries", &path(&queries), "--run", &path(&run)])
        .args([
            "--metrics",
            &path(&metrics),
            "--transcript",
            &path(&transcript),
        ])
        .env_remove("NOMOS_LLM_API_KEY")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the nomos binary runs");

    // The second request arrives once the first query is done.
    let chats = || {
        server
            .requests()
            .iter()
            .filter(|r| r.path.ends_with("/chat/completions"))
            .count()
    };
    let start = Instant::now();
    while chats() < 2 {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no second request"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let pid = libc::pid_t::try_from(child.id()).unwrap();
    // SAFETY: sends a signal to the child this test started and still owns.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGINT) }, 0);

    let status = child.wait().unwrap();
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    assert_eq!(status.code(), Some(130), "{stderr}");
    assert!(
        stderr.contains("interrupted: 2 of 5 queries ranked; metrics are over those 2"),
        "{stderr}"
    );
    assert_eq!(chats(), 2, "no query started after Ctrl-C");

    let ids: Vec<String> = five
        .iter()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["_id"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    let run = std::fs::read_to_string(run).unwrap();
    let ranked: std::collections::BTreeSet<&str> = run
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert_eq!(ranked, ids[..2].iter().map(String::as_str).collect());
    let metrics = json(&metrics);
    let per_query = metrics["per_query"].as_object().unwrap();
    assert!(!per_query.is_empty() && per_query.keys().all(|id| ids[..2].contains(id)));
    let costs = metrics["llm"]["cost"]["per_query"].as_object().unwrap();
    assert_eq!(costs.keys().collect::<Vec<_>>(), [&ids[0], &ids[1]]);
    assert_eq!(metrics["llm"]["transcript"]["exchanges"], json!(2));
    assert!(transcript.exists());
}
