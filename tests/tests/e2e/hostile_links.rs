//! Links without limits: a 1 MB query ranked densely and a 1.5 MB
//! fragment open the app, which reads what fits (the query cut, with a
//! notice), ranks, and answers a click within a second.

use std::time::Duration;

use anyhow::{ensure, Result};
use nomos_e2e::app::{finish, App};
use nomos_e2e::one_at_a_time;
use nomos_e2e::paths::dist_dir;
use nomos_e2e::server::StaticServer;
use serde_json::json;

use crate::search::EL_QUERY;
use nomos_e2e::link::escape;

const FILE: &str = "el-syntagma.blob";
/// What the app's search box and links allow (`url_state::QUERY_MAX`).
const QUERY_MAX: usize = 20_000;
/// How fast a click must answer.
const CLICK: Duration = Duration::from_secs(1);

#[tokio::test]
async fn a_huge_query_ranked_densely_leaves_the_page_responsive() -> Result<()> {
    let _turn = one_at_a_time().await;
    let server = StaticServer::start(&dist_dir()?)?;
    // Distinct words, so every per-term step sees 100,000 of them.
    let mut query = String::new();
    for i in 0.. {
        if query.len() >= 1_000_000 {
            break;
        }
        query.push_str(&format!("w{i}x "));
    }
    let cut = &query[..QUERY_MAX];
    let url = format!(
        "{}#pool={FILE}&rank=dense&q={}",
        server.url(),
        escape(&query)
    );
    let app = App::open_at(&url, FILE).await?;
    let outcome = async {
        // The cut query, ranked densely (no BM25 stand-in left).
        let rows = app.results(cut.trim()).await?;
        ensure!(rows.len() == 25, "{} rows shown", rows.len());
        let notice = notice(&app).await?;
        ensure!(
            notice.contains("was cut"),
            "the notice should say the query was cut: {notice:?}"
        );
        let method = app
            .client()
            .execute("return document.getElementById('method').value;", vec![])
            .await?;
        ensure!(method == json!("dense"), "ranked with {method}");
        answers_a_click(
            &app,
            "div.more button",
            "document.querySelectorAll('ol.results .result').length === 50",
        )
        .await?;
        answers_a_click(&app, "nav.tabs .tab:nth-child(2)", EVALUATE_SHOWN).await
    }
    .await;
    finish(app, outcome).await
}

#[tokio::test]
async fn a_huge_fragment_leaves_the_page_responsive() -> Result<()> {
    let _turn = one_at_a_time().await;
    let server = StaticServer::start(&dist_dir()?)?;
    // 1.5 MB of distinct keys after the pool and query.
    let mut fragment = format!("pool={FILE}&rank=bm25&q={}", escape(EL_QUERY));
    for i in 0.. {
        if fragment.len() >= 1_500_000 {
            break;
        }
        fragment.push_str(&format!("&k{i}=v"));
    }
    let url = format!("{}#{fragment}", server.url());
    let app = App::open_at(&url, FILE).await?;
    let outcome = async {
        ensure!(!app.results(EL_QUERY).await?.is_empty(), "no results");
        answers_a_click(&app, "nav.tabs .tab:nth-child(2)", EVALUATE_SHOWN).await
    }
    .await;
    finish(app, outcome).await
}

/// The Evaluate tab is pressed.
const EVALUATE_SHOWN: &str =
    "document.querySelector('nav.tabs .tab:nth-child(2)')?.getAttribute('aria-pressed') === 'true'";

/// Clicks `selector` and checks that `shown` (a JS expression) holds
/// within [`CLICK`] of the click, timed by the page from the click's
/// event time (when the input arrived, however busy the page) to the first
/// frame showing its effect; WebDriver's own round trips are not counted.
async fn answers_a_click(app: &App, selector: &str, shown: &str) -> Result<()> {
    let arm = format!(
        "const [selector] = arguments;
         window.__nomosClick = null;
         document.querySelector(selector).addEventListener('click', ev => {{
             const check = () => ({shown})
                 ? (window.__nomosClick = performance.now() - ev.timeStamp)
                 : requestAnimationFrame(check);
             requestAnimationFrame(check);
         }}, {{ capture: true, once: true }});"
    );
    app.client().execute(&arm, vec![json!(selector)]).await?;
    app.client()
        .find(fantoccini::Locator::Css(selector))
        .await?
        .click()
        .await?;
    let took = app
        .poll(
            &format!("a click on {selector} to show"),
            "return window.__nomosClick;",
            vec![],
        )
        .await?;
    let took = Duration::from_secs_f64(took.as_f64().unwrap_or(f64::INFINITY) / 1000.0);
    ensure!(
        took <= CLICK,
        "a click on {selector} answered after {took:?}"
    );
    Ok(())
}

/// The link notice's text, once shown.
async fn notice(app: &App) -> Result<String> {
    let text = app
        .poll(
            "the link notice",
            "return document.querySelector('.link-notice')?.textContent ?? null;",
            vec![],
        )
        .await?;
    Ok(text.as_str().unwrap_or_default().to_owned())
}
