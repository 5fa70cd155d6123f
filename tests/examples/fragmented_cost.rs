//! What a query costs the browser on a fragmented pool (docs/benchmarks/,
//! "Fragmented pools in the browser"): a measurement, not a test. Serves
//! the built app over loopback with brotli (as a compressing host would),
//! opens the pool in headless Chromium, and for each query reports the
//! bytes of the pool's files sent (beyond the app and the manifest), the
//! time from the query to its rows (the app's own timing: fetches,
//! checks, ranking, rows), the same query again with its fragments held,
//! and the page's memory.
//!
//! ```text
//! cargo run -p nomos-e2e --example fragmented_cost -- [POOL] [QUERY...]
//! ```
//! `POOL` is the manifest's name for it (default `synth-da-1e5/meta`).
//! `QUERIES=FILE` reads the queries from a file, one a line (`#` lines and
//! blank ones skipped), after those given. The run ends with the median,
//! p90 and worst of the bytes and of the cold and warm times.
//! `FIRST_VISIT=1` measures instead a first visit: a fresh browser opens
//! the first query's link (`#pool=POOL&q=QUERY`), waits for its rows and
//! opens the first; the bytes of each file's first answer, the app's
//! included, are listed by kind.
//! `METHOD=rrf` (any method spec, e.g. `dense:probes=32`) ranks with it,
//! on a pool cut with lists: a dense method's model is loaded first (its
//! download is not a query's), the times include embedding the query, and
//! the bytes are split into the lists' (and, on the first query, the
//! centroids') and the rest.
//! `HEAP_EACH=1` prints the page's WebAssembly memory after each query.
//! With `PLAIN=1` the server does not compress: the test server
//! compresses a pool's file with brotli 11 when first asked for it, which
//! costs far more time than the app spends, so the bytes come from a
//! brotli run and the times from a plain one.

use anyhow::{Context, Result};
use nomos_core::fragments::{FragmentKind, Meta};
use nomos_core::methods::Method;
use nomos_e2e::app::App;
use nomos_e2e::link::escape;
use nomos_e2e::paths::dist_dir;
use nomos_e2e::server::StaticServer;

const DEFAULT_POOL: &str = "synth-da-1e5/meta";
const DEFAULT_QUERIES: [&str; 3] = [
    "erstatning for skade på ejendom",
    "klage over afgørelse fra ministeren",
    "tilladelse til erhverv af fast ejendom",
];
/// Between two queries, so the next query's timing is its own.
const SPACER: &str = "zzzz";

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let pool = args.first().cloned().unwrap_or_else(|| DEFAULT_POOL.into());
    let mut queries: Vec<String> = args.iter().skip(1).cloned().collect();
    if let Some(file) = std::env::var_os("QUERIES") {
        let text = std::fs::read_to_string(&file)
            .with_context(|| format!("QUERIES={}", file.to_string_lossy()))?;
        queries.extend(
            text.lines()
                .map(str::trim)
                .filter(|l| !l.is_empty() && !l.starts_with('#'))
                .map(str::to_owned),
        );
    }
    if queries.is_empty() {
        queries = DEFAULT_QUERIES.iter().map(|q| q.to_string()).collect();
    }
    let method = std::env::var("METHOD").ok();
    // Only a dense method loads the model (a lexical one never does).
    let embeds = match &method {
        Some(m) => m
            .parse::<Method>()
            .with_context(|| format!("METHOD={m}"))?
            .needs_dense(),
        None => false,
    };
    let dir = format!("/indexes/{}", pool.trim_end_matches("meta"));
    // The vectors' files: lists and centroids fragments.
    let served = dist_dir()?.join(dir.trim_start_matches('/'));
    let meta = Meta::load(&std::fs::read(served.join("meta"))?)?;
    let vectors: Vec<String> = meta
        .fragments()
        .iter()
        .filter(|f| matches!(f.kind, FragmentKind::Lists | FragmentKind::Centroids))
        .map(|f| f.file.clone())
        .collect();
    let server = StaticServer::start(&dist_dir()?)?;
    if std::env::var_os("PLAIN").is_none() {
        server.send_brotli(&[])?;
    }
    if std::env::var_os("FIRST_VISIT").is_some() {
        return first_visit(&server, &pool, &dir, &queries[0]).await;
    }
    let app = match &method {
        Some(m) => App::open_at(&format!("{}#pool={pool}&rank={m}", server.url()), &pool).await?,
        None => App::open(&server.url()).await?,
    };
    let outcome = async {
        // The pool's bytes sent: (lists and centroids, the rest).
        let pool_bytes = |sent: &[(String, u64)]| -> (u64, u64) {
            let mut split = (0, 0);
            for (path, bytes) in sent.iter().filter(|(p, _)| p.starts_with(&dir)) {
                match vectors.iter().any(|v| path.ends_with(v.as_str())) {
                    true => split.0 += bytes,
                    false => split.1 += bytes,
                }
            }
            split
        };
        if method.is_none() {
            app.choose_pool(&pool).await?;
        } else if embeds {
            load_model(&app).await?;
        }
        let (_, meta_sent) = pool_bytes(&server.sent());
        println!(
            "pool {pool}, {}: meta {meta_sent} bytes sent",
            method.as_deref().unwrap_or("bm25")
        );
        let (mut sent, mut colds, mut warms) = (Vec::new(), Vec::new(), Vec::new());
        for query in &queries {
            let before = pool_bytes(&server.sent());
            app.search(query).await?;
            let cold = timing(&app).await?;
            let after = pool_bytes(&server.sent());
            let (vectors, rest) = (after.0 - before.0, after.1 - before.1);
            app.search(SPACER).await?;
            app.search(query).await?;
            let warm = timing(&app).await?;
            println!(
                "{query:?}: cold {cold}, {} bytes of the pool sent while typing it ({vectors} of \
                 them lists and centroids); warm {warm}",
                vectors + rest
            );
            if std::env::var_os("HEAP_EACH").is_some() {
                let (wasm, _) = app.heap().await?;
                println!("WebAssembly memory {:.1} MB", wasm / 1e6);
            }
            sent.push((vectors + rest) as f64);
            colds.extend(millis(&cold));
            warms.extend(millis(&warm));
        }
        for (what, values) in [("bytes sent", sent), ("cold ms", colds), ("warm ms", warms)] {
            println!("{what}: {}", spread(values));
        }
        let (wasm, js) = app.heap().await?;
        println!(
            "after {} queries: WebAssembly memory {:.1} MB, JS heap {:.1} MB",
            queries.len(),
            wasm / 1e6,
            js / 1e6
        );
        Ok::<_, anyhow::Error>(())
    }
    .await;
    app.close().await?;
    outcome
}

