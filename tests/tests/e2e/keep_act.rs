//! "Keep this act offline" on a fragmented pool (the demo's Danish law
//! sample): the open article's act shows its size first, the sum of the
//! listed lengths of its documents fragments and the directory pages
//! naming them (computed here from the served files), then every one of
//! them is kept by the service worker. With room for half the act (the
//! origin's quota lowered), the download stops saying the storage is
//! full, what was kept staying kept. With
//! the server gone, a reload reopens the article, and an article of the
//! act whose fragment the worker did not keep before opens too; an act
//! not kept fails with a message saying so, rather than hanging.

use std::collections::{HashMap, HashSet};

use anyhow::{ensure, Context, Result};
use nomos_core::eli::DocRef;
use nomos_core::fragments::{DocsPage, Meta};
use nomos_e2e::app::{finish, App};
use nomos_e2e::cli;
use nomos_e2e::devtools::devtools;
use nomos_e2e::one_at_a_time;
use nomos_e2e::paths::dist_dir;
use nomos_e2e::server::StaticServer;
use serde_json::json;

const POOL: &str = "da-law-sample/meta";
const DIR: &str = "indexes/da-law-sample/";
/// A word of nearly every stykke, so that the act's articles all rank.
const QUERY: &str = "stk";
/// The act kept: the sample's largest consolidated act.
const ACT: &str = "LBK-2025-282";
/// "Show more" clicks allowed before an article of a fragment the worker
/// did not keep before the act must be shown.
const MORE: usize = 20;

