//! The Nomos page as tests see it: what a user does (pick a pool, type a
//! query, open a result, follow a reference, open a file) and what they
//! read back (result rows, the open article, load errors).
//!
//! Waits poll a small script until the page shows what is expected, so a
//! test is as fast as the app and a slow machine only costs time. The
//! hooks are the app's ids, roles and classes: `#search-box`,
//! `#search-status`, `#pool-select`, `#result-N`, `.result-meta .doc-id`,
//! `.article-pane`, `.refs`, `.loadline.error[role=alert]`.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, ensure, Context, Result};
use fantoccini::key::Key;
use fantoccini::Locator;
use serde_json::{json, Value};

use crate::browser::Browser;
use crate::paths::{dist_dir, screenshots_dir};
use crate::policy;

/// How long any one wait may take: loading the largest demo blob in a
/// release wasm build can take a few seconds on a busy 2-core machine.
const WAIT: Duration = Duration::from_secs(45);
const POLL: Duration = Duration::from_millis(50);

pub struct App {
    browser: Browser,
    /// Manifest titles by blob file name: the app names pools by title.
    titles: BTreeMap<String, String>,
    /// Origins the test expects the page's policy to refuse.
    refusals: Mutex<Vec<String>>,
}

/// One row of the result list, as shown.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub id: String,
    pub title: String,
    /// As displayed (BM25 to two decimals; see the method's score label).
    pub score: String,
}

/// The open article, as shown.
#[derive(Debug, Clone, PartialEq)]
pub struct Article {
    pub id: String,
    pub title: String,
    pub text: String,
    /// The marked query matches in the text.
    pub marks: Vec<String>,
    /// Reference groups by heading (`Cites`, `Cited by`, `Siblings`).
    pub refs: BTreeMap<String, RefGroup>,
    /// The division path shown above the heading, outermost first.
    pub path: Vec<String>,
    /// The version line under the heading ("Version of 22 December 2017").
    pub version: Option<String>,
}

/// "Why this article?" as shown: each query token with its share of the
/// BM25 score, and the score.
#[derive(Debug, Clone, PartialEq)]
pub struct Explanation {
    pub terms: Vec<(String, f64)>,
    pub total: f64,
}

#[derive(Debug, Clone, PartialEq)]
pub struct RefGroup {
    /// The count in the heading (all references, listed or not).
    pub count: String,
    /// The ids listed.
    pub ids: Vec<String>,
}

impl Article {
    /// The ids a group lists; empty when the group is not shown.
    pub fn ids(&self, group: &str) -> Vec<String> {
        self.refs
            .get(group)
            .map(|g| g.ids.clone())
            .unwrap_or_default()
    }
}

impl App {
    /// Starts a browser, opens `url` and waits until the pool the app
    /// loads first (the manifest's first) is ready.
    pub async fn open(url: &str) -> Result<App> {
        let manifest = read_manifest()?;
        let first = manifest["indexes"][0]["file"]
            .as_str()
            .context("empty manifest")?;
        App::open_at(url, first).await
    }

    /// Starts a browser, opens `url` and waits until the pool from `file`
    /// is ready (e.g. the pool a shared URL names).
    pub async fn open_at(url: &str, file: &str) -> Result<App> {
        let app = App::start(url).await?;
        app.wait_for_pool(file).await?;
        Ok(app)
    }

    /// Starts a browser and opens `url`, without waiting for anything.
    pub async fn start(url: &str) -> Result<App> {
        let titles = read_manifest()?["indexes"]
            .as_array()
            .context("manifest without indexes")?
            .iter()
            .map(|e| {
                let field = |k: &str| e[k].as_str().map(str::to_owned);
                Ok((
                    field("file").context("manifest entry without file")?,
                    field("title").context("manifest entry without title")?,
                ))
            })
            .collect::<Result<BTreeMap<_, _>>>()?;
        let app = App {
            browser: Browser::start().await?,
            titles,
            refusals: Mutex::default(),
        };
        policy::record_violations(&app.browser.client).await?;
        app.browser.client.goto(url).await?;
        Ok(app)
    }

