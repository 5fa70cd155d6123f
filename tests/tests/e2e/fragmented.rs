//! A fragmented pool (the demo's synthetic 10⁵-chunk Danish pool, cut by
//! `nomos fragment`): the app fetches its meta file, then per query only
//! the fragments the query's words and shown results need, and ranks to
//! the score digits as the CLI ranks the whole blob it was cut from. Made
//! available offline (every fragment, the documents directory's pages and
//! the documents fragments they list included), it searches with the
//! server gone; a damaged fragment or directory page fails the query with
//! a message naming the file, and the page goes on; a method that needs
//! more than fragments hold says why. A first visit from a link fetches
//! the meta once, though the service worker does not control that page.
//! Opening another build of the pool drops what earlier builds left in
//! the worker's cache.

use std::time::{Duration, Instant};

use anyhow::{ensure, Context, Result};
use nomos_core::blob::Field;
use nomos_core::fragments::{Meta, TermFragment};
use nomos_e2e::app::{finish, App, Row};
use nomos_e2e::fragment_damage::damaged_then_fixed;
use nomos_e2e::one_at_a_time;
use nomos_e2e::paths::dist_dir;
use nomos_e2e::server::StaticServer;
use serde_json::json;

use crate::dense::escape;
use crate::fragmented_pool::{whole_blob, DIR, POOL, QUERY};
use crate::search;

/// A query of other words, for offline use and after a failure.
const OTHER: &str = "klage over afgørelse";
/// The first page of rows (the app shows 10, then 10 more a click).
const PARITY_DEPTH: usize = 10;

/// The app's top `depth` rows are the CLI's over the whole blob.
fn expect_cli_ranking(rows: &[Row], query: &str, depth: usize) -> Result<()> {
    search::expect_cli_ranking(rows, &whole_blob()?, query, depth)
}

/// The error the fragmented view shows (the query's, or why a method
/// cannot rank), once it shows one; `what` names the wait.
async fn frag_error(app: &App, what: &str) -> Result<String> {
    let message = app
        .poll(
            what,
            "return document.querySelector('.frag-error[role=alert]')?.textContent ?? null;",
            vec![],
        )
        .await?;
    Ok(message.as_str().unwrap_or_default().to_owned())
}

/// `n` with thousands separated by commas, as the page writes counts.
fn grouped(n: usize) -> String {
    let digits: Vec<char> = n.to_string().chars().collect();
    let mut out = String::new();
    for (i, c) in digits.iter().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(*c);
    }
    out
}

/// The bytes of every file of the fragmented pool, and their count.
fn pool_size() -> Result<(u64, usize)> {
    let mut total = (0, 0);
    for entry in std::fs::read_dir(dist_dir()?.join(DIR))? {
        total.0 += entry?.metadata()?.len();
        total.1 += 1;
    }
    Ok(total)
}

