//! Dense and hybrid search on a fragmented pool cut with inverted lists
//! (the demo's el-syntagma-lists: the Greek Constitution's blob cut by
//! `nomos fragment --lists 12`): the page embeds the query with the
//! pool's model, fetches the centroids and only the probed lists'
//! fragments, and ranks as `nomos search --fragments` does natively, the
//! probes taken from the link (`rank=rrf:probes=4`). Until the query is
//! embedded, BM25's rows stand in (the list busy), as on a blob: `nomos
//! search --fragments --method bm25`'s top 10. A query superseded
//! while it waits for the centroids (typing on) fetches no lists. A
//! damaged lists fragment fails the query with a message naming the
//! file; fixed, the next query ranks.

use std::collections::BTreeSet;
use std::time::Duration;

use anyhow::{bail, ensure, Result};
use nomos_core::fragments::{FragmentKind, Meta};
use nomos_e2e::app::{finish, App, Row};
use nomos_e2e::fragment_damage::damaged_then_fixed;
use nomos_e2e::paths::{dist_dir, model_dir};
use nomos_e2e::server::StaticServer;
use nomos_e2e::{cli, one_at_a_time};
use serde_json::json;

use crate::dense::escape;
use crate::search::EL_QUERY;

/// The manifest's name for the pool: its meta file.
const POOL: &str = "el-syntagma-lists/meta";
const DIR: &str = "indexes/el-syntagma-lists/";
/// The model's weights, which the page fetches before it can embed.
const MODEL: &str = "models/e5-small/model.onnx";
/// Lists probed, of the pool's 12.
const PROBES: usize = 4;
/// Another Greek query (the right of property).
const OTHER: &str = "δικαίωμα ιδιοκτησίας";
/// A prefix of [`OTHER`] as typed, whose probed lists differ from its.
const PREFIX: &str = "δικαίωμα";
const PARITY_DEPTH: usize = 10;
/// How long the model may take to download and load (as in dense.rs).
const MODEL_LOAD: Duration = Duration::from_secs(240);

/// The pool's meta and its lists fragments' file names.
fn lists_files() -> Result<(Meta, Vec<String>)> {
    let meta = Meta::load(&std::fs::read(dist_dir()?.join(DIR).join("meta"))?)?;
    let files: Vec<String> = meta
        .fragments()
        .iter()
        .filter(|f| f.kind == FragmentKind::Lists)
        .map(|f| f.file.clone())
        .collect();
    ensure!(files.len() > PROBES, "{} lists fragments", files.len());
    Ok((meta, files))
}

/// The lists fragments' file names `query` probes ([`PROBES`] lists),
/// the query embedded natively.
fn probed(meta: &Meta, query: &str) -> Result<BTreeSet<String>> {
    let dir = dist_dir()?.join(DIR);
    let number = meta.needed_centroids()?;
    let file = &meta.fragments()[number].file;
    let centroids = meta.open_centroids(number, &std::fs::read(dir.join(file))?)?;
    let [embedding] = &cli::embed_queries(&model_dir()?, &[query])?[..] else {
        bail!("no embedding for {query:?}");
    };
    Ok(meta
        .needed_lists(&centroids, embedding, PROBES)?
        .into_iter()
        .map(|n| meta.fragments()[n].file.clone())
        .collect())
}

/// Waits (the model's load included) until `method`'s results for
/// `query` are shown, or the query's error.
async fn ranked(app: &App, method: &str, query: &str) -> Result<Result<Vec<Row>, String>> {
    let state = app
        .poll_for(
            &format!("{method} results for {query:?}"),
            "const [method, q] = arguments;
            const error = document.querySelector('.frag-error[role=alert]')?.textContent;
            if (error) return { error };
            const status = document.getElementById('search-status')?.textContent ?? '';
            const timing = document.querySelector('.status .timing')?.textContent ?? '';
            return status.includes(q) && timing.startsWith(method + ' over fragments')
                ? { ready: true } : null;",
            vec![json!(method), json!(query)],
            MODEL_LOAD,
        )
        .await?;
    match state["error"].as_str() {
        Some(e) => Ok(Err(e.to_owned())),
        None => Ok(Ok(app.results(query).await?)),
    }
}

/// The rows shown for `query` while the list is busy and BM25 stands in
/// for `method` (the status line says which follows).
async fn stand_in_rows(app: &App, method: &str, query: &str) -> Result<Vec<Row>> {
    let rows = app
        .poll(
            &format!("BM25 rows for {query:?} standing in for {method}"),
            "const [method, q] = arguments;
            const status = document.getElementById('search-status')?.textContent ?? '';
            const timing = document.querySelector('.status .timing')?.textContent ?? '';
            if (!status.includes(q) || !timing.startsWith('bm25 over fragments')
                || !timing.endsWith(method + ' follows once the query is embedded')
                || !document.querySelector('ol.results[aria-busy=true]')) return null;
            return Array.from(document.querySelectorAll('ol.results .result'), b => ({
                id: b.querySelector('.result-meta .doc-id').textContent,
                score: b.querySelector('.score').textContent,
            }));",
            vec![json!(method), json!(query)],
        )
        .await?;
    let text = |v: &serde_json::Value, k: &str| v[k].as_str().unwrap_or_default().to_owned();
    Ok(rows
        .as_array()
        .map(|rows| {
            rows.iter()
                .map(|r| Row {
                    id: text(r, "id"),
                    title: String::new(),
                    score: text(r, "score"),
                })
                .collect()
        })
        .unwrap_or_default())
}

