//! The app by keyboard and screen reader, and on paper, on one loaded
//! page, the same keys on a blob and on a fragmented pool: `/` reaches the search box from anywhere, ↑/↓ move through the
//! results, Enter opens one, `[`/`]` step through the article's
//! cross-references, Esc returns to the list; `?` opens the list of keys
//! as a modal dialog that Esc closes, giving focus back. Page keys typed
//! into the search box stay text; Esc there empties it. axe-core finds no serious or critical
//! violation on Search, Article (with the dialog open too) and Evaluate.
//! Printed (print media emulated), the open article shows its citation,
//! source, date and the link that reproduces the search, and none of the
//! page's controls.

use anyhow::{bail, ensure, Context, Result};
use fantoccini::actions::{InputSource, KeyAction, KeyActions};
use fantoccini::key::Key;
use fantoccini::Locator;
use nomos_e2e::app::{finish, App, Article};
use nomos_e2e::devtools::emulate_media;
use nomos_e2e::paths::dist_dir;
use nomos_e2e::server::StaticServer;
use nomos_e2e::{axe, one_at_a_time};
use serde_json::{json, Value};

use crate::evaluate::run_evaluation;
use crate::fragmented_pool;
use crate::native::Pool;
use crate::search::{DA_EXPECTED, DA_QUERY};

/// A pool with a benchmark small enough to evaluate at once (36 queries).
const EVAL_POOL: &str = "da-crawler-sample.blob";

/// A pool the keys are tried on, its query and the article to reach.
struct KeysPool {
    /// The manifest's name for it.
    name: &'static str,
    query: &'static str,
    expected: String,
    /// The pool natively, for the article's references.
    native: Pool,
}

impl KeysPool {
    /// The Danish acts, a blob.
    fn blob() -> Result<KeysPool> {
        Ok(KeysPool {
            name: "da-acts.blob",
            query: DA_QUERY,
            expected: DA_EXPECTED.to_owned(),
            native: Pool::load("da-acts.blob")?,
        })
    }

    /// The demo's fragmented pool; the article is the query's first in
    /// the CLI's ranking with at least two references to step through.
    fn fragmented() -> Result<KeysPool> {
        let native = Pool::load_path(&fragmented_pool::whole_blob()?)?;
        let expected = fragmented_pool::top_article(|id| {
            Ok(native.cites(id)?.len() + native.siblings(id)?.len() >= 2)
        })?;
        Ok(KeysPool {
            name: fragmented_pool::POOL,
            query: fragmented_pool::QUERY,
            expected,
            native,
        })
    }
}

#[tokio::test]
async fn keyboard_screen_readers_and_print() -> Result<()> {
    let _turn = one_at_a_time().await;
    let blob = KeysPool::blob()?;
    let fragmented = KeysPool::fragmented()?;
    let server = StaticServer::start(&dist_dir()?)?;
    let app = App::open(&server.url()).await?;
    let outcome = async {
        // `/` from the page: the search box, with nothing typed into it.
        press(&app, &['/']).await?;
        expect_focus(&app, "#search-box", "after /").await?;
        ensure!(
            box_value(&app).await?.is_empty(),
            "/ was typed into the search box"
        );
        let article = keys_walk(&app, &blob).await?;

        // Printed: the article and what identifies it, no controls (which
        // takes focus away: the focused result is not printed).
        press(&app, &[Key::Enter.into()]).await?;
        app.article(DA_EXPECTED).await?;
        print_shows_the_article(&app, &article.title).await?;

        // The same keys on a fragmented pool.
        app.choose_pool(fragmented.name).await?;
        keys_walk(&app, &fragmented).await?;

        // Evaluate, then `/` back to the search box from there.
        app.choose_pool(EVAL_POOL).await?;
        run_evaluation(&app).await?;
        app.poll(
            "the metric means",
            "return document.querySelector('[data-testid=metric-means] tr[data-measure]') ? true : null;",
            vec![],
        )
        .await?;
        no_serious_violations(&app, "Evaluate").await?;
        press(&app, &['/']).await?;
        expect_focus(&app, "#search-box", "after / in Evaluate").await?;
        Ok(())
    }
    .await;
    finish(app, outcome).await
}