#[tokio::test]
async fn a_fragmented_pool_ranks_as_the_cli_fetches_little_and_works_offline() -> Result<()> {
    let _turn = one_at_a_time().await;
    let mut server = StaticServer::start(&dist_dir()?)?;
    let app = App::open(&server.url()).await?;
    let outcome = async {
        app.choose_pool(POOL).await?;
        let rows = app.search(QUERY).await?;
        expect_cli_ranking(&rows, QUERY, PARITY_DEPTH)?;
        // Only some of the pool came: the meta, the query's postings
        // fragments and the shown rows' documents fragments.
        let (pool_bytes, pool_files) = pool_size()?;
        let sent: Vec<(String, u64)> = server
            .sent()
            .into_iter()
            .filter(|(path, _)| path.contains(DIR))
            .collect();
        let bytes: u64 = sent.iter().map(|(_, b)| b).sum();
        ensure!(
            !sent.is_empty() && bytes * 4 < pool_bytes && sent.len() * 4 < pool_files,
            "a query fetched {bytes} bytes in {} files of the pool's {pool_bytes} in {pool_files}",
            sent.len()
        );
        // "Show more" adds the next rows, fetching their documents
        // fragments, still the CLI's ranking.
        app.client()
            .execute(
                "document.querySelector('.results-pane .more button').click();",
                vec![],
            )
            .await?;
        app.poll(
            "the next rows",
            "return document.querySelectorAll('.results .result').length > 10 ? true : null;",
            vec![],
        )
        .await?;
        let more = app.results(QUERY).await?;
        ensure!(
            more.len() == 2 * PARITY_DEPTH,
            "{} rows after Show more",
            more.len()
        );
        expect_cli_ranking(&more, QUERY, 2 * PARITY_DEPTH)?;
        // The open article comes from its documents fragment.
        let first = app.open_result(0).await?;
        ensure!(
            first.id == rows[0].id,
            "opened {} for {}",
            first.id,
            rows[0].id
        );
        ensure!(!first.text.is_empty(), "the article has no text");
        app.screenshot("fragmented-pool").await?;

        // Every fragment kept by the service worker, then no server.
        app.wait_for_worker().await?;
        let button = app
            .poll(
                "the offline button with the pool's size",
                "return document.querySelector('[data-testid=make-offline]')?.textContent ?? null;",
                vec![],
            )
            .await?;
        // Its count: every fragment, the directory pages and the
        // documents fragments they list included (all files but the meta).
        let files = format!("{} files", grouped(pool_files - 1));
        ensure!(
            button
                .as_str()
                .is_some_and(|t| t.contains(" MB") && t.contains(&files)),
            "the button should say the size and {files} first: {button}"
        );
        // What earlier builds of this pool left in the worker's cache (one
        // of an older format, whose names had 32 hex digits), and a file of
        // another pool: the first two must go, the third stay.
        let leftovers = app
            .client()
            .execute(
                "const [pool] = arguments;
                 return (async () => {
                   const cache = await caches.open('nomos-fragments');
                   const indexes = new URL('indexes/', document.baseURI).href;
                   const stale = indexes + pool + '0123456789abcdef.frag';
                   const older = indexes + pool + '0123456789abcdef0123456789abcdef.frag';
                   const other = indexes + 'another-pool/0123456789abcdef.frag';
                   await cache.put(stale, new Response('an earlier build'));
                   await cache.put(older, new Response('an older format'));
                   await cache.put(other, new Response('another pool'));
                   return [stale, older, other];
                 })();",
                vec![json!(POOL.trim_end_matches("meta"))],
            )
            .await?;
        let [stale, older, other] = [&leftovers[0], &leftovers[1], &leftovers[2]];
        app.client()
            .execute(
                "document.querySelector('[data-testid=make-offline]').click();",
                vec![],
            )
            .await?;
        // A long job: the demo's 4,127 files over a server that closes
        // every connection, each kept by the service worker. Printed for
        // docs/benchmarks/fragments.md ("Text blocks of 16 KiB").
        let prefetch = Instant::now();
        app.poll_for(
            "every fragment to be kept offline",
            "const error = document.querySelector('.sidebar .error');
             if (error) return { error: error.textContent };
             return document.querySelector('[data-testid=fragments-offline]') ? true : null;",
            vec![],
            Duration::from_secs(180),
        )
        .await
        .and_then(|v| match v["error"].as_str() {
            Some(e) => anyhow::bail!("offline prefetch failed: {e}"),
            None => Ok(()),
        })?;
        println!(
            "offline prefetch of {} files: {:.1} s",
            grouped(pool_files - 1),
            prefetch.elapsed().as_secs_f64()
        );
        // The worker drops an earlier build's files after the pool is
        // offline (housekeeping the app does not wait for).
        app.poll(
            "earlier builds' files dropped, another pool's kept",
            "const files = Array.from(arguments);
             return caches.open('nomos-fragments').then(cache =>
               Promise.all(files.map(f => cache.match(f))))
               .then(([s, o, a]) => !s && !o && !!a ? true : null);",
            vec![stale.clone(), older.clone(), other.clone()],
        )
        .await?;
        let kept = app
            .client()
            .execute(
                "return caches.open('nomos-fragments').then(c => c.keys()).then(k => k.length);",
                vec![],
            )
            .await?;
        ensure!(
            kept.as_u64() == Some(pool_files as u64 + 1),
            "the worker keeps {kept} files: the pool's {pool_files} and another pool's one"
        );

        server.stop();
        app.client().refresh().await?;
        // The link keeps the pool, the query and the open article.
        app.wait_for_pool(POOL).await?;
        ensure!(app.results(QUERY).await? == rows, "offline ranking differs");
        let reopened = app.article(&first.id).await?;
        ensure!(reopened.text == first.text, "the article differs offline");
        ensure!(app.results(QUERY).await? == rows, "offline ranking differs");
        let other = app.search(OTHER).await?;
        expect_cli_ranking(&other, OTHER, PARITY_DEPTH)?;
        Ok(())
    }
    .await;
    finish(app, outcome).await
}

