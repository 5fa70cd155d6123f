//! The in-page LLM (app/src/llm/wllama/): the real SmolLM2-135M-Instruct GGUF
//! the site serves, run by llama.cpp's wasm build (wllama) in the page,
//! answers the chat request a real LLM method sends (query reformulation,
//! with its JSON schema) through the app's `Chat` implementation, and the
//! reply reads as the method reads an endpoint's. A first visit fetches
//! none of it; a load fetches it through the service worker, which keeps
//! it. A GGUF picked from disk loads too; a damaged download and a file
//! that is not a GGUF are refused with their reasons.
//!
//! These tests reach the model the way the console can:
//! `window.__nomosInPageLlm` (`load`, `chat`, `complete`); the LLM
//! settings' in-page model ranking in Search is tested in `llm.rs`.
//!
//! Prints load time and tokens/s:
//! `cargo test -p nomos-e2e --test e2e in_page_llm -- --nocapture`.

use std::cell::RefCell;
use std::time::Duration;

use anyhow::{bail, ensure, Context, Result};
use fantoccini::Locator;
use nomos_core::llm::reform::{reformulate, Reform};
use nomos_core::llm::reply::string_field;
use nomos_core::llm::{
    Chat, ChatReply, ChatRequest, LlmError, Prompts, ResponseFormat, Settings, TokenLimitField,
};
use nomos_e2e::app::{finish, App};
use nomos_e2e::one_at_a_time;
use nomos_e2e::paths::dist_dir;
use nomos_e2e::server::StaticServer;
use serde_json::{json, Value};

use crate::search::DA_QUERY;

const MODEL_DIR: &str = "models/smollm2-135m-instruct/";
const MODEL_NAME: &str = "HuggingFaceTB/SmolLM2-135M-Instruct";
const RUNTIME_DIR: &str = "wllama/3.13.0/";
/// Downloading 108 MB from localhost and starting llama.cpp.
const LOAD: Duration = Duration::from_secs(180);
/// One completion of at most [`MAX_TOKENS`] with a schema: about a
/// minute on one idle core here, several on a busy one.
const ANSWER: Duration = Duration::from_secs(600);
const MAX_TOKENS: u32 = 96;

#[tokio::test]
async fn served_model_answers_a_reformulation_request() -> Result<()> {
    let _turn = one_at_a_time().await;
    let gguf = served_gguf()?;
    let server = StaticServer::start(&dist_dir()?)?;
    let app = App::open(&server.url()).await?;
    let outcome = async {
        // The first visit: the app and a pool, nothing of the LLM.
        let fetched = resources(&app).await?;
        let llm: Vec<_> = fetched.iter().filter(|u| is_llm(u)).collect();
        ensure!(llm.is_empty(), "the first visit fetched {llm:?}");
        let worker = std::fs::read_to_string(dist_dir()?.join("sw.js"))?;
        let precache = worker
            .lines()
            .find(|l| l.starts_with("const BUILD = "))
            .context("sw.js has no build list")?;
        ensure!(
            !is_llm(precache),
            "the service worker precaches the LLM: {precache}"
        );

        // Through the service worker, which then keeps the files.
        app.wait_for_worker().await?;
        let loaded = load(&app, json!(MODEL_DIR)).await?;
        ensure!(loaded["model"] == json!(MODEL_NAME), "loaded {loaded}");
        ensure!(loaded["licence"] == json!("Apache-2.0"), "loaded {loaded}");
        let runtime_bytes = runtime_bytes()?;
        let total = gguf.1 + runtime_bytes;
        ensure!(
            loaded["total"] == json!(total) && loaded["received"] == json!(total),
            "progress ended at {} of {} bytes, not {total}",
            loaded["received"],
            loaded["total"]
        );
        ensure!(
            loaded["reports"].as_u64() > Some(10),
            "only {} progress reports",
            loaded["reports"]
        );
        let fetched = resources(&app).await?;
        for file in [gguf.0.as_str(), "wllama.wasm", "index.min.js"] {
            ensure!(
                fetched.iter().any(|u| u.contains(file)),
                "the load did not fetch {file}: {fetched:?}"
            );
        }

        let request = reformulation_request().await?;
        let reply = chat(&app, &request).await?;
        let statement = string_field(&reply.content, "statement")
            .with_context(|| format!("the reply is not the schema's JSON: {:?}", reply.content))?;
        ensure!(reply.model == MODEL_NAME, "reply from {}", reply.model);
        ensure!(
            reply.usage.prompt_tokens > 50 && reply.usage.completion_tokens > 0,
            "usage {:?}",
            reply.usage
        );
        // Temperature 0 and a seed: the same reply again (what transcripts
        // and replays rely on), this time as the raw OpenAI body, which
        // carries llama.cpp's timings.
        let body = complete(
            &app,
            &request.body(TokenLimitField::MaxTokens, ResponseFormat::JsonSchema),
        )
        .await?;
        let again = ChatReply::from_body(&serde_json::to_vec(&body)?, 0.0)?;
        ensure!(
            again.content == reply.content,
            "{:?} then {:?}",
            reply.content,
            again.content
        );
        let timings = &body["timings"];

        println!(
            "in-page LLM: loaded {total} bytes ({} GGUF + {runtime_bytes} wllama) in {:.0} ms",
            gguf.1,
            loaded["millis"].as_f64().unwrap_or(f64::NAN)
        );
        println!(
            "in-page LLM: a completion with its JSON schema: {} prompt + {} completion tokens \
             in {:.0} ms ({:.1} completion tokens/s, prompt included); llama.cpp's timings: \
             prompt {:.1} tokens/s, generation {:.1} tokens/s",
            reply.usage.prompt_tokens,
            reply.usage.completion_tokens,
            reply.millis,
            reply.usage.completion_tokens as f64 / (reply.millis / 1000.0),
            timings["prompt_per_second"].as_f64().unwrap_or(f64::NAN),
            timings["predicted_per_second"].as_f64().unwrap_or(f64::NAN),
        );
        println!("in-page LLM: reformulated {DA_QUERY:?} as {statement:?}");

        app.poll(
            "the service worker to keep the model and wllama",
            "return caches.open('nomos-assets').then(c => c.keys()).then(keys => {
                const urls = keys.map(k => k.url);
                return ['.gguf?sha256=', 'gguf-manifest.json', 'wllama/3.13.0/wllama.wasm',
                        'wllama/3.13.0/index.min.js']
                    .every(part => urls.some(u => u.includes(part))) ? urls : null;
            });",
            vec![],
        )
        .await?;
        Ok(())
    }
    .await;
    finish(app, outcome).await
}