/// The keys on `pool`'s Search view, from `/` to the search box through
/// the results, the article and its references, the list of keys, and
/// back to the result, which keeps focus: the article.
async fn keys_walk(app: &App, pool: &KeysPool) -> Result<Article> {
    let name = pool.name;
    let expected = pool.expected.as_str();
    // From the page, not the pool picker (where keys choose a pool).
    app.client()
        .execute("document.activeElement?.blur();", vec![])
        .await?;
    press(app, &['/']).await?;
    expect_focus(app, "#search-box", "after /").await?;
    // Page keys typed in the box are text; Esc empties it.
    app.client()
        .find(Locator::Id("search-box"))
        .await?
        .send_keys("?[/]")
        .await?;
    ensure!(
        box_value(app).await?.ends_with("?[/]") && !help_open(app).await?,
        "{name}: page keys fired in the search box"
    );
    press(app, &[Key::Escape.into()]).await?;
    ensure!(
        box_value(app).await?.is_empty(),
        "{name}: Esc left text in the search box"
    );

    let rows = app.search(pool.query).await?;
    let index = rows
        .iter()
        .position(|r| r.id == expected)
        .with_context(|| format!("{name}: {expected} is not listed"))?;
    no_serious_violations(app, &format!("Search on {name}")).await?;

    // ↓ from the box walks the results; ↑ walks back.
    press(app, &[Key::Down.into(), Key::Down.into(), Key::Up.into()]).await?;
    expect_focus(app, "#result-0", "after ↓ ↓ ↑").await?;
    let downs = vec![char::from(Key::Down); index];
    press(app, &downs).await?;
    expect_focus(app, &format!("#result-{index}"), "after ↓ to the article").await?;
    press(app, &[Key::Enter.into()]).await?;
    let article = app.article(expected).await?;
    expect_focus(app, "#article-title", "after Enter").await?;
    no_serious_violations(app, &format!("Article on {name}")).await?;

    // `]` and `[` step through the cross-references in the order shown.
    let refs = ["Cites", "Cited by", "Siblings"]
        .iter()
        .flat_map(|g| article.ids(g))
        .collect::<Vec<_>>();
    ensure!(
        refs.len() >= 2,
        "{name}: {expected} shows fewer than 2 references: {refs:?}"
    );
    ensure!(
        pool.native
            .siblings(expected)?
            .iter()
            .all(|s| refs.contains(s)),
        "{name}: the article does not list its siblings"
    );
    press(app, &[']']).await?;
    expect_ref_focus(app, &refs[0]).await?;
    press(app, &[']']).await?;
    expect_ref_focus(app, &refs[1]).await?;
    press(app, &['[']).await?;
    expect_ref_focus(app, &refs[0]).await?;

    // `?`: the list of keys, a modal dialog with focus inside; Esc
    // closes it and focus returns to the reference.
    press(app, &['?']).await?;
    let inside = app
        .poll(
            "the keyboard shortcuts dialog",
            "const d = document.getElementById('shortcuts');
            return d?.open ? d.contains(document.activeElement) : null;",
            vec![],
        )
        .await?;
    ensure!(
        inside == json!(true),
        "{name}: focus is not in the shortcuts dialog"
    );
    no_serious_violations(app, &format!("Article on {name} with the shortcuts dialog")).await?;
    press(app, &[Key::Escape.into()]).await?;
    ensure!(!help_open(app).await?, "{name}: Esc left the dialog open");
    expect_ref_focus(app, &refs[0]).await?;

    // Enter follows the reference; Esc closes the article and returns
    // to the result it was opened from.
    press(app, &[Key::Enter.into()]).await?;
    app.article(&refs[0]).await?;
    app.back_to(expected).await?;
    press(app, &[Key::Escape.into()]).await?;
    app.poll(
        "the article to close",
        "return document.getElementById('article-title') ? null : true;",
        vec![],
    )
    .await?;
    expect_focus(app, &format!("#result-{index}"), "after Esc").await?;
    Ok(article)
}

/// Presses and releases each key in turn, wherever focus is.
async fn press(app: &App, keys: &[char]) -> Result<()> {
    let mut actions = KeyActions::new("keyboard".to_owned());
    for &value in keys {
        actions = actions
            .then(KeyAction::Down { value })
            .then(KeyAction::Up { value });
    }
    app.client().perform_actions(actions).await?;
    Ok(())
}

