//! The LLM methods in the browser against a real LLM:
//! Qwen2.5-Coder-0.5B-Instruct behind llama.cpp's OpenAI-compatible
//! server on loopback (see `nomos_e2e::llm_server`). A small model: the
//! tests check the machinery (requests, progress, recording, replay,
//! links), not legal quality.
//!
//! Each run's transcript is exported, and a fresh browser with no
//! endpoint set up opens the run's link: without the transcript it says
//! which one is missing and how to load it; with it (opened from a file,
//! or shipped by the site under `transcripts/`) it shows the identical
//! metrics, rounds and rankings, with nothing sent to any LLM.
//!
//! Hooks: the header's `[data-testid=llm-button]`, the settings' fields
//! (`#llm-base-url`, `#llm-model`, `#llm-key`) and
//! `[data-testid=llm-test]`; Search's `[data-testid=llm-done]` (its
//! `data-transcript`), `[data-testid=llm-progress]`, `.llm-trace`;
//! Evaluate's `#llm-queries`, `[data-testid=react-rounds]` rows
//! `tr[data-round]` with `td[data-measure][data-value]`,
//! `[data-testid=llm-cost]` and `[data-testid=eval-transcript]` (its
//! `data-sha256`); the transcripts' file input in `.llm-transcripts`.

use std::process::{Command, Stdio};
use std::time::Duration;

use anyhow::{bail, ensure, Context, Result};
use fantoccini::key::Key;
use fantoccini::Locator;
use nomos_core::digest::sha256_hex;
use nomos_e2e::app::{finish, App};
use nomos_e2e::flaky_proxy::FlakyProxy;
use nomos_e2e::llm_server::{llm_base_url, DEFAULT_MODEL};
use nomos_e2e::one_at_a_time;
use nomos_e2e::paths::{dist_dir, nomos_cli, served_blob};
use nomos_e2e::server::StaticServer;
use serde_json::{json, Value};

/// scripts/llm/check.sh's loop through the CLI (two rounds over BM25's top
/// 5, 200 characters of each candidate) with shorter candidates: the
/// browser's loop is the same code, and shorter prompts keep CI's time down.
const REACT: &str = "react-bm25:rounds=2,candidates=5,chars=150";
/// STARD queries evaluated with it.
const QUERIES: usize = 3;
/// Sent as the API key; llama.cpp without --api-key ignores it. It must
/// appear nowhere but in requests to the endpoint.
const KEY: &str = "sk-e2e-not-a-real-key-4711";
/// A small model on two idle cores reads an observer prompt of 6,000
/// tokens in about 40 s, and writes 60 tokens a second; on a machine busy
/// with builds, ten times slower. Requests may take this long…
const REQUEST_TIMEOUT_SECS: u32 = 900;
/// …and a whole run this long (an upper bound, not an expectation).
const LLM_JOB: Duration = Duration::from_secs(5400);
/// A small model sometimes repeats itself until the limit: 256 tokens bound
/// such a reply (a cut reply is not JSON, and is retried, then recorded as
/// a failed step, which the tests then also see handled) while leaving
/// room for an observer keeping several of STARD's long ids.
const MAX_TOKENS: u32 = 256;
/// A replay ranks from memory.
const REPLAY: Duration = Duration::from_secs(60);

