//! Framed by a page of another origin on a plain static host (which sends
//! no `frame-ancestors` header), the page refuses to start (#35): it shows
//! why, with a link to open Nomos in a tab of its own, and fetches no pool
//! and registers no service worker.

use std::time::Duration;

use anyhow::{ensure, Result};
use fantoccini::Locator;
use nomos_e2e::app::{finish, App};
use nomos_e2e::one_at_a_time;
use nomos_e2e::paths::dist_dir;
use nomos_e2e::server::StaticServer;
use serde_json::json;

const SUBPATH: &str = "/nomos/";
/// Long enough for a started app to ask for its manifest.
const SETTLE: Duration = Duration::from_secs(3);

#[tokio::test]
async fn framed_by_another_origin_the_page_refuses_to_start() -> Result<()> {
    let _turn = one_at_a_time().await;
    let site = StaticServer::start_plain_under(&dist_dir()?, SUBPATH)?;
    // Another port: another origin.
    let framer_root = tempfile::tempdir()?;
    std::fs::write(
        framer_root.path().join("frame.html"),
        format!(
            "<!doctype html><title>Framer</title>\
             <iframe id=nomos src=\"{}\" width=900 height=600></iframe>",
            site.url()
        ),
    )?;
    let framer = StaticServer::start_plain_under(framer_root.path(), "/")?;
    let app = App::start(&format!("{}frame.html", framer.url())).await?;
    let outcome = async {
        app.client()
            .find(Locator::Id("nomos"))
            .await?
            .enter_frame()
            .await?;
        let shown = app
            .poll(
                "the refusal to run framed",
                "const p = document.querySelector('[data-testid=framed]');
                 const a = p?.querySelector('a');
                 return a ? [p.textContent, a.target, a.href] : null;",
                vec![],
            )
            .await?;
        ensure!(
            shown[0]
                .as_str()
                .is_some_and(|t| t.contains("does not run inside another page")),
            "the refusal says {}",
            shown[0]
        );
        ensure!(
            shown[1] == json!("_blank") && shown[2] == json!(site.url()),
            "the link opens {} in {}",
            shown[2],
            shown[1]
        );
        tokio::time::sleep(SETTLE).await;
        let sent = site.sent();
        ensure!(
            !sent.iter().any(|(target, _)| target.contains("/indexes/")),
            "the framed page fetched pool files: {sent:?}"
        );
        let workers = app
            .client()
            .execute(
                "return navigator.serviceWorker
                    ? navigator.serviceWorker.getRegistrations().then(r => r.length) : 0;",
                vec![],
            )
            .await?;
        ensure!(workers == json!(0), "{workers} service workers registered");
        app.client().enter_parent_frame().await?;
        app.screenshot("framed").await
    }
    .await;
    finish(app, outcome).await
}
