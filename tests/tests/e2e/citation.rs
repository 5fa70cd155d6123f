//! Citation jump and act names, on one page: a `cite=` link opens the
//! cited stykke; the Source facet shows the acts' names; `§ 244` alone
//! lists every act's § 244, the act last opened first; a citation in a
//! longer query offers a "Go to" row that Enter opens; a query that is only
//! a citation opens it; in the Greek Constitution `άρθρο 14 παρ. 2 Σ`
//! opens Article 14 with paragraph 2 marked; in the Greek codes `ΑΚ 1441`
//! opens the Civil Code article and its citation leads into the Code of
//! Civil Procedure. "Copy citation" copies an
//! article's official form, which its printed page carries too.
//! Blob pools only: a fragmented pool has no "Go to" yet (the app
//! resolves a citation over a loaded blob's engine; docs/formats.md).

use std::time::Instant;

use anyhow::{ensure, Context, Result};
use fantoccini::key::Key;
use fantoccini::Locator;
use nomos_e2e::app::{finish, App};
use nomos_e2e::devtools::devtools;
use nomos_e2e::one_at_a_time;
use nomos_e2e::paths::dist_dir;
use nomos_e2e::server::StaticServer;
use serde_json::{json, Value};

use crate::native::Pool;

#[tokio::test]
async fn citations_jump_to_articles_and_acts_have_names() -> Result<()> {
    let _turn = one_at_a_time().await;
    let started = Instant::now();
    let da = Pool::load("da-acts.blob")?;
    let server = StaticServer::start(&dist_dir()?)?;
    let link = format!(
        "{}#pool=da-acts.blob&cite=strfl.%20%C2%A7%20244",
        server.url()
    );
    let app = App::open_at(&link, "da-acts.blob").await?;
    let outcome = async {
        // The link opens Straffeloven § 244, stk. 1, named in its metadata.
        let stk1 = "straffeloven_§244_stk1";
        ensure!(da.has(stk1)?, "{stk1} is not in the pool");
        app.article(stk1).await?;
        let meta = text(&app, ".article-pane .article-meta .source").await?;
        ensure!(
            meta == "Straffeloven (LBK nr. 1294 af 07/11/2025)",
            "article source shows {meta:?}"
        );

        // `§ 244` alone: every act's § 244, Straffeloven (last opened) first.
        type_query(&app, "§ 244").await?;
        let rows = go_to_rows(&app, "§ 244").await?;
        let with_244 = da.sections_named("244")?;
        ensure!(
            rows.len() == with_244 && rows[0].starts_with("Straffeloven § 244"),
            "Go to rows for § 244 ({with_244} acts have it): {rows:?}"
        );
        ensure!(
            rows.iter().any(|r| r.starts_with("Konkursloven § 244")),
            "{rows:?}"
        );
        // The facet names acts, not ids.
        let facets = texts(&app, "fieldset.filter .facet-label").await?;
        ensure!(
            facets.iter().any(|f| f == "Straffeloven")
                && facets.iter().any(|f| f == "Konkursloven")
                && !facets
                    .iter()
                    .any(|f| f == "straffeloven" || f == "koebeloven"),
            "facets: {facets:?}"
        );

        // A citation inside a longer query: a Go to row, opened by Enter.
        type_query(&app, "vold selskabsloven § 245 kapital").await?;
        let rows = go_to_rows(&app, "selskabsloven § 245").await?;
        ensure!(
            rows == ["Selskabsloven § 245, stk. 1 (LBK nr. 331 af 2025)"],
            "Go to rows: {rows:?}"
        );
        ensure!(
            app.client()
                .execute(
                    "return document.querySelector('.article-pane .doc-id')?.textContent",
                    vec![]
                )
                .await?
                == json!(stk1),
            "a query with more than a citation opened an article by itself"
        );
        search_box(&app)
            .await?
            .send_keys(&Key::Enter.to_string())
            .await?;
        app.article("selskabsloven_§245_stk1").await?;

        // A query that is only a citation opens it.
        type_query(&app, "strfl. § 244, stk. 2").await?;
        app.article("straffeloven_§244_stk2").await?;
        // Copy citation puts the official form on the clipboard, and the
        // printed page carries the same.
        let official = "Straffeloven § 244, stk. 2 (LBK nr. 1294 af 2025)";
        ensure!(copied_citation(&app).await? == official);
        ensure!(text(&app, ".article-pane .print-citation").await? == official);

        // Greek: the cited paragraph is marked.
        app.choose_pool("el-syntagma.blob").await?;
        type_query(&app, "άρθρο 14 παρ. 2 Σ").await?;
        app.article("Syntagma::14").await?;
        let source = text(&app, ".article-pane .article-meta .source").await?;
        ensure!(source == "Σύνταγμα", "source shows {source:?}");
        let cited = text(&app, ".article-text p.cited").await?;
        ensure!(cited.starts_with("2. "), "marked paragraph: {cited:?}");
        ensure!(copied_citation(&app).await? == "Άρθρο 14 Συντάγματος");
        app.screenshot("citation-jump").await?;
        println!(
            "citation e2e test took {:.1} s",
            started.elapsed().as_secs_f64()
        );
        Ok(())
    }
    .await;
    finish(app, outcome).await
}