    /// Ends the browser session; call it whatever the test's outcome. Fails
    /// if the page's Content-Security-Policy refused anything unexpected.
    pub async fn close(self) -> Result<()> {
        let refusals = self
            .refusals
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        let policy = policy::check_violations(&self.browser.client, &refusals).await;
        let closed = self.browser.close().await;
        policy.and(closed)
    }

    /// Expects the page's policy to refuse requests to `origin`
    /// (`http://host:port`): [`App::close`] lets those pass.
    pub fn expect_refusal(&self, origin: &str) {
        self.refusals
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(origin.to_owned());
    }

    /// The WebDriver session, for what the helpers here do not cover.
    pub fn client(&self) -> &fantoccini::Client {
        &self.browser.client
    }

    /// The manifest title of a blob.
    pub fn title(&self, file: &str) -> Result<&str> {
        self.titles
            .get(file)
            .map(String::as_str)
            .ok_or_else(|| anyhow!("{file} is not in the manifest"))
    }

    /// Runs `script` (a function body; `arguments` are `args`) every
    /// [`POLL`] until it returns something other than `null`, and returns
    /// that. On timeout the error names `what` and the page's status.
    pub async fn poll(&self, what: &str, script: &str, args: Vec<Value>) -> Result<Value> {
        self.poll_for(what, script, args, WAIT).await
    }

    /// [`App::poll`] with another time limit, for long jobs.
    pub async fn poll_for(
        &self,
        what: &str,
        script: &str,
        args: Vec<Value>,
        limit: Duration,
    ) -> Result<Value> {
        let started = Instant::now();
        loop {
            let value = self.browser.client.execute(script, args.clone()).await?;
            if !value.is_null() {
                return Ok(value);
            }
            if started.elapsed() > limit {
                bail!(
                    "timed out after {limit:?} waiting for {what}; {}",
                    self.describe().await
                );
            }
            tokio::time::sleep(POLL).await;
        }
    }

    /// The status and load lines, for error messages.
    async fn describe(&self) -> String {
        let script = "return ['search-status'].map(id => document.getElementById(id)?.textContent)
            .concat([document.querySelector('.loadline')?.textContent,
                     document.querySelector('.fallback')?.textContent,
                     document.querySelector('.model-line')?.textContent,
                     document.getElementById('search-box')?.placeholder,
                     document.querySelector('[data-testid=offline-failure]')?.title]);";
        match self.browser.client.execute(script, vec![]).await {
            Ok(v) => format!(
                "page: status, load line, fallback, model line, placeholder, offline failure = {v}"
            ),
            Err(e) => format!("page unreadable: {e}"),
        }
    }

    /// Waits until the service worker controls the page (a first visit's
    /// takes over once installed).
    pub async fn wait_for_worker(&self) -> Result<()> {
        self.poll(
            "the service worker to control the page",
            "return navigator.serviceWorker?.controller ? true : null;",
            vec![],
        )
        .await?;
        Ok(())
    }

    /// Makes the current pool available offline and waits until the
    /// service worker controls the page and says it keeps the app and the
    /// pool: a light blob keeps every text part, so those its rows did not
    /// need are fetched first ("Make available offline").
    pub async fn keep_offline(&self) -> Result<()> {
        self.poll(
            "the service worker to keep the app and the pool",
            "const button = document.querySelector('[data-testid=make-offline]');
             if (button?.textContent.startsWith('Make available offline')) button.click();
             return navigator.serviceWorker?.controller
                 && document.querySelector('[data-testid=offline-ready]') ? true : null;",
            vec![],
        )
        .await?;
        Ok(())
    }

    /// Waits until the pool from `file` is loaded and searchable. Fails
    /// early if the load line reports an error about that pool.
    pub async fn wait_for_pool(&self, file: &str) -> Result<()> {
        let title = self.title(file)?;
        let script = "const [title, file] = arguments;
            const error = document.querySelector('.loadline.error');
            const message = error ? error.textContent : '';
            if (message.includes(title) || message.includes(file)) return { error: message };
            const box = document.getElementById('search-box');
            return box && box.placeholder.endsWith(' in ' + title) ? { ready: true } : null;";
        let state = self
            .poll(
                &format!("pool {file} to load"),
                script,
                vec![json!(title), json!(file)],
            )
            .await?;
        if let Some(message) = state["error"].as_str() {
            bail!("pool {file} failed to load: {message}");
        }
        Ok(())
    }

