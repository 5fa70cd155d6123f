//! A host that answers wrongly, and what the app and its service worker do
//! about it (#14): a file it answers with its page (a single-page app's
//! fallback, status 200) or with another version never stays in a cache,
//! so the app recovers once the host is fixed, without clearing site data;
//! ONNX Runtime's module runs only if it is the pinned build; and every
//! answer comes with the build's Content-Security-Policy.

use anyhow::{ensure, Result};
use nomos_e2e::app::{finish, App};
use nomos_e2e::one_at_a_time;
use nomos_e2e::paths::dist_dir;
use nomos_e2e::server::StaticServer;
use serde_json::{json, Value};

use crate::search::{DA_QUERY, EL_QUERY};

const RUNTIME_WASM: &str = "ort/1.30.0/ort-wasm-simd-threaded.wasm";
const RUNTIME_WRAPPER: &str = "ort/1.30.0/ort-wasm-simd-threaded.mjs";
/// A pool with vectors (its hybrid search needs the model and runtime).
const DENSE_POOL: &str = "el-syntagma.blob";
/// How long the model may take to download and load.
const MODEL_LOAD: std::time::Duration = std::time::Duration::from_secs(240);

#[tokio::test]
async fn a_poisoned_cache_recovers_once_the_host_is_fixed() -> Result<()> {
    let _turn = one_at_a_time().await;
    let dist = dist_dir()?;
    let page = std::fs::read(dist.join("index.html"))?;
    let server = StaticServer::start(&dist)?;
    let app = App::open(&server.url()).await?;
    let outcome = async {
        app.wait_for_worker().await?;
        // The host loses a blob and the runtime's wasm, and answers both
        // with its page.
        server.replace("indexes/el-nomothesia.blob", page.clone());
        server.replace(RUNTIME_WASM, page.clone());
        app.pick_pool("el-nomothesia.blob").await?;
        let error = app.load_error().await?;
        ensure!(
            !error.is_empty(),
            "no load error for a page served as a blob"
        );
        app.choose_pool(DENSE_POOL).await?;
        app.choose_method("rrf").await?;
        let error = model_error(&app).await?;
        ensure!(
            error.contains(RUNTIME_WASM) && error.contains("SHA-384"),
            "the model line says {error:?}"
        );

        // Fixed: a reload (the link keeps the pool and the method) gets the
        // right files, and then so does the other pool.
        server.restore("indexes/el-nomothesia.blob");
        server.restore(RUNTIME_WASM);
        app.client().refresh().await?;
        app.wait_for_pool(DENSE_POOL).await?;
        app.choose_method("rrf").await?;
        model_ready(&app).await?;
        app.choose_pool("el-nomothesia.blob").await?;
        // And what the worker kept is the right files: offline, both load.
        app.poll(
            "the service worker to keep the pool and the runtime",
            "return Promise.all([caches.keys(), caches.open('nomos-assets').then(c => c.keys())])
                .then(async ([names, assets]) => {
                    const build = names.find(n => n.startsWith('nomos-') && n !== 'nomos-assets'
                        && n !== 'nomos-unchecked');
                    const blobs = build ? await caches.open(build).then(c => c.keys()) : [];
                    const kept = blobs.concat(assets).map(r => r.url);
                    return kept.some(u => u.endsWith('/el-nomothesia.blob'))
                        && kept.some(u => u.endsWith('/ort-wasm-simd-threaded.wasm')) ? true : null;
                });",
            vec![],
        )
        .await?;
        Ok(())
    }
    .await;
    finish(app, outcome).await
}

