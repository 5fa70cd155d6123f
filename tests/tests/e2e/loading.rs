//! Loading time of a returning visit: reloading a link to a pool and a
//! query while the service worker serves the app and the pool from its
//! cache, until the first results are in the page. The app records its
//! milestones (`window.__nomosTimings`, ms since navigation started); this
//! prints them per pool, and docs/benchmarks/ reports them. To see them:
//! `cargo test -p nomos-e2e --test e2e loading -- --nocapture`.

use anyhow::{ensure, Context, Result};
use nomos_e2e::app::{finish, App};
use nomos_e2e::one_at_a_time;
use nomos_e2e::paths::dist_dir;
use nomos_e2e::server::StaticServer;
use serde_json::Value;

use crate::search::{DA_QUERY, EL_QUERY};

/// Theft of public or private property (STARD, Chinese criminal law).
const ZH_QUERY: &str = "盗窃公私财物";
/// Termination of a lease (the Greek codes: a light blob whose text comes
/// in parts, all kept by "Make available offline").
const CODES_QUERY: &str = "καταγγελία μίσθωσης";
const RELOADS: usize = 3;
/// The app's marks, in the order they must happen.
const MARKS: [&str; 4] = ["start", "manifest", "pool", "results"];

#[tokio::test]
async fn cached_reload_time_to_first_result() -> Result<()> {
    let _turn = one_at_a_time().await;
    let server = StaticServer::start(&dist_dir()?)?;
    let app = App::open(&server.url()).await?;
    let outcome = async {
        for (file, query) in [
            ("el-syntagma.blob", EL_QUERY),
            ("stard.blob", ZH_QUERY),
            ("da-acts.blob", DA_QUERY),
            ("el-codes.blob", CODES_QUERY),
        ] {
            app.choose_pool(file).await?;
            app.search(query).await?;
            app.keep_offline().await?;
            let mut results = Vec::new();
            let mut last = Vec::new();
            for _ in 0..RELOADS {
                app.client().refresh().await?;
                app.wait_for_pool(file).await?;
                ensure!(
                    !app.results(query).await?.is_empty(),
                    "no results for {query:?}"
                );
                last = marks(&app).await?;
                results.push(last[MARKS.len() - 1]);
            }
            results.sort_by(f64::total_cmp);
            let shown: Vec<String> = MARKS
                .iter()
                .zip(&last)
                .map(|(m, t)| format!("{m} {t:.0}"))
                .collect();
            println!(
                "loading {file}: first results after {:.0} ms (median of {RELOADS} cached \
                 reloads; min {:.0}, max {:.0}); last reload: {}",
                results[RELOADS / 2],
                results[0],
                results[RELOADS - 1],
                shown.join(", ")
            );
        }
        Ok(())
    }
    .await;
    finish(app, outcome).await
}

/// The app's marks in [`MARKS`] order, checked to be in that order, on a
/// page the service worker served.
async fn marks(app: &App) -> Result<Vec<f64>> {
    let script =
        "return navigator.serviceWorker?.controller ? (window.__nomosTimings ?? {}) : null;";
    let timings: Value = app.client().execute(script, vec![]).await?;
    ensure!(
        !timings.is_null(),
        "the reload was not served by the service worker"
    );
    let values = MARKS
        .iter()
        .map(|m| {
            timings[m]
                .as_f64()
                .with_context(|| format!("no {m} mark in {timings}"))
        })
        .collect::<Result<Vec<f64>>>()?;
    ensure!(
        values.windows(2).all(|w| w[0] <= w[1]),
        "marks out of order: {timings}"
    );
    Ok(values)
}