/// A fresh browser's first visit from a link to `query` on `pool`, to its
/// first result opened: every byte the server sent, by kind.
async fn first_visit(server: &StaticServer, pool: &str, dir: &str, query: &str) -> Result<()> {
    let link = format!("{}#pool={pool}&q={}", server.url(), escape(query));
    let app = App::open_at(&link, pool).await?;
    let outcome = async {
        let rows = app.results(query).await?;
        let first = rows.first().context("the query has no rows")?;
        let to_rows = server.sent();
        app.open_result(0).await?;
        let all = server.sent();
        let kind = |path: &str| match path {
            p if p.starts_with(dir) && p.ends_with("/meta") => "the pool's meta",
            p if p.starts_with(dir) => "the pool's fragments",
            p if p.ends_with(".wasm") => "the app's wasm",
            p if p.ends_with(".js") => "the app's scripts and the service worker",
            _ => "the page, styles, manifest and the rest",
        };
        // Each file's first answer: the service worker's precache asks
        // for the app's files again, which a browser's cache serves.
        let first_answers = |sent: &[(String, u64)]| {
            let mut seen = std::collections::HashSet::new();
            sent.iter()
                .filter(|(path, _)| seen.insert(path.clone()))
                .cloned()
                .collect::<Vec<_>>()
        };
        let (to_rows, all) = (first_answers(&to_rows), first_answers(&all));
        let mut by_kind = std::collections::BTreeMap::<&str, u64>::new();
        for (path, bytes) in &all {
            *by_kind.entry(kind(path)).or_default() += bytes;
        }
        let total = |s: &[(String, u64)]| s.iter().map(|(_, b)| b).sum::<u64>();
        println!("first visit to {query:?}, first result {}:", first.id);
        for (k, bytes) in by_kind {
            println!("  {k}: {bytes} bytes");
        }
        println!(
            "  to the rows: {} bytes; to the first result open: {} bytes ({} requests)",
            total(&to_rows),
            total(&all),
            all.len()
        );
        Ok::<_, anyhow::Error>(())
    }
    .await;
    app.close().await?;
    outcome
}

/// The milliseconds of a timing line (`bm25 over fragments: 126 ms, …`).
fn millis(timing: &str) -> Option<f64> {
    let (_, after) = timing.split_once(": ")?;
    after.split_once(" ms")?.0.parse().ok()
}

/// Median, p90 (nearest rank) and worst of `values`.
fn spread(mut values: Vec<f64>) -> String {
    if values.is_empty() {
        return "none".into();
    }
    values.sort_by(f64::total_cmp);
    let at =
        |q: f64| values[((q * values.len() as f64).ceil() as usize).clamp(1, values.len()) - 1];
    format!(
        "median {:.0}, p90 {:.0}, worst {:.0} (of {})",
        at(0.5),
        at(0.9),
        values[values.len() - 1],
        values.len()
    )
}

/// Waits until the pool's model embeds (downloaded and started, which
/// choosing a dense method begins).
async fn load_model(app: &App) -> Result<()> {
    app.poll_for(
        "the semantic model to load",
        "return window.__nomosEmbed('x').then(() => true, () => null);",
        vec![],
        std::time::Duration::from_secs(300),
    )
    .await?;
    Ok(())
}

/// The app's timing line for the results shown.
async fn timing(app: &App) -> Result<String> {
    let got = app
        .client()
        .execute(
            "return document.querySelector('.status .timing')?.textContent ?? null;",
            vec![],
        )
        .await?;
    got.as_str().map(str::to_owned).context("no timing line")
}