    /// Waits until the Evaluate view shows the pool from `file` (a link
    /// can open that view, which has no search box).
    pub async fn wait_for_evaluate(&self, file: &str) -> Result<()> {
        let script = "const [title] = arguments;
            const summary = document.querySelector('.eval-summary')?.textContent ?? '';
            return summary.startsWith(title + ' has ') ? true : null;";
        self.poll(
            &format!("the Evaluate view of {file}"),
            script,
            vec![json!(self.title(file)?)],
        )
        .await
        .map(drop)
    }

    /// Chooses a manifest pool in the picker and waits until it is ready.
    pub async fn choose_pool(&self, file: &str) -> Result<()> {
        self.pick_pool(file).await?;
        self.wait_for_pool(file).await
    }

    /// Chooses a manifest pool in the picker, without waiting.
    pub async fn pick_pool(&self, file: &str) -> Result<()> {
        self.browser
            .client
            .find(Locator::Id("pool-select"))
            .await?
            .select_by_value(file)
            .await?;
        Ok(())
    }

    /// Types `query` into the search box (replacing what is there) and
    /// returns the shown results once they are ranked for it.
    pub async fn search(&self, query: &str) -> Result<Vec<Row>> {
        let input = self.browser.client.find(Locator::Id("search-box")).await?;
        input.send_keys(&(Key::Control + "a")).await?;
        input.send_keys(query).await?;
        self.results(query).await
    }

    /// Chooses a ranking method (`bm25`, `rrf`, ...) in the advanced panel.
    pub async fn choose_method(&self, name: &str) -> Result<()> {
        let script = "const [name] = arguments;
            const select = document.getElementById('method');
            const option = select && Array.from(select.options).find(o => o.value === name);
            if (!option || option.disabled) return false;
            select.value = name;
            select.dispatchEvent(new Event('change', { bubbles: true }));
            return true;";
        let chosen = self
            .browser
            .client
            .execute(script, vec![json!(name)])
            .await?;
        ensure!(chosen == json!(true), "method {name} cannot be chosen here");
        Ok(())
    }

    /// Waits until the results shown are those for `query` and the chosen
    /// method, and reads them.
    pub async fn results(&self, query: &str) -> Result<Vec<Row>> {
        // The status line quotes the query the shown results are for (in a
        // bidi isolate, U+2068 … U+2069). A
        // row shows no separate id when it equals the title (STARD).
        // While BM25 stands in for a dense method (`.fallback` says why,
        // or the list is busy while the query is embedded), the chosen
        // method's results are still to come.
        let script = "const [q] = arguments;
            const status = document.getElementById('search-status')?.textContent ?? '';
            if (!status.includes('\u{201c}\u{2068}' + q + '\u{2069}\u{201d}')) return null;
            if (document.querySelector('.fallback')?.textContent) return null;
            if (document.querySelector('ol.results[aria-busy=true]')) return null;
            return Array.from(document.querySelectorAll('ol.results .result')).map(b => ({
                id: (b.querySelector('.result-meta .doc-id') ?? b.querySelector('.result-title')).textContent,
                title: b.querySelector('.result-title').textContent,
                score: b.querySelector('.score').textContent,
            }));";
        let rows = self
            .poll(
                &format!("results for {query:?}"),
                script,
                vec![json!(query.trim())],
            )
            .await?;
        let text = |v: &Value, k: &str| v[k].as_str().unwrap_or_default().to_owned();
        Ok(rows
            .as_array()
            .context("result rows")?
            .iter()
            .map(|r| Row {
                id: text(r, "id"),
                title: text(r, "title"),
                score: text(r, "score"),
            })
            .collect())
    }

    /// Clicks the result at `index` (0-based) and returns its article.
    pub async fn open_result(&self, index: usize) -> Result<Article> {
        let button = self
            .browser
            .client
            .find(Locator::Id(&format!("result-{index}")))
            .await?;
        let id = button
            .find(Locator::Css(".result-meta .doc-id"))
            .await?
            .text()
            .await?;
        button.click().await?;
        self.article(&id).await
    }