#[tokio::test]
async fn an_act_kept_offline_opens_with_the_network_cut() -> Result<()> {
    let _turn = one_at_a_time().await;
    let dir = dist_dir()?.join(DIR);
    let read = |file: &str| std::fs::read(dir.join(file));
    let meta = Meta::load(&read("meta")?)?;
    let pages = meta
        .pages()
        .iter()
        .map(|&n| Ok(meta.open_page(n, &read(&meta.fragments()[n].file)?)?))
        .collect::<Result<Vec<DocsPage>>>()?;
    let given: Vec<&DocsPage> = pages.iter().collect();
    let act = meta.source_files(&given, ACT)?;
    // The files' names, and which documents fragment holds each article.
    let file_of = |n: usize| -> Result<String> {
        let page = pages.iter().find(|p| p.fragment(n).is_some());
        match meta.fragments().get(n) {
            Some(f) => Ok(f.file.clone()),
            None => Ok(page
                .context("no page")?
                .fragment(n)
                .context("no file")?
                .file
                .clone()),
        }
    };
    let mut fragment_of = HashMap::new();
    for &n in &act.docs {
        let page = pages
            .iter()
            .find(|p| p.fragment(n).is_some())
            .context("page")?;
        let docs = meta.open_docs(page, n, &read(&file_of(n)?)?)?;
        for doc in docs.docs() {
            fragment_of.insert(docs.id(doc).context("id")?.to_owned(), file_of(n)?);
        }
    }

    let mut server = StaticServer::start(&dist_dir()?)?;
    let link = format!("{}#pool={POOL}&q={QUERY}&source={ACT}", server.url());
    let app = App::open_at(&link, POOL).await?;
    let outcome = async {
        let rows = app.results(QUERY).await?;
        ensure!(
            rows.len() == 10 && rows.iter().all(|r| r.id.starts_with(ACT)),
            "the act's rows: {rows:?}"
        );
        app.wait_for_worker().await?;
        // Room for half the act: the download stops saying so. (Chromium
        // lowers the quota writes meet, not the one `estimate()` reports,
        // so the note beside the size is not checked here.)
        let origin = server.url().trim_end_matches('/').to_owned();
        let usage = app
            .client()
            .execute("return navigator.storage.estimate().then(e => e.usage);", vec![])
            .await?;
        let quota = usage.as_u64().context("usage")? + act.bytes / 2;
        let cdp = "Storage.overrideQuotaForOrigin";
        devtools(app.client(), cdp, json!({ "origin": origin, "quotaSize": quota })).await?;
        let first = app.open_result(0).await?;
        let sized = "return document.querySelector('[data-testid=keep-act]') ? true : null;";
        app.poll("the act's size", sized, vec![]).await?;
        let cached = "return caches.open('nomos-fragments').then(c => c.keys())
                          .then(k => k.map(r => r.url));";
        let before: HashSet<String> =
            serde_json::from_value(app.client().execute(cached, vec![]).await?)?;
        app.client()
            .execute("document.querySelector('[data-testid=keep-act]').click();", vec![])
            .await?;
        let full = app
            .poll(
                "the download to stop for lack of room",
                "return document.querySelector('.keep-act.error[role=alert]')?.textContent ?? null;",
                vec![],
            )
            .await?;
        ensure!(
            full.as_str()
                .is_some_and(|f| f.contains("storage for this site is full") && f.contains("stays kept")),
            "out of room, the page says {full}"
        );
        let after: HashSet<String> =
            serde_json::from_value(app.client().execute(cached, vec![]).await?)?;
        ensure!(before.is_subset(&after), "a file kept before was dropped");
        devtools(app.client(), cdp, json!({ "origin": origin })).await?;
        app.client().refresh().await?;
        app.wait_for_pool(POOL).await?;
        app.article(&first.id).await?;
        let shown = app
            .poll(
                "the act's size",
                "const b = document.querySelector('[data-testid=keep-act]');
                 return b ? [b.dataset.bytes, b.textContent] : null;",
                vec![],
            )
            .await?;
        ensure!(
            shown[0] == act.bytes.to_string().as_str()
                && shown[1]
                    .as_str()
                    .is_some_and(|t| t.contains(&format!("{:.1} MB", act.bytes as f64 / 1e6))),
            "the button shows {shown}, the act's files list {} bytes",
            act.bytes
        );
        // What the worker keeps so far (the rows' and articles' files, and
        // what the stopped download kept): the act's other files are what
        // keeping it brings.
        let prefix = format!("{}{DIR}", server.url());
        let urls: Vec<String> = serde_json::from_value(app.client().execute(cached, vec![]).await?)?;
        let kept_before: HashSet<String> = urls
            .iter()
            .filter_map(|u| u.strip_prefix(&prefix).map(str::to_owned))
            .collect();
        app.client()
            .execute(
                "document.querySelector('[data-testid=keep-act]').click();",
                vec![],
            )
            .await?;
        app.poll(
            "the act to be kept",
            "const error = document.querySelector('.keep-act.error');
             if (error) return error.textContent;
             return document.querySelector('[data-testid=act-kept]') ? true : null;",
            vec![],
        )
        .await
        .and_then(|v| match v.as_str() {
            Some(e) => anyhow::bail!("keeping the act failed: {e}"),
            None => Ok(()),
        })?;
        let urls = act
            .pages
            .iter()
            .chain(&act.docs)
            .map(|&n| Ok(format!("{}{DIR}{}", server.url(), file_of(n)?)))
            .collect::<Result<Vec<_>>>()?;
        let kept = app
            .client()
            .execute(
                "return caches.open('nomos-fragments')
                     .then(c => Promise.all(arguments[0].map(u => c.match(u))))
                     .then(kept => kept.filter(k => !k).length);",
                vec![json!(urls)],
            )
            .await?;
        ensure!(
            kept == json!(0),
            "{kept} of the act's {} files not kept",
            urls.len()
        );
        let name = DocRef::parse(ACT).context("act id")?.citation();
        let listed = app
            .poll(
                "the kept act in the sidebar",
                "return document.querySelector('[data-testid=kept-acts]')?.textContent ?? null;",
                vec![],
            )
            .await?;
        ensure!(
            listed.as_str().is_some_and(|t| t.contains(&name)),
            "the sidebar lists {listed}, not {name}"
        );

        server.stop();
        app.client().refresh().await?;
        app.wait_for_pool(POOL).await?;
        let reopened = app.article(&first.id).await?;
        ensure!(reopened.text == first.text, "the article differs offline");
        // An article of a documents fragment the worker did not keep before.
        let mut other = None;
        for _ in 0..MORE {
            let ids = app
                .client()
                .execute(
                    "return Array.from(document.querySelectorAll('ol.results .result .doc-id'),
                         e => e.textContent);",
                    vec![],
                )
                .await?;
            let ids: Vec<String> = serde_json::from_value(ids)?;
            let not_kept = |id: &String| fragment_of.get(id).is_some_and(|f| !kept_before.contains(f));
            if let Some(at) = ids.iter().position(not_kept) {
                other = Some(at);
                break;
            }
            let more = format!(
                "document.querySelector('.results-pane .more button').click();
                 return {};",
                ids.len()
            );
            app.client().execute(&more, vec![]).await?;
            app.poll(
                "more rows offline",
                "const [n] = arguments;
                 const error = document.querySelector('.frag-error')?.textContent;
                 if (error) return error;
                 return document.querySelectorAll('ol.results .result').length > n ? true : null;",
                vec![json!(ids.len())],
            )
            .await
            .and_then(|v| match v.as_str() {
                Some(e) => anyhow::bail!("more rows of the kept act failed offline: {e}"),
                None => Ok(()),
            })?;
        }
        let at = other.context("no row of a fragment of the act not kept before")?;
        let article = app.open_result(at).await?;
        ensure!(
            !article.text.is_empty(),
            "{} has no text offline",
            article.id
        );

        // An act none of whose documents fragments is kept fails by saying
        // so.
        let (_, facets) = cli::search_narrowed(&dir, QUERY, 1, &["--facets"])?;
        let untouched = facets
            .iter()
            .filter(|(facet, source, _)| facet == "source" && source != ACT)
            .find(|(_, source, _)| {
                meta.source_files(&given, source).is_ok_and(|f| {
                    f.docs.iter().all(|&n| {
                        !act.docs.contains(&n)
                            && file_of(n).is_ok_and(|f| !kept_before.contains(&f))
                    })
                })
            })
            .map(|(_, source, _)| source.clone())
            .context("no act untouched")?;
        let elsewhere = link.replace(&format!("source={ACT}"), &format!("source={untouched}"));
        app.client().goto(&elsewhere).await?;
        let error = app
            .poll(
                "the act not kept to fail",
                "return document.querySelector('.frag-error[role=alert]')?.textContent ?? null;",
                vec![],
            )
            .await?;
        ensure!(
            error
                .as_str()
                .is_some_and(|e| e.contains("is not kept for use offline")
                    && e.contains("keep its act offline")),
            "an act not kept says {error}"
        );
        Ok(())
    }
    .await;
    finish(app, outcome).await
}