#[tokio::test]
async fn react_bm25_evaluation_replays_offline_by_its_link() -> Result<()> {
    let _turn = one_at_a_time().await;
    let base = llm_base_url()?;
    let mut server = StaticServer::start(&dist_dir()?)?;
    let link = format!("{}#pool=stard.blob&rank={REACT}", server.url());
    let app = App::open_at(&link, "stard.blob").await?;
    // The run's first chat completion (the second, after Test
    // connection's) is answered 503 once, as a busy endpoint does.
    let busy = FlakyProxy::start(&base, 2)?;
    let sender = async {
        set_up_endpoint(&app, &busy.url()).await?;
        app.screenshot("llm-settings").await?;
        close_settings(&app).await?;
        open_evaluate(&app).await?;
        set_field(&app, "llm-queries", &QUERIES.to_string()).await?;
        click(&app, "[data-testid=run-evaluation]").await?;
        let shown = evaluation(&app, LLM_JOB).await?;
        let rounds = rounds(&app).await?;
        let round_numbers: Vec<&str> = rounds.iter().map(|(r, _)| r.as_str()).collect();
        ensure!(round_numbers == ["0", "1", "2"], "rounds shown: {round_numbers:?}");
        // The last round is the method's result.
        for (measure, value) in rounds[2].1.as_object().context("round 2")? {
            ensure!(
                shown["means"][measure] == *value,
                "round 2's {measure} is {value}, the means say {}",
                shown["means"][measure]
            );
        }
        let cost = app
            .poll(
                "the LLM cost",
                "const rows = document.querySelectorAll('[data-testid=llm-cost] tr[data-cost]');
                return rows.length ? Object.fromEntries(Array.from(rows, r => [r.dataset.cost, Number(r.dataset.value)])) : null;",
                vec![],
            )
            .await?;
        ensure!(
            busy.refused() == 1 && cost["http_retries"].as_f64() == Some(1.0),
            "{} requests refused, {} repeated in the cost table",
            busy.refused(),
            cost["http_retries"]
        );
        let calls = cost["calls"].as_f64().unwrap_or_default();
        ensure!(
            calls >= (2 * QUERIES) as f64,
            "{calls} LLM calls for {QUERIES} queries of 2 rounds"
        );
        println!(
            "react-bm25 on {QUERIES} STARD queries with {DEFAULT_MODEL}: {calls} calls, \
             {} prompt + {} completion tokens, {:.1} s of LLM time; failed queries: {}",
            cost["prompt_tokens"],
            cost["completion_tokens"],
            cost["millis"].as_f64().unwrap_or_default() / 1000.0,
            shown["failed"]
        );
        app.screenshot("llm-evaluate").await?;

        // Round 0 is BM25 on the same queries: B = BM25 follows A's.
        let bm25 = compare_with_bm25(&app).await?;
        for (measure, value) in rounds[0].1.as_object().context("round 0")? {
            ensure!(
                bm25[measure] == *value,
                "round 0's {measure} is {value}, BM25 on the same queries {}",
                bm25[measure]
            );
        }

        let sha = shown["transcript"]
            .as_str()
            .context("no transcript shown")?
            .to_owned();
        let url = app.client().current_url().await?.to_string();
        ensure!(url.contains(&format!("transcript={sha}")), "the link lacks the transcript: {url}");
        ensure!(!url.contains("8089") && !url.contains(KEY), "the link leaks the endpoint: {url}");
        let transcript = captured(&app, "[data-testid=eval-transcript] [data-testid=download-transcript]").await?;
        ensure!(
            sha256_hex(transcript.as_bytes()) == sha,
            "the downloaded transcript's SHA-256 is not the link's"
        );
        ensure!(!transcript.contains(KEY), "the transcript holds the API key");
        let run = captured(&app, "xpath://div[contains(@class,'exports')]/button[normalize-space(.)='Run (TREC)']").await?;
        let remembered = app
            .client()
            .execute("return localStorage.getItem('nomos-llm-key');", vec![])
            .await?;
        ensure!(remembered.is_null(), "the key was stored without being asked to");
        Ok((url, sha, transcript, shown, rounds, run))
    }
    .await;
    let closed = app.close().await;
    let (url, sha, transcript, shown, rounds, run) = sender?;
    closed?;

    // A fresh browser without the transcript: told which one, and how.
    let receiver = App::start(&url).await?;
    let outcome = async {
        receiver.wait_for_evaluate("stard.blob").await?;
        let notice = receiver
            .poll(
                "the missing-transcript notice",
                "return document.querySelector('.link-notice')?.textContent || null;",
                vec![],
            )
            .await?;
        let notice = notice.as_str().unwrap_or_default();
        ensure!(
            notice.contains(&sha)
                && notice.contains("does not have")
                && notice.contains("LLM settings"),
            "the notice says {notice:?}"
        );
        receiver.screenshot("llm-missing-transcript").await?;
        // Opened from a file, it replays to the same results.
        let file = tempfile::Builder::new().suffix(".jsonl").tempfile()?;
        std::fs::write(file.path(), &transcript)?;
        click(&receiver, "[data-testid=llm-button]").await?;
        receiver
            .client()
            .find(Locator::Css(".llm-transcripts input[type=file]"))
            .await?
            .send_keys(file.path().to_str().context("temp path")?)
            .await?;
        receiver
            .poll(
                "the transcript to load",
                "const ok = document.querySelector('.llm-transcripts .test-ok');
                 const error = document.querySelector('.llm-transcripts .error');
                 return ok ? ok.textContent : (error ? { error: error.textContent } : null);",
                vec![],
            )
            .await
            .and_then(|v| match v.get("error") {
                Some(e) => bail!("loading the transcript failed: {e}"),
                None => Ok(v),
            })?;
        close_settings(&receiver).await?;
        same_results(&receiver, &shown, &rounds, &run).await
    }
    .await;
    finish(receiver, outcome).await?;

    // A fresh browser on a site that ships it: found by its hash alone.
    server.replace("transcripts/e2e-react.jsonl", transcript.into_bytes());
    server.replace(
        "transcripts/index.json",
        site_index("e2e-react.jsonl", REACT, &sha),
    );
    let receiver = App::start(&url).await?;
    let outcome = async {
        receiver.wait_for_evaluate("stard.blob").await?;
        same_results(&receiver, &shown, &rounds, &run).await?;
        let notice = receiver
            .client()
            .execute(
                "return document.querySelector('.link-notice')?.textContent ?? '';",
                vec![],
            )
            .await?;
        ensure!(
            notice == json!(""),
            "a notice although the site has it: {notice}"
        );
        Ok(())
    }
    .await;
    let outcome = finish(receiver, outcome).await;
    server.stop();
    outcome
}