/// The service worker keeps only what the app checked. Asked to keep a
/// blob it holds no copy of, it does not fetch it again (the host now
/// answers with its page) but names it, for the app to send the bytes it
/// checked; a runtime file it must fetch again is checked against the
/// hash the app names, and refused when the host answers otherwise.
#[tokio::test]
async fn the_worker_keeps_nothing_the_app_did_not_check() -> Result<()> {
    let _turn = one_at_a_time().await;
    let dist = dist_dir()?;
    let page = std::fs::read(dist.join("index.html"))?;
    let runtime = "wllama/3.13.0/wllama.wasm";
    let pin = nomos_core::digest::sha256_hex(&std::fs::read(dist.join(runtime))?);
    let server = StaticServer::start(&dist)?;
    let app = App::open(&server.url()).await?;
    let outcome = async {
        app.wait_for_worker().await?;
        // Neither was opened in this session: the worker holds no copy.
        server.replace("indexes/el-nomothesia.blob", page.clone());
        server.replace(runtime, page.clone());
        let answers = app
            .client()
            .execute(
                "const ask = (message) => new Promise((resolve) => {
                    const channel = new MessageChannel();
                    channel.port1.onmessage = (e) => resolve(e.data);
                    navigator.serviceWorker.controller.postMessage(message, [channel.port2]);
                });
                const kept = async (path) => {
                    const answer = await caches.match(new URL(path, location.href).href);
                    return answer ? (await answer.text()).slice(0, 15) : null;
                };
                return (async () => ({
                    blob: await ask({ keep: ['el-nomothesia.blob'] }),
                    runtime: await ask({ keepAssets: [arguments[0] + '#sha256-' + arguments[1]] }),
                    keptBlob: await kept('indexes/el-nomothesia.blob'),
                    keptRuntime: await kept(arguments[0]),
                }))();",
                vec![json!(runtime), json!(pin)],
            )
            .await?;
        ensure!(
            answers["blob"]["ok"] == json!(false)
                && answers["blob"]["missing"] == json!(["el-nomothesia.blob"]),
            "a blob with no checked copy: {answers}"
        );
        let refusal = answers["runtime"]["error"].as_str().unwrap_or_default();
        ensure!(
            answers["runtime"]["ok"] == json!(false) && refusal.contains("SHA-256"),
            "a runtime file the host answers with its page: {answers}"
        );
        ensure!(
            answers["keptBlob"].is_null() && answers["keptRuntime"].is_null(),
            "the worker kept what nobody checked: {answers}"
        );
        Ok(())
    }
    .await;
    finish(app, outcome).await
}

/// A blob whose name needs escaping (`&`, `+`, a space) is kept under one
/// key however it was asked for, so it loads offline.
#[tokio::test]
async fn a_blob_named_with_escapes_is_kept_and_loads_offline() -> Result<()> {
    let _turn = one_at_a_time().await;
    let dist = dist_dir()?;
    let name = "stard & co+1 copy.blob";
    let mut manifest: Value =
        serde_json::from_slice(&std::fs::read(dist.join("indexes/manifest.json"))?)?;
    let indexes = manifest["indexes"]
        .as_array_mut()
        .ok_or_else(|| anyhow::anyhow!("manifest without indexes"))?;
    let mut entry = indexes
        .iter()
        .find(|e| e["file"] == "stard.blob")
        .cloned()
        .ok_or_else(|| anyhow::anyhow!("no stard.blob in the manifest"))?;
    entry["file"] = json!(name);
    entry["title"] = json!("STARD, renamed");
    indexes.push(entry);
    let mut server = StaticServer::start(&dist)?;
    server.replace("indexes/manifest.json", serde_json::to_vec(&manifest)?);
    server.replace(
        &format!("indexes/{name}"),
        std::fs::read(dist.join("indexes/stard.blob"))?,
    );
    let app = App::open(&server.url()).await?;
    let outcome = async {
        app.wait_for_worker().await?;
        app.pick_pool(name).await?;
        app.poll(
            "the renamed pool to be kept offline",
            "const box = document.getElementById('search-box');
             return box?.placeholder.endsWith(' in STARD, renamed') ? true : null;",
            vec![],
        )
        .await?;
        app.keep_offline().await?;
        server.stop();
        app.client().refresh().await?;
        // A link cannot name such a file (`pool` is `[A-Za-z0-9._-]`), so
        // the reload opens the first pool; the renamed one is picked again.
        app.poll(
            "the pool list offline",
            "const [file] = arguments;
             return [...document.querySelectorAll('#pool-select option')]
                 .some((o) => o.value === file) ? true : null;",
            vec![json!(name)],
        )
        .await?;
        app.pick_pool(name).await?;
        app.poll(
            "the renamed pool to load offline",
            "const error = document.querySelector('.loadline.error:not(.model-line)')?.textContent;
             if (error) return { error };
             const box = document.getElementById('search-box');
             return box?.placeholder.endsWith(' in STARD, renamed') ? true : null;",
            vec![],
        )
        .await
        .and_then(|v| match v.get("error") {
            Some(e) => anyhow::bail!("offline, the renamed pool failed: {e}"),
            None => Ok(()),
        })
    }
    .await;
    finish(app, outcome).await
}

#[tokio::test]
async fn a_blob_of_another_version_is_refused() -> Result<()> {
    let _turn = one_at_a_time().await;
    let dist = dist_dir()?;
    let server = StaticServer::start(&dist)?;
    // A valid blob, but not the one the manifest lists (a stale copy).
    let other = std::fs::read(dist.join("indexes/da-crawler-sample.blob"))?;
    server.replace("indexes/stard.blob", other);
    let app = App::open(&server.url()).await?;
    let outcome = async {
        app.pick_pool("stard.blob").await?;
        let error = app.load_error().await?;
        ensure!(
            error.contains("stard.blob") && error.contains("not the version the manifest lists"),
            "the load line says {error:?}"
        );
        Ok(())
    }
    .await;
    finish(app, outcome).await
}