#[tokio::test]
async fn picked_gguf_loads_and_bad_models_are_refused() -> Result<()> {
    let _turn = one_at_a_time().await;
    let (name, bytes) = served_gguf()?;
    let path = dist_dir()?.join(MODEL_DIR).join(&name);
    let not_gguf = tempfile::Builder::new().suffix(".gguf").tempfile()?;
    std::fs::write(not_gguf.path(), b"<!doctype html> not a model")?;
    let server = StaticServer::start(&dist_dir()?)?;
    let app = App::open(&server.url()).await?;
    let outcome = async {
        // A damaged download: the manifest's size, other bytes.
        server.replace(&format!("{MODEL_DIR}{name}"), vec![0; bytes as usize]);
        let error = load_error(&app, json!(MODEL_DIR)).await?;
        ensure!(
            error.contains("do not match the model manifest"),
            "damaged model: {error}"
        );

        // A file that is not a GGUF, then the real one.
        app.client()
            .execute(
                "const input = document.createElement('input');
                 input.type = 'file'; input.id = 'gguf-pick'; document.body.append(input);",
                vec![],
            )
            .await?;
        pick(&app, &not_gguf.path().display().to_string()).await?;
        let error = load_error(&app, json!("picked")).await?;
        ensure!(error.contains("is not a GGUF model"), "not a GGUF: {error}");
        pick(&app, &path.display().to_string()).await?;
        let loaded = load(&app, json!("picked")).await?;
        ensure!(loaded["model"] == json!(name), "loaded {loaded}");
        ensure!(
            loaded["licence"].is_null(),
            "a picked file has no licence on record"
        );
        // It answers: a short completion, since the served model's test
        // already checks a whole reformulation (minutes on a busy core).
        let body = complete(
            &app,
            &json!({"messages": [{"role": "user", "content": "Name a colour."}],
                    "max_tokens": 4, "temperature": 0, "seed": 0}),
        )
        .await?;
        ensure!(
            body["usage"]["completion_tokens"].as_u64() > Some(0)
                && body["choices"][0]["message"]["content"]
                    .as_str()
                    .is_some_and(|c| !c.trim().is_empty()),
            "the picked model's reply: {body}"
        );
        Ok(())
    }
    .await;
    finish(app, outcome).await
}

/// Picks `path` in `#gguf-pick`.
async fn pick(app: &App, path: &str) -> Result<()> {
    let input = app.client().find(Locator::Id("gguf-pick")).await?;
    input.clear().await?;
    input.send_keys(path).await?;
    Ok(())
}