#[tokio::test]
async fn llm_search_shows_what_the_model_did_and_replays_by_link() -> Result<()> {
    let _turn = one_at_a_time().await;
    let base = llm_base_url()?;
    let mut server = StaticServer::start(&dist_dir()?)?;
    let query = "ελευθερία του τύπου";
    let app = open_constitution(&server).await?;
    let sender = async {
        // An endpoint the page's policy does not allow is named as such.
        click(&app, "[data-testid=llm-button]").await?;
        app.expect_refusal("http://192.0.2.1:9");
        set_field(&app, "llm-base-url", "http://192.0.2.1:9/v1").await?;
        set_field(&app, "llm-model", DEFAULT_MODEL).await?;
        let refused = test_connection(&app).await?;
        ensure!(
            !refused.0 && refused.1.contains("Content-Security-Policy (connect-src)"),
            "a non-loopback endpoint: {refused:?}"
        );
        set_up_endpoint(&app, &base).await?;
        close_settings(&app).await?;

        // reform-sparse: one call, the keywords shown and ranked.
        app.choose_method("reform-sparse").await?;
        let input = app.client().find(Locator::Id("search-box")).await?;
        input.send_keys(query).await?;
        press_enter(&app).await?;
        let done = llm_done(&app).await?;
        let keywords = text_of(&app, ".llm-trace .reformulated q").await?;
        ensure!(!keywords.is_empty(), "no keywords shown");
        let reform_rows = app.results(query).await?;
        let reform_url = app.client().current_url().await?.to_string();
        ensure!(reform_url.contains(&format!("transcript={done}")), "{reform_url}");
        let reform_transcript = captured(&app, "[data-testid=llm-done] [data-testid=download-transcript]").await?;
        app.screenshot("llm-search-reform").await?;

        // ReAct: progress round by round, Cancel, then a whole run.
        app.choose_method("react-bm25").await?;
        for (key, value) in [("rounds", "2"), ("candidates", "5"), ("chars", "150")] {
            set_field(&app, &format!("method-{key}"), value).await?;
        }
        press_enter(&app).await?;
        let progress = app
            .poll(
                "ReAct's progress",
                "const label = document.querySelector('[data-testid=llm-progress] .job-label')?.textContent ?? '';
                 return label.startsWith('Round') ? label : null;",
                vec![],
            )
            .await?;
        ensure!(
            progress.as_str().is_some_and(|p| p.starts_with("Round 1 of 2")),
            "progress says {progress}"
        );
        app.screenshot("llm-search-progress").await?;
        click(&app, "[data-testid=llm-progress] button").await?;
        app.poll(
            "the run to cancel",
            "return document.querySelector('.llm-run')?.textContent.includes('Cancelled') || null;",
            vec![],
        )
        .await?;
        press_enter(&app).await?;
        let react_sha = llm_done(&app).await?;
        let rounds = search_rounds(&app).await?;
        ensure!(
            rounds.as_array().is_some_and(|r| r.len() == 2),
            "the rounds shown: {rounds}"
        );
        let react_rows = app.results(query).await?;
        let react_url = app.client().current_url().await?.to_string();
        let react_transcript = captured(&app, "[data-testid=llm-done] [data-testid=download-transcript]").await?;
        ensure!(sha256_hex(react_transcript.as_bytes()) == react_sha, "ReAct's transcript hash");
        app.screenshot("llm-search-react").await?;
        Ok((
            (reform_url, done, reform_transcript, reform_rows, keywords),
            (react_url, react_sha, react_transcript, react_rows, rounds),
        ))
    }
    .await;
    let closed = app.close().await;
    let (reform, react) = sender?;
    closed?;

    // Fresh browsers, no endpoint; the site ships both transcripts.
    let mut index = Vec::new();
    for (name, method, sha, text) in [
        ("e2e-reform.jsonl", "reform-sparse", &reform.1, &reform.2),
        ("e2e-react-search.jsonl", REACT, &react.1, &react.2),
    ] {
        server.replace(&format!("transcripts/{name}"), text.clone().into_bytes());
        index.push(
            json!({"file": name, "name": name, "pool": "el-syntagma.blob",
            "method": method, "sha256": sha, "model": DEFAULT_MODEL}),
        );
    }
    server.replace(
        "transcripts/index.json",
        serde_json::to_vec(&json!({"format_version": 1, "transcripts": index}))?,
    );
    for (url, rows, what) in [
        (&reform.0, &reform.3, "reform-sparse"),
        (&react.0, &react.3, "react-bm25"),
    ] {
        let receiver = App::open_at(url, "el-syntagma.blob").await?;
        let outcome = async {
            llm_done(&receiver).await?;
            let replayed = receiver.results(query).await?;
            ensure!(replayed == *rows, "{what} replays to another ranking");
            if what == "reform-sparse" {
                ensure!(text_of(&receiver, ".llm-trace .reformulated q").await? == reform.4);
            } else {
                let rounds = search_rounds(&receiver).await?;
                ensure!(rounds == react.4, "the rounds replay differently: {rounds}");
            }
            Ok(())
        }
        .await;
        finish(receiver, outcome).await?;
    }
    server.stop();
    Ok(())
}

