//! A light first visit: the Danish acts' first results need only the app
//! and the light blob, measured as the browser received them from a host
//! that compresses with brotli; the text follows with the snippets, only
//! the parts the rows need (the Greek codes), and a BM25 link starts no
//! download of the semantic model though the pool defaults to hybrid. A pool
//! whose vectors file is missing (404) still searches with BM25, and its
//! dense method says why it cannot run.
//!
//! Prints what the first visit downloaded, for docs/benchmarks/:
//! `cargo test -p nomos-e2e --test e2e light -- --nocapture`.

use anyhow::{ensure, Context, Result};
use nomos_core::blob::{Blob, SiblingKind};
use nomos_e2e::app::{finish, App};
use nomos_e2e::one_at_a_time;
use nomos_e2e::paths::{dist_dir, served_blob};
use nomos_e2e::server::StaticServer;
use serde_json::json;

use crate::dense::escape;
use crate::search::{DA_QUERY, EL_QUERY};

/// The budget for a first visit to the Danish acts' first result.
const FIRST_VISIT_BUDGET: u64 = 1_500_000;

#[tokio::test]
async fn bm25_needs_only_the_light_blob_and_dense_says_its_vectors_are_missing() -> Result<()> {
    let _turn = one_at_a_time().await;
    let server = StaticServer::start(&dist_dir()?)?;
    server.send_brotli(&["indexes/manifest.json", "indexes/da-acts.blob"])?;
    server.hide("indexes/el-syntagma.vectors");
    let app = App::open(&server.url()).await?;
    let outcome = async {
        ensure!(
            !app.search(DA_QUERY).await?.is_empty(),
            "no results for {DA_QUERY:?}"
        );
        // The page's own downloads are each file's first answer; the
        // service worker's install asks for the app's files again (with
        // `no-cache`: a host with ETags answers 304, this server, which
        // sends `no-store`, the whole file), reported apart.
        let mut first = Vec::new();
        let mut again = Vec::new();
        for (target, bytes) in server.sent() {
            match first.iter().any(|(t, _)| *t == target) {
                true => again.push((target, bytes)),
                false => first.push((target, bytes)),
            }
        }
        let needed: u64 = first
            .iter()
            .filter(|(t, _)| !is_sibling(t))
            .map(|(_, b)| b)
            .sum();
        println!("first visit to the first Danish result, as sent with brotli:");
        for (target, bytes) in &first {
            println!("  {bytes:>9}  {target}");
        }
        println!("  {needed:>9}  in all, without the text, which follows");
        for (target, bytes) in &again {
            println!("  {bytes:>9}  {target} (again: the service worker's precache)");
        }
        ensure!(
            first
                .iter()
                .any(|(t, _)| t.ends_with("/indexes/da-acts.blob")),
            "the blob is not among the downloads: {first:?}"
        );
        ensure!(
            needed <= FIRST_VISIT_BUDGET,
            "the first result took {needed} bytes, over {FIRST_VISIT_BUDGET}"
        );
        ensure!(
            !first.iter().any(|(t, _)| t.ends_with(".vectors")),
            "BM25 fetched vectors: {first:?}"
        );
        // The text follows: the rows get their snippets.
        app.poll(
            "the snippets of the Danish results",
            "const s = document.querySelector('ol.results .result .snippet');
             return s && s.textContent.trim() ? true : null;",
            vec![],
        )
        .await?;

        // A pool whose vectors file is missing: BM25 ranks, and the chosen
        // hybrid method (the pool's default) says why it cannot.
        app.choose_pool("el-syntagma.blob").await?;
        let input = app
            .client()
            .find(fantoccini::Locator::Id("search-box"))
            .await?;
        input.send_keys(EL_QUERY).await?;
        let state = app
            .poll(
                "BM25 results with the reason the vectors are missing",
                "const [q] = arguments;
                 const status = document.getElementById('search-status')?.textContent ?? '';
                 const fallback = document.querySelector('.fallback')?.textContent ?? '';
                 const rows = document.querySelectorAll('ol.results .result').length;
                 return status.includes(q) && fallback.includes('404') && rows > 0
                     ? { fallback, rows } : null;",
                vec![json!(EL_QUERY)],
            )
            .await?;
        let fallback = state["fallback"].as_str().unwrap_or_default();
        ensure!(
            fallback.contains("el-syntagma.vectors") && fallback.contains("vectors are missing"),
            "the fallback should name the missing vectors file: {fallback:?}"
        );
        Ok(())
    }
    .await;
    finish(app, outcome).await
}

/// A light blob's text or vectors file.
fn is_sibling(name: &str) -> bool {
    name.ends_with(".text") || name.ends_with(".vectors")
}

