//! Typing a query ranks the pool in the browser exactly as the `nomos`
//! CLI ranks it natively with BM25: same ids in the same order with the
//! same scores, on blobs and on a fragmented pool (against the blob it
//! was cut from), by the same function; and with score propagation along
//! the Danish acts' citations (`prop`).

use std::path::Path;

use anyhow::{ensure, Result};
use nomos_e2e::app::{finish, App, Row};
use nomos_e2e::paths::{dist_dir, served_blob};
use nomos_e2e::server::StaticServer;
use nomos_e2e::{cli, one_at_a_time};

use crate::fragmented_pool;

/// The photographer's exclusive right to a photograph is § 70, stk. 1 of
/// the Danish copyright act (ophavsretsloven).
pub const DA_QUERY: &str = "ophavsret til fotografiske billeder";
pub const DA_EXPECTED: &str = "ophavsretsloven_§70_stk1";

/// Freedom of religious conscience is Article 13 of the Greek Constitution.
pub const EL_QUERY: &str = "ελευθερία της θρησκευτικής συνείδησης";
pub const EL_EXPECTED: &str = "Syntagma::13";

/// How many of the top results must agree with the CLI.
const PARITY_DEPTH: usize = 10;

#[tokio::test]
async fn queries_rank_as_the_cli_does_on_blobs_and_a_fragmented_pool() -> Result<()> {
    let _turn = one_at_a_time().await;
    let server = StaticServer::start(&dist_dir()?)?;
    let app = App::open(&server.url()).await?;
    let outcome = async {
        // The app opens the manifest's first pool, the Danish acts.
        let da = served_blob("da-acts.blob")?;
        let rows = search_like_cli(&app, &da, DA_QUERY).await?;
        expect_near_top(&rows, DA_EXPECTED)?;
        app.screenshot("search-danish").await?;
        app.choose_method("prop").await?;
        let rows = app.search(DA_QUERY).await?;
        let native = cli::search_lexical(&da, DA_QUERY, PARITY_DEPTH, "prop")?;
        expect_same(&rows, native, &da, DA_QUERY, PARITY_DEPTH)?;

        app.choose_pool("el-syntagma.blob").await?;
        let rows = search_like_cli(&app, &served_blob("el-syntagma.blob")?, EL_QUERY).await?;
        expect_near_top(&rows, EL_EXPECTED)?;

        app.choose_pool(fragmented_pool::POOL).await?;
        search_like_cli(
            &app,
            &fragmented_pool::whole_blob()?,
            fragmented_pool::QUERY,
        )
        .await?;
        // Fragments cannot follow citations: the picker does not offer the
        // context methods there.
        for method in ["prop", "mix", "ctx-rrf"] {
            ensure!(
                app.choose_method(method).await.is_err(),
                "{method} is offered on a fragmented pool"
            );
        }
        Ok(())
    }
    .await;
    finish(app, outcome).await
}

/// Searches in the app with BM25 and checks its top results against
/// `nomos search` on `blob`: the very blob the server sent, or the one a
/// fragmented pool was cut from.
async fn search_like_cli(app: &App, blob: &Path, query: &str) -> Result<Vec<Row>> {
    // Pools with vectors default to hybrid; the CLI without --model is BM25.
    app.choose_method("bm25").await?;
    let rows = app.search(query).await?;
    expect_cli_ranking(&rows, blob, query, PARITY_DEPTH)?;
    Ok(rows)
}

/// The app's top `depth` rows are the CLI's over `blob`: ids and scores
/// to two decimals, in order.
pub fn expect_cli_ranking(rows: &[Row], blob: &Path, query: &str, depth: usize) -> Result<()> {
    expect_same(rows, cli::search(blob, query, depth)?, blob, query, depth)
}

/// The app's top `depth` rows are `native`'s hits: ids and scores to two
/// decimals, in order.
fn expect_same(
    rows: &[Row],
    native: Vec<cli::CliHit>,
    blob: &Path,
    query: &str,
    depth: usize,
) -> Result<()> {
    let native: Vec<(String, String)> = native
        .into_iter()
        .map(|h| (h.id, format!("{:.2}", h.score)))
        .collect();
    let shown: Vec<(String, String)> = rows
        .iter()
        .take(depth)
        .map(|r| (r.id.clone(), r.score.clone()))
        .collect();
    ensure!(
        native.len() == depth,
        "the CLI found fewer than {depth} results for {query:?}"
    );
    ensure!(
        shown == native,
        "{}: the app's top {depth} for {query:?} differ from the CLI's\n\
         app: {shown:?}\ncli: {native:?}",
        blob.display()
    );
    Ok(())
}

/// The expected article is among the first three results.
fn expect_near_top(rows: &[Row], expected: &str) -> Result<()> {
    let top: Vec<&str> = rows.iter().take(3).map(|r| r.id.as_str()).collect();
    ensure!(
        top.contains(&expected),
        "{expected} is not in the top 3: {top:?}"
    );
    Ok(())
}