/// The transcripts the site ships (`public/transcripts/`, recorded by
/// `nomos eval --transcript` against the local model) replay in the
/// browser as the CLI's own replays do: an entry over its pool's
/// benchmark (`queries`) to the CLI's run file byte for byte in Evaluate,
/// an entry over a query set beside the pool (`searches`) to the CLI's
/// ranking of each search in Search. The browser and the CLI send the
/// same requests and rank alike. At least one of them must rank something.
#[tokio::test]
async fn shipped_transcripts_replay_as_the_cli_does() -> Result<()> {
    let _turn = one_at_a_time().await;
    let dist = dist_dir()?;
    let index: Value =
        serde_json::from_slice(&std::fs::read(dist.join("transcripts/index.json"))?)?;
    let entries = index["transcripts"]
        .as_array()
        .context("transcripts/index.json lists none")?;
    ensure!(!entries.is_empty(), "transcripts/index.json lists none");
    let mut server = StaticServer::start(&dist)?;
    let mut ranked = 0;
    for entry in entries {
        let field = |key: &str| {
            entry[key]
                .as_str()
                .map(str::to_owned)
                .with_context(|| format!("transcripts/index.json: an entry has no {key}"))
        };
        let shipped = Shipped {
            file: field("file")?,
            pool: field("pool")?,
            method: field("method")?,
            sha: field("sha256")?,
        };
        let path = dist.join("transcripts").join(&shipped.file);
        ensure!(
            sha256_hex(&std::fs::read(&path)?) == shipped.sha,
            "{} is not the {} its index names",
            path.display(),
            shipped.sha
        );
        let searches: Vec<&str> = entry["searches"]
            .as_array()
            .map(|s| s.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let queries = entry["queries"].as_u64();
        ensure!(
            queries.is_some() || !searches.is_empty(),
            "transcripts/index.json: {} has neither queries nor searches",
            shipped.file
        );
        if let Some(queries) = queries {
            if replay_evaluation(&server, &shipped, &path, queries).await? {
                ranked += 1;
            }
        }
        for query in searches {
            if replay_search(&server, &shipped, &path, query).await? {
                ranked += 1;
            }
        }
    }
    server.stop();
    ensure!(
        ranked > 0,
        "no shipped transcript ranks anything: the check would be empty"
    );
    Ok(())
}

/// The settings offer each in-page model the site serves with its size,
/// read from its manifest, before any weights are fetched: SmolLM2 and
/// the Qwen2.5-Coder 0.5B.
#[tokio::test]
async fn the_in_page_models_are_offered_with_their_sizes_before_any_download() -> Result<()> {
    let _turn = one_at_a_time().await;
    let server = StaticServer::start(&dist_dir()?)?;
    let app = open_constitution(&server).await?;
    let outcome = async {
        click(&app, "[data-testid=llm-button]").await?;
        click(&app, "#llm-asks-in-page").await?;
        let offered = app
            .poll(
                "the served models' sizes",
                "const buttons = [...document.querySelectorAll(
                    '.llm-in-page button[data-testid^=in-page-load]')];
                 return buttons.length > 0 && buttons.every((b) => !b.disabled)
                    ? buttons.map((b) => b.textContent) : null;",
                vec![],
            )
            .await?;
        ensure!(
            offered
                == json!([
                    "Load SmolLM2-135M-Instruct (98.4 MB)",
                    "Load Qwen2.5-Coder-0.5B-Instruct (491.4 MB)"
                ]),
            "the in-page models offered: {offered}"
        );
        let fetched = app
            .client()
            .execute(
                "return performance.getEntriesByType('resource').map((e) => e.name)
                    .filter((name) => name.includes('.gguf'));",
                vec![],
            )
            .await?;
        ensure!(
            fetched == json!([]),
            "weights fetched before anyone asked: {fetched}"
        );
        app.screenshot("in-page-models-offered").await
    }
    .await;
    finish(app, outcome).await
}

/// A shipped transcript, as `transcripts/index.json` lists it.
struct Shipped {
    file: String,
    pool: String,
    method: String,
    sha: String,
}