/// The request query reformulation (Reform-dense) sends for a Danish
/// query, as the method builds it.
async fn reformulation_request() -> Result<ChatRequest> {
    struct Capture(RefCell<Option<ChatRequest>>);
    impl Chat for Capture {
        async fn chat(&self, request: &ChatRequest) -> Result<ChatReply, LlmError> {
            self.0.replace(Some(request.clone()));
            Err(LlmError::Cancelled)
        }
    }
    let capture = Capture(RefCell::new(None));
    let settings = Settings {
        model: MODEL_NAME.into(),
        max_tokens: Some(MAX_TOKENS),
        ..Settings::default()
    };
    let prompts = Prompts::for_analyzer("da");
    let sent = reformulate(&capture, &settings, prompts, Reform::Dense, DA_QUERY).await;
    ensure!(sent.is_err(), "the capture answers nothing");
    capture
        .0
        .into_inner()
        .context("reformulation sent no request")
}

/// `__nomosInPageLlm.load(source)`, where `"picked"` means the file in
/// `#gguf-pick`: its result, or the error's text.
async fn start_load(app: &App, source: Value) -> Result<Value> {
    let script = "const [source] = arguments;
        const from = source === 'picked' ? document.getElementById('gguf-pick').files[0] : source;
        window.__llmLoad = null;
        window.__nomosInPageLlm.load(from).then(
            r => window.__llmLoad = { ok: r },
            e => window.__llmLoad = { error: String(e) });";
    app.client().execute(script, vec![source]).await?;
    app.poll_for(
        "the in-page model to load",
        "return window.__llmLoad;",
        vec![],
        LOAD,
    )
    .await
}

async fn load(app: &App, source: Value) -> Result<Value> {
    let outcome = start_load(app, source).await?;
    match outcome.get("ok") {
        Some(ok) => Ok(ok.clone()),
        None => bail!("the in-page model did not load: {}", outcome["error"]),
    }
}

async fn load_error(app: &App, source: Value) -> Result<String> {
    let outcome = start_load(app, source).await?;
    match outcome["error"].as_str() {
        Some(error) => Ok(error.to_owned()),
        None => bail!("the model loaded: {outcome}"),
    }
}

/// `__nomosInPageLlm.chat(request)`: the reply, through `Chat`.
async fn chat(app: &App, request: &ChatRequest) -> Result<ChatReply> {
    let script = "const [request] = arguments;
        window.__llmChat = null;
        window.__nomosInPageLlm.chat(request).then(
            r => window.__llmChat = { ok: r },
            e => window.__llmChat = { error: String(e) });";
    app.client()
        .execute(script, vec![serde_json::to_value(request)?])
        .await?;
    let outcome = app
        .poll_for(
            "the in-page model's reply",
            "return window.__llmChat;",
            vec![],
            ANSWER,
        )
        .await?;
    match outcome.get("ok") {
        Some(reply) => Ok(serde_json::from_value(reply.clone())?),
        None => bail!("the in-page model did not answer: {}", outcome["error"]),
    }
}

/// `__nomosInPageLlm.complete(body)`: the OpenAI reply body.
async fn complete(app: &App, body: &Value) -> Result<Value> {
    let script = "const [body] = arguments;
        window.__llmComplete = null;
        window.__nomosInPageLlm.complete(body).then(
            r => window.__llmComplete = { ok: r },
            e => window.__llmComplete = { error: String(e) });";
    app.client().execute(script, vec![body.clone()]).await?;
    let outcome = app
        .poll_for(
            "the in-page model's reply body",
            "return window.__llmComplete;",
            vec![],
            ANSWER,
        )
        .await?;
    match outcome.get("ok") {
        Some(reply) => Ok(reply.clone()),
        None => bail!("the in-page model did not answer: {}", outcome["error"]),
    }
}

/// Every URL the page has fetched.
async fn resources(app: &App) -> Result<Vec<String>> {
    let urls = app
        .client()
        .execute(
            "return performance.getEntriesByType('resource').map(e => e.name);",
            vec![],
        )
        .await?;
    Ok(serde_json::from_value(urls)?)
}

fn is_llm(url: &str) -> bool {
    url.contains("wllama/") || url.contains("smollm2") || url.contains(".gguf")
}

/// The served GGUF's name and size, from its manifest.
fn served_gguf() -> Result<(String, u64)> {
    let path = dist_dir()?.join(MODEL_DIR).join("gguf-manifest.json");
    let bytes = std::fs::read(&path).with_context(|| {
        format!(
            "{}: the site serves no in-page model; run scripts/build-demo.sh --in-page-llm, \
             then trunk build (scripts/test.sh does)",
            path.display()
        )
    })?;
    let manifest: Value = serde_json::from_slice(&bytes)?;
    let file = &manifest["files"][0];
    Ok((
        file["name"].as_str().context("no file name")?.to_owned(),
        file["bytes"].as_u64().context("no file size")?,
    ))
}

fn runtime_bytes() -> Result<u64> {
    let dir = dist_dir()?.join(RUNTIME_DIR);
    ["index.min.js", "wllama.wasm"]
        .iter()
        .map(|f| Ok(std::fs::metadata(dir.join(f))?.len()))
        .sum()
}