#[tokio::test]
async fn a_damaged_fragment_fails_the_query_by_name_and_the_page_goes_on() -> Result<()> {
    let _turn = one_at_a_time().await;
    let dir = dist_dir()?.join(DIR);
    let meta = Meta::load(&std::fs::read(dir.join("meta"))?)?;
    let tokens = meta.analyzer().tokens(QUERY);
    let number = *meta
        .needed(Field::Text, &tokens)?
        .first()
        .context("no fragment")?;
    let file = meta.fragments()[number].file.clone();

    let server = StaticServer::start(&dist_dir()?)?;
    let fixed = async |app: &App| {
        ranks_again(app).await?;
        let gone = app
            .client()
            .execute(
                "return document.querySelector('.frag-error') === null;",
                vec![json!(0)],
            )
            .await?;
        ensure!(gone == json!(true), "the error stays after a good query");

        // A method the pool cannot run says why, rather than listing nothing.
        app.choose_method("dense").await?;
        let why = frag_error(app, "dense to say why it cannot rank").await?;
        ensure!(
            why.contains("dense cannot rank a fragmented pool"),
            "dense on a fragmented pool said {why:?}"
        );
        Ok(())
    };
    damaged_then_fixed(
        &server,
        &[format!("{DIR}{file}")],
        App::open(&server.url()),
        fails,
        Some("fragmented-damaged"),
        fixed,
    )
    .await
}

/// `QUERY` in the pool, which must fail: the view's error.
async fn fails(app: &App) -> Result<String> {
    app.choose_pool(POOL).await?;
    let rows = app.search(QUERY).await?;
    ensure!(rows.is_empty(), "a damaged file gave a ranking: {rows:?}");
    frag_error(app, "the query's error").await
}

/// Another query, then `QUERY` again: both rank as the CLI does.
async fn ranks_again(app: &App) -> Result<()> {
    expect_cli_ranking(&app.search(OTHER).await?, OTHER, PARITY_DEPTH)?;
    expect_cli_ranking(&app.search(QUERY).await?, QUERY, PARITY_DEPTH)
}

/// The directory page listing the documents fragment of `QUERY`'s top hit
/// is damaged: the query fails naming the page, and once the host is
/// fixed it ranks as the CLI.
#[tokio::test]
async fn a_damaged_directory_page_fails_the_query_by_name() -> Result<()> {
    let _turn = one_at_a_time().await;
    let dir = dist_dir()?.join(DIR);
    let meta = Meta::load(&std::fs::read(dir.join("meta"))?)?;
    let tokens = meta.analyzer().tokens(QUERY);
    let postings = meta
        .needed(Field::Text, &tokens)?
        .into_iter()
        .map(|n| Ok(meta.open(n, &std::fs::read(dir.join(&meta.fragments()[n].file))?)?))
        .collect::<Result<Vec<TermFragment>>>()?;
    let given: Vec<&TermFragment> = postings.iter().collect();
    let top = meta.rank(Field::Text, meta.bm25_params(), &tokens, &given, 1)?;
    let top = top.first().context("no hit")?.doc;
    let page = meta.needed_pages(&[top])?[0];
    let file = meta.fragments()[page].file.clone();

    let server = StaticServer::start(&dist_dir()?)?;
    damaged_then_fixed(
        &server,
        &[format!("{DIR}{file}")],
        App::open(&server.url()),
        fails,
        None,
        ranks_again,
    )
    .await
}