/// The settings' link to a shipped transcript's replay: the first
/// `testid` link naming its hash whose text holds `text`.
async fn shipped_link(
    server: &StaticServer,
    shipped: &Shipped,
    testid: &str,
    text: &str,
) -> Result<String> {
    let app = App::open(&server.url()).await?;
    let href = async {
        click(&app, "[data-testid=llm-button]").await?;
        app.poll(
            "the shipped transcripts' links",
            "const [testid, sha, text] = arguments;
             const links = Array.from(document.querySelectorAll(`[data-testid=${testid}]`));
             const link = links.find(a => a.getAttribute('href').includes(sha)
                 && a.textContent.includes(text));
             return link ? link.getAttribute('href') : null;",
            vec![json!(testid), json!(shipped.sha), json!(text)],
        )
        .await
    }
    .await;
    let closed = app.close().await;
    let href = href?;
    closed?;
    Ok(format!(
        "{}{}",
        server.url(),
        href.as_str().unwrap_or_default()
    ))
}

/// Replays a shipped transcript's first `queries` in Evaluate, as a
/// visitor follows the settings' "Open its evaluation", and in the CLI;
/// the run files must be equal. Whether the run ranks anything.
async fn replay_evaluation(
    server: &StaticServer,
    shipped: &Shipped,
    path: &std::path::Path,
    queries: u64,
) -> Result<bool> {
    let out = tempfile::tempdir()?;
    let cli_run = out.path().join("cli.run");
    let status = Command::new(nomos_cli()?)
        .args(["eval", "--index"])
        .arg(served_blob(&shipped.pool)?)
        .args([
            "--method",
            &shipped.method,
            "--first",
            &queries.to_string(),
            "--replay",
        ])
        .arg(path)
        .arg("--run")
        .arg(&cli_run)
        .arg("--metrics")
        .arg(out.path().join("cli.metrics.json"))
        .stdout(Stdio::null())
        .status()?;
    ensure!(
        status.success(),
        "nomos eval --replay {}: {status}",
        shipped.file
    );
    let cli_run = std::fs::read_to_string(&cli_run)?;

    let link = shipped_link(server, shipped, "open-shipped-run", "").await?;
    let receiver = App::start(&link).await?;
    let outcome = async {
        receiver.wait_for_evaluate(&shipped.pool).await?;
        click(&receiver, "[data-testid=run-evaluation]").await?;
        evaluation(&receiver, REPLAY).await?;
        let run = captured(
            &receiver,
            "xpath://div[contains(@class,'exports')]/button[normalize-space(.)='Run (TREC)']",
        )
        .await?;
        ensure!(
            run == cli_run,
            "the browser's replay of {} gives another run file than the CLI's",
            shipped.file
        );
        Ok(())
    }
    .await;
    finish(receiver, outcome).await?;
    Ok(!cli_run.is_empty())
}

/// Replays one search of a shipped transcript in Search, as a visitor
/// follows the settings' link, and in the CLI (`nomos search --replay`);
/// the ids shown must be the CLI's, in its order. Whether it ranks
/// anything.
async fn replay_search(
    server: &StaticServer,
    shipped: &Shipped,
    path: &std::path::Path,
    query: &str,
) -> Result<bool> {
    let link = shipped_link(server, shipped, "open-shipped-search", query).await?;
    let receiver = App::open_at(&link, &shipped.pool).await?;
    let mut shown = Vec::new();
    let outcome = async {
        llm_done(&receiver).await?;
        shown = receiver.results(query).await?;
        Ok(())
    }
    .await;
    finish(receiver, outcome).await?;
    let output = Command::new(nomos_cli()?)
        .args(["search", "--index"])
        .arg(served_blob(&shipped.pool)?)
        .args([
            "--method",
            &shipped.method,
            "--top",
            &shown.len().max(1).to_string(),
            "--replay",
        ])
        .arg(path)
        .arg(query)
        .stderr(Stdio::null())
        .output()?;
    ensure!(
        output.status.success(),
        "nomos search --replay {} {query:?}: {}",
        shipped.file,
        output.status
    );
    let stdout = String::from_utf8(output.stdout)?;
    let cli_ids = cli_search_ids(&stdout);
    let shown_ids: Vec<&str> = shown.iter().map(|r| r.id.as_str()).collect();
    ensure!(
        shown_ids == cli_ids,
        "the browser's replay of {} for {query:?} shows {shown_ids:?}, the CLI ranks {cli_ids:?}",
        shipped.file
    );
    Ok(!shown.is_empty())
}