#[tokio::test]
async fn onnx_runtime_runs_only_its_pinned_module() -> Result<()> {
    let _turn = one_at_a_time().await;
    let dist = dist_dir()?;
    let server = StaticServer::start(&dist)?;
    // Still a working module, one string changed; of the listed length, so
    // that only the pin tells (a longer file is refused by its size first,
    // `fetch_limits.rs`).
    let pinned = std::fs::read_to_string(dist.join(RUNTIME_WRAPPER))?;
    let wrapper = pinned.replacen("\"em-pthread\"", "\"em-pthreaX\"", 1);
    ensure!(wrapper != pinned, "{RUNTIME_WRAPPER} has no \"em-pthread\"");
    server.replace(RUNTIME_WRAPPER, wrapper.into_bytes());
    let link = format!("{}#pool={DENSE_POOL}&rank=rrf", server.url());
    let app = App::open_at(&link, DENSE_POOL).await?;
    let outcome = async {
        let error = model_error(&app).await?;
        ensure!(
            error.contains(RUNTIME_WRAPPER) && error.contains("SHA-384"),
            "the model line says {error:?}"
        );
        Ok(())
    }
    .await;
    finish(app, outcome).await
}

#[tokio::test]
async fn every_answer_carries_the_policy() -> Result<()> {
    let _turn = one_at_a_time().await;
    let dist = dist_dir()?;
    let policy = std::fs::read_to_string(dist.join("content-security-policy.txt"))?;
    let policy = policy.trim();
    let page = std::fs::read_to_string(dist.join("index.html"))?;
    ensure!(
        policy.ends_with("; frame-ancestors 'none'")
            && page.contains(&format!(
                "content=\"{}\"",
                policy.trim_end_matches("; frame-ancestors 'none'")
            )),
        "the header's policy {policy:?} is not the page's"
    );
    // From a plain host, the service worker sends it; the page and its
    // scripts run under it (App::close fails on any violation).
    let server = StaticServer::start_plain_under(&dist, "/some/sub/path/")?;
    let app = App::open(&server.url()).await?;
    let outcome = async {
        let headers = app
            .poll(
                "the service worker to answer the page",
                "return navigator.serviceWorker?.controller
                    ? fetch(location.href).then(r => [
                        r.headers.get('content-security-policy'),
                        r.headers.get('x-content-type-options')])
                    : null;",
                vec![],
            )
            .await?;
        ensure!(
            headers == json!([policy, "nosniff"]),
            "the worker's answer has {headers}"
        );
        ensure!(
            !app.search(DA_QUERY).await?.is_empty(),
            "no results under the worker's policy"
        );
        Ok(())
    }
    .await;
    finish(app, outcome).await
}

/// The harness fails a test whose page the policy refused something
/// (so the suite shows that the shipped policy refuses nothing the app
/// does).
#[tokio::test]
async fn a_refused_request_fails_the_test() -> Result<()> {
    let _turn = one_at_a_time().await;
    let server = StaticServer::start(&dist_dir()?)?;
    let app = App::open(&server.url()).await?;
    app.client()
        .execute("fetch('http://192.0.2.1:9/').catch(() => {});", vec![])
        .await?;
    app.poll(
        "the refusal to be recorded",
        "return (sessionStorage.getItem('nomos-e2e-csp-violations') ?? '')
            .includes('192.0.2.1') || null;",
        vec![],
    )
    .await?;
    let closed = app.close().await;
    ensure!(
        closed
            .as_ref()
            .is_err_and(|e| e.to_string().contains("http://192.0.2.1:9")),
        "closing the page said {closed:?}"
    );
    Ok(())
}

/// The model line's error, once shown.
async fn model_error(app: &App) -> Result<String> {
    let error: Value = app
        .poll_for(
            "the model's failure",
            "return document.querySelector('.model-line.error')?.textContent ?? null;",
            vec![],
            MODEL_LOAD,
        )
        .await?;
    Ok(error.as_str().unwrap_or_default().to_owned())
}

/// Waits until the semantic model has loaded (BM25 no longer stands in
/// and the embedding works).
async fn model_ready(app: &App) -> Result<()> {
    app.poll_for(
        "the semantic model to load",
        "const [q] = arguments;
         if (document.querySelector('.model-line.error')) return { error: document.querySelector('.model-line.error').textContent };
         return window.__nomosEmbed ? window.__nomosEmbed(q).then(v => v.length, () => null) : null;",
        vec![json!(EL_QUERY)],
        MODEL_LOAD,
    )
    .await
    .and_then(|v| match v.get("error") {
        Some(e) => anyhow::bail!("the model failed after the host was fixed: {e}"),
        None => Ok(()),
    })
}