/// The decimals the page shows a BM25 score to.
const BM25_DECIMALS: usize = 2;

/// The decimals the page shows a reciprocal rank fusion score to, as on
/// a blob (such sums differ in the third or fourth).
const RRF_DECIMALS: usize = 4;

/// The page's top rows are `nomos search --fragments`'s with `spec`: ids,
/// and with `decimals` the scores as shown.
fn expect_cli(rows: &[Row], query: &str, spec: &str, decimals: Option<usize>) -> Result<()> {
    expect_cli_in(DIR, rows, query, spec, decimals)
}

/// [`expect_cli`] on the pool served from `dir`.
fn expect_cli_in(
    dir: &str,
    rows: &[Row],
    query: &str,
    spec: &str,
    decimals: Option<usize>,
) -> Result<()> {
    let dir = dist_dir()?.join(dir);
    let native = cli::search_fragments(&dir, query, PARITY_DEPTH, spec, &model_dir()?)?;
    let show = |id: &str, score: String| match decimals {
        Some(_) => format!("{id} {score}"),
        None => id.to_owned(),
    };
    let expected: Vec<String> = native
        .iter()
        .map(|h| show(&h.id, format!("{:.*}", decimals.unwrap_or(0), h.score)))
        .collect();
    let shown: Vec<String> = rows
        .iter()
        .take(PARITY_DEPTH)
        .map(|r| show(&r.id, r.score.clone()))
        .collect();
    ensure!(
        expected.len() == PARITY_DEPTH,
        "the CLI ranked {} for {spec}",
        expected.len()
    );
    ensure!(
        shown == expected,
        "{spec} over fragments differs from the CLI's\napp: {shown:?}\ncli: {expected:?}"
    );
    Ok(())
}

/// Opens a link to `query` in the pool ranked with `spec`.
async fn open(server: &StaticServer, spec: &str, query: &str) -> Result<App> {
    let link = format!(
        "{}#pool={POOL}&rank={spec}&q={}",
        server.url(),
        escape(query)
    );
    App::open_at(&link, POOL).await
}

#[tokio::test]
async fn dense_and_hybrid_on_fragments_rank_as_the_cli_and_fetch_only_probed_lists() -> Result<()> {
    let _turn = one_at_a_time().await;
    let (_, lists) = lists_files()?;
    let server = StaticServer::start(&dist_dir()?)?;
    // The model held: BM25's rows stand in while the query cannot be
    // embedded, and give way once it is.
    server.hold(MODEL);
    let dense = format!("dense:probes={PROBES}");
    let app = open(&server, &dense, EL_QUERY).await?;
    let outcome = async {
        server.held(MODEL, 1, MODEL_LOAD).await?;
        let rows = stand_in_rows(&app, "dense", EL_QUERY).await?;
        expect_cli(&rows, EL_QUERY, "bm25", Some(BM25_DECIMALS))?;
        server.release(MODEL);
        let rows = match ranked(&app, "dense", EL_QUERY).await? {
            Ok(rows) => rows,
            Err(e) => bail!("dense over fragments failed: {e}"),
        };
        expect_cli(&rows, EL_QUERY, &dense, None)?;
        // Only the probed lists came (at most one fragment a list).
        let sent = server.sent();
        let fetched = lists
            .iter()
            .filter(|f| sent.iter().any(|(p, _)| p.ends_with(f.as_str())))
            .count();
        ensure!(
            (1..=PROBES).contains(&fetched),
            "{fetched} of {} lists fragments fetched for {PROBES} probes",
            lists.len()
        );

        // Hybrid from a link with its probes, then from the picker (its
        // default probes: every list of this small pool).
        let rrf = format!("rrf:probes={PROBES}");
        app.client()
            .goto(&format!(
                "{}#pool={POOL}&rank={rrf}&q={}",
                server.url(),
                escape(OTHER)
            ))
            .await?;
        app.wait_for_pool(POOL).await?;
        let rows = match ranked(&app, "rrf", OTHER).await? {
            Ok(rows) => rows,
            Err(e) => bail!("rrf over fragments failed: {e}"),
        };
        expect_cli(&rows, OTHER, &rrf, Some(RRF_DECIMALS))?;
        app.screenshot("fragmented-hybrid").await?;
        app.choose_method("rrf").await?;
        let rows = app.search(EL_QUERY).await?;
        expect_cli(&rows, EL_QUERY, "rrf", Some(RRF_DECIMALS))?;
        Ok(())
    }
    .await;
    finish(app, outcome).await
}