/// The settings' in-page model (wllama, the SmolLM2 GGUF the site
/// serves) ranks reform-sparse and react-bm25 in Search with no endpoint
/// at all: loaded on request with progress, named in the header and the
/// run, its transcript recorded under its own name, and a fresh browser
/// replays the reform-sparse run's link to the same ranking.
#[tokio::test]
async fn in_page_model_ranks_in_search_with_no_endpoint() -> Result<()> {
    let _turn = one_at_a_time().await;
    let mut server = StaticServer::start(&dist_dir()?)?;
    let query = "ελευθερία του τύπου";
    let app = open_constitution(&server).await?;
    let sender = async {
        click(&app, "[data-testid=llm-button]").await?;
        click(&app, "#llm-asks-in-page").await?;
        ensure!(
            text_of(&app, "[data-testid=in-page-status]")
                .await?
                .starts_with("Not loaded"),
            "the in-page model loaded before it was asked"
        );
        // The tiny model's keyword lists loop until the limit: keep it short.
        set_field(&app, "llm-max-tokens", "32").await?;
        click(&app, "[data-testid=in-page-load]").await?;
        let status = app
            .poll_for(
                "the in-page model to load",
                "const p = document.querySelector('[data-testid=in-page-status]');
                 return p && (p.classList.contains('test-ok') || p.classList.contains('error'))
                    ? [p.classList.contains('test-ok'), p.textContent] : null;",
                vec![],
                Duration::from_secs(300),
            )
            .await?;
        ensure!(status[0] == json!(true), "the in-page model: {}", status[1]);
        ensure!(
            status[1]
                .as_str()
                .is_some_and(|s| s.contains("SmolLM2-135M-Instruct")),
            "{}",
            status[1]
        );
        app.screenshot("llm-settings-in-page").await?;
        close_settings(&app).await?;
        ensure!(
            text_of(&app, "[data-testid=llm-button]").await? == "LLM: in page",
            "the header's LLM button"
        );

        app.choose_method("reform-sparse").await?;
        let input = app.client().find(Locator::Id("search-box")).await?;
        input.send_keys(query).await?;
        press_enter(&app).await?;
        let sha = llm_done(&app).await?;
        let keywords = text_of(&app, ".llm-trace .reformulated q").await?;
        let rows = app.results(query).await?;
        let url = app.client().current_url().await?.to_string();
        ensure!(url.contains(&format!("transcript={sha}")), "{url}");
        let transcript = captured(
            &app,
            "[data-testid=llm-done] [data-testid=download-transcript]",
        )
        .await?;
        ensure!(
            sha256_hex(transcript.as_bytes()) == sha,
            "the transcript's hash"
        );
        ensure!(
            transcript.contains("SmolLM2-135M-Instruct"),
            "the transcript does not name the in-page model"
        );

        // ReAct's loop with the in-page model: one round, each step shown.
        app.choose_method("react-bm25").await?;
        for (key, value) in [("rounds", "1"), ("candidates", "3"), ("chars", "100")] {
            set_field(&app, &format!("method-{key}"), value).await?;
        }
        press_enter(&app).await?;
        let react_sha = llm_done(&app).await?;
        ensure!(
            react_sha != sha,
            "ReAct's run has reform-sparse's transcript"
        );
        let rounds = search_rounds(&app).await?;
        ensure!(
            rounds.as_array().is_some_and(|r| r.len() == 1),
            "the rounds shown: {rounds}"
        );

        let sent = app
            .client()
            .execute(
                "return performance.getEntriesByType('resource').map(e => e.name)
                    .filter(u => u.includes('/chat/completions'));",
                vec![],
            )
            .await?;
        ensure!(sent == json!([]), "requests went to an endpoint: {sent}");
        Ok((url, sha, transcript, rows, keywords))
    }
    .await;
    let closed = app.close().await;
    let (url, sha, transcript, rows, keywords) = sender?;
    closed?;

    server.replace("transcripts/e2e-in-page.jsonl", transcript.into_bytes());
    server.replace(
        "transcripts/index.json",
        serde_json::to_vec(&json!({"format_version": 1, "transcripts": [
            {"file": "e2e-in-page.jsonl", "name": "in-page", "pool": "el-syntagma.blob",
             "method": "reform-sparse", "sha256": sha, "model": "SmolLM2-135M-Instruct"}]}))?,
    );
    let receiver = App::open_at(&url, "el-syntagma.blob").await?;
    let outcome = async {
        llm_done(&receiver).await?;
        ensure!(
            receiver.results(query).await? == rows,
            "the replay ranks differently"
        );
        ensure!(text_of(&receiver, ".llm-trace .reformulated q").await? == keywords);
        Ok(())
    }
    .await;
    finish(receiver, outcome).await?;
    server.stop();
    Ok(())
}

/// Search's ReAct rounds as shown: each round's number and planner query.
async fn search_rounds(app: &App) -> Result<Value> {
    Ok(app
        .client()
        .execute(
            "return Array.from(document.querySelectorAll('.llm-trace tr.llm-round'),
                r => [r.dataset.round, r.querySelector('.planner-query').textContent]);",
            vec![],
        )
        .await?)
}