/// Waits until the element matching `selector` has focus.
async fn expect_focus(app: &App, selector: &str, when: &str) -> Result<()> {
    app.poll(
        &format!("focus on {selector} {when}"),
        "const [selector] = arguments;
        return document.activeElement?.matches(selector) ? true : null;",
        vec![json!(selector)],
    )
    .await
    .map(drop)
}

/// Waits until focus is on the open article's reference to `id`.
async fn expect_ref_focus(app: &App, id: &str) -> Result<()> {
    let script = "const [id] = arguments;
        const el = document.activeElement;
        return el?.matches('.article-pane .refs button.ref')
            && el.querySelector('.doc-id')?.textContent === id ? true : null;";
    app.poll(
        &format!("focus on the reference to {id}"),
        script,
        vec![json!(id)],
    )
    .await
    .map(drop)
}

async fn box_value(app: &App) -> Result<String> {
    let value = app
        .client()
        .execute(
            "return document.getElementById('search-box').value;",
            vec![],
        )
        .await?;
    Ok(value.as_str().unwrap_or_default().to_owned())
}

async fn help_open(app: &App) -> Result<bool> {
    let open = app
        .client()
        .execute(
            "return document.getElementById('shortcuts')?.open ?? false;",
            vec![],
        )
        .await?;
    Ok(open == Value::Bool(true))
}

/// axe finds nothing serious or critical; lesser findings are printed.
async fn no_serious_violations(app: &App, view: &str) -> Result<()> {
    let found = axe::check(app.client()).await?;
    for v in &found {
        println!("axe on {view}: {v}");
    }
    let serious: Vec<String> = found
        .iter()
        .filter(|v| v.is_serious())
        .map(ToString::to_string)
        .collect();
    if !serious.is_empty() {
        bail!("axe on {view}:\n{}", serious.join("\n"));
    }
    Ok(())
}

/// With print media, the article's title, text and print note are shown
/// (citation, source, date, and the page's own address as the link), and
/// no control is: not the search box, the filters, nor any button.
async fn print_shows_the_article(app: &App, title: &str) -> Result<()> {
    // The official citation the article shows on screen (hidden in print).
    let citation = app
        .client()
        .execute(
            "return document.querySelector('.article-citation cite')?.textContent ?? null;",
            vec![],
        )
        .await?;
    let citation = citation
        .as_str()
        .context("no citation on screen")?
        .to_owned();
    emulate_media(app.client(), "print").await?;
    let script = "const shown = (el) => !!el && el.getClientRects().length > 0
            && getComputedStyle(el).visibility !== 'hidden';
        const text = (sel) => { const el = document.querySelector(sel); return shown(el) ? el.textContent : null; };
        return {
            title: text('#article-title'),
            body: text('.article-text'),
            citation: text('.print-citation'),
            source: text('.print-source'),
            date: text('.print-date'),
            link: text('.print-link'),
            href: location.href,
            today: ((d) => [d.getFullYear(), d.getMonth() + 1, d.getDate()]
                .map((n) => String(n).padStart(2, '0')).join('-'))(new Date()),
            controls: Array.from(document.querySelectorAll(
                    '#search-box, .sidebar, .facet, button, select, input, nav, dialog'))
                .filter(shown).map((el) => el.outerHTML.slice(0, 80)),
        };";
    let shown = app.client().execute(script, vec![]).await;
    emulate_media(app.client(), "").await?;
    let shown = shown?;
    let field = |k: &str| shown[k].as_str().map(str::trim);
    ensure!(field("title") == Some(title), "printed title: {shown}");
    ensure!(
        field("body").is_some_and(|b| !b.is_empty()),
        "the article's text is not printed: {shown}"
    );
    ensure!(
        !citation.is_empty() && field("citation") == Some(citation.as_str()),
        "printed citation: {shown}"
    );
    let pool = format!("{} (version ", app.title("da-acts.blob")?);
    ensure!(
        field("source").is_some_and(|s| s.starts_with(&pool)),
        "printed source: {shown}"
    );
    ensure!(
        field("date").is_some() && field("date") == shown["today"].as_str(),
        "printed date: {shown}"
    );
    let href = shown["href"].as_str().unwrap_or_default();
    ensure!(
        field("link") == Some(href) && href.contains("q=") && href.contains("doc="),
        "the printed link is not the search's: {shown}"
    );
    ensure!(
        shown["controls"].as_array().is_some_and(Vec::is_empty),
        "controls are printed: {}",
        shown["controls"]
    );
    Ok(())
}