/// Vectors for part of a pool: the Danish law sample's consolidated acts
/// (`nomos build --embed-only LBK`, as all of Danish law gets them). The
/// page says which documents have vectors, and hybrid ranks as the CLI
/// does, the other documents by BM25 alone (so the acts with vectors
/// lead, as docs/danish-law.md warns).
#[tokio::test]
async fn a_pool_with_vectors_for_its_consolidated_acts_says_so_and_ranks_hybrid_as_the_cli(
) -> Result<()> {
    const DA_POOL: &str = "da-law-sample/meta";
    const DA_DIR: &str = "indexes/da-law-sample/";
    // Placing a child outside its home: consolidated acts and orders.
    const DA_QUERY: &str = "anbringelse uden for hjemmet";
    let _turn = one_at_a_time().await;
    let server = StaticServer::start(&dist_dir()?)?;
    let rrf = format!("rrf:probes={PROBES}");
    let link = format!(
        "{}#pool={DA_POOL}&rank={rrf}&q={}",
        server.url(),
        escape(DA_QUERY)
    );
    let app = App::open_at(&link, DA_POOL).await?;
    let outcome = async {
        let note = app
            .poll(
                "the note on which documents have vectors",
                "return Array.from(document.querySelectorAll('.note'), n => n.textContent)
                    .find(t => t.startsWith('Vectors: ')) ?? null;",
                vec![],
            )
            .await?;
        ensure!(
            note.as_str()
                == Some(
                    "Vectors: 1605 of 7071 documents have them, the 4 LBK acts other documents \
                     cite most, of 4. The others rank by BM25 alone, in hybrid too."
                ),
            "the note reads {note}"
        );
        let rows = match ranked(&app, "rrf", DA_QUERY).await? {
            Ok(rows) => rows,
            Err(e) => bail!("rrf over part-embedded fragments failed: {e}"),
        };
        expect_cli_in(DA_DIR, &rows, DA_QUERY, &rrf, Some(RRF_DECIMALS))?;
        app.screenshot("fragmented-part-vectors").await?;
        Ok(())
    }
    .await;
    finish(app, outcome).await
}

#[tokio::test]
async fn a_damaged_lists_fragment_fails_the_dense_query_by_name() -> Result<()> {
    let _turn = one_at_a_time().await;
    let (_, lists) = lists_files()?;
    let server = StaticServer::start(&dist_dir()?)?;
    let dense = format!("dense:probes={PROBES}");
    // Every lists fragment damaged: whichever the query probes.
    let paths: Vec<String> = lists.iter().map(|f| format!("{DIR}{f}")).collect();
    let fail = async |app: &App| match ranked(app, "dense", EL_QUERY).await? {
        Ok(rows) => bail!("damaged lists gave a ranking: {rows:?}"),
        Err(message) => Ok(message),
    };
    let fixed = async |app: &App| expect_cli(&app.search(OTHER).await?, OTHER, &dense, None);
    damaged_then_fixed(
        &server,
        &paths,
        open(&server, &dense, EL_QUERY),
        fail,
        Some("fragmented-dense-damaged"),
        fixed,
    )
    .await
}

/// Search-as-you-type: the link's query waits for the centroids while
/// the visitor types on; once they come, only the typed query's lists
/// are fetched, not the superseded query's.
#[tokio::test]
async fn a_query_superseded_while_it_waits_fetches_no_lists() -> Result<()> {
    let _turn = one_at_a_time().await;
    let (meta, lists) = lists_files()?;
    let (first, second) = (probed(&meta, PREFIX)?, probed(&meta, OTHER)?);
    ensure!(
        !first.is_subset(&second),
        "{PREFIX:?} probes no list that {OTHER:?} does not: {first:?}"
    );
    let centroids = format!("{DIR}{}", meta.fragments()[meta.needed_centroids()?].file);
    let server = StaticServer::start(&dist_dir()?)?;
    server.hold(&centroids);
    let dense = format!("dense:probes={PROBES}");
    let app = open(&server, &dense, PREFIX).await?;
    let outcome = async {
        // The link's query is embedded (the model loaded) and waits.
        server.held(&centroids, 1, MODEL_LOAD).await?;
        app.client()
            .execute(
                "const box = document.getElementById('search-box');
                 box.value = arguments[0];
                 box.dispatchEvent(new Event('input', { bubbles: true }));",
                vec![json!(OTHER)],
            )
            .await?;
        // The typed query waits too: it has superseded the link's.
        server.held(&centroids, 2, Duration::from_secs(60)).await?;
        server.release(&centroids);
        if let Err(e) = ranked(&app, "dense", OTHER).await? {
            bail!("the typed query failed: {e}");
        }
        let sent = server.sent();
        let fetched: BTreeSet<String> = lists
            .into_iter()
            .filter(|f| sent.iter().any(|(p, _)| p.ends_with(f.as_str())))
            .collect();
        ensure!(
            fetched == second,
            "fetched the lists {fetched:?}; {OTHER:?} probes {second:?}, {PREFIX:?} {first:?}"
        );
        Ok(())
    }
    .await;
    finish(app, outcome).await
}