/// The Greek Constitution in a fresh browser, Search view, ranked by
/// BM25: the pool's hybrid default would load the semantic model beside
/// the LLM's, which these tests never use (on a busy CI machine the two
/// loads together kept the in-page LLM from loading within 300 s).
async fn open_constitution(server: &StaticServer) -> Result<App> {
    App::open_at(
        &format!("{}#pool=el-syntagma.blob&rank=bm25", server.url()),
        "el-syntagma.blob",
    )
    .await
}

/// Opens the LLM settings and sets the endpoint up, with the test's key
/// (not remembered); Test connection must report the model's answer.
async fn set_up_endpoint(app: &App, base: &str) -> Result<()> {
    if !dialog_open(app).await? {
        click(app, "[data-testid=llm-button]").await?;
    }
    set_field(app, "llm-base-url", base).await?;
    set_field(app, "llm-model", DEFAULT_MODEL).await?;
    set_field(app, "llm-key", KEY).await?;
    set_field(app, "llm-timeout", &REQUEST_TIMEOUT_SECS.to_string()).await?;
    set_field(app, "llm-max-tokens", &MAX_TOKENS.to_string()).await?;
    let (ok, said) = test_connection(app).await?;
    ensure!(ok, "Test connection failed: {said}");
    ensure!(
        said.contains("answered in"),
        "Test connection says {said:?}"
    );
    Ok(())
}

/// Clicks Test connection; whether it succeeded, and what it says.
async fn test_connection(app: &App) -> Result<(bool, String)> {
    app.client()
        .execute(
            "document.querySelector('[data-testid=llm-test]')?.remove();",
            vec![],
        )
        .await?;
    app.client()
        .find(Locator::XPath(
            "//button[normalize-space(.)='Test connection']",
        ))
        .await?
        .click()
        .await?;
    let said = app
        .poll_for(
            "Test connection",
            "const p = document.querySelector('[data-testid=llm-test]');
             return p ? [p.classList.contains('test-ok'), p.textContent] : null;",
            vec![],
            Duration::from_secs(2 * REQUEST_TIMEOUT_SECS as u64),
        )
        .await?;
    Ok((
        said[0].as_bool().unwrap_or(false),
        said[1].as_str().unwrap_or_default().to_owned(),
    ))
}

async fn dialog_open(app: &App) -> Result<bool> {
    let open = app
        .client()
        .execute(
            "return document.getElementById('llm-settings')?.open ?? false;",
            vec![],
        )
        .await?;
    Ok(open == json!(true))
}

async fn close_settings(app: &App) -> Result<()> {
    click(app, "#llm-settings form[method=dialog] button").await?;
    ensure!(!dialog_open(app).await?, "the settings stayed open");
    Ok(())
}

/// Sets an input's value as typing would, and lets the app see it.
async fn set_field(app: &App, id: &str, value: &str) -> Result<()> {
    let done = app
        .client()
        .execute(
            "const [id, value] = arguments;
             const el = document.getElementById(id);
             if (!el) return false;
             el.value = value;
             el.dispatchEvent(new Event('input', { bubbles: true }));
             el.dispatchEvent(new Event('change', { bubbles: true }));
             return true;",
            vec![json!(id), json!(value)],
        )
        .await?;
    ensure!(done == json!(true), "no field #{id}");
    Ok(())
}

/// Clicks the element `selector` (CSS, or `xpath:` and an XPath).
async fn click(app: &App, selector: &str) -> Result<()> {
    let locator = match selector.strip_prefix("xpath:") {
        Some(xpath) => Locator::XPath(xpath),
        None => Locator::Css(selector),
    };
    app.client()
        .find(locator)
        .await
        .with_context(|| format!("nothing matches {selector}"))?
        .click()
        .await?;
    Ok(())
}

async fn press_enter(app: &App) -> Result<()> {
    app.client()
        .find(Locator::Id("search-box"))
        .await?
        .send_keys(&Key::Enter.to_string())
        .await?;
    Ok(())
}

async fn text_of(app: &App, selector: &str) -> Result<String> {
    let text = app
        .client()
        .execute(
            "return document.querySelector(arguments[0])?.textContent ?? '';",
            vec![json!(selector)],
        )
        .await?;
    Ok(text.as_str().unwrap_or_default().to_owned())
}

/// Waits for Search's LLM run to finish; its transcript's hash.
async fn llm_done(app: &App) -> Result<String> {
    let state = app
        .poll_for(
            "the LLM run",
            "const done = document.querySelector('[data-testid=llm-done]');
             const error = document.querySelector('[data-testid=llm-error]');
             return done ? { sha: done.dataset.transcript } : (error ? { error: error.textContent } : null);",
            vec![],
            LLM_JOB,
        )
        .await?;
    if let Some(e) = state.get("error") {
        bail!("the LLM run failed: {e}");
    }
    Ok(state["sha"].as_str().unwrap_or_default().to_owned())
}

async fn open_evaluate(app: &App) -> Result<()> {
    click(
        app,
        "xpath://nav[contains(@class,'tabs')]//button[normalize-space(.)='Evaluate']",
    )
    .await
}