/// The Greek codes: "Go to" opens an article of the Civil Code by the form
/// a lawyer types (`ΑΚ 1441`), and its reference to the Code of Civil
/// Procedure (the one Civil Code article that cites it) opens that code's
/// article, which lists the Civil Code article under "Cited by".
#[tokio::test]
async fn a_civil_code_article_opened_by_go_to_leads_into_civil_procedure() -> Result<()> {
    let _turn = one_at_a_time().await;
    let pool = Pool::load("el-codes.blob")?;
    const AK: &str = "AK::1441";
    let target = pool
        .cites(AK)?
        .into_iter()
        .find(|id| id.starts_with("KPolD::"))
        .context("AK 1441 cites no article of the Code of Civil Procedure")?;
    let server = StaticServer::start(&dist_dir()?)?;
    let app = App::open(&server.url()).await?;
    let outcome = async {
        app.choose_pool("el-codes.blob").await?;
        // Its long notes (the files left out, 43 ids with no text) fold
        // to their first clause, and leave the first screen to the search.
        let notes = app
            .client()
            .execute(
                "return Array.from(document.querySelectorAll('.note'), n =>
                    [n.tagName, n.textContent.length, n.getBoundingClientRect().height]);",
                vec![],
            )
            .await?;
        let notes = notes.as_array().cloned().unwrap_or_default();
        ensure!(
            !notes.is_empty()
                && notes.iter().all(|n| n[1].as_u64().unwrap_or(0) <= 200
                    || (n[0] == "DETAILS" && n[2].as_f64().unwrap_or(f64::MAX) < 40.0)),
            "a long note is not folded to one line: {notes:?}"
        );
        type_query(&app, "ΑΚ 1441").await?;
        // The article shows the divisions it stands in and its version.
        let opened = app.article(AK).await?;
        ensure!(
            opened.path
                == [
                    "ΒΙΒΛΙΟ ΤΕΤΑΡΤΟ: ΟΙΚΟΓΕΝΕΙΑΚΟ ΔΙΚΑΙΟ",
                    "ΚΕΦΑΛΑΙΟ ΕΒΔΟΜΟ: ΔΙΑΖΥΓΙΟ"
                ]
                && opened.version.as_deref() == Some("Version of 22 December 2017"),
            "{AK} shows path {:?} and version {:?}",
            opened.path,
            opened.version
        );
        let cited = app.follow("Cites", &target).await?;
        ensure!(
            !cited.path.is_empty()
                && cited
                    .version
                    .as_ref()
                    .is_some_and(|v| v.starts_with("Version of ")),
            "{target} shows path {:?} and version {:?}",
            cited.path,
            cited.version
        );
        ensure!(
            cited.ids("Cited by").iter().any(|id| id == AK),
            "{target} does not list {AK} under Cited by"
        );
        // The other order of the same citation, in Latin letters, opens
        // the cited article as well.
        let (_, number) = target.split_once("::").context("an id without ::")?;
        type_query(&app, &format!("{number} KPolD")).await?;
        app.article(&target).await?;
        Ok(())
    }
    .await;
    finish(app, outcome).await
}

/// Clicks the open article's "Copy citation" and reads the clipboard back
/// (Chromium grants the page the clipboard through DevTools).
async fn copied_citation(app: &App) -> Result<String> {
    devtools(
        app.client(),
        "Browser.grantPermissions",
        json!({ "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"] }),
    )
    .await?;
    app.client()
        .execute("navigator.clipboard.writeText('')", vec![])
        .await?;
    app.client()
        .find(Locator::Css(".article-pane button.copy-citation"))
        .await?
        .click()
        .await?;
    let outcome = text(app, ".article-pane .copy-outcome:not(:empty)").await?;
    ensure!(outcome == "Copied", "Copy citation: {outcome}");
    let copied = app
        .client()
        .execute_async(
            "const done = arguments[arguments.length - 1];
             navigator.clipboard.readText().then(done, e => done('error: ' + e));",
            vec![],
        )
        .await?;
    copied.as_str().map(str::to_owned).context("clipboard text")
}

async fn search_box(app: &App) -> Result<fantoccini::elements::Element> {
    Ok(app.client().find(Locator::Id("search-box")).await?)
}

/// Replaces the search box's text with `query`.
async fn type_query(app: &App, query: &str) -> Result<()> {
    let input = search_box(app).await?;
    input.send_keys(&(Key::Control + "a")).await?;
    input.send_keys(query).await?;
    Ok(())
}

/// The "Go to" row's buttons once the committed query is `query`'s.
async fn go_to_rows(app: &App, containing: &str) -> Result<Vec<String>> {
    let script = "const [q] = arguments;
        const status = document.getElementById('search-status')?.textContent ?? '';
        if (!status.includes(q)) return null;
        const rows = Array.from(document.querySelectorAll('.go-to button'), b => b.textContent);
        return rows.length ? rows : null;";
    let rows = app
        .poll(
            &format!("Go to rows for {containing:?}"),
            script,
            vec![json!(containing)],
        )
        .await?;
    Ok(serde_json::from_value(rows)?)
}

async fn text(app: &App, selector: &str) -> Result<String> {
    let script = "const [s] = arguments; return document.querySelector(s)?.textContent ?? null;";
    let v: Value = app.poll(selector, script, vec![json!(selector)]).await?;
    v.as_str().map(str::to_owned).context("not text")
}

async fn texts(app: &App, selector: &str) -> Result<Vec<String>> {
    let script = "const [s] = arguments;
        const all = Array.from(document.querySelectorAll(s), e => e.textContent);
        return all.length ? all : null;";
    let v = app.poll(selector, script, vec![json!(selector)]).await?;
    Ok(serde_json::from_value(v)?)
}
