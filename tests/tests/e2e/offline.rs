//! Once the app and a pool have been loaded, the server can go away: a
//! reload still starts the app (from the service worker's cache), loads
//! the pool and ranks as before (hybrid, so the semantic model and ONNX
//! Runtime come from the cache too), and a pool opened earlier loads too.
//!
//! Hooks: the service worker controls the page, and
//! `[data-testid=offline-ready]` ("Available offline") says it keeps the
//! app and the pools opened, so the test need not guess when it may stop
//! the server.

use anyhow::{ensure, Result};
use nomos_e2e::app::{finish, App};
use nomos_e2e::one_at_a_time;
use nomos_e2e::paths::dist_dir;
use nomos_e2e::server::StaticServer;

use crate::search::{DA_QUERY, EL_QUERY};

#[tokio::test]
async fn search_works_with_the_server_gone() -> Result<()> {
    let _turn = one_at_a_time().await;
    let mut server = StaticServer::start(&dist_dir()?)?;
    let app = App::open(&server.url()).await?;
    let outcome = async {
        app.choose_pool("el-syntagma.blob").await?;
        let online = app.search(EL_QUERY).await?;
        app.keep_offline().await?;
        // The pool has vectors, so the app ranks with hybrid search: the
        // model and runtime must be kept as well (three model files, the
        // runtime's script, module and wasm).
        app.poll(
            "the service worker to keep the semantic model and runtime",
            "return caches.open('nomos-assets').then(c => c.keys())
                .then(keys => keys.length >= 6 ? keys.length : null);",
            vec![],
        )
        .await?;

        server.stop();
        app.client().refresh().await?;
        // The URL keeps the pool and the query: the reload restores both.
        app.wait_for_pool("el-syntagma.blob").await?;
        ensure!(
            app.results(EL_QUERY).await? == online,
            "offline ranking differs"
        );
        ensure!(
            app.search(EL_QUERY).await? == online,
            "offline ranking differs when typed again"
        );
        // The pool the app opened first, before the worker ran, was kept too.
        app.choose_pool("da-acts.blob").await?;
        ensure!(
            !app.search(DA_QUERY).await?.is_empty(),
            "no offline results in da-acts.blob"
        );
        Ok(())
    }
    .await;
    finish(app, outcome).await
}
