//! The app on a shared origin, as a GitHub Pages project site is, beside
//! other sites (#35): another site's page reaches the app's service
//! worker, and must neither make it drop what the app kept nor keep bytes
//! of its choosing; and the app's own messages act only on the app's
//! paths.

use anyhow::{ensure, Context, Result};
use nomos_e2e::app::{finish, App};
use nomos_e2e::one_at_a_time;
use nomos_e2e::paths::dist_dir;
use nomos_e2e::server::StaticServer;
use serde_json::{json, Value};

/// Where the app is served; the origin's other paths are another site's.
const SUBPATH: &str = "/nomos/";

#[tokio::test]
async fn another_site_on_the_origin_cannot_steer_the_service_worker() -> Result<()> {
    let _turn = one_at_a_time().await;
    let dist = dist_dir()?;
    let manifest: Value =
        serde_json::from_slice(&std::fs::read(dist.join("indexes/manifest.json"))?)?;
    let first = manifest["indexes"][0]["file"]
        .as_str()
        .context("empty manifest")?
        .to_owned();
    let server = StaticServer::start_plain_under(&dist, SUBPATH)?;
    let home = server.url();
    let app = App::open(&home).await?;
    let outcome = async {
        app.poll(
            "the service worker to keep the first pool",
            &format!("return {KEPT}(arguments[0]).then(k => k ? true : null);"),
            vec![json!(first)],
        )
        .await?;
        // The app's own page, about a path outside the app: refused.
        let outside = ask(
            &app,
            &home,
            json!({ "forget": ["/elsewhere/x.blob"] }),
            false,
        )
        .await?;
        ensure!(
            outside["ok"] == json!(false)
                && outside["error"]
                    .as_str()
                    .unwrap_or_default()
                    .contains("is not this app's"),
            "the worker answered the app's message about another path with {outside}"
        );

        // Another site's page on the same origin.
        let origin = home.trim_end_matches(SUBPATH);
        app.client()
            .goto(&format!("{origin}/another-site/"))
            .await?;
        let blob = format!("{home}indexes/{first}");
        let forget = ask(&app, &home, json!({ "forget": [blob] }), false).await?;
        let meta = format!("{home}indexes/planted/meta");
        let plant = ask(&app, &home, json!({ "keepFragments": [meta] }), true).await?;
        for (what, answer) in [("forget", &forget), ("keepFragments", &plant)] {
            ensure!(
                answer["ok"] == json!(false)
                    && answer["error"]
                        .as_str()
                        .unwrap_or_default()
                        .contains("only the app's own pages"),
                "the worker answered another site's {what} with {answer}"
            );
        }
        let kept = app
            .client()
            .execute(
                &format!(
                    "const [file, meta] = arguments;
                     return Promise.all([{KEPT}(file),
                         caches.open('nomos-fragments').then(c => c.match(meta))])
                         .then(([blob, planted]) => [blob, !!planted]);"
                ),
                vec![json!(first), json!(meta)],
            )
            .await?;
        ensure!(
            kept == json!([true, false]),
            "after another site's messages, [blob kept, meta planted] is {kept}"
        );
        app.client().goto(&home).await?;
        app.wait_for_pool(&first).await?;
        Ok(())
    }
    .await;
    finish(app, outcome).await
}

/// A script function: whether the build's cache keeps the blob `file`.
const KEPT: &str = "((file) => caches.keys().then(async (names) => {
    const build = names.find(n => n.startsWith('nomos-')
        && !['nomos-assets', 'nomos-unchecked', 'nomos-fragments'].includes(n));
    const keys = build ? await caches.open(build).then(c => c.keys()) : [];
    return keys.some(r => r.url.endsWith('/indexes/' + file));
}))";

/// Posts `message` (with a body of four bytes for its first URL when
/// `body`) to the service worker registered for `app_url`, from the page
/// now open, and returns its answer.
async fn ask(app: &App, app_url: &str, message: Value, body: bool) -> Result<Value> {
    let answer = app
        .client()
        .execute(
            "const [scope, message, body] = arguments;
             return navigator.serviceWorker.getRegistration(scope).then((registration) => {
                 const worker = registration && registration.active;
                 if (!worker) return { ok: null, error: 'no active worker for ' + scope };
                 if (body) message.bodies = [new Uint8Array([1, 2, 3, 4]).buffer];
                 const channel = new MessageChannel();
                 const answer = new Promise((resolve) => {
                     channel.port1.onmessage = (e) => resolve(e.data);
                 });
                 worker.postMessage(message, [channel.port2]);
                 return answer;
             });",
            vec![json!(app_url), message, json!(body)],
        )
        .await?;
    Ok(answer)
}