/// A first visit opened from a link: the page fetches the meta before the
/// service worker controls it, so the worker holds no answer to keep; the
/// app hands it the meta's bytes rather than have it fetch the meta again,
/// and with the server gone the page reloads from what the worker kept.
/// The fragments queries fetch stay in the service worker's cache. The
/// first opening of a pool records its build; opening another build then
/// drops every file of the pool's directory that build does not list
/// (here a planted file of an "earlier build"), and keeps the rest.
#[tokio::test]
async fn opening_a_rebuilt_pool_drops_what_earlier_builds_left() -> Result<()> {
    let _turn = one_at_a_time().await;
    let server = StaticServer::start(&dist_dir()?)?;
    let link = format!("{}#pool={POOL}", server.url());
    let app = App::open_at(&link, POOL).await?;
    let outcome = async {
        let meta = Meta::load(&std::fs::read(dist_dir()?.join(DIR).join("meta"))?)?;
        let build = format!("{:032x}", meta.content_hash());
        let record = "const key = Object.keys(localStorage).find(k => k.endsWith(arguments[0]));
                      return key ? [key, localStorage.getItem(key)] : null;";
        let suffix = format!("{}#build", DIR.trim_start_matches("indexes"));
        let seen = app
            .poll("the build to be recorded", record, vec![json!(suffix)])
            .await?;
        ensure!(seen[1] == build.as_str(), "recorded {seen}, not {build}");
        app.wait_for_worker().await?;
        let stale = app
            .client()
            .execute(
                "const [dir, key] = arguments;
                 return (async () => {
                   const cache = await caches.open('nomos-fragments');
                   const stale = new URL(dir + '0123456789abcdef.frag', document.baseURI).href;
                   await cache.put(stale, new Response('an earlier build'));
                   localStorage.setItem(key, '0'.repeat(32));
                   return stale;
                 })();",
                vec![json!(DIR), seen[0].clone()],
            )
            .await?;
        app.client().refresh().await?;
        app.wait_for_pool(POOL).await?;
        let meta_url = format!("{}{DIR}meta", server.url());
        app.poll(
            "the earlier build's file dropped, the meta kept, this build recorded",
            "const [stale, meta, key, build] = arguments;
             return caches.open('nomos-fragments')
               .then(c => Promise.all([c.match(stale), c.match(meta)]))
               .then(([s, m]) => !s && !!m && localStorage.getItem(key) === build ? true : null);",
            vec![stale, json!(meta_url), seen[0].clone(), json!(build)],
        )
        .await?;
        Ok(())
    }
    .await;
    finish(app, outcome).await
}

#[tokio::test]
async fn a_first_visit_from_a_link_fetches_the_meta_once_and_keeps_it() -> Result<()> {
    let _turn = one_at_a_time().await;
    let mut server = StaticServer::start(&dist_dir()?)?;
    let link = format!("{}#pool={POOL}&q={}", server.url(), escape(OTHER));
    let app = App::open_at(&link, POOL).await?;
    let outcome = async {
        let rows = app.results(OTHER).await?;
        expect_cli_ranking(&rows, OTHER, PARITY_DEPTH)?;
        // Every file of the pool the page got, the meta first, is kept
        // for offline use: the worker has done what the app asked.
        let got: Vec<String> = server
            .sent()
            .into_iter()
            .filter(|(path, _)| path.contains(DIR))
            .map(|(path, _)| format!("{}{}", server.url(), &path[1..]))
            .collect();
        app.poll(
            "the pool's files to be kept offline",
            "return caches.open('nomos-fragments')
                 .then(c => Promise.all(arguments[0].map(url => c.match(url))))
                 .then(kept => kept.every(Boolean) ? true : null);",
            vec![json!(got)],
        )
        .await?;
        let meta = format!("/{DIR}meta");
        let asked = server.sent().iter().filter(|(p, _)| *p == meta).count();
        ensure!(asked == 1, "the meta was fetched {asked} times");

        server.stop();
        app.client().refresh().await?;
        app.wait_for_pool(POOL).await?;
        ensure!(app.results(OTHER).await? == rows, "offline ranking differs");
        Ok(())
    }
    .await;
    finish(app, outcome).await
}