    /// Opens the open article's "Why this article?" and reads it once
    /// computed: each query term's share, and the score they add up to
    /// (full precision, from the table's data attributes).
    pub async fn explain(&self) -> Result<Explanation> {
        self.browser
            .client
            .find(Locator::Css(".article-pane details.explain summary"))
            .await?
            .click()
            .await?;
        let script = "const table = document.querySelector('.article-pane .explain-table');
            if (!table) return null;
            return {
                terms: Array.from(table.querySelectorAll('tr.explain-term'), r => [
                    r.dataset.token, Number(r.dataset.contribution),
                ]),
                total: Number(table.querySelector('.explain-total').dataset.total),
            };";
        let shown = self.poll("the explanation", script, Vec::new()).await?;
        let terms = shown["terms"]
            .as_array()
            .context("explanation terms")?
            .iter()
            .map(|t| {
                let token = t[0].as_str().unwrap_or_default().to_owned();
                (token, t[1].as_f64().unwrap_or(f64::NAN))
            })
            .collect();
        Ok(Explanation {
            terms,
            total: shown["total"].as_f64().context("explanation total")?,
        })
    }

    /// Waits until the article pane shows `id`, and reads it.
    pub async fn article(&self, id: &str) -> Result<Article> {
        let script = "const [id] = arguments;
            const pane = document.querySelector('.article-pane');
            if (pane?.querySelector('.article-meta .doc-id')?.textContent !== id) return null;
            const refs = {};
            for (const group of pane.querySelectorAll('section.refs')) {
                const heading = group.querySelector('h3');
                refs[heading.firstChild.textContent.trim()] = {
                    count: heading.querySelector('.count').textContent,
                    ids: Array.from(group.querySelectorAll('button.ref .doc-id'), e => e.textContent),
                };
            }
            return {
                title: document.getElementById('article-title').textContent,
                text: pane.querySelector('.article-text').textContent,
                marks: Array.from(pane.querySelectorAll('.article-text mark'), m => m.textContent),
                refs,
                path: Array.from(pane.querySelectorAll('.division-path li'), e => e.textContent),
                version: pane.querySelector('.version-date')?.textContent ?? null,
            };";
        let a = self
            .poll(&format!("article {id}"), script, vec![json!(id)])
            .await?;
        let strings = |v: &Value| -> Vec<String> {
            v.as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|s| s.as_str().map(str::to_owned))
                        .collect()
                })
                .unwrap_or_default()
        };
        let refs = a["refs"]
            .as_object()
            .context("article refs")?
            .iter()
            .map(|(name, g)| {
                let group = RefGroup {
                    count: g["count"].as_str().unwrap_or_default().to_owned(),
                    ids: strings(&g["ids"]),
                };
                (name.clone(), group)
            })
            .collect();
        Ok(Article {
            id: id.to_owned(),
            title: a["title"].as_str().unwrap_or_default().to_owned(),
            text: a["text"].as_str().unwrap_or_default().to_owned(),
            marks: strings(&a["marks"]),
            refs,
            path: strings(&a["path"]),
            version: a["version"].as_str().map(str::to_owned),
        })
    }

    /// Clicks the reference to `id` in the open article's group `group`
    /// and returns the article it opens.
    pub async fn follow(&self, group: &str, id: &str) -> Result<Article> {
        let xpath = format!(
            "//section[contains(@class,'article-pane')]//section[contains(@class,'refs')]\
             [h3[normalize-space(text()[1]) = '{group}']]\
             //button[contains(@class,'ref')][.//span[@class='doc-id' and text()='{id}']]"
        );
        self.browser
            .client
            .find(Locator::XPath(&xpath))
            .await
            .with_context(|| format!("no reference to {id} under {group:?}"))?
            .click()
            .await?;
        self.article(id).await
    }

    /// Clicks the article's Back button and returns the article it shows.
    pub async fn back_to(&self, id: &str) -> Result<Article> {
        self.browser
            .client
            .find(Locator::XPath(
                "//section[contains(@class,'article-pane')]//button[contains(., 'Back')]",
            ))
            .await
            .context("no Back button in the article pane")?
            .click()
            .await?;
        self.article(id).await
    }

    /// Opens a blob from disk through the picker's file input.
    pub async fn open_file(&self, path: &Path) -> Result<()> {
        let path = path.to_str().context("non-UTF-8 temp path")?;
        self.browser
            .client
            .find(Locator::Css(".pool input[type=file]"))
            .await?
            .send_keys(path)
            .await?;
        Ok(())
    }

    /// Waits for the load line's error (an alert) and returns its text.
    pub async fn load_error(&self) -> Result<String> {
        let script =
            "return document.querySelector('.loadline.error[role=alert]')?.textContent ?? null;";
        let message = self.poll("a load error", script, vec![]).await?;
        Ok(message.as_str().unwrap_or_default().to_owned())
    }

    /// From now on, files the page offers as downloads (an `<a download>`
    /// clicked on a blob URL) are caught instead of saved, and the ones
    /// caught so far are forgotten. Other blob URLs (the embedding model's,
    /// ONNX Runtime's checked wrapper) work as usual.
    pub async fn catch_downloads(&self) -> Result<()> {
        let script = "if (!window.__nomosDownloads) {
                window.__nomosDownloads = [];
                const blobs = new Map();
                const create = URL.createObjectURL;
                URL.createObjectURL = (blob) => {
                    const url = create(blob);
                    blobs.set(url, blob);
                    return url;
                };
                HTMLAnchorElement.prototype.click = function () {
                    if (this.download && blobs.has(this.href)) {
                        window.__nomosDownloads.push(blobs.get(this.href));
                    }
                };
            }
            window.__nomosDownloads.length = 0;";
        self.browser.client.execute(script, vec![]).await?;
        Ok(())
    }

    /// The texts of the downloads caught since [`Self::catch_downloads`],
    /// in the order they were offered.
    pub async fn downloads(&self) -> Result<Vec<String>> {
        let texts = self
            .browser
            .client
            .execute_async(
                "const done = arguments[arguments.length - 1];
                Promise.all(window.__nomosDownloads.map((b) => b.text())).then(done);",
                vec![],
            )
            .await?;
        Ok(serde_json::from_value(texts)?)
    }

    /// Saves a PNG of the window as `<name>.png` in [`screenshots_dir`].
    pub async fn screenshot(&self, name: &str) -> Result<()> {
        let png = self.browser.client.screenshot().await?;
        let path = screenshots_dir()?.join(format!("{name}.png"));
        std::fs::write(&path, png).with_context(|| format!("writing {}", path.display()))
    }

    /// The app's WebAssembly memory and the JS heap, in bytes. The app's
    /// module (wasm-bindgen's glue) hands out its instance again when
    /// asked to start a second time.
    pub async fn heap(&self) -> Result<(f64, f64)> {
        let script = "const done = arguments[arguments.length - 1];
            const glue = [...document.querySelectorAll('link[rel=modulepreload]')]
                .map(l => l.href).find(h => /\\/nomos-app-[0-9a-f]+\\.js$/.test(h));
            import(glue).then(m => m.default()).then(
                wasm => done({ wasm: wasm.memory.buffer.byteLength,
                               js: performance.memory.usedJSHeapSize }),
                e => done({ error: String(e) }));";
        let got: Value = self.client().execute_async(script, vec![]).await?;
        if let Some(error) = got["error"].as_str() {
            bail!("could not measure the heap: {error}");
        }
        let bytes = |k: &str| got[k].as_f64().with_context(|| format!("no {k} in {got}"));
        Ok((bytes("wasm")?, bytes("js")?))
    }
}

/// The built app's `indexes/manifest.json`.
fn read_manifest() -> Result<Value> {
    let path = dist_dir()?.join("indexes/manifest.json");
    let bytes = std::fs::read(&path).with_context(|| format!("reading {}", path.display()))?;
    Ok(serde_json::from_slice(&bytes)?)
}

/// Closes `app` whatever `outcome` was, then returns `outcome` (or the
/// close error, if the test itself passed).
pub async fn finish(app: App, outcome: Result<()>) -> Result<()> {
    let closed = app.close().await;
    outcome.and(closed)
}
