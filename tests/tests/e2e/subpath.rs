//! The built `dist/`, put on a plain static host under a subpath (a
//! project site such as `https://ORG.github.io/nomos/`): the server sends
//! no headers of its own, so the first visit is not cross-origin isolated.
//! The app loads, searches (hybrid, so the model and ONNX Runtime load from
//! the subpath too), reads an article, says that query embedding runs on one
//! thread, goes offline, and restores a link there, isolated by its
//! service worker from then on.

use anyhow::{ensure, Result};
use fantoccini::Locator;
use nomos_e2e::app::{finish, App};
use nomos_e2e::one_at_a_time;
use nomos_e2e::paths::dist_dir;
use nomos_e2e::server::StaticServer;
use serde_json::{json, Value};

use crate::search::{DA_QUERY, EL_EXPECTED, EL_QUERY};

const SUBPATH: &str = "/some/sub/path/";
/// How long the model may take to download and load.
const MODEL_LOAD: std::time::Duration = std::time::Duration::from_secs(240);

#[tokio::test]
async fn the_app_works_from_a_subpath_of_a_plain_static_host() -> Result<()> {
    let _turn = one_at_a_time().await;
    let mut server = StaticServer::start_plain_under(&dist_dir()?, SUBPATH)?;
    let home = server.url();
    let app = App::open(&home).await?;
    let outcome = async {
        app.choose_pool("el-syntagma.blob").await?;
        app.choose_method("rrf").await?;
        // Typed, not awaited: BM25 answers while the model loads.
        let search_box = app.client().find(Locator::Id("search-box")).await?;
        search_box.send_keys(EL_QUERY).await?;
        app.poll_for(
            "the semantic model to load from the subpath",
            "const status = document.getElementById('search-status')?.textContent ?? '';
            return status.includes(arguments[0]) && !document.querySelector('.fallback')?.textContent
                ? true : null;",
            vec![json!(EL_QUERY)],
            MODEL_LOAD,
        )
        .await?;
        let rows = app.results(EL_QUERY).await?;
        let top: Vec<&str> = rows.iter().take(3).map(|r| r.id.as_str()).collect();
        ensure!(top.contains(&EL_EXPECTED), "hybrid top 3: {top:?}");
        let note = threads_note(&app).await?;
        ensure!(
            note.contains("one thread") && note.contains("not make the page cross-origin isolated"),
            "the method panel says {note:?}"
        );
        let article = app.open_result(0).await?;
        let link = app.client().current_url().await?.to_string();
        ensure!(
            link.starts_with(&home) && link.contains('#'),
            "the link {link:?} is not under {home}"
        );

        app.poll(
            "the service worker to control the page and keep the app, the model and runtime",
            "return navigator.serviceWorker?.controller
                && document.querySelector('[data-testid=offline-ready]')
                ? caches.open('nomos-assets').then(c => c.keys())
                    .then(keys => keys.length >= 6 ? true : null)
                : null;",
            vec![],
        )
        .await?;
        app.choose_pool("da-acts.blob").await?;
        ensure!(!app.search(DA_QUERY).await?.is_empty(), "no Danish results");

        // Offline: the link restores the pool, the ranking and the article.
        server.stop();
        app.client().goto(&link).await?;
        app.client().refresh().await?;
        app.wait_for_pool("el-syntagma.blob").await?;
        ensure!(
            app.results(EL_QUERY).await? == rows,
            "offline, the link ranks differently"
        );
        ensure!(
            app.article(&article.id).await? == article,
            "offline, the link shows the article differently"
        );
        let isolated = app
            .client()
            .execute("return self.crossOriginIsolated;", vec![])
            .await?;
        ensure!(
            isolated == Value::Bool(true),
            "the service worker did not make the page cross-origin isolated"
        );
        let note = threads_note(&app).await?;
        ensure!(
            !note.contains("not make the page"),
            "isolated by the worker, the method panel still says {note:?}"
        );
        Ok(())
    }
    .await;
    finish(app, outcome).await
}

/// The method panel's note on query embedding.
async fn threads_note(app: &App) -> Result<String> {
    let note = app
        .poll(
            "the method panel's note on query embedding",
            "return Array.from(document.querySelectorAll('.param-note'))
                .map(p => p.textContent).find(t => t.includes('Query embedding')) ?? null;",
            vec![],
        )
        .await?;
    Ok(note.as_str().unwrap_or_default().to_owned())
}
