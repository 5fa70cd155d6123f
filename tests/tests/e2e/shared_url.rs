//! A link copied from the address bar, opened in a fresh browser, shows
//! the same pool, query, ranking and article. The test does not depend on
//! the link's format (the app keeps its state in the URL's fragment).

use anyhow::{ensure, Result};
use nomos_e2e::app::{finish, App, Article, Row};
use nomos_e2e::link::escape;
use nomos_e2e::one_at_a_time;
use nomos_e2e::paths::dist_dir;
use nomos_e2e::server::StaticServer;
use serde_json::{json, Value};

use crate::search::{EL_EXPECTED, EL_QUERY};

#[tokio::test]
async fn a_shared_url_restores_the_same_ranking_and_article() -> Result<()> {
    let _turn = one_at_a_time().await;
    let server = StaticServer::start(&dist_dir()?)?;

    let first = App::open(&server.url()).await?;
    let shared = share(&first, &server.url()).await;
    let closed = first.close().await;
    let (url, rows, article) = shared?;
    closed?;

    // A fresh browser: nothing but the URL carries the state.
    let second = App::open_at(&url, "el-syntagma.blob").await?;
    let outcome = async {
        ensure!(
            second.results(EL_QUERY).await? == rows,
            "the shared URL ranks differently"
        );
        ensure!(
            second.article(&article.id).await? == article,
            "the shared URL shows the article differently"
        );
        Ok(())
    }
    .await;
    finish(second, outcome).await
}

/// Searches, opens the top article, and returns the page's URL with what
/// it shows.
async fn share(app: &App, home: &str) -> Result<(String, Vec<Row>, Article)> {
    app.choose_pool("el-syntagma.blob").await?;
    let rows = app.search(EL_QUERY).await?;
    let article = app.open_result(0).await?;
    ensure!(article.id == EL_EXPECTED, "opened {} first", article.id);
    let url = app.client().current_url().await?.to_string();
    ensure!(url != home, "the URL does not record the state: {url}");
    Ok((url, rows, article))
}

/// A link made with another version of the pool still opens, and says so.
#[tokio::test]
async fn a_link_to_another_version_of_the_pool_says_so() -> Result<()> {
    let _turn = one_at_a_time().await;
    let server = StaticServer::start(&dist_dir()?)?;
    let hash = "0123456789abcdef0123456789abcdef";
    let url = format!(
        "{}#pool=el-syntagma.blob&hash={hash}&q={}",
        server.url(),
        escape(EL_QUERY)
    );
    let app = App::open_at(&url, "el-syntagma.blob").await?;
    let outcome = async {
        ensure!(!app.results(EL_QUERY).await?.is_empty(), "no results");
        let notice = notice(&app).await?;
        let title = app.title("el-syntagma.blob")?;
        ensure!(
            notice.contains(&format!("different version of {title}"))
                && notice.contains("0123456789ab"),
            "the notice says {notice:?}"
        );
        Ok(())
    }
    .await;
    finish(app, outcome).await
}

/// A damaged or hostile link opens the app with what it can use: markup
/// stays text, numbers are clamped, bad escapes, unknown keys and a pool
/// that is not a file name are ignored, and an unknown pool gives way to
/// the first listed.
#[tokio::test]
async fn a_garbage_link_falls_back_to_defaults() -> Result<()> {
    let _turn = one_at_a_time().await;
    let server = StaticServer::start(&dist_dir()?)?;
    let markup = "%3Cimg%20src=x%20onerror=alert(1)%3E";
    let url = format!(
        "{}#pool=el-syntagma.blob&bm25=okapi:k1=9,b=-4&doc=%ZZ&q=%3Cb%3Ebold%3C/b%3E\
         &source={markup}&view=%FF&zzz=1&&=",
        server.url()
    );
    let app = App::open_at(&url, "el-syntagma.blob").await?;
    let outcome = async {
        app.results("<b>bold</b>").await?;
        let method = read(
            &app,
            "return ['bm25-k1', 'bm25-b'].map(id => document.getElementById(id).value);",
        )
        .await?;
        ensure!(
            method == json!(["3", "0"]),
            "k1 and b not clamped to the sliders' ranges: {method}"
        );
        let query = read(&app, "return document.getElementById('search-box').value;").await?;
        ensure!(query == json!("<b>bold</b>"), "the query box holds {query}");
        let injected = read(
            &app,
            "return document.querySelectorAll('main img, main b').length;",
        )
        .await?;
        ensure!(injected == json!(0), "markup from the link reached the DOM");

        // A pool that is not a plain file name is no pool: the link is
        // read without it.
        let markup_pool = format!("{}#pool={markup}&rank=bm25&q=ypsilon", server.url());
        app.client().goto(&markup_pool).await?;
        app.results("ypsilon").await?;
        let current = read(&app, "return document.getElementById('pool-select').value;").await?;
        ensure!(
            current == json!("el-syntagma.blob"),
            "the pool became {current}"
        );

        // Same page, another link: its pool is not in the manifest.
        let unknown = format!("{}#pool=no-such-pool.blob&q=x", server.url());
        app.client().goto(&unknown).await?;
        app.wait_for_pool("da-acts.blob").await?;
        let notice = notice(&app).await?;
        ensure!(
            notice.contains("(no-such-pool.blob)") && notice.contains("not available"),
            "the notice should name the pool: {notice:?}"
        );
        Ok(())
    }
    .await;
    finish(app, outcome).await
}

/// Opening an article is a step in the browser's history: Back closes it,
/// Forward opens it again.
#[tokio::test]
async fn back_and_forward_close_and_reopen_the_article() -> Result<()> {
    let _turn = one_at_a_time().await;
    let server = StaticServer::start(&dist_dir()?)?;
    let app = App::open(&server.url()).await?;
    let outcome = async {
        app.choose_pool("el-syntagma.blob").await?;
        app.search(EL_QUERY).await?;
        let article = app.open_result(0).await?;
        app.client().back().await?;
        app.poll(
            "Back to close the article",
            "return document.querySelector('.article-pane .article-empty') ? true : null;",
            vec![],
        )
        .await?;
        app.client().forward().await?;
        ensure!(
            app.article(&article.id).await? == article,
            "Forward shows the article differently"
        );
        Ok(())
    }
    .await;
    finish(app, outcome).await
}

/// What `script` returns on the page.
async fn read(app: &App, script: &str) -> Result<Value> {
    Ok(app.client().execute(script, vec![]).await?)
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