/// The Greek codes' query for the first-visit measure
/// (docs/benchmarks/el-codes.md, "Cost").
const CODES_QUERY: &str = "προθεσμία έφεσης";

/// A first visit to the Greek codes' first BM25 result fetches the app,
/// the light blob and the text parts its rows need, not every part; its
/// first result costs the app, the blob and its own part, within the
/// issue's budget. "Make available offline" then fetches and keeps every
/// other part.
#[tokio::test]
async fn a_first_visit_fetches_the_text_parts_of_its_rows_not_all() -> Result<()> {
    let _turn = one_at_a_time().await;
    let blob = Blob::load(&std::fs::read(served_blob("el-codes.blob")?)?)?;
    let parts: Vec<String> = blob
        .siblings()
        .iter()
        .filter(|s| s.kind == SiblingKind::Text)
        .map(|s| s.file.clone())
        .collect();
    ensure!(parts.len() > 1, "el-codes.blob lists {parts:?} as its text");
    let server = StaticServer::start(&dist_dir()?)?;
    let mut ahead = vec![
        "indexes/manifest.json".to_owned(),
        "indexes/el-codes.blob".to_owned(),
    ];
    ahead.extend(parts.iter().map(|p| format!("indexes/{p}")));
    server.send_brotli(&ahead.iter().map(String::as_str).collect::<Vec<_>>())?;
    let link = format!(
        "{}#pool=el-codes.blob&rank=bm25&q={}",
        server.url(),
        escape(CODES_QUERY)
    );
    let app = App::open_at(&link, "el-codes.blob").await?;
    let outcome = async {
        let rows = app.results(CODES_QUERY).await?;
        ensure!(!rows.is_empty(), "no results for {CODES_QUERY:?}");
        app.poll(
            "every row's snippet",
            "const rows = Array.from(document.querySelectorAll('ol.results .result'));
             return rows.length && rows.every(r => r.querySelector('.snippet')?.textContent.trim())
                 ? true : null;",
            vec![],
        )
        .await?;
        // A BM25 link starts no download of the semantic model, though
        // the pool's own default is hybrid.
        let model: Vec<String> = server
            .sent()
            .into_iter()
            .map(|(target, _)| target)
            .filter(|t| t.contains("/models/") || t.ends_with(".vectors"))
            .collect();
        ensure!(model.is_empty(), "a BM25 link fetched {model:?}");
        let mut first = Vec::new();
        for (target, bytes) in server.sent() {
            if !first.iter().any(|(t, _)| *t == target) {
                first.push((target, bytes));
            }
        }
        let fetched: Vec<&str> = parts
            .iter()
            .filter(|p| first.iter().any(|(t, _)| t.ends_with(&format!("/{p}"))))
            .map(String::as_str)
            .collect();
        ensure!(
            !fetched.is_empty() && fetched.len() < parts.len(),
            "the first visit fetched {} of {} text parts",
            fetched.len(),
            parts.len()
        );
        let doc = blob
            .doc_index(&rows[0].id)
            .with_context(|| format!("no document {:?}", rows[0].id))?;
        let own = blob.text_parts_for([doc as usize])?[0].file.clone();
        let app_and_blob: u64 = first
            .iter()
            .filter(|(t, _)| !is_sibling(t))
            .map(|(_, b)| b)
            .sum();
        let own_bytes = first
            .iter()
            .find(|(t, _)| t.ends_with(&format!("/{own}")))
            .map_or(0, |(_, b)| *b);
        let rows_text: u64 = first
            .iter()
            .filter(|(t, _)| is_sibling(t))
            .map(|(_, b)| b)
            .sum();
        println!("first visit to the Greek codes' first BM25 result, as sent with brotli:");
        for (target, bytes) in &first {
            println!("  {bytes:>9}  {target}");
        }
        println!("  {app_and_blob:>9}  the app and the light blob");
        println!("  {own_bytes:>9}  the first result's text part ({own})");
        println!(
            "  {:>9}  in all to the first result",
            app_and_blob + own_bytes
        );
        println!(
            "  {rows_text:>9}  the text of all {} rows ({} of {} parts)",
            rows.len(),
            fetched.len(),
            parts.len()
        );
        ensure!(
            app_and_blob + own_bytes <= FIRST_VISIT_BUDGET,
            "the first result took {} bytes, over {FIRST_VISIT_BUDGET}",
            app_and_blob + own_bytes
        );

        // Every other part, kept by the service worker.
        app.keep_offline().await?;
        let sent = server.sent();
        let missing: Vec<&String> = parts
            .iter()
            .filter(|p| !sent.iter().any(|(t, _)| t.ends_with(&format!("/{p}"))))
            .collect();
        ensure!(missing.is_empty(), "never fetched: {missing:?}");
        Ok(())
    }
    .await;
    finish(app, outcome).await
}