/// Waits for the evaluation to end: its means (by measure, as the
/// `data-value` text), the LLM transcript's hash and the failed queries.
async fn evaluation(app: &App, limit: Duration) -> Result<Value> {
    let script = "const rows = document.querySelectorAll('[data-testid=metric-means] tr[data-measure]');
        const status = document.querySelector('.eval-status')?.textContent ?? '';
        const running = document.querySelector('.run-bar .job');
        if (!running && rows.length) return {
            means: Object.fromEntries(Array.from(rows, r => [r.dataset.measure, r.dataset.value])),
            transcript: document.querySelector('[data-testid=eval-transcript]')?.dataset.sha256 ?? null,
            failed: Number(document.querySelector('[data-testid=llm-failed]')?.dataset.count ?? 0),
        };
        if (!running && status && !status.startsWith('Evaluating')) return { error: status };
        return null;";
    let shown = app
        .poll_for("the evaluation", script, vec![], limit)
        .await?;
    if let Some(e) = shown.get("error") {
        bail!("the evaluation failed: {e}");
    }
    Ok(shown)
}

/// ReAct's rows: round, and its measures (`data-value` text).
async fn rounds(app: &App) -> Result<Vec<(String, Value)>> {
    let rows = app
        .poll(
            "ReAct's rounds",
            "const rows = document.querySelectorAll('[data-testid=react-rounds] tr[data-round]');
             return rows.length ? Array.from(rows, r => [r.dataset.round, Object.fromEntries(
                 Array.from(r.querySelectorAll('td[data-measure]'), c => [c.dataset.measure, c.dataset.value]))]) : null;",
            vec![],
        )
        .await?;
    Ok(serde_json::from_value(rows)?)
}

/// Compares with BM25 (B) and returns B's means.
async fn compare_with_bm25(app: &App) -> Result<Value> {
    set_field(app, "compare-method", "bm25").await?;
    click(
        app,
        "xpath://div[contains(@class,'compare-form')]/button[normalize-space(.)='Compare']",
    )
    .await?;
    app.poll_for(
        "B's means",
        "const rows = document.querySelectorAll('[data-testid=metric-means] tr[data-measure]');
         const b = Array.from(rows, r => [r.dataset.measure, r.querySelector('td[data-value]')?.dataset.value]);
         return b.length && b.every(([, v]) => v) ? Object.fromEntries(b) : null;",
        vec![],
        REPLAY,
    )
    .await
}

/// Runs the evaluation the link describes (replaying) and checks it
/// shows `shown`'s means, `rounds` and the TREC run `run`.
async fn same_results(
    app: &App,
    shown: &Value,
    rounds_shown: &[(String, Value)],
    run: &str,
) -> Result<()> {
    click(app, "[data-testid=run-evaluation]").await?;
    let replayed = evaluation(app, REPLAY).await?;
    ensure!(
        replayed["means"] == shown["means"] && replayed["failed"] == shown["failed"],
        "the replay's means differ: {replayed} vs {shown}"
    );
    ensure!(
        replayed["transcript"] == shown["transcript"],
        "the replay names another transcript"
    );
    ensure!(
        rounds(app).await? == rounds_shown,
        "the rounds replay differently"
    );
    ensure!(
        captured(
            app,
            "xpath://div[contains(@class,'exports')]/button[normalize-space(.)='Run (TREC)']"
        )
        .await?
            == run,
        "the replay's run file differs"
    );
    Ok(())
}

/// Clicks a download button and returns what would have been saved.
async fn captured(app: &App, button: &str) -> Result<String> {
    app.catch_downloads().await?;
    click(app, button).await?;
    let text = app
        .poll(
            "the download",
            "return window.__nomosDownloads.length
                ? window.__nomosDownloads[0].text().then((t) => t) : null;",
            vec![],
        )
        .await?;
    Ok(text
        .as_str()
        .context("a download that is not text")?
        .to_owned())
}

/// A `transcripts/index.json` listing one transcript.
fn site_index(file: &str, method: &str, sha: &str) -> Vec<u8> {
    serde_json::to_vec(&json!({
        "format_version": 1,
        "transcripts": [{"file": file, "name": file, "pool": "stard.blob",
            "method": method, "sha256": sha, "model": DEFAULT_MODEL}],
    }))
    .expect("JSON")
}

/// The ids `nomos search` prints, in rank order (its lines `RANK\tID\tSCORE`;
/// what it says about the LLM is not a hit).
fn cli_search_ids(stdout: &str) -> Vec<&str> {
    stdout
        .lines()
        .filter_map(|line| {
            let mut fields = line.split('\t');
            let rank = fields.next()?;
            let id = fields.next()?;
            (rank.parse::<usize>().is_ok() && fields.next().is_some()).then_some(id)
        })
        .collect()
}
