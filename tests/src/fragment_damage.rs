//! The damaged-file flow the fragmented pools' tests share: files of the
//! pool damaged as a host or a link may damage them, a query fails with
//! the view's error naming one, and once the host is fixed the next query
//! ranks as the CLI does.

use std::future::Future;

use anyhow::{ensure, Result};

use crate::app::{finish, App};
use crate::server::StaticServer;

/// Damages the site's files `paths` (as [`StaticServer::damage`] does),
/// opens the page with `open`, and runs `fail`, a query that must fail
/// with an error (its message) naming one of them and saying it is
/// damaged; saves that page as the screenshot `shot`, if named. Then
/// restores the files, and `fixed` (the next queries, expected to rank as
/// the CLI) must pass. Closes the page whatever the outcome.
pub async fn damaged_then_fixed(
    server: &StaticServer,
    paths: &[String],
    open: impl Future<Output = Result<App>>,
    fail: impl AsyncFnOnce(&App) -> Result<String>,
    shot: Option<&str>,
    fixed: impl AsyncFnOnce(&App) -> Result<()>,
) -> Result<()> {
    for path in paths {
        server.damage(path)?;
    }
    let app = open.await?;
    let outcome = async {
        let message = fail(&app).await?;
        let named = paths
            .iter()
            .any(|p| message.contains(p.rsplit('/').next().unwrap_or(p)));
        ensure!(
            named && message.contains("damaged"),
            "the error {message:?} should name one of {paths:?} and say it is damaged"
        );
        if let Some(name) = shot {
            app.screenshot(name).await?;
        }
        // The host is fixed: the next query fetches the files anew.
        for path in paths {
            server.restore(path);
        }
        fixed(&app).await
    }
    .await;
    finish(app, outcome).await
}
